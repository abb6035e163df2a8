// micro_batches.js — widget "micro-batches" (section #micro-batches): T(m) = (m + P − 1)(t/m + o) for m = 1 … 512 from
// core.optimalMicroBatches, with its closed-form optimum √((P − 1)t/o) and the best whole m marked.
import { chartBox, controlRow, readout, select, slider } from "../../../web/ui/controls.js";
import { createLineChart, describeChart } from "../../../web/ui/charts.js";
import { formatNumber, formatSeconds } from "../../../web/units.js";
import { OVERHEAD_EXAMPLE } from "../pipeline_setup.js";

export function mountMicroBatches(figure, core) {
  const stages = select({ label: "Stages P", value: String(OVERHEAD_EXAMPLE.stages), options: [2, 4, 8, 16, 32].map((p) => [String(p), String(p)]), onChange: draw });
  const overhead = slider({ label: "Overhead o per micro-batch", min: 1e-5, max: 1e-2, log: true, value: OVERHEAD_EXAMPLE.overhead, format: formatSeconds, onInput: draw });
  controlRow(figure, stages, overhead);
  const out = readout(figure);
  const chart = createLineChart(chartBox(figure, "Step time against the number of micro-batches"),
    { xLabel: "micro-batches m", yLabel: "step time (s)", logX: true, datasets: [] });

  function draw() {
    const P = Number(stages.value), t = OVERHEAD_EXAMPLE.compute;
    const r = core.optimalMicroBatches({ ...OVERHEAD_EXAMPLE, stages: P, overhead: overhead.value });
    const pts = r.steps.map((y, i) => ({ x: i + 1, y }));
    const free = core.optimalMicroBatches({ ...OVERHEAD_EXAMPLE, stages: P, overhead: 0 }).steps;
    chart.update({ datasets: [{ label: `T(m), P = ${P}, t = ${formatSeconds(t)}`, data: pts },
      { label: "no overhead", dashed: true, data: free.map((y, i) => ({ x: i + 1, y })) }],
    verticalLines: [{ x: r.best, label: `best m = ${r.best}` }] });
    out.innerHTML = `m* = √((P − 1)t/o) = <strong>${formatNumber(r.closedForm, { decimals: 1 })}</strong>; best whole m ` +
      `<strong>${r.best}</strong>: ${formatSeconds(r.bestStep)} a step, against ${formatSeconds(r.steps[0])} at m = 1 and ` +
      `${formatSeconds(r.steps[r.steps.length - 1])} at m = ${r.steps.length}. Compute alone is ${formatSeconds(t)}.`;
    describeChart(figure, `The step time falls as the bubble shrinks, then rises as the overhead of each micro-batch adds up; the best m is ${r.best}.`,
      [["m", "T(m)"], ...[1, 2, 4, 8, 16, 32, 64, 128, 256, 512].map((m) => [m, formatSeconds(r.steps[m - 1])])]);
  }
  draw();
}
