// compression_curves.js — widget "compression-curves": the teacher task trained by 4 data-parallel workers for 300
// steps with the full gradient and with one compressor, without and with error feedback; held-out loss against the
// bytes one worker has sent (compression_setup.curves → core.trainCompressed, three runs in a Worker).
import { createLineChart, describeChart } from "../../../web/ui/charts.js";
import { chartBox, controlRow, readout, select } from "../../../web/ui/controls.js";
import { formatBytes, formatNumber } from "../../../web/units.js";
import { coreTasks, latestDraw } from "../../../web/lesson/core_tasks.js";
import { COMPRESSORS } from "../compression_setup.js";

const tasks = coreTasks(new URL("../compression_setup.js", import.meta.url));

// The loss curve from step 1 on (log axis: the first point has sent 0 bytes), cut where the run diverged.
const points = (run) => run.bytes.map((x, i) => ({ x, y: run.losses[i] })).slice(1, run.diverged ?? undefined);
const ending = (run) => (run.diverged != null ? `diverged at step ${run.diverged}` : `ends at ${formatNumber(run.final)}`);

export function mountCompressionCurves(figure) {
  const choice = select({ label: "Compressor", options: Object.entries(COMPRESSORS).map(([k, c]) => [k, c.label]), value: "top-k-1", onChange: draw });
  controlRow(figure, choice);
  const out = readout(figure);
  const canvas = chartBox(figure, "Held-out loss against bytes sent per worker, full gradient and a compressor with and without error feedback");
  const chart = createLineChart(canvas, { xLabel: "bytes sent by one worker", yLabel: "held-out loss", logX: true, logY: true,
    xTicks: (v) => (Math.abs(Math.log10(v) - Math.round(Math.log10(v))) < 1e-9 ? formatBytes(v) : ""), datasets: [], empty: "Training…" });
  chart.chart.options.scales.y.min = 0.08;   // every run ends above ≈ 0.09: keep the ends off the axis

  async function draw() {
    const r = await latestDraw(tasks, figure, out, { working: "Training three runs…", failure: "The runs could not start" }, "curves", choice.value);
    if (!r) return;   // it failed (out says why), or a newer draw (the controls changed) replaced it
    const name = COMPRESSORS[choice.value].label;
    chart.update({ datasets: [
      { label: "full gradient", dashed: true, data: points(r.none) },
      { label: name, data: points(r.plain) },
      { label: `${name} + EF`, data: points(r.ef) },
    ] });
    const via = r.plain.collectives.map((c) => c.collective).join(" + ");
    out.innerHTML = `Full gradient: ${formatBytes(r.none.bytesPerStep)} a step, ${ending(r.none)}. ${name}: ${formatBytes(r.plain.bytesPerStep)}
      a step by ${via}; without error feedback it <strong>${ending(r.plain)}</strong>, with error feedback it <strong>${ending(r.ef)}</strong>.`;
    describeChart(figure, `After 300 steps: full ${ending(r.none)}, ${name} ${ending(r.plain)}, with error feedback ${ending(r.ef)}.`,
      [["step", "full: bytes", "loss", `${name}: bytes`, "loss", "+ EF: loss"], ...[1, 10, 30, 100, 200, 300].map((i) => [String(i),
        formatBytes(r.none.bytes[i]), formatNumber(r.none.losses[i]), formatBytes(r.plain.bytes[i]), formatNumber(r.plain.losses[i]), formatNumber(r.ef.losses[i])])]);
  }
  draw();
}
