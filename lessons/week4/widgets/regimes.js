// regimes.js — widget "regimes": the six workers of section #stragglers (fixed mean speeds [1, 1, 1, 1, 3, 5], 0.1 s per unit)
// run 8 clocks under BSP, SSP(s) or ASP; each worker's timeline (compute, push, wait for the reply) as the core's
// parameter server simulates it (ps_setup.regimeRun → core.simulateParamServer, under a millisecond: on the page).
import { renderTimeline } from "../../../web/ui/timeline.js";
import { recordRun } from "../../../web/lesson/core_tasks.js";
import { controlRow, readout, select, slider } from "../../../web/ui/controls.js";
import { formatPercent, formatSeconds } from "../../../web/units.js";
import { STRAGGLER_SPEEDS, regimeRun } from "../ps_setup.js";

export function mountRegimes(figure, core) {
  const regime = select({ label: "Regime", options: [["bsp", "BSP: barrier every clock"], ["ssp", "SSP(s): at most s clocks ahead"],
    ["asp", "ASP: never wait"]], value: "bsp", onChange: draw });
  const bound = slider({ label: "SSP's bound s", min: 0, max: 8, value: 2, step: 1, onInput: draw });
  controlRow(figure, regime, bound);
  const box = document.createElement("div");
  figure.append(box);
  const out = readout(figure);

  function draw() {
    // The bound means something only under SSP: under BSP and ASP its slider is not shown.
    bound.el.hidden = regime.value !== "ssp";
    const s = Math.round(bound.value);
    const started = performance.now();
    const { run } = regimeRun(core, { regime: regime.value, staleness: s });
    recordRun(figure, started);
    // A push goes to the one server shard, rank W after the workers 0 … W − 1 (the core's node numbering).
    const W = STRAGGLER_SPEEDS.length;
    const spans = run.spans.map((sp) => ({ rank: sp.worker, kind: sp.kind === "push" ? "send" : sp.kind, start: sp.start, end: sp.end,
      ...(sp.kind === "push" ? { peer: W } : {}) }));
    const name = regime.value === "ssp" ? `SSP(${s})` : regime.value.toUpperCase();
    renderTimeline(box, spans, { ranks: W, title: `${name}: ${W} workers, 8 clocks (send = push)` });
    const tau = run.updates.tau, maxTau = tau.reduce((a, b) => Math.max(a, b), 0);
    out.innerHTML = `${name} finishes in <strong>${formatSeconds(run.makespan)}</strong>; the workers spend
      <strong>${formatPercent(run.stallFraction, { decimals: 0 })}</strong> of their time waiting; the stalest applied
      gradient was computed on parameters <strong>τ = ${maxTau}</strong> updates old. Each worker's wait (0 … 5):
      ${[...run.waitSeconds].map((w) => formatSeconds(w)).join(", ")}.`;
  }
  draw();
}
