// capstone.js — widget "capstone": one complete simulated data-parallel job (P GPUs, stragglers, node failures with
// checkpoints and restarts, gradient compression) and its one-page scaling report, which the learner prints or saves
// as PDF (capstone_setup.report → core.simulateJob + core.jobScaling, in a Worker). The report is the widget's
// display on screen too, so what prints is what the learner saw. Printing it hides the rest of the page:
// html.print-report (style in index.html's capstone block) for as long as the print dialog is open.
import { button, controlRow, readout, select, slider } from "../../../web/ui/controls.js";
import { coreTasks } from "../../../web/lesson/core_tasks.js";
import { formatBytes, formatCount, formatNumber, formatSeconds, plural } from "../../../web/units.js";
import { COMPRESSORS, DEFAULTS, EF_DEFAULT, FORMAT, HARDWARE, SPLIT, TARGET_SWEEP, TASKS, errorFeedbackOf, findings, formatDuration,
  takesRatio, taskName, targetReportOf } from "../capstone_setup.js";
import { targetBlock } from "./capstone_target.js";
import { lineChart, stackedBar } from "./report_svg.js";

const tasks = coreTasks(new URL("../capstone_setup.js", import.meta.url));
const HOUR = 3600;

const h = (tag, attrs = {}, ...children) => {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  e.append(...children);
  return e;
};
// A number cell the page test reads back: data-key names the field, the text is FORMAT's.
const cell = (key, text) => h("td", { "data-key": key }, text);

