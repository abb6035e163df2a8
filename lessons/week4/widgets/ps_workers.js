// ps_workers.js — widget "ps-workers" (section "A parameter server on the Workers"): programs/ps_train.js on real
// Workers — one server shard, W workers with artificial delays from the speed model — under ASP, SSP, BSP or backup
// workers, next to the simulator (core.trainParamServer) on the same speed model. Every run is replayed from its
// own record (ps_program.js replayRun) and must end exactly at the shard's θ. The Workers' staleness is real: two
// runs of the same settings apply the updates in different orders; the simulator's is the same every time.
import { button, chartBox, controlRow, select, statusReadout, tableScroll } from "../../../web/ui/controls.js";
import { createLineChart, describeChart } from "../../../web/ui/charts.js";
import { formatNumber, formatSeconds, plural } from "../../../web/units.js";
import { finished, runGuard } from "../../../web/ui/worker_run.js";
import { WORKERS_DEMO, demoSpeed, finalLoss, histogram, lossCurve, psConfig, psInputs, psProgram, replayGap, replayRun,
         serversOf, simulateRun, stalenessOf } from "../programs/ps_program.js";

const UNIT_MS = WORKERS_DEMO.fields.delayMs;   // one unit of the speed model on the Workers
const ITERATIONS = WORKERS_DEMO.fields.iterations;
const REGIMES = { asp: "ASP (no waiting)", ssp: "SSP, s = 2", bsp: "BSP (barrier)", backup: "backup workers, b = 1" };

