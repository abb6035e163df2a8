// busbw.js — widget "busbw": NCCL's algorithm bandwidth (n / t) and bus bandwidth (algbw × a factor that
// makes every collective comparable with the link speed; 2(p−1)/p for all-reduce), from a measured time.
import { controlRow, readout, select, slider } from "../../web/controls.js";
import { formatBytes, formatRate, formatSeconds } from "../../web/units.js";

export function mountBusBandwidth(figure, core) {
  const collective = select({ label: "Collective", value: "all-reduce", onChange: draw,
    options: ["all-reduce", "all-gather", "reduce-scatter", "all-to-all", "broadcast", "reduce"].map((c) => [c, c]) });
  const ranks = slider({ label: "Ranks p", min: 2, max: 256, step: 1, value: 8, format: String, onInput: draw });
  const size = slider({ label: "Message size n", min: 1e3, max: 1e10, value: 1e9, log: true, format: formatBytes, onInput: draw });
  const time = slider({ label: "Measured time t", min: 1e-5, max: 10, value: 0.08, log: true, format: formatSeconds, onInput: draw });
  controlRow(figure, collective, ranks, size, time);
  const out = readout(figure);

  function draw() {
    const p = Math.round(ranks.value);
    const { algbw, busbw } = core.busBandwidth(collective.value, p, size.value, time.value);
    out.innerHTML = `algbw = n / t = <strong>${formatRate(algbw)}</strong>; busbw = <strong>${formatRate(busbw)}</strong> ` +
      `(factor ${(busbw / algbw).toFixed(3)}). Compare busbw with the link's bandwidth: close to it means the ` +
      `collective runs at the speed of the wire.`;
  }
  draw();
}
