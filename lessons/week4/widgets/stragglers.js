// stragglers.js — widget "stragglers": the histogram of 2000 synchronous (BSP) round times of six workers, simulated
// by the core's parameter server (ps_setup.stragglerRounds → core.simulateParamServer, in a Worker: core_tasks.js), with the
// expected slowest-of-W compute time in closed form (core.expectedRoundCompute; H_W/λ when all are exponential
// and equal) and the simulated mean drawn on it.
import { createLineChart, describeChart } from "../../../web/ui/charts.js";
import { chartBox, controlRow, readout, select } from "../../../web/ui/controls.js";
import { formatCount, formatPercent, formatRatio, formatSeconds } from "../../../web/units.js";
import { ROUNDS, SPEED_CHOICES, STRAGGLER_SPEEDS } from "../ps_setup.js";
import { coreTasks, latestDraw } from "../../../web/lesson/core_tasks.js";

const tasks = coreTasks(new URL("../ps_setup.js", import.meta.url));   // its long runs, in a Worker

const MULTIPLIERS = { slow: STRAGGLER_SPEEDS, equal: [1, 1, 1, 1, 1, 1] };

export function mountStragglers(figure) {
  const model = select({ label: "Compute-time noise", options: SPEED_CHOICES, value: "exponential", onChange: draw });
  const speeds = select({ label: "Mean speeds", options: [["slow", "[1, 1, 1, 1, 3, 5]: 2 slow"],
    ["equal", "[1, 1, 1, 1, 1, 1]: equal"]], value: "slow", onChange: draw });
  controlRow(figure, model, speeds);
  const out = readout(figure);
  const canvas = chartBox(figure, "Histogram of 2000 simulated synchronous round times, with the closed-form expected round time");
  const chart = createLineChart(canvas, { xLabel: "round time (s; one worker's mean compute = 1 s)", yLabel: "share of rounds per bin",
    datasets: [], empty: "Simulating 2000 rounds…" });

  async function draw() {
    out.textContent = `Simulating ${formatCount(ROUNDS)} rounds…`;
    const r = await latestDraw(tasks, figure, out, {}, "stragglerRounds", { distribution: model.value, multipliers: MULTIPLIERS[speeds.value] });
    if (!r) return;   // it failed (out says why), or a newer draw (the controls changed) replaced it
    const bins = histogram(r.times);
    const sd = Math.sqrt(r.times.reduce((a, t) => a + (t - r.mean) ** 2, 0) / (r.times.length - 1));
    const se = sd / Math.sqrt(r.times.length);
    chart.update({
      datasets: [{ label: "simulated rounds", data: bins.steps }],
      verticalLines: [
        { x: r.expected, label: `closed form E[max] = ${formatSeconds(r.expected)}` },
        { x: r.mean, label: `simulated mean ${formatSeconds(r.mean)}` },
        { x: r.alone, label: `one worker alone: ${formatSeconds(r.alone)}` },
      ],
    });
    out.innerHTML = `A round waits for the slowest of ${MULTIPLIERS[speeds.value].length} workers: mean
      <strong>${formatSeconds(r.mean)}</strong> over ${formatCount(r.times.length)} rounds (± ${formatSeconds(2 * se)} at two
      standard errors), against <strong>${formatSeconds(r.expected)}</strong> from the closed form — and
      ${formatSeconds(r.alone)} for one average worker alone, so the barrier makes each round
      ${formatRatio(r.mean / r.alone, { digits: 2 })} as long. The workers spend ${formatPercent(r.stall, { decimals: 0 })}
      of their time waiting at it.`;
    describeChart(figure, `Round times range from ${formatSeconds(Math.min(...r.times))} to ${formatSeconds(Math.max(...r.times))}; ` +
      `the simulated mean ${formatSeconds(r.mean)} sits at the closed form's ${formatSeconds(r.expected)}.`,
    [["round time from", "share of rounds"], ...bins.rows]);
  }
  draw();
}

// About 40 bins of a round width (1, 2 or 5 × 10^k s) from 0 up to the 99th percentile (the longer tail goes into the
// last bin), as a step line (each bin a flat segment) and as table rows.
function histogram(times) {
  const sorted = Float64Array.from(times).sort();
  const top = Math.max(1e-3, sorted[Math.floor(0.99 * (sorted.length - 1))]);
  const raw = top / 40, decade = 10 ** Math.floor(Math.log10(raw));
  const width = [1, 2, 5, 10].map((m) => m * decade).find((w) => w >= raw);
  const count = Math.max(1, Math.ceil(top / width));
  const bins = new Array(count).fill(0);
  for (const t of times) bins[Math.min(count - 1, Math.floor(t / width))] += 1;
  const share = bins.map((b) => b / times.length);
  const steps = share.flatMap((y, i) => [{ x: i * width, y }, { x: (i + 1) * width, y }]);
  const rows = share.map((y, i) => [formatSeconds(i * width), formatPercent(y, { decimals: 1 })]).filter((_, i) => bins[i] > 0);
  return { steps, rows };
}