export function mountPsWorkers(figure, core, clusters) {
  const changed = () => { runs = []; show(); };
  const regime = select({ label: "Regime", value: "asp", options: Object.entries(REGIMES), onChange: changed });
  const workers = select({ label: "Workers W", value: "4", options: [["3", "3"], ["4", "4"], ["6", "6"]], onChange: changed });
  const speed = select({ label: "Speeds", value: "slow4", options: [["slow4", "one worker 4× slower"],
    ["equal", "all equal"], ["exp", "exponential (seeded)"]], onChange: changed });
  const rate = select({ label: "Learning rate", value: "plain", options: [["plain", "η"], ["aware", "η / (τ + 1)"]], onChange: changed });
  const run = button("Run on the Workers", () => runOnWorkers());
  controlRow(figure, regime, workers, speed, rate, run);
  const status = statusReadout(figure);
  const guard = runGuard(figure, [run], status);
  const tableBox = tableScroll(status);
  const tauChart = createLineChart(chartBox(figure, "Staleness of the applied gradients"),
    { xLabel: "staleness τ (updates)", yLabel: "share of updates", datasets: [] });
  const lossChart = createLineChart(chartBox(figure, "Held-out loss against updates"),
    { xLabel: "updates applied", yLabel: "held-out MSE", datasets: [] });
  let runs = [];      // the last two Workers runs of the current settings
  status.textContent = `${plural(ITERATIONS, "clock")} per worker; a unit of the speed model is ${UNIT_MS} ms on the Workers. ` +
    "Press “Run on the Workers”, then press it again: the two runs' staleness differs, the simulator's never does.";

  function settings() {
    const W = Number(workers.value);
    const fixed = demoSpeed(W, speed.value === "slow4" ? WORKERS_DEMO.slow : 1);
    const model = speed.value === "exp" ? { ...fixed, distribution: "exponential" } : fixed;
    return { W, model, fields: { ...WORKERS_DEMO.fields, regime: regime.value, stalenessAware: rate.value === "aware" } };
  }

  const runOnWorkers = () => guard(async () => {
    const { W, model, fields } = settings();
    const config = psConfig(core, fields, W, model);
    status.textContent = `Running a parameter server and ${plural(W, "worker")} on ${W + 1} Workers…`;
    const result = await clusters.run(W + 1, psProgram(), { inputs: psInputs(config, W + 1), timeoutMs: Infinity, stallMs: 30000 });
    finished(result);
    const servers = serversOf(result);
    const gap = replayGap(servers, replayRun(core, config, result));
    runs = [...runs.slice(-1), { result, config, servers, gap, tau: stalenessOf(servers, config), loss: finalLoss(core, config, servers),
      order: servers[0].applied.map((a) => (a.worker ?? a.workers.join("+"))) }];
    show();
  });

  // The simulator on the same settings (ps_program.js simulateRun): reproducible for its seed.
  function simulate() {
    const { W, model, fields } = settings();
    return simulateRun(core, psConfig(core, fields, W, model), W, model);
  }

  function show() {
    const sim = simulate();
    const share = (tau) => histogram(tau).map((n, x) => ({ x, y: n / tau.length }));
    const datasets = runs.map((r, i) => ({ label: `Workers, run ${i + 1}`, data: share(r.tau), points: true }));
    datasets.push({ label: "simulator (the same every time)", data: share(sim.tau), dashed: true, points: true });
    tauChart.update({ datasets });
    const losses = runs.map((r, i) => ({ label: `Workers, run ${i + 1}`,
      data: lossCurve(r.result.progress).map((p) => ({ x: p.updates, y: p.loss })) }));
    losses.push({ label: "simulator", dashed: true,
      data: Array.from(sim.training.updates, (x, i) => ({ x, y: sim.training.loss[i] })) });
    lossChart.update({ datasets: losses });
    renderTable(sim);
    const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
    describeChart(figure, `Share of updates by staleness τ: ${datasets.map((d) => `${d.label}: ${d.data.map((p) => formatNumber(p.y, 2)).join(", ")}`).join("; ")}.`);
    // New settings clear the runs, and every sentence about them: only the simulator's numbers are for these settings.
    if (!runs.length) {
      if (status.dataset.ran) {
        status.textContent = `${REGIMES[regime.value]}, ${plural(Number(workers.value), "worker")}: the simulator's mean ` +
          `staleness is ${formatNumber(mean(sim.tau), 2)} (max τ ${Math.max(...sim.tau)}). Press “Run on the Workers” to measure it.`;
      }
      return;
    }
    status.dataset.ran = "1";
    let text = `Mean staleness: Workers ${runs.map((r) => formatNumber(mean(r.tau), 2)).join(" and ")}, simulator ` +
      `${formatNumber(mean(sim.tau), 2)}. Every Workers run replays exactly from its own record.`;
    if (runs.length === 2) {
      const [a, b] = runs.map((r) => r.order);
      const differ = a.filter((w, i) => w !== b[i]).length;
      text += differ ? ` The two runs applied ${differ} of ${a.length} updates from different workers: the same program, ` +
        "the same delays, another interleaving." : " The two runs applied every update in the same order this time (with " +
        "a barrier there is little to vary); try ASP.";
    }
    status.textContent = text;
  }

  function renderTable(sim) {
    const t = document.createElement("table");
    const rows = runs.map((r, i) => `<tr><th scope="row">Workers, run ${i + 1}</th><td>${r.tau.length}</td>` +
      `<td>${Math.max(...r.tau)}</td><td>${r.servers[0].dropped}</td><td>${formatNumber(r.loss, 3)}</td>` +
      `<td>${formatSeconds(r.result.elapsedMs / 1000, 2)}</td><td>${r.gap < 1e-12 ? "exact" : `off by ${formatNumber(r.gap, 2)}`}</td></tr>`);
    rows.push(`<tr><th scope="row">simulator</th><td>${sim.tau.length}</td><td>${Math.max(...sim.tau)}</td><td>${sim.dropped}</td>` +
      `<td>${formatNumber(sim.training.finalLoss, 3)}</td><td>${formatSeconds(sim.makespan, 2)} (simulated)</td><td>—</td></tr>`);
    t.innerHTML = `<caption>${REGIMES[regime.value]}, ${plural(Number(workers.value), "worker")}</caption><thead><tr>` +
      "<th scope=\"col\">run</th><th scope=\"col\">gradients applied</th><th scope=\"col\">max τ</th><th scope=\"col\">dropped</th>" +
      "<th scope=\"col\">final held-out loss</th><th scope=\"col\">time</th><th scope=\"col\">replay</th></tr></thead><tbody>" +
      rows.join("") + "</tbody>";
    tableBox.replaceChildren(t);
  }

  show();
}
