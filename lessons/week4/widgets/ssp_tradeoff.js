// ssp_tradeoff.js — widget "ssp-tradeoff": SSP(s) for s ∈ {0, 1, 2, 4, 8, 16}, six workers, 60 clocks each, training
// the teacher task (ps_setup.sspTradeoff → core.trainParamServer, six runs in a Worker): the stall fraction beside
// its fixed-speed closed form (core.sspStallFixedSpeeds), the time to finish and the final loss.
import { createLineChart, describeChart } from "../../../web/ui/charts.js";
import { chartBox, controlRow, readout, select } from "../../../web/ui/controls.js";
import { formatNumber, formatPercent, formatSeconds } from "../../../web/units.js";
import { coreTasks, latestDraw } from "../../../web/lesson/core_tasks.js";

const tasks = coreTasks(new URL("../ps_setup.js", import.meta.url));   // its long runs, in a Worker

export function mountSspTradeoff(figure) {
  const noise = select({ label: "Workers", options: [["fixed", "fixed speeds [1, 1, 1, 1, 3, 5]"],
    ["exponential", "equal mean, exponential noise"]], value: "fixed", onChange: draw });
  controlRow(figure, noise);
  const out = readout(figure);
  const stallCanvas = chartBox(figure, "Stall fraction and time to finish against SSP's bound s");
  const stall = createLineChart(stallCanvas, { xLabel: "SSP bound s (clocks)", yLabel: "share of time waiting", datasets: [],
    empty: "Training six runs…" });
  const lossCanvas = chartBox(figure, "Final loss against SSP's bound s");
  const loss = createLineChart(lossCanvas, { xLabel: "SSP bound s (clocks)", yLabel: "final held-out MSE", datasets: [],
    empty: "Training six runs…" });

  async function draw() {
    const rows = await latestDraw(tasks, figure, out, { working: "Training six runs…" }, "sspTradeoff", { distribution: noise.value });
    if (!rows) return;   // it failed (out says why), or a newer draw (the controls changed) replaced it
    const fixed = noise.value === "fixed";
    stall.update({ datasets: [
      { label: "simulated stall fraction", points: true, data: rows.map((r) => ({ x: r.s, y: r.stall })) },
      ...(fixed ? [{ label: "closed form (fixed speeds)", dashed: true, data: rows.map((r) => ({ x: r.s, y: r.closed })) }] : []),
    ] });
    loss.update({ datasets: [{ label: "final MSE after 6 × 60 updates", points: true, data: rows.map((r) => ({ x: r.s, y: r.finalLoss })) }] });
    const [first, last] = [rows[0], rows[rows.length - 1]];
    out.innerHTML = `s = 0 (BSP) waits ${formatPercent(first.stall, { decimals: 0 })} of the time and finishes in
      ${formatSeconds(first.makespan)}; s = ${last.s} waits ${formatPercent(last.stall, { decimals: 0 })} and finishes in
      ${formatSeconds(last.makespan)}, applying gradients up to τ = ${last.maxTau} updates stale.${fixed ? ` (Closed form: ${formatPercent(first.closed, { decimals: 1 })} and ${formatPercent(last.closed, { decimals: 1 })}; the two lines coincide.)` : ""} ` +
      (fixed ? "With speeds that never change, the slow worker sets the finishing time whatever s is: a bound only lets the fast ones idle later."
        : "With noise that comes and goes, a slack of a few clocks absorbs it: the stall falls and the run finishes sooner.");
    describeChart(figure, `Stall fraction and final loss for each SSP bound.`, [["s", "stall (simulated)", "stall (closed form)",
      "time to finish", "largest τ", "final MSE"], ...rows.map((r) => [String(r.s), formatPercent(r.stall, { decimals: 1 }),
      fixed ? formatPercent(r.closed, { decimals: 1 }) : "—", formatSeconds(r.makespan), String(r.maxTau), formatNumber(r.finalLoss)])]);
  }
  draw();
}
