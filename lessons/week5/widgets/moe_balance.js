// moe_balance.js — widget "moe-balance" (section #experts): the MoE stack of moe_balance_setup.js trained twice on one
// device (core.trainMoeBalanced), without and with Switch Transformer's load-balancing loss α·E·Σ f_i·P_i, and the
// assignments the capacity drops at every step of each run.
import { chartBox, controlRow, readout, select } from "../../../web/ui/controls.js";
import { createLineChart, describeChart } from "../../../web/ui/charts.js";
import { formatCount, formatNumber, formatPercent } from "../../../web/units.js";
import { MOE_BALANCE, balanceSummary, lateDrops, trainBalanced } from "../moe_balance_setup.js";

export function mountMoeBalance(figure, core) {
  const alpha = select({ label: "Balancing coefficient α", value: "0.01",
    options: ["0.001", "0.01", "0.1", "1"].map((a) => [a, a === "0.01" ? "0.01 (Switch)" : a]), onChange: draw });
  controlRow(figure, alpha);
  const out = readout(figure);
  const chart = createLineChart(chartBox(figure, "Assignments dropped per training step, without and with the balancing loss"),
    { xLabel: "step", yLabel: "assignments dropped", datasets: [] });
  const without = trainBalanced(core, 0);  // the reference run does not depend on the control

  function draw() {
    const a = Number(alpha.value);
    const withLoss = trainBalanced(core, a);
    const series = (run) => Array.from(run.dropped, (y, i) => ({ x: i + 1, y }));
    chart.update({ datasets: [{ label: "no balancing loss", data: series(without) },
      { label: `α = ${alpha.value}`, data: series(withLoss) }] });
    const off = lateDrops(without), on = lateDrops(withLoss);
    const pct = (x) => formatPercent(x, { decimals: 0 });
    out.innerHTML = `Over the last 20 of ${MOE_BALANCE.steps} steps the capacity drops <strong>${pct(off.share)}</strong> of ` +
      `the assignments without the loss (${formatCount(off.dropped)}) and <strong>${pct(on.share)}</strong> with α = ` +
      `${alpha.value} (${formatCount(on.dropped)}). The balance loss ends at ${formatNumber(withLoss.balanceLosses.at(-1), { digits: 3 })} ` +
      `(its minimum, a perfectly balanced router, is α); the MSE at ${formatNumber(withLoss.losses.at(-1), { digits: 3 })} ` +
      `against ${formatNumber(without.losses.at(-1), { digits: 3 })} without.`;
    describeChart(figure, balanceSummary(without, withLoss, alpha.value),
      [["step", "dropped, no loss", `dropped, α = ${alpha.value}`], ...[1, 25, 50, 75, 100].map((s) =>
        [s, without.dropped[s - 1], withLoss.dropped[s - 1]])]);
  }
  draw();
}
