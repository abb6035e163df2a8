// ckpt_progress.js — widget "ckpt-progress": hours of work done against wall-clock hours under failures, with a
// checkpoint every Daly τ* and with none (a failure restarts from the beginning): Daly's expected wall time
// (core.expectedWallTime) for every amount of work up to 48 h, and simulated means with their 95% intervals at 12, 24,
// 36 and 48 h (core.simulateCheckpointing) — checkpoint_setup.progressCurves, in a Worker (core_tasks.js).
import { createLineChart, describeChart } from "../../../web/ui/charts.js";
import { chartBox, controlRow, readout, slider } from "../../../web/ui/controls.js";
import { formatSeconds } from "../../../web/units.js";
import { coreTasks, latestDraw } from "../../../web/lesson/core_tasks.js";
import { CKPT } from "../checkpoint_setup.js";
import { hours, hoursOrYears, minutes } from "../calcs.js";

const tasks = coreTasks(new URL("../checkpoint_setup.js", import.meta.url));   // its simulations, in a Worker
const SHOWN = 120;   // h of wall-clock time on the chart; the run without checkpoints leaves it early
const h = (s) => s / 3600;

export function mountCheckpointProgress(figure) {
  const mtbf = slider({ label: "Fleet MTBF M", min: 3600, max: 48 * 3600, value: CKPT.mtbf, log: true, format: hours, onInput: draw });
  const delta = slider({ label: "Checkpoint time δ", min: 10, max: 1800, value: CKPT.checkpoint, log: true, format: formatSeconds, onInput: draw });
  controlRow(figure, mtbf, delta);
  const out = readout(figure);
  const canvas = chartBox(figure, "Hours of work done against wall-clock hours, with and without checkpoints");
  const chart = createLineChart(canvas, { xLabel: "wall-clock time (h)", yLabel: "work done (h)", datasets: [], empty: "Simulating…" });

  async function draw() {
    const r = await latestDraw(tasks, figure, out, { working: "Simulating…" }, "progressCurves", { mtbf: mtbf.value, checkpoint: delta.value });
    if (!r) return;   // it failed (out says why), or a newer draw (the controls changed) replaced it
    const line = (walls) => r.works.map((w, i) => ({ x: h(walls[i]), y: h(w) })).filter((p) => p.x <= SHOWN);
    const shown = (key) => r.simulated.filter((s) => h(s[key]) <= SHOWN);
    const means = (key) => shown(key).map((s) => ({ x: h(s[key]), y: h(s.work) }));
    const bars = (key) => shown(key).flatMap((s) => [
      { x: h(s[key] - s[`${key}Ci`]), y: h(s.work) }, { x: h(s[key] + s[`${key}Ci`]), y: h(s.work) }, { x: h(s[key]), y: null }]);
    chart.update({ datasets: [
      { label: "no failures", dashed: true, data: [{ x: 0, y: 0 }, { x: h(r.works.at(-1)), y: h(r.works.at(-1)) }] },
      { label: `checkpoint every ${minutes(r.daly)}`, data: [{ x: 0, y: 0 }, ...line(r.checkpointed)] },
      { label: "no checkpoints", data: [{ x: 0, y: 0 }, ...line(r.none)] },
      { label: "simulated mean", points: true, line: false, data: [...means("checkpointed"), ...means("none")], colorIndex: 3 },
      { label: "95% interval", data: [...bars("checkpointed"), ...bars("none")], colorIndex: 3 },
    ] });
    const day = r.simulated[1];
    out.innerHTML = `24 h of work take <strong>${hours(r.checkpointed[23])}</strong> with a checkpoint every ${minutes(r.daly)}
      (simulated ${hours(day.checkpointed)}), and <strong>${hours(r.none[23])}</strong> without checkpoints (simulated
      ${hours(day.none)} ± ${hours(day.noneCi)}). Without checkpoints, 48 h of work take ${hoursOrYears(r.none.at(-1))}.`;
    describeChart(figure, `With checkpoints the work grows almost as fast as the clock; without them the wall time grows exponentially with the work.`,
      [["work", "with checkpoints", "simulated", "without", "simulated"], ...r.simulated.map((s) => [hours(s.work),
        hours(r.checkpointed[r.works.indexOf(s.work)] ?? NaN), hours(s.checkpointed), hours(r.none[r.works.indexOf(s.work)] ?? NaN), hours(s.none)])]);
  }
  draw();
}
