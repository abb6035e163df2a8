// staleness.js — widget "staleness": the teacher task trained by asynchronous SGD whose every update is τ updates
// stale (τ + 1 equally fast workers: ps_setup.staleCurves → core.trainParamServer, four runs in a Worker), loss
// against updates for τ ∈ {0, 2, 8, 20}, with the staleness-aware rate η/(τ + 1) as an option.
import { createLineChart, describeChart } from "../../../web/ui/charts.js";
import { chartBox, controlRow, readout, select } from "../../../web/ui/controls.js";
import { formatNumber } from "../../../web/units.js";
import { LR, TAUS, UPDATES } from "../ps_setup.js";
import { coreTasks, latestDraw } from "../../../web/lesson/core_tasks.js";

const tasks = coreTasks(new URL("../ps_setup.js", import.meta.url));   // its long runs, in a Worker

const CEILING = 10;   // losses above this (or NaN) are drawn as diverged

export function mountStaleness(figure) {
  const rate = select({ label: "Learning rate η", options: [0.1, 0.2, 0.4].map((v) => [String(v), String(v)]), value: String(LR), onChange: draw });
  const aware = select({ label: "Rate per update", options: [["plain", "η (plain)"], ["aware", "η/(τ + 1) (staleness-aware)"]], value: "plain", onChange: draw });
  controlRow(figure, rate, aware);
  const out = readout(figure);
  const canvas = chartBox(figure, "Held-out loss against applied updates for staleness 0, 2, 8 and 20");
  const chart = createLineChart(canvas, { xLabel: "updates applied", yLabel: "held-out MSE", logY: true, datasets: [],
    empty: "Training four runs…" });

  async function draw() {
    const runs = await latestDraw(tasks, figure, out, { working: "Training four runs…" }, "staleCurves", { lr: Number(rate.value), aware: aware.value === "aware" });
    if (!runs) return;   // it failed (out says why), or a newer draw (the controls changed) replaced it
    const diverged = (r) => r.loss.findIndex((l) => !(l <= CEILING));
    chart.update({ datasets: runs.map((r) => ({ label: `τ = ${r.tau}`,
      data: [...r.loss].flatMap((l, i) => (l <= CEILING ? [{ x: r.updates[i], y: l }] : [])) })) });
    const say = (r) => (diverged(r) >= 0 ? `τ = ${r.tau} diverged after ${formatNumber(r.updates[diverged(r)])} updates`
      : `τ = ${r.tau} ends at ${formatNumber(r.finalLoss)}`);
    out.innerHTML = `After ${UPDATES} updates of 8 rows each: ${runs.map(say).join("; ")}.`;
    describeChart(figure, `Staleness up to a few updates costs little; large staleness with a large rate diverges, and η/(τ + 1) ` +
      `keeps every run stable at the price of slower progress.`,
    [["τ", "final MSE", "diverged at update"], ...runs.map((r) => [String(r.tau),
      Number.isFinite(r.finalLoss) ? formatNumber(r.finalLoss) : "diverged",
      diverged(r) >= 0 ? formatNumber(r.updates[diverged(r)]) : "—"])]);
  }
  draw();
}
