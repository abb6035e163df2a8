// ddp_workers.js — widget "ddp-workers" (section #ddp): the three DDPs of programs/ddp_sync.js measured on P Workers —
// naive (a tensor at a time after backward), flat (one all-reduce after backward), bucketed (launched during
// backward). Reports each one's median step time and all-reduces per step (from the trace), checks every run
// against one device, and draws the bucketed run's last step per Worker on two lanes: compute (the core's
// kernels) and communication (each bucket's all-reduce from launch to completion). "Sweep" measures the bucketed
// step time against bucket size. Wall-clock times on the learner's machine: Workers share its cores.
import { button, chartBox, controlRow, select, slider, statusReadout } from "../../../web/ui/controls.js";
import { createLineChart, describeChart } from "../../../web/ui/charts.js";
import { formatBytes, formatSeconds, plural } from "../../../web/units.js";
import { renderPhases } from "../../../web/ui/phase_timeline.js";
import { dpConfig, dpInputs, dpProgram, replicaGap } from "../programs/dp_program.js";
import { maxRelativeDifference } from "../../../web/exercise/compare_training.js";
import { allReducesOf } from "../exercises/dp_checks.js";
import { coreTasks } from "../../../web/lesson/core_tasks.js";
import { priceDdps } from "../ddp_setup.js";
import { measuredAgainstModel } from "../ddp_measured.js";
import { finished, runGuard } from "../../../web/ui/worker_run.js";

const tasks = coreTasks(new URL("../dp_reference.js", import.meta.url));   // the single-device run, off the main thread

export const DDP_MODEL = Object.freeze({ layers: 4, width: 64, hidden: 256, activation: "gelu", residual: true });
const PSI = 2 * DDP_MODEL.layers * DDP_MODEL.width * DDP_MODEL.hidden;
const ROWS = 64;   // per Worker
const SWEEP = [8, 32, 128, 512].map((k) => k * 1024);
const NAMES = { naive: "naive (per tensor, after backward)", flat: "flat (one all-reduce, after backward)", bucketed: "bucketed, launched during backward" };

export const ddpConfig = (P, sync, bucketBytes) => dpConfig({ model: DDP_MODEL, optimizer: { kind: "sgd", lr: 0.05 },
  batch: ROWS * P, steps: 12, sync, bucketBytes });
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };

