// compression_pareto.js — widget "compression-pareto": final held-out loss after 300 steps against bytes per step for
// every compressor with and without error feedback, and top-k + EF swept over k/n, with the knee (the cheapest sweep
// point within a chosen slack of the full gradient's loss) marked. Each run is one call to compression_setup in a
// Worker (paretoPoint, sweepPoint → core.trainCompressed), drawn as it arrives; the slack only re-marks the knee.
import { createLineChart, describeChart } from "../../../web/ui/charts.js";
import { chartBox, controlRow, readout, select } from "../../../web/ui/controls.js";
import { formatBytes, formatCount, formatNumber, formatPercent } from "../../../web/units.js";
import { coreTasks, recordRun } from "../../../web/lesson/core_tasks.js";
import { COMPRESSORS, KNEE_SLACK, kneeOf, SWEEP } from "../compression_setup.js";

const tasks = coreTasks(new URL("../compression_setup.js", import.meta.url));

export function mountCompressionPareto(figure) {
  const slack = select({ label: "Knee: within", options: [["0.02", "2% of full"], ["0.05", "5% of full"], ["0.2", "20% of full"]],
    value: String(KNEE_SLACK), onChange: render });
  controlRow(figure, slack);
  const out = readout(figure);
  const canvas = chartBox(figure, "Final loss against bytes per step for every compressor, with the top-k + EF sweep and its knee");
  const chart = createLineChart(canvas, { xLabel: "bytes per step (one worker)", yLabel: "loss after 300 steps", logX: true, logY: true,
    xTicks: (v) => (Math.abs(Math.log10(v) - Math.round(Math.log10(v))) < 1e-9 ? formatBytes(v) : ""), datasets: [], empty: "Training…" });
  chart.chart.options.scales.y.min = 0.08;   // the front sits at ≈ 0.09: keep it off the axis
  let full = null;
  const points = [], sweep = [];
  const total = 1 + 2 * Object.keys(COMPRESSORS).length + SWEEP.length;

  function render() {
    const shown = (ef) => points.filter((p) => p.ef === ef && p.diverged == null).map((p) => ({ x: p.bytesPerStep, y: p.final }));
    const datasets = [
      { label: "without EF", points: true, line: false, data: shown(false) },
      { label: "with EF", points: true, line: false, data: shown(true) },
      { label: "top-k + EF, k/n swept", data: sweep.map((s) => ({ x: s.bytesPerStep, y: s.final })) },
    ];
    if (full) datasets.push({ label: "full gradient", points: true, line: false, data: [{ x: full.bytesPerStep, y: full.final }] });
    const done = (full ? 1 : 0) + points.length + sweep.length;
    const knee = full && sweep.length === SWEEP.length ? kneeOf(sweep, full, Number(slack.value)) : null;
    chart.update({ datasets, verticalLines: knee ? [{ x: knee.bytesPerStep, label: `knee: k/n = ${formatPercent(knee.ratio)}` }] : [] });
    if (done < total) { out.textContent = `Training run ${done + 1} of ${total}…`; return; }
    const diverged = points.filter((p) => p.diverged != null).map((p) => `${p.label}${p.ef ? " + EF" : ""} (step ${p.diverged})`);
    out.innerHTML = `Full gradient: ${formatNumber(full.final)} at ${formatBytes(full.bytesPerStep)} a step. The knee of top-k + EF within
      ${formatPercent(Number(slack.value))} of it: <strong>k/n = ${formatPercent(knee.ratio)}</strong>, ${formatBytes(knee.bytesPerStep)} a step, loss
      ${formatNumber(knee.final)}. Diverged (not drawn): ${diverged.join(", ") || "none"}.`;
    describeChart(figure, `${formatCount(points.length + sweep.length + 1)} runs; the knee of the top-k + EF sweep is at k/n = ${formatPercent(knee.ratio)}.`,
      [["run", "bytes per step", "final loss"], ["full gradient", formatBytes(full.bytesPerStep), formatNumber(full.final)],
        ...points.map((p) => [`${p.label}${p.ef ? " + EF" : ""}`, formatBytes(p.bytesPerStep), p.diverged == null ? formatNumber(p.final) : `diverged at ${p.diverged}`]),
        ...sweep.map((s) => [`top-k + EF, k/n = ${formatPercent(s.ratio)}`, formatBytes(s.bytesPerStep), formatNumber(s.final)])]);
  }

  async function run() {
    const started = performance.now();
    try {
      full = await tasks.call("fullPoint");
      render();
      for (const key of Object.keys(COMPRESSORS)) {
        for (const ef of [false, true]) { points.push(await tasks.call("paretoPoint", key, ef)); render(); }
      }
      for (const ratio of SWEEP) { sweep.push(await tasks.call("sweepPoint", ratio)); render(); }
    } catch (err) {
      out.textContent = `The runs could not finish: ${err.message}`;
      return;
    }
    recordRun(figure, started);
  }
  run();
}
