// pipeline_compare.js — widget "pipeline-compare" (section #zero-bubble): core.pipelineCompare at (P, m) for m = P … 8P — GPipe,
// 1F1B, interleaved (v) and ZB-H1 with the same per-stage times — the measured bubble over the ideal (lines) against
// each paper's formula (points). The weight-gradient time t_w is the learner's: above t_f ZB-H1's fixed order leaves
// more bubble than its paper's estimate (chunk_schedule.h).
import { chartBox, controlRow, readout, select, slider } from "../../../web/ui/controls.js";
import { createLineChart, describeChart } from "../../../web/ui/charts.js";
import { formatCount, formatNumber, formatPercent } from "../../../web/units.js";
import { SCHEDULES, SCHEDULE_NAMES, compareSchedules } from "../pipeline_setup.js";

const pct = (x) => formatPercent(x, { decimals: 1 });

export function mountPipelineCompare(figure, core) {
  const devices = select({ label: "Devices P", value: "4", options: [4, 8].map((p) => [String(p), String(p)]), onChange: draw });
  const chunks = select({ label: "Interleaving v", value: "2", options: [2, 4].map((v) => [String(v), String(v)]), onChange: draw });
  const tw = slider({ label: "t_w (t_f = 1, t_b = 1)", min: 0.25, max: 2, step: 0.25, value: 1, format: (x) => formatNumber(x), onInput: draw });
  controlRow(figure, devices, chunks, tw);
  const out = readout(figure);
  const chart = createLineChart(chartBox(figure, "Bubble over the ideal step against the number of micro-batches, four schedules, measured and by formula"),
    { xLabel: "micro-batches m", yLabel: "bubble / ideal", logX: true, datasets: [] });

  function draw() {
    const P = Number(devices.value), v = Number(chunks.value);
    const times = { forward: 1, backwardInput: 1, backwardWeight: tw.value };
    const ms = [1, 2, 4, 8].map((k) => k * P);
    const runs = ms.map((m) => compareSchedules(core, { devices: P, microBatches: m, chunksPerDevice: v }, times));
    chart.update({ datasets: SCHEDULES.flatMap((s, i) => [
      { label: SCHEDULE_NAMES[s], colorIndex: i, data: ms.map((m, j) => ({ x: m, y: runs[j][s].bubbleOverIdeal })) },
      { label: `${SCHEDULE_NAMES[s]} (formula)`, colorIndex: i, points: true, dashed: true,
        data: ms.map((m, j) => ({ x: m, y: runs[j][s].formulaOverIdeal })) },
    ]) });
    const at = runs[1];   // m = 2P
    out.innerHTML = `P = ${P}, m = ${2 * P}, v = ${v}, t_w = ${formatNumber(tw.value)}: ` + SCHEDULES.map((s) =>
      `${SCHEDULE_NAMES[s]} <strong>${pct(at[s].bubbleOverIdeal)}</strong> (formula ${pct(at[s].formulaOverIdeal)}, ` +
      `${formatNumber(at[s].peakStageActivations)} stages of activations, ${formatCount(at[s].messages)} messages)`).join("; ") + ".";
    const zb = at["zb-h1"];
    describeChart(figure, Math.abs(zb.bubbleOverIdeal - zb.formulaOverIdeal) < 1e-9
      ? "Every schedule's measured bubble equals its paper's formula at these times."
      : `ZB-H1 measures ${pct(zb.bubbleOverIdeal)} against its paper's ${pct(zb.formulaOverIdeal)}: with t_w > t_f the fixed order leaves more bubble.`,
      [["m", ...SCHEDULES.map((s) => SCHEDULE_NAMES[s])], ...ms.map((m, j) => [m, ...SCHEDULES.map((s) => pct(runs[j][s].bubbleOverIdeal))])]);
  }
  draw();
}
