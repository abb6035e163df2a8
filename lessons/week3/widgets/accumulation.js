// accumulation.js — widget "accumulation" (section #accumulation): gradient accumulation with k micro-batches per replica.
// Left, exactness: core.trainCompare("dp-accumulate") beside one device on the whole batch, and the bytes a
// replica sends per step (the same for every k). Right, cost: the worked example's step priced by stepCost for
// k = 1 … 32, the share spent communicating (no overlap).
import { chartBox, controlRow, readout, slider } from "../../../web/ui/controls.js";
import { createLineChart, describeChart } from "../../../web/ui/charts.js";
import { formatBytes, formatNumber, formatPercent } from "../../../web/units.js";
import { accumulationShare } from "../calcs.js";

const KS = [1, 2, 4, 8, 16, 32];
const TINY = { model: { layers: 4, width: 32, hidden: 64 }, optimizer: { kind: "sgd", lr: 0.1 }, steps: 20, seed: 3 };

export function mountAccumulation(figure, core) {
  const k = slider({ label: "Micro-batches k", min: 0, max: KS.length - 1, step: 1, value: 2, format: (i) => String(KS[i]), onInput: draw });
  controlRow(figure, k);
  const out = readout(figure);
  const chart = createLineChart(chartBox(figure, "Share of the step spent communicating against k"),
    { xLabel: "micro-batches k", yLabel: "communication share of the step", logX: true, datasets: [] });
  const shares = KS.map((x) => ({ x, y: accumulationShare(core, x) }));
  function draw() {
    const kk = KS[Math.round(k.value)], P = 4, b = 4;
    const r = core.trainCompare({ ...TINY, strategy: "dp-accumulate", grid: { dp: P }, batch: P * kk * b, microBatches: kk });
    const sent = Object.values(r.commBytes).reduce((a, c) => a + c, 0);
    out.textContent = `k = ${kk}: ${P} replicas × ${kk} micro-batches of ${b} rows = a batch of ${P * kk * b}. After ` +
      `${TINY.steps} SGD steps the parameters differ from one device on the whole batch by ${formatNumber(r.maxRelativeDifference, { digits: 2 })} ` +
      `(relative). Each replica sends ${formatBytes(sent)} per step — ${formatBytes(sent / (kk * b))} per row it trained on. ` +
      `In the worked example communication is ${formatPercent(shares[Math.round(k.value)].y, { digits: 2 })} of the step.`;
    chart.update({ datasets: [{ label: "worked example (stepCost, no overlap)", data: shares },
      { label: `k = ${kk}`, data: [shares[Math.round(k.value)]], points: true }] });
    describeChart(figure, `Communication falls from ${formatPercent(shares[0].y, { digits: 2 })} of the step at k = 1 to ` +
      `${formatPercent(shares[shares.length - 1].y, { digits: 2 })} at k = 32: the all-reduce is paid once per k micro-batches.`,
      [["k", "communication share"], ...shares.map((s) => [s.x, formatPercent(s.y, { digits: 2 })])]);
  }
  draw();
}
