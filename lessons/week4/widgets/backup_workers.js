// backup_workers.js — widget "backup-workers": synchronous rounds that need P gradients, run on P + b workers whose
// compute times are exponential (mean 1 s); the first P win. Mean round time against b, simulated over 400 rounds
// (ps_setup.backupSweep → core.simulateParamServer, backup regime, in a Worker) beside E[P-th of P + b] =
// H_{P+b} − H_b (core.expectedOrderStatisticExponential).
import { createLineChart, describeChart } from "../../../web/ui/charts.js";
import { chartBox, controlRow, readout, select, slider } from "../../../web/ui/controls.js";
import { formatPercent, formatRatio, formatSeconds } from "../../../web/units.js";
import { coreTasks, latestDraw } from "../../../web/lesson/core_tasks.js";

const tasks = coreTasks(new URL("../ps_setup.js", import.meta.url));   // its long runs, in a Worker

export function mountBackupWorkers(figure) {
  const quota = slider({ label: "Gradients per round P", min: 2, max: 16, value: 8, step: 1, onInput: draw });
  const cancel = select({ label: "A late worker", options: [["cancel", "abandons its gradient"], ["finish", "finishes it first (TF SyncReplicas)"]],
    value: "cancel", onChange: draw });
  controlRow(figure, quota, cancel);
  const out = readout(figure);
  const canvas = chartBox(figure, "Mean round time against the number of backup workers b");
  const chart = createLineChart(canvas, { xLabel: "backup workers b", yLabel: "mean round time (s)", datasets: [],
    empty: "Simulating…" });

  async function draw() {
    const P = Math.round(quota.value);
    const rows = await latestDraw(tasks, figure, out, { working: "Simulating…" }, "backupSweep", { quota: P, max: P, cancel: cancel.value === "cancel" });
    if (!rows) return;   // it failed (out says why), or a newer draw (the controls changed) replaced it
    chart.update({ datasets: [
      { label: "simulated (400 rounds)", points: true, data: rows.map((r) => ({ x: r.backup, y: r.mean })) },
      { label: "closed form H(P + b) − H(b)", dashed: true, data: rows.map((r) => ({ x: r.backup, y: r.closed })) },
    ] });
    const gain = (b) => rows[b - 1].closed - rows[b].closed;   // what the b-th backup saves (closed form)
    const b2 = rows[Math.min(2, rows.length - 1)];
    out.innerHTML = `Without backups a round of P = ${P} waits for the slowest: ${formatSeconds(rows[0].mean)}
      (closed form ${formatSeconds(rows[0].closed)}). Two backups (${formatPercent(2 / P, { decimals: 0 })} more machines) cut it to
      ${formatSeconds(b2.mean)}, ${formatRatio(rows[0].mean / b2.mean, { digits: 2 })} faster. The first backup saves ${formatSeconds(gain(1))}
      a round, the last (b = ${P}) only ${formatSeconds(gain(P))}. ${cancel.value === "finish" ? "A late worker that finishes its useless gradient starts its next one late, so the simulation sits above the closed form, which assumes a fresh race each round." : ""}`;
    describeChart(figure, `Each backup worker shortens the round, by less each time: the P-th of P + b exponentials.`,
      [["b", "simulated", "closed form", "machines"], ...rows.map((r) => [String(r.backup), formatSeconds(r.mean),
        formatSeconds(r.closed), String(P + r.backup)])]);
  }
  draw();
}
