// pipeline_workers.js — widget "pipeline-workers" (section #zero-bubble): GPipe, 1F1B, interleaved 1F1B (v = 2) and ZB-H1 run
// one after the other on P = 4 real Workers at m = 8 (programs/pipe_program.js), each device holding only its
// chunks and exchanging activations and gradients as messages. Each op of the last step sleeps a fixed time
// (UNIT_MS per stage, UNIT_MS/v per interleaved chunk) so that compute dominates, as a bigger model's would. Drawn:
// every device's measured timeline (the ops' ends as the devices recorded them, in units of one forward); in the
// table: the measured bubble (the idle share of the step per device, from the RunResult's spans) beside the
// paper's formula (core.pipelineCompare) and the parameters beside one device (core.trainSingle).
import { button, controlRow, select, statusReadout } from "../../../web/ui/controls.js";
import { formatNumber, formatPercent } from "../../../web/units.js";
import { maxRelativeDifference } from "../../../web/exercise/compare_training.js";
import { EXAMPLE_PIPE, SCHEDULES, SCHEDULE_NAMES, compareSchedules } from "../pipeline_setup.js";
import { assembleParams, measuredBubble, pipeConfig, pipeInputs, pipeProgram } from "../programs/pipe_program.js";
import { renderPipeline } from "./pipeline_svg.js";
import { finished, runGuard } from "../../../web/ui/worker_run.js";

const pct = (x) => formatPercent(x, { decimals: 1 });

// The Workers' run of one schedule at the example's (P, m, v), the last step slowed to `unitMs` per stage op.
export function workersConfig(schedule, unitMs) {
  const v = schedule === "interleaved" ? EXAMPLE_PIPE.chunksPerDevice : 1, ms = unitMs / v;
  return pipeConfig({ schedule, devices: EXAMPLE_PIPE.devices, microBatches: EXAMPLE_PIPE.microBatches,
    chunksPerDevice: v, delayMs: { F: ms, B: ms, W: ms } });
}

// A measured run as renderPipeline draws the core's: times in units of one forward, rounded to 0.1.
function asTimeline(measured, config, unitMs) {
  const v = config.chunksPerDevice, u = (s) => Math.round((s * 1000 * v) / unitMs * 10) / 10;
  return { devices: config.devices, chunksPerDevice: v, makespan: u(measured.makespan),
    timeline: measured.timeline.map((t) => ({ ...t, start: u(t.start), end: u(t.end) })) };
}

export function mountPipelineWorkers(figure, core, clusters) {
  const unit = select({ label: "Time per op", value: "20", options: [["20", "20 ms"], ["40", "40 ms"], ["80", "80 ms"]],
    onChange: () => { rows = {}; show(); } });
  const run = button("Run the four schedules on the Workers", () => runAll());
  controlRow(figure, unit, run);
  const status = statusReadout(figure);
  const guard = runGuard(figure, [run], status);
  const tableBox = document.createElement("div");
  tableBox.className = "table-scroll";
  const drawings = document.createElement("div");
  status.after(tableBox, drawings);
  const formulas = compareSchedules(core);
  let rows = {};
  status.textContent = `P = ${EXAMPLE_PIPE.devices} Workers, m = ${EXAMPLE_PIPE.microBatches} micro-batches, v = ` +
    `${EXAMPLE_PIPE.chunksPerDevice} for interleaving. Press the button: each schedule trains the MLP for a few steps, ` +
    "the last one slowed so that compute dominates.";

  const runAll = () => guard(async () => {
    const unitMs = Number(unit.value);
    rows = {};
    for (const schedule of SCHEDULES) {
      status.textContent = `Running ${SCHEDULE_NAMES[schedule]} on ${EXAMPLE_PIPE.devices} Workers…`;
      const config = workersConfig(schedule, unitMs);
      const result = await clusters.run(config.devices, pipeProgram(), { inputs: pipeInputs(config), timeoutMs: Infinity, stallMs: 30000 });
      finished(result);
      const single = core.trainSingle({ model: config.model, optimizer: config.optimizer, batch: config.batch,
        steps: config.steps, seed: config.seed });
      const measured = measuredBubble(result);
      rows[schedule] = { config, measured, unitMs, gap: maxRelativeDifference(assembleParams(result.results, config), single.params) };
      show();
    }
    status.textContent = "Measured on the Workers: the idle share of the last step per device, from the spans each " +
      "Worker recorded (compute, send, wait), beside each paper's formula. Run it again: the measured numbers move " +
      "(timers and messages on a busy machine), the formulas do not; a longer time per op brings them closer.";
  });

  function show() {
    const t = document.createElement("table");
    const body = SCHEDULES.map((s) => {
      const f = formulas[s], r = rows[s];
      const formula = `${pct(f.formulaOverIdeal / (1 + f.formulaOverIdeal))} (${pct(f.formulaOverIdeal)})`;
      const cells = r ? [pct(r.measured.bubbleFraction), r.measured.idleFraction.map(pct).join(", "), pct(r.measured.overIdeal),
        formula, r.gap < 1e-12 ? `equal (${formatNumber(r.gap, { digits: 1 })})` : `off by ${formatNumber(r.gap, { digits: 2 })}`]
        : ["—", "—", "—", formula, "—"];
      return `<tr data-schedule="${s}"${r ? ` data-measured="${r.measured.bubbleFraction}" data-over="${r.measured.overIdeal}" ` +
        `data-formula="${f.formulaOverIdeal}" data-gap="${r.gap}" ` +
        `data-busy="${JSON.stringify(r.measured.opBusy.map((b, d) => [b, r.measured.busy[d]]))}"` : ""}><th scope="row">${SCHEDULE_NAMES[s]}</th>` +
        cells.map((c) => `<td>${c}</td>`).join("") + "</tr>";
    });
    t.innerHTML = `<caption>P = ${EXAMPLE_PIPE.devices}, m = ${EXAMPLE_PIPE.microBatches}, ${unit.value} ms per op of a stage ` +
      "(half that per interleaved chunk)</caption><thead><tr><th scope=\"col\">schedule</th>" +
      "<th scope=\"col\">measured idle, share of the step</th><th scope=\"col\">per device 0–3</th>" +
      "<th scope=\"col\">measured over the ideal</th><th scope=\"col\">formula: share (over the ideal)</th>" +
      "<th scope=\"col\">parameters vs one device</th></tr></thead><tbody>" + body.join("") + "</tbody>";
    tableBox.replaceChildren(t);
    drawings.replaceChildren(...SCHEDULES.filter((s) => rows[s]).map((s) => {
      const box = document.createElement("div"), r = rows[s];
      renderPipeline(box, asTimeline(r.measured, r.config, r.unitMs),
        { title: `${SCHEDULE_NAMES[s]} on ${EXAMPLE_PIPE.devices} Workers, measured` });
      return box;
    }));
  }

  show();
}
