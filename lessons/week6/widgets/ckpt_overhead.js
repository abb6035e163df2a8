// ckpt_overhead.js — widget "ckpt-overhead": the fraction of time lost against the checkpoint interval τ, three ways:
// Young's first order δ/τ + τ/(2M) (core.firstOrderOverhead), Daly's complete model T(τ)/W − 1 with restart R and
// detection D (core.expectedWallTime), and 400 simulated runs per point with their 95% interval
// (core.simulateCheckpointing) — checkpoint_setup.overheadStudy, in a Worker (core_tasks.js). Young's and Daly's τ*
// marked (core.checkpointIntervals).
import { createLineChart, describeChart } from "../../../web/ui/charts.js";
import { chartBox, controlRow, readout, slider } from "../../../web/ui/controls.js";
import { formatPercent, formatSeconds } from "../../../web/units.js";
import { coreTasks, latestDraw } from "../../../web/lesson/core_tasks.js";
import { CKPT } from "../checkpoint_setup.js";
import { hours, minutes } from "../calcs.js";

const tasks = coreTasks(new URL("../checkpoint_setup.js", import.meta.url));   // its simulations, in a Worker
const pct = (x) => formatPercent(x, { digits: 3 });

export function mountCheckpointOverhead(figure) {
  const delta = slider({ label: "Checkpoint time δ", min: 10, max: 1800, value: CKPT.checkpoint, log: true, format: formatSeconds, onInput: draw });
  const mtbf = slider({ label: "Fleet MTBF M", min: 900, max: 48 * 3600, value: CKPT.mtbf, log: true, format: hours, onInput: draw });
  controlRow(figure, delta, mtbf);
  const out = readout(figure);
  const canvas = chartBox(figure, "Overhead against checkpoint interval: first-order, complete model and simulation");
  const chart = createLineChart(canvas, { xLabel: "checkpoint interval τ (min)", yLabel: "time lost (share of the work)", logX: true,
    yTicks: (v) => formatPercent(v, { digits: 2 }), datasets: [], empty: "Simulating…" });

  async function draw() {
    const r = await latestDraw(tasks, figure, out, { working: "Simulating 5 × 400 runs…" }, "overheadStudy", { checkpoint: delta.value, mtbf: mtbf.value });
    if (!r) return;   // it failed (out says why), or a newer draw (the controls changed) replaced it
    const min = (t) => t / 60;
    const interval = r.sims.flatMap((s) => [{ x: min(s.interval), y: s.overhead - s.ci }, { x: min(s.interval), y: s.overhead + s.ci }, { x: min(s.interval), y: null }]);
    chart.update({
      datasets: [
        { label: "first order δ/τ + τ/2M", dashed: true, data: r.taus.map((t, i) => ({ x: min(t), y: r.firstOrder[i] })) },
        { label: "complete model (Daly)", data: r.taus.map((t, i) => ({ x: min(t), y: r.complete[i] })) },
        { label: "simulated mean", points: true, line: false, data: r.sims.map((s) => ({ x: min(s.interval), y: s.overhead })) },
        { label: "95% interval", data: interval, colorIndex: 2 },
      ],
      verticalLines: [{ x: min(r.young), label: `Young ${minutes(r.young)}` }, { x: min(r.daly), label: `Daly ${minutes(r.daly)}` }],
    });
    const atYoung = r.sims[2];
    out.innerHTML = `Young's τ* = <strong>${minutes(r.young)}</strong>, Daly's <strong>${minutes(r.daly)}</strong>; the complete
      model (restart ${minutes(CKPT.restart)}, detection ${formatSeconds(CKPT.detection)}) is lowest at ${minutes(r.optimal)}, where it loses
      ${pct(r.at.optimal)}. At Young's τ* the first order says ${pct(atYoung.firstOrder)},
      the simulation measures <strong>${pct(atYoung.overhead)}</strong> ± ${pct(atYoung.ci)} (${atYoung.failures.toFixed(1)} failures per 24 h run)
      against ${pct(atYoung.closed)} from the complete model.`;
    describeChart(figure, `The overhead is smallest near τ* and rises on both sides; the simulated points lie on the complete model.`,
      [["τ", "first order", "complete model", "simulated", "± 95%"], ...r.sims.map((s) => [minutes(s.interval),
        pct(s.firstOrder), pct(s.closed), pct(s.overhead), pct(s.ci)])]);
  }
  draw();
}
