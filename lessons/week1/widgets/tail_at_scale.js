// tail_at_scale.js — widget "tail-at-scale": P_any(N) = 1 − (1 − q)^N, the chance that at least one of N
// workers is slow in a step (Dean & Barroso 2013), from the core.
import { createLineChart, describeChart } from "../../../web/ui/charts.js";
import { chartBox, controlRow, readout, slider } from "../../../web/ui/controls.js";
import { formatCount, formatPercent as pct, plural } from "../../../web/units.js";

const NS = Array.from({ length: 33 }, (_, i) => 10 ** (i / 8));  // 1 … 10 000

export function mountTailAtScale(figure, core) {
  const workers = slider({ label: "Workers N", min: 1, max: 1e4, value: 100, log: true, integer: true, format: (v) => formatCount(Math.round(v)), onInput: draw });
  const q = slider({ label: "P(one worker slow) q", min: 1e-4, max: 0.1, value: 0.01, log: true, format: pct, onInput: draw });
  controlRow(figure, workers, q);
  const out = readout(figure);
  const canvas = chartBox(figure, "Probability that at least one of N workers is slow, against N");
  const chart = createLineChart(canvas, { xLabel: "workers N", yLabel: "P(at least one slow)", logX: true, datasets: [] });

  function draw() {
    const n = Math.round(workers.value), p = q.value;
    const any = core.probabilityAnySlow(p, n);
    out.innerHTML = `With N = ${plural(n, "worker")}, each slow ${pct(p)} of the time, <strong>${pct(any)}</strong> of ` +
      `steps wait for a straggler — about ${plural(Math.round(any * 100), "step")} in 100.`;
    chart.update({
      datasets: [{ label: `1 − (1 − q)^N, q = ${pct(p)}`, data: NS.map((x) => ({ x, y: core.probabilityAnySlow(p, x) })) },
        { label: "your N", data: [{ x: n, y: any }], points: true }],
      verticalLines: [{ x: n, label: `N = ${n}` }],
    });
    describeChart(figure, `At q = ${pct(p)}, the chance of a straggler per step grows from ${pct(p)} with one worker ` +
      `to ${pct(core.probabilityAnySlow(p, 1e4))} with 10 000.`,
    [["N", "P(at least one slow)"], ...[1, 10, 100, 1000, 10000].map((x) => [formatCount(x), pct(core.probabilityAnySlow(p, x))])]);
  }
  draw();
}
