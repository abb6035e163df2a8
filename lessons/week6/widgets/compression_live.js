// compression_live.js — widget "compression-live" (section "Gradient compression", live): 4 real Workers train the
// teacher task three times — the full gradient by a ring all-reduce of fp32, top-k alone, top-k with error feedback
// (programs/live_train.js compressedMean: the core's compressGradient per tensor, the k values as fp32 with int32
// indices, gathered round the ring). The held-out loss per step beside the core's trainCompressed on the same
// settings, and the bytes each run's trace shows one Worker sending per step beside compressionWire's prediction.
import { button, chartBox, controlRow, select, statusReadout, tableScroll } from "../../../web/ui/controls.js";
import { createLineChart, describeChart } from "../../../web/ui/charts.js";
import { formatBytes, formatNumber, formatPercent } from "../../../web/units.js";
import { LIVE_COMPRESSION as C, compressedReference, compressionInput, liveProgram, traceBytesPerStep } from "../programs/live_program.js";
import { finished, runGuard } from "../../../web/ui/worker_run.js";

const RUNS = [
  { key: "full", label: "full gradient", compressor: "none", ef: false },     // ring all-reduce of fp32
  { key: "topk", label: "top-k", compressor: "top-k", ef: false },
  { key: "topk-ef", label: "top-k + EF", compressor: "top-k", ef: true },
];

export function mountCompressionLive(figure, core, clusters) {
  // k/n is locked during a run (runGuard); changed after one, the status says the chart is of the old k/n.
  const ratio = select({ label: "k/n", value: "0.01", options: [["0.01", "1%"], ["0.1", "10%"]], onChange: () => stale() });
  let shown = null;   // { ratio, summary } of the runs on the chart
  const run = button(`Run on ${C.workers} Workers`, () => start());
  controlRow(figure, ratio, run);
  const status = statusReadout(figure);
  const guard = runGuard(figure, [run], status);
  const chart = createLineChart(chartBox(figure, "Held-out loss per step on the Workers and in the core"),
    { xLabel: "step", yLabel: "held-out MSE", datasets: [] });
  const tableBox = tableScroll(figure.querySelector(".chart-box"));
  status.textContent = `${C.workers} Workers, ${C.batch / C.workers} rows each, ${C.steps} SGD steps at η = ${C.lr}, ` +
    "three times: the full gradient, top-k alone and top-k with error feedback.";

  const stale = () => {
    if (!shown) return;
    const now = Number(ratio.value);
    status.textContent = now === shown.ratio ? shown.summary : `k/n is now ${formatPercent(now)}, but the chart and the ` +
      `table show the runs at k/n = ${formatPercent(shown.ratio)}: press “Run on ${C.workers} Workers” to train at ` +
      `${formatPercent(now)}.`;
  };

  const start = () => guard(async () => {
    delete figure.dataset.done;
    const config = { ...C, ratio: Number(ratio.value) };
    const rows = [];
    try {
      for (const r of RUNS) {
        status.textContent = `Running ${r.label} on ${C.workers} Workers…`;
        const result = await clusters.run(C.workers, liveProgram(), {
          inputs: new Array(C.workers).fill(compressionInput(r.compressor, r.ef, config)), timeoutMs: Infinity, stallMs: 60000 });
        finished(result);
        const ref = compressedReference(core, r.compressor, r.ef, config);
        const bytes = traceBytesPerStep(result, C.steps);
        rows.push({ ...r, losses: result.results[0].losses, ref, bytes });
      }
      show(rows, config);
    } finally {
      figure.dataset.done = "1";
    }
  });

  function show(rows, config) {
    const datasets = [];
    rows.forEach((r) => {
      datasets.push({ label: `${r.label}, Workers`, data: r.losses.map((y, i) => ({ x: i + 1, y })) });
      datasets.push({ label: `${r.label}, core`, dashed: true, data: r.ref.losses.map((y, i) => ({ x: i + 1, y })) });
    });
    chart.update({ datasets });
    const gap = (r) => Math.abs(r.losses.at(-1) - r.ref.losses.at(-1)) / r.ref.losses.at(-1);
    figure.dataset.bytes = JSON.stringify(rows.map((r) => ({ key: r.key, trace: r.bytes, predicted: r.ref.bytesPerStep,
      final: r.losses.at(-1), core: r.ref.losses.at(-1) })));
    tableBox.innerHTML = `<table tabindex="0"><caption>${C.workers} Workers, k/n = ${formatPercent(config.ratio)}; the full gradient by ` +
      "ring all-reduce of fp32, top-k by all-gather; EF: error feedback</caption><thead><tr>" +
      "<th scope=\"col\">run</th><th scope=\"col\">bytes per step (trace)</th><th scope=\"col\">compressionWire</th>" +
      "<th scope=\"col\">final loss, Workers</th><th scope=\"col\">final loss, core</th></tr></thead><tbody>" +
      rows.map((r) => `<tr><th scope="row">${r.label}</th><td>${formatBytes(r.bytes)}</td><td>${formatBytes(r.ref.bytesPerStep)}</td>` +
        `<td>${formatNumber(r.losses.at(-1), 4)}</td><td>${formatNumber(r.ref.losses.at(-1), 4)}</td></tr>`).join("") + "</tbody></table>";
    const [full, plain, ef] = rows;
    const exact = rows.every((r) => r.bytes === r.ref.bytesPerStep);
    status.textContent = `Bytes per step from the trace ${exact ? "equal" : "differ from"} compressionWire's prediction for all three runs: ` +
      `top-k sends ${formatNumber(full.bytes / plain.bytes, 3)}× fewer bytes than the full gradient. After ${C.steps} steps ` +
      `top-k alone is at ${formatNumber(plain.losses.at(-1), 3)}, with error feedback ${formatNumber(ef.losses.at(-1), 3)}, ` +
      `the full gradient ${formatNumber(full.losses.at(-1), 3)}. The Workers' final losses differ from the core's by at most ` +
      `${formatNumber(Math.max(...rows.map(gap)), 2)} (relative): they send fp32, the core keeps fp64.`;
    shown = { ratio: config.ratio, summary: status.textContent };
    describeChart(figure, `Held-out loss after ${C.steps} steps: ${rows.map((r) => `${r.label} ${formatNumber(r.losses.at(-1), 3)} ` +
      `(core ${formatNumber(r.ref.losses.at(-1), 3)})`).join(", ")}.`);
  }
}
