// ssp_absorb.js — widget "ssp-absorb": what SSP's bound can absorb. Six workers take [1, 1, 1, 1, 3, 5] × 0.1 s per
// clock, either fixed (worker w always list[w]: a permanently slow machine) or drawn afresh by every worker every
// clock (per round: stragglers that come and go, the seed notebook's). For s = 0 … 64 the seconds per clock over
// 1000 simulated clocks (ps_setup.sspAbsorb → core.simulateParamServer, in a Worker), between its two limits
// (core.sspClockLimits): E[max] at s = 0 and the slowest worker's mean pace as s → ∞.
import { createLineChart, describeChart } from "../../../web/ui/charts.js";
import { chartBox, controlRow, readout, select } from "../../../web/ui/controls.js";
import { formatPercent, formatSeconds } from "../../../web/units.js";
import { coreTasks, latestDraw } from "../../../web/lesson/core_tasks.js";
import { ABSORB_MODES } from "../ps_setup.js";

const tasks = coreTasks(new URL("../ps_setup.js", import.meta.url));   // its long runs, in a Worker

export function mountSspAbsorb(figure) {
  const mode = select({ label: "Slowness from [1, 1, 1, 1, 3, 5]", options: ABSORB_MODES, value: "per-round", onChange: draw });
  controlRow(figure, mode);
  const out = readout(figure);
  const canvas = chartBox(figure, "Seconds per clock against SSP's bound s, between the two limits of the closed form");
  const chart = createLineChart(canvas, { xLabel: "SSP bound s (clocks)", yLabel: "seconds per clock (1000 clocks)",
    datasets: [], empty: "Simulating eight bounds…" });

  async function draw() {
    const r = await latestDraw(tasks, figure, out, { working: "Simulating eight bounds…" }, "sspAbsorb", { mode: mode.value });
    if (!r) return;   // it failed (out says why), or a newer draw (the controls changed) replaced it
    const { rows, limits } = r, xs = [rows[0].s, rows.at(-1).s];
    const level = (y) => xs.map((x) => ({ x, y }));
    chart.update({ datasets: [
      { label: "simulated SSP(s)", points: true, data: rows.map((row) => ({ x: row.s, y: row.perClock })) },
      { label: "s = 0 limit: E[max of the six]", dashed: true, data: level(limits.barrierSeconds) },
      { label: "s → ∞ limit: the slowest mean", dashed: true, data: level(limits.unboundedSeconds) },
    ] });
    const [first, last] = [rows[0], rows.at(-1)];
    const fixed = r.mode === "fixed";
    out.innerHTML = `At s = 0 (BSP) a clock takes <strong>${formatSeconds(first.perClock)}</strong> (closed form
      E[max] = ${formatSeconds(limits.barrierSeconds)}); at s = ${last.s} it takes <strong>${formatSeconds(last.perClock)}</strong>
      (limit ${formatSeconds(limits.unboundedSeconds)}). ` + (fixed
      ? `The two limits coincide: worker 5 needs ${formatSeconds(limits.unboundedSeconds)} every clock, whatever s is, so
        there is nothing to absorb — a bound only lets the fast workers idle later.`
      : `A bound can absorb at most ${formatPercent(limits.absorbableFraction, { decimals: 0 })} of the barrier's clock: a
        worker slow in one clock catches up in the next, and the run goes at the list's mean pace.`);
    describeChart(figure, `Seconds per clock for each SSP bound, ${fixed ? "flat at the slowest worker's pace" :
      "falling from E[max] towards the mean"}.`,
    [["s", "seconds per clock", "stall"], ...rows.map((row) => [String(row.s), formatSeconds(row.perClock),
      formatPercent(row.stall, { decimals: 1 })])]);
  }
  draw();
}