export function mountDdpWorkers(figure, core, clusters) {
  const workers = select({ label: "Workers P", value: "4", options: [["2", "2"], ["4", "4"], ["8", "8"]] });
  const bucket = slider({ label: "Bucket size", min: 8 * 1024, max: 512 * 1024, log: true, value: 64 * 1024, format: formatBytes });
  const measure = button("Measure the three", () => guarded(measureThree));
  const sweep = button("Sweep bucket sizes", () => guarded(sweepBuckets), { secondary: true });
  controlRow(figure, workers, bucket, measure, sweep);
  const status = statusReadout(figure);
  const tableBox = document.createElement("div");
  tableBox.className = "table-scroll ddp-results";
  const timeline = document.createElement("div");
  status.after(tableBox, timeline);
  const chart = createLineChart(chartBox(figure, "Measured step time against bucket size"),
    { xLabel: "bucket size (bytes)", yLabel: "median step time (s)", logX: true, datasets: [],
      empty: "Press “Sweep bucket sizes” to draw this chart." });
  status.textContent = `Each Worker holds a ${DDP_MODEL.layers}-block MLP of Ψ = ${PSI} parameters (${formatBytes(8 * PSI)} of fp64 ` +
    `gradients) and trains ${ROWS} rows a step. Press “Measure the three”.`;
  const guarded = runGuard(figure, [measure, sweep], status, { failure: "The run could not start" });

  // One run: its median step time (steps 2 … end: the first ones warm up), all-reduces per step, equality.
  async function runOne(P, sync, bucketBytes) {
    const cfg = ddpConfig(P, sync, bucketBytes);
    const result = await clusters.run(P, dpProgram(), { inputs: dpInputs(cfg, P), timeoutMs: Infinity, stallMs: 60000 });
    finished(result);
    const ref = await tasks.call("singleDevice", cfg);   // after the run: it must not share the CPU with the timed Workers
    const step = median(result.results[0].stepSeconds.slice(2));
    return { sync, step, result, calls: allReducesOf(result, cfg.steps - 1, P).length,
      equal: Math.max(replicaGap(result.results), maxRelativeDifference(result.results[0].params, ref.params)) };
  }

  async function measureThree() {
    const P = Number(workers.value), bytes = Math.round(bucket.value);
    const rows = [];
    for (const sync of ["naive", "flat", "bucketed"]) {
      status.textContent = `Measuring ${NAMES[sync]} on ${plural(P, "Worker")}…`;
      rows.push(await runOne(P, sync, bytes));
    }
    const best = rows.reduce((a, b) => (b.step < a.step ? b : a));
    const t = document.createElement("table");
    t.innerHTML = `<caption>${plural(P, "Worker")}, buckets of ${formatBytes(bytes)} (measured)</caption><thead><tr>` +
      "<th scope=\"col\">DDP</th><th scope=\"col\">median step</th><th scope=\"col\">all-reduces per step</th><th scope=\"col\">vs one device</th></tr></thead><tbody>" +
      rows.map((r) => `<tr><th scope="row">${NAMES[r.sync]}</th><td>${formatSeconds(r.step, 2)}</td><td>${r.calls}</td>` +
        `<td>${r.equal < 1e-9 ? "equal" : "DIFFERENT"}</td></tr>`).join("") + "</tbody>";
    tableBox.replaceChildren(t);
    status.textContent = `Fastest here: ${NAMES[best.sync]}. ` +
      measuredAgainstModel({ best: best.sync, workers: P, cores: navigator.hardwareConcurrency || null, priced: priceDdps(core) }) +
      " Every run trained the same model as one device. The timeline shows the bucketed run's last step: each bucket's " +
      "all-reduce (lower lane) starts while backward (upper lane) still computes.";
    const spans = rows[2].result.results.flatMap((r) => r.timeline);
    const t0 = Math.min(...spans.map((s) => s.start));
    const shown = Math.min(P, 4);
    renderPhases(timeline, spans.filter((s) => s.rank < shown).map((s) => ({ ...s, rank: 2 * s.rank + (s.lane === "comm" ? 1 : 0),
      start: s.start - t0, end: s.end - t0 })), { ranks: 2 * shown, fillIdle: false,
      rowLabel: (row) => `W${Math.floor(row / 2)} ${row % 2 ? "comm" : "comp"}`,
      title: `Bucketed DDP, last step on the Workers (${formatBytes(bytes)} buckets)`,
      note: P > shown ? `The first ${shown} of ${P} Workers are drawn.` : "" });
  }

  async function sweepBuckets() {
    const P = Number(workers.value);
    const points = [];
    const flat = await runOne(P, "flat", 0);
    const naive = await runOne(P, "naive", 0);
    for (const bytes of SWEEP) {
      status.textContent = `Sweeping bucket sizes on ${plural(P, "Worker")}: ${formatBytes(bytes)}…`;
      points.push({ x: bytes, y: (await runOne(P, "bucketed", bytes)).step });
      const line = (r) => SWEEP.map((x) => ({ x, y: r.step }));
      chart.update({ datasets: [{ label: "bucketed, launched during backward", data: [...points], points: true },
        { label: "flat", data: line(flat), dashed: true }, { label: "naive", data: line(naive), dashed: true }] });
    }
    status.textContent = `Measured on ${plural(P, "Worker")}: flat ${formatSeconds(flat.step, 2)}, naive ${formatSeconds(naive.step, 2)} a step; ` +
      "the bucketed points are the median step at each bucket size.";
    describeChart(figure, `Median step time of bucketed DDP on ${P} Workers for buckets of ${formatBytes(SWEEP[0])} to ` +
      `${formatBytes(SWEEP[SWEEP.length - 1])}, against flat (${formatSeconds(flat.step, 2)}) and naive (${formatSeconds(naive.step, 2)}).`,
      [["bucket", "median step"], ...points.map((p) => [formatBytes(p.x), formatSeconds(p.y, 2)])]);
  }
}
