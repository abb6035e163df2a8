// simulator.js — widget "simulator": a scenario from the course runs in the core's discrete-event
// simulator; the per-rank timeline shows compute, send and wait spans, and the total is compared
// with the closed form the lesson derives.
import { boxAfter, controlRow, readout, select, slider } from "../../../web/ui/controls.js";
import { costSliders } from "../../../web/ui/cost_sliders.js";
import { renderTimeline } from "../../../web/ui/timeline.js";
import { formatBytes, formatSeconds, plural } from "../../../web/units.js";

// Each scenario: its closed form in words and in numbers (p ranks, T = α + β·n, c = compute time).
const SCENARIOS = {
  "ping-pong": { name: "Ping-pong (3 round trips)", ranks: () => 2, options: { rounds: 3 },
    form: "2·rounds·T(n)", predict: ({ t }) => 6 * t },
  "token-ring": { name: "Token ring (one lap)", form: "p·T(n)", predict: ({ p, t }) => p * t },
  "linear-broadcast": { name: "Linear broadcast from rank 0", form: "(p − 1)·T(n): rank 0 sends one message at a time",
    predict: ({ p, t }) => (p - 1) * t },
  "gather-to-root": { name: "Gather to rank 0", form: "(p − 1)·T(n): rank 0's downlink takes one message at a time",
    predict: ({ p, t }) => (p - 1) * t },
  "compute-then-exchange": { name: "BSP superstep", options: { computeSeconds: 50e-6 },
    form: "c + T(n): computation and communication do not overlap", predict: ({ t }) => 50e-6 + t },
};

export function mountSimulator(figure, core) {
  const scenario = select({ label: "Scenario", value: "linear-broadcast", onChange: draw,
    options: Object.entries(SCENARIOS).map(([k, v]) => [k, v.name]) });
  const ranks = slider({ label: "Ranks p", min: 2, max: 16, step: 1, value: 4, format: String, onInput: draw });
  const { size: bytes, alpha, bandwidth } = costSliders({
    size: [8, 1e8, 1e5], alpha: [1e-7, 1e-3, 5e-6], bandwidth: [1e8, 1e12, 12.5e9],
  }, draw);
  controlRow(figure, scenario, ranks, bytes, alpha, bandwidth);
  const out = readout(figure);
  const box = boxAfter(out, "timeline");

  function draw() {
    const spec = SCENARIOS[scenario.value];
    const p = spec.ranks ? spec.ranks() : Math.round(ranks.value);
    const n = Math.round(bytes.value), a = alpha.value, b = 1 / bandwidth.value;
    const programs = core.scenario(scenario.value, { ranks: p, bytes: n, ...spec.options });
    const result = core.simulate({ ranks: p, alpha: a, beta: b, programs });
    const t = core.messageTime(a, b, n);
    out.innerHTML = `Simulated: <strong>${formatSeconds(result.makespan)}</strong> for ${plural(result.messages.length, "message")} ` +
      `(${formatBytes(result.totalBytes)}); closed form ${spec.form} = ${formatSeconds(spec.predict({ p, t }))}, ` +
      `with T(n) = α + β·n = ${formatSeconds(t)}.`;
    renderTimeline(box, result.spans, { ranks: p, title: `${spec.name}: simulated per-rank timeline` });
  }
  draw();
}