export function mountCapstone(figure) {
  const run = () => draw();
  const workers = select({ label: "GPUs P", options: [8, 16, 32, 64, 128, 256].map((p) => [String(p), String(p)]),
    value: String(DEFAULTS.workers), onChange: run });
  const steps = slider({ label: "Steps", min: 100, max: 5000, step: 100, value: DEFAULTS.steps, format: formatCount, onInput: run });
  const lr = slider({ label: "Learning rate", min: 0.005, max: 0.2, log: true, value: DEFAULTS.lr, format: formatNumber, onInput: run });
  // A new compressor starts from its own error-feedback default (capstone_setup.EF_DEFAULT); the learner may override it.
  const compressor = select({ label: "Compressor", options: Object.entries(COMPRESSORS), value: DEFAULTS.compressor,
    onChange: (c) => { feedback.value = EF_DEFAULT[c] ? "on" : "off"; run(); } });
  const feedback = select({ label: "Error feedback", options: [["on", "on"], ["off", "off"]],
    value: DEFAULTS.errorFeedback ? "on" : "off", onChange: run });
  const ratio = slider({ label: "Kept k/n", min: 1e-4, max: 0.1, log: true, value: DEFAULTS.ratio, format: formatNumber, onInput: run });
  const every = slider({ label: "Checkpoint every (steps)", min: 10, max: 5000, log: true, integer: true, value: DEFAULTS.checkpointEvery,
    format: (v) => formatCount(Math.round(v)), onInput: run });
  const mtbf = slider({ label: "Node MTBF", min: 6, max: 43800, log: true, value: DEFAULTS.nodeMtbfHours,
    format: (v) => formatDuration(v * HOUR), onInput: run });
  const straggle = slider({ label: "Straggler probability", min: 0, max: 0.05, step: 0.001, value: DEFAULTS.stragglerProbability,
    format: formatNumber, onInput: run });
  const seed = slider({ label: "Seed", min: 1, max: 50, step: 1, value: DEFAULTS.seed, format: String, onInput: run });
  // What the loss is measured on, and the time-to-target report (its own task, after the report: it trains more).
  const task = select({ label: "Model trained", options: Object.keys(TASKS).map((k) => [k, taskName(k)]), value: DEFAULTS.task, onChange: run });
  const rows = select({ label: "Rows per GPU", options: [1, 2, 4, 8].map((b) => [String(b), String(b)]), value: String(DEFAULTS.taskRows), onChange: run });
  const mode = select({ label: "To the target", options: [["sync", "synchronous"], ["ssp", "asynchronous (SSP)"]], value: DEFAULTS.mode, onChange: run });
  const target = slider({ label: "Target loss", min: 0.02, max: 1, log: true, value: DEFAULTS.targetLoss, format: formatNumber, onInput: run });
  const bound = slider({ label: "Staleness bound s", min: 0, max: 16, step: 1, value: DEFAULTS.staleness, format: String, onInput: run });
  const print = button("Print or save the report as PDF", printReport);
  print.classList.add("capstone-print");
  controlRow(figure, workers, steps, lr, compressor, feedback, ratio, every, mtbf, straggle, seed, task, rows, mode, target, bound);
  const status = readout(figure);
  // The time-to-target sweep trains the job once per P of TARGET_SWEEP: how many are done, and a Stop between two.
  const sweepDone = h("progress", { max: String(TARGET_SWEEP.length), value: "0", "aria-label": "Time-to-target jobs trained" });
  let stopAsked = false, generation = 0;
  const stopSweep = button("Stop the sweep", () => { stopAsked = true; stopSweep.disabled = true; }, { secondary: true });
  const sweepRow = h("div", { class: "sweep-progress" }, sweepDone, stopSweep);
  sweepRow.hidden = true;
  const sheet = h("section", { class: "job-report", "aria-label": "Scaling report" });
  status.after(sweepRow, sheet, print);

  const settings = () => ({
    workers: Number(workers.value), steps: Math.round(steps.value), lr: lr.value, compressor: compressor.value,
    ratio: ratio.value, errorFeedback: feedback.value === "on", checkpointEvery: Math.round(every.value), nodeMtbfHours: mtbf.value,
    stragglerProbability: straggle.value, seed: Math.round(seed.value), task: task.value, taskRows: Number(rows.value),
    targetLoss: target.value, mode: mode.value, staleness: Math.round(bound.value),
  });
  let targetSlot = h("div", { class: "report-target" });

  async function draw() {
    ratio.input.disabled = !takesRatio(compressor.value);
    feedback.el.querySelector("select").disabled = compressor.value === "none";   // nothing is compressed
    bound.input.disabled = mode.value !== "ssp";
    const s = settings();
    status.textContent = `Simulating ${s.steps} steps on ${s.workers} GPUs…`;
    figure.dataset.state = "running";
    let r;
    try {
      r = await tasks.latest("run", "report", s);
    } catch (err) {
      status.textContent = `The job could not run: ${err.message}`;
      figure.dataset.state = "error";
      sheet.classList.add("is-stale");   // the report below is for the last settings that ran
      return;
    }
    if (!r) return;
    render(r);
    sheet.classList.remove("is-stale");
    status.textContent = `Done: ${s.workers} GPUs, ${formatDuration(r.wall)} of wall-clock time, ${r.failures} failures. Training to loss ${formatNumber(s.targetLoss)} on 1–8 GPUs…`;
    figure.dataset.state = "target";
    targetSlot.classList.add("is-stale");
    const sweepStart = performance.now();  // the sweep trains the job once per P: said when it is done
    const points = [], mine = ++generation;
    stopAsked = false;
    stopSweep.disabled = false;
    sweepDone.value = 0;
    sweepRow.hidden = false;
    try {
      for (const P of TARGET_SWEEP) {
        if (stopAsked || mine !== generation) break;
        status.textContent = `Done: ${s.workers} GPUs, ${formatDuration(r.wall)} of wall-clock time, ${r.failures} failures. ` +
          `Training to loss ${formatNumber(s.targetLoss)} on P = ${P}, job ${points.length + 1} of ${TARGET_SWEEP.length}…`;
        const point = await tasks.latest("run", "targetPoint", s, P);
        if (!point || mine !== generation) return;   // newer settings: their run goes on
        points.push(point);
        sweepDone.value = points.length;
      }
    } catch (err) {
      sweepRow.hidden = true;
      status.textContent = `The time-to-target sweep could not run: ${err.message}`;
      figure.dataset.state = "error";
      return;
    }
    if (mine !== generation) return;
    sweepRow.hidden = true;
    if (points.length < TARGET_SWEEP.length) {
      status.textContent = `Done: ${s.workers} GPUs, ${formatDuration(r.wall)} of wall-clock time, ${r.failures} failures. ` +
        `The time-to-target sweep was stopped after ${plural(points.length, "job")} of ${TARGET_SWEEP.length} ` +
        `(${formatSeconds((performance.now() - sweepStart) / 1000)}); the block below is for the last sweep that finished.`;
      figure.dataset.state = "stopped";
      return;
    }
    const t = targetReportOf(s, points);
    const block = targetBlock(t, r);
    targetSlot.replaceWith(block);
    targetSlot = block;
    status.textContent = `Done: ${s.workers} GPUs, ${formatDuration(r.wall)} of wall-clock time, ${r.failures} failures; ` +
      (t.best >= 0 ? `loss ${formatNumber(s.targetLoss)} soonest on ${t.points[t.best].workers} GPUs.` : `loss ${formatNumber(s.targetLoss)} not reached within ${s.steps} steps.`) +
      ` The sweep trained ${plural(t.points.length, "job")} to the target in ${formatSeconds((performance.now() - sweepStart) / 1000)} here.`;
    figure.dataset.state = "done";
    figure.dataset.settings = JSON.stringify(s);
  }

  function render(r) {
    const s = r.settings;
    const comp = s.compressor === "none" ? "no compression"
      : `${COMPRESSORS[s.compressor]}${takesRatio(s.compressor) ? ` (k/n = ${formatNumber(s.ratio)})` : ""}${s.compressor === "powersgd" ? " (rank 4)" : ""} ${errorFeedbackOf(s) ? "with" : "without"} error feedback`;
    const settingsLine = `${s.workers} GPUs × 150 TFLOP/s, InfiniBand 25 GB/s; a 4.3 B-parameter MLP (32 × 4096 × 16384), ` +
      `${formatCount(HARDWARE.rowsPerWorker)} rows per GPU, bf16; ${formatCount(s.steps)} steps, lr ${formatNumber(s.lr)}; ${comp}; ` +
      `loss on a ${taskName(s.task)} teacher task, ${s.taskRows} rows per GPU; ` +
      `stragglers p = ${formatNumber(s.stragglerProbability)} (×${HARDWARE.slowdown}); node MTBF ${formatDuration(s.nodeMtbfHours * HOUR)}; ` +
      `checkpoint every ${formatCount(s.checkpointEvery)} steps (${HARDWARE.checkpointSeconds} s each, restart ${HARDWARE.restartSeconds / 60} min, ` +
      `detection ${HARDWARE.detectionSeconds} s); seed ${s.seed}.`;
    const lossChart = lineChart({ title: "Held-out loss of the teacher task", xLabel: "step", yLabel: "loss", logY: true,
      series: [{ label: "loss", points: r.losses.map((y, i) => [i, y]) }] });
    const effChart = lineChart({ title: "Efficiency against P (expected)", xLabel: "GPUs P", yLabel: "efficiency", logX: true,
      yMin: 0, yMax: 1, xTicks: r.sweep.filter((_, i) => i % 2 === 0).map((p) => p.workers), xFormat: (v) => String(v),
      yFormat: (v) => `${Math.round(v * 100)}%`,
      series: [{ label: "with failures", dots: true, points: r.sweep.map((p) => [p.workers, p.efficiency]) },
        { label: "without failures", dashed: true, points: r.sweep.map((p) => [p.workers, p.failureFreeEfficiency]) }] });
    const parts = SPLIT.map(([k, label]) => ({ label, value: r.split[k] }));
    const bar = stackedBar({ title: "Where the wall time went", parts });
    const legend = h("ul", { class: "report-legend" }, ...parts.map((p, i) =>
      h("li", {}, h("span", { class: `report-swatch rc-b${i + 1}`, "aria-hidden": "true" }), `${p.label}: ${formatDuration(p.value)}`)));
    const f = FORMAT;
    const numbers = h("table", { class: "report-numbers" },
      h("tbody", {},
        h("tr", {}, h("th", {}, "wall time"), cell("wall", f.time(r.wall)), h("th", {}, "efficiency"), cell("efficiency", f.percent(r.efficiency))),
        h("tr", {}, h("th", {}, "failures"), cell("failures", String(r.failures)), h("th", {}, "fleet MTBF"), cell("fleetMtbf", f.time(r.fleetMtbf))),
        h("tr", {}, h("th", {}, "bytes a step, per GPU"), cell("bytesPerStep", f.bytes(r.bytesPerStep)), h("th", {}, "bytes per GPU, whole run"), cell("bytesPerWorker", f.bytes(r.bytesPerWorker))),
        h("tr", {}, h("th", {}, "step: compute"), cell("stepCompute", f.time(r.stepCompute)), h("th", {}, "step: communication"), cell("stepComm", f.time(r.stepComm))),
        h("tr", {}, h("th", {}, "final loss"), cell("finalLoss", f.number(r.losses.at(-1))), h("th", {}, "Daly's expected wall time"), cell("expectedWall", f.time(r.expectedWall))),
        h("tr", {}, h("th", {}, "checkpoint interval"), cell("interval", `${formatCount(s.checkpointEvery)} steps`),
          h("th", {}, "optimal (Young, Daly)"), cell("optimalSteps", `${formatCount(Math.round(r.optimalSteps))} steps (${formatCount(Math.round(r.youngSteps))}, ${formatCount(Math.round(r.dalySteps))})`))));
    sheet.replaceChildren(
      h("header", {}, h("h3", {}, `Scaling report: data-parallel training on ${s.workers} GPUs`), h("p", { class: "report-settings" }, settingsLine)),
      h("div", { class: "report-charts" }, lossChart, effChart),
      bar, legend, numbers, targetSlot,
      h("h4", {}, "What the numbers say"),
      h("ul", { class: "report-findings" }, ...findings(r).map((t) => h("li", {}, t))),
      h("p", { class: "report-foot" }, "Simulated by dsml's WebAssembly core (simulateJob, jobScaling, jobTargetScaling: core/include/dsml/simulated_job.h); " +
        "the efficiency curve is in expectation, the time to the target uses Daly's expected failures, the rest is this seed's run."));
  }

  function printReport() {
    const root = document.documentElement;
    root.classList.add("print-report");
    globalThis.addEventListener("afterprint", () => root.classList.remove("print-report"), { once: true });
    globalThis.print();
  }

  draw();
}
