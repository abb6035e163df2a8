// backup_workers.js — widget "backup-workers": synchronous rounds that need P gradients, run on P + b workers whose
// compute times are exponential (mean 1 s); the first P win. Mean round time against b, simulated over 400 rounds
// (ps_setup.backupRound → core.simulateParamServer, backup regime, in a Worker) beside E[P-th of P + b] =
// H_{P+b} − H_b (core.expectedOrderStatisticExponential).
// Speed: the sweep at P = 8 (nine simulations of 400 rounds) takes about 40 ms in Node's wasm core, b = 16 of P = 16
// about 10 ms (bench/week4_ps_runs.mjs): the core hands back the per-round times as columns and leaves the workers'
// spans out, which this widget does not read. A slower machine still sees the sweep drawn as it goes, b = 0 first,
// one simulation per call, and each (P, late-worker rule) is simulated once per page: a slider moved back is drawn
// at once.
import { createLineChart, describeChart } from "../../../web/ui/charts.js";
import { chartBox, controlRow, readout, select, slider } from "../../../web/ui/controls.js";
import { formatPercent, formatRatio, formatSeconds } from "../../../web/units.js";
import { coreTasks, recordRun } from "../../../web/lesson/core_tasks.js";

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

  const sweeps = new Map();   // "P/cancel" → the rows b = 0 … P, once simulated
  let generation = 0;         // a newer draw (the controls moved) stops an older one between simulations
  const plot = (rows) => chart.update({ datasets: [
    { label: "simulated (400 rounds)", points: true, data: rows.map((r) => ({ x: r.backup, y: r.mean })) },
    { label: "closed form H(P + b) − H(b)", dashed: true, data: rows.map((r) => ({ x: r.backup, y: r.closed })) },
  ] });

  async function draw() {
    const P = Math.round(quota.value), late = cancel.value, key = `${P}/${late}`, mine = ++generation;
    const started = performance.now();
    let rows = sweeps.get(key);
    if (!rows) {
      rows = [];
      try {
        for (let b = 0; b <= P; b++) {
          out.textContent = `Simulating b = ${b} of ${P} (400 rounds of ${P + b} workers)…`;
          // latest: while one simulation runs, a newer draw's call replaces an older one's still waiting (→ null)
          const row = await tasks.latest("draw", "backupRound", { quota: P, backup: b, cancel: late === "cancel" });
          if (!row || mine !== generation) return;   // the controls moved: the newer draw takes over
          rows.push(row);
          plot(rows);
          figure.dataset.sweepDrawn = `${rows.length} of ${P + 1}`;   // drawn as it goes: b = 0 … rows.length − 1
        }
      } catch (err) {
        if (mine === generation) out.textContent = `The simulation could not run: ${err.message}`;
        return;
      }
      sweeps.set(key, rows);
    }
    if (mine !== generation) return;
    plot(rows);
    recordRun(figure, started);
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
