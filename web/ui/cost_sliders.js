// cost_sliders.js — the α–β model's sliders, defined once for every widget that prices a message: latency α (s),
// bandwidth 1/β (B/s) and message size n (bytes), each on a log scale from its own [min, max, start].
//   const { alpha, bandwidth } = costSliders({ alpha: [1e-7, 1e-3, 5e-6], bandwidth: [1e8, 1e12, 12.5e9] }, draw);
//   controlRow(figure, alpha, bandwidth);
import { slider } from "./controls.js";
import { formatBytes, formatRate, formatSeconds } from "../units.js";

const KINDS = {
  alpha: { label: "Latency α", format: formatSeconds },
  bandwidth: { label: "Bandwidth 1/β", format: formatRate },
  size: { label: "Message size n", format: formatBytes },
};

/** { alpha?, bandwidth?, size? } of [min, max, start] → the same keys' sliders; `labels` renames one ("Link bandwidth 1/β"). */
export function costSliders(ranges, onInput, labels = {}) {
  const sliders = {};
  for (const [kind, range] of Object.entries(ranges)) {
    if (!KINDS[kind]) throw new Error(`costSliders: no slider "${kind}" (alpha, bandwidth, size)`);
    const [min, max, value] = range;
    sliders[kind] = slider({ label: labels[kind] ?? KINDS[kind].label, min, max, value, log: true, format: KINDS[kind].format, onInput });
  }
  return sliders;
}
