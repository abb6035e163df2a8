// bubble.js — widget "bubble": the idle fraction of a pipeline step against the number of micro-batches m,
// for P = 4, 8 and 16 stages, GPipe and 1F1B, from core.stepCost with free communication (α = 0, β → 0), so
// the step is compute plus idle time. Theory: (P − 1)/(m + P − 1) of the step for both schedules (Huang et al. 2019;
// Narayanan et al., ICML 2021); interleaved and zero-bubble schedules, not drawn here, do better. The readout adds the activations stage 0 keeps: m micro-batches (GPipe) against
// min(P, m) (1F1B).
import { createLineChart, describeChart } from "../../web/ui/charts.js";
import { chartBox, controlRow, readout, select, slider } from "../../web/ui/controls.js";
import { formatPercent, plural } from "../../web/units.js";

// One decimal, the same formatter for the simulated fraction and the formula, so equal values read alike.
const pct = (x) => formatPercent(x, { decimals: 1 });

const MS = [1, 2, 4, 8, 16, 32, 64];
const STAGES = [4, 8, 16];
const MODEL = { layers: 16, width: 4, hidden: 4 };   // any model: the fraction depends on P and m only

function pipelineStep(core, strategy, P, m) {
  return core.stepCost({ strategy, grid: { dp: 1, tp: 1, pp: P }, microBatches: m, model: MODEL, batch: 64,
    flops: 1e12, alpha: 0, beta: 1e-30 });
}

export function mountBubble(figure, core) {
  const stages = select({ label: "Stages P", value: "8", options: STAGES.map((p) => [String(p), String(p)]), onChange: draw });
  const micro = slider({ label: "Micro-batches m", min: 0, max: 6, step: 1, value: 5, format: (k) => String(2 ** k), onInput: draw });
  controlRow(figure, stages, micro);
  const out = readout(figure);
  const canvas = chartBox(figure, "Pipeline bubble fraction against the number of micro-batches, for 4, 8 and 16 stages, GPipe and 1F1B");
  // x is log2(m) on a linear axis, so the ticks fall on 1, 2, 4, … 64.
  const chart = createLineChart(canvas, { xLabel: "micro-batches m (log scale)", yLabel: "idle fraction of the step", datasets: [],
    xTicks: (v) => (Number.isInteger(v) ? String(2 ** v) : "") });
  // The curves do not change: compute them once.
  const curves = STAGES.flatMap((P, i) => ["pp-gpipe", "pp-1f1b"].map((s) => ({
    label: `P = ${P}, ${s === "pp-gpipe" ? "GPipe" : "1F1B"}`, colorIndex: i, dashed: s === "pp-1f1b", points: s === "pp-gpipe",
    data: MS.map((m) => { const r = pipelineStep(core, s, P, m); return { x: Math.log2(m), y: r.bubble / r.total }; }),
  })));

  function draw() {
    const P = Number(stages.value), m = 2 ** Math.round(micro.value);
    chart.update({ datasets: curves, verticalLines: [{ x: Math.log2(m), label: `m = ${m}` }] });
    const g = pipelineStep(core, "pp-gpipe", P, m), f = pipelineStep(core, "pp-1f1b", P, m);
    const act = (r) => r.memoryPerRank[0].activations;
    out.innerHTML = `P = ${P}, m = ${m}: idle <strong>${pct(g.bubble / g.total)}</strong> of the step with GPipe, ` +
      `${pct(f.bubble / f.total)} with 1F1B; (P − 1)/(m + P − 1) = ${pct((P - 1) / (m + P - 1))}. Stage 0 keeps the ` +
      `activations of ${plural(Math.round(act(g) / act(f) * Math.min(P, m)), "micro-batch", "micro-batches")} with GPipe ` +
      `and ${Math.min(P, m)} with 1F1B.`;
    describeChart(figure, `The idle fraction falls as (P − 1)/(m + P − 1): it needs m well above P. GPipe and 1F1B lie on the same curve — 1F1B saves memory, not time.`,
      [["m", ...curves.map((c) => c.label)], ...MS.map((mm, j) => [mm, ...curves.map((c) => c.data[j].y)])]);
  }
  draw();
}
