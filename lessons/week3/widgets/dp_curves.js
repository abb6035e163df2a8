// dp_curves.js — widget "dp-curves" (section #dp-trainer): the data-parallel trainer (programs/dp_train.js) on P = 1, 2, 4, 8
// Workers (or one P of the learner's choice), the same model and global batch each time; every run's loss curve
// over the single-device one (core.trainSingle), and a report of how far each run's parameters are from one device
// and how many steps per second it made. Runs one after another, so their speeds are comparable; Stop ends them.
import { button, chartBox, controlRow, lockSettings, select, statusReadout } from "../../../web/ui/controls.js";
import { createLineChart, describeChart } from "../../../web/ui/charts.js";
import { describeFailure } from "../../../web/ui/run_output.js";
import { formatNumber, plural } from "../../../web/units.js";
import { coreTasks } from "../../../web/lesson/core_tasks.js";
import { dpConfig, dpInputs, dpProgram, replicaGap } from "../programs/dp_program.js";
import { lossesFromProgress, maxRelativeDifference } from "../../../web/exercise/compare_training.js";

// 840 rows divide among any P ≤ 8; overlap on (bucketed DDP), as PyTorch runs it.
export const CURVES_CONFIG = Object.freeze(dpConfig({
  model: { layers: 4, width: 32, hidden: 64, activation: "gelu", residual: true }, optimizer: { kind: "sgd", lr: 0.2 },
  batch: 840, steps: 30, sync: "bucketed", bucketBytes: 16 * 1024,
}));
const STALL_MS = 60000;
const tasks = coreTasks(new URL("../dp_reference.js", import.meta.url));

export function mountDpCurves(figure, core, clusters) {
  const pick = select({ label: "Workers P", value: "3", options: [1, 2, 3, 4, 5, 6, 7, 8].map((p) => [String(p), String(p)]) });
  const all = button("Train P = 1, 2, 4, 8", () => run([1, 2, 4, 8]));
  const one = button("Train on P Workers", () => run([Number(pick.value)]), { secondary: true });
  const stop = button("Stop", () => stopper?.abort(), { secondary: true });
  stop.hidden = true;
  controlRow(figure, pick, all, one, stop);
  const status = statusReadout(figure);
  const chart = createLineChart(chartBox(figure, "Loss per step of each run on the Workers over the single-device run"),
    { xLabel: "step", yLabel: "loss (mean squared error)", datasets: [] });
  const cfg = CURVES_CONFIG;
  // The single-device curve comes from a Worker (dp_reference.js): drawn when it arrives, awaited before a run.
  let single = null;
  const singleReady = tasks.call("singleDevice", cfg).then((s) => { single = s; draw(); return s; });
  singleReady.catch((err) => { status.textContent = `The single-device run failed: ${err.message}`; });
  const runs = new Map();   // P → { points, report }
  let stopper = null;
  status.textContent = `Each run trains a ${cfg.model.layers}-block MLP (Ψ = ${2 * cfg.model.layers * cfg.model.width * cfg.model.hidden} ` +
    `parameters) for ${cfg.steps} SGD steps on a global batch of ${cfg.batch} rows. Press a Train button.`;
  const draw = () => chart.update({ datasets: [
    { label: "one device (core.trainSingle)", data: single ? Array.from(single.losses, (y, x) => ({ x, y })) : [], dashed: true },
    ...[...runs].sort(([a], [b]) => a - b).map(([P, r]) => ({ label: plural(P, "Worker"), data: r.points, points: true })),
  ] });
  draw();

  async function run(list) {
    if (stopper) return;
    stopper = new AbortController();
    for (const b of [all, one]) b.disabled = true;
    lockSettings(figure, true);
    stop.hidden = false;
    try {
      await singleReady;   // (before any run starts, so it does not share the CPU with the Workers being timed)
      for (const P of list) {
        const points = [];
        runs.set(P, { points, report: null });
        status.textContent = `Training on ${plural(P, "Worker")}…`;
        let started = null, frame = 0;
        const sums = new Float64Array(cfg.steps), counts = new Int32Array(cfg.steps);
        const result = await clusters.run(P, dpProgram(), {
          inputs: dpInputs(cfg, P), timeoutMs: Infinity, stallMs: STALL_MS, signal: stopper.signal,
          onStart: () => { started = performance.now(); },
          onProgress: (rank, { step, loss, rows }) => {   // the live curve: a point once every replica has reported
            sums[step] += rows * loss;
            if (++counts[step] < P) return;
            points.push({ x: step, y: sums[step] / cfg.batch });
            status.textContent = `Training on ${plural(P, "Worker")}: step ${step + 1} of ${cfg.steps}…`;
            frame ||= requestAnimationFrame(() => { frame = 0; draw(); });
          },
        });
        cancelAnimationFrame(frame);
        const seconds = (performance.now() - (started ?? performance.now())) / 1000;
        if (result.status !== "ok") {
          runs.delete(P);
          status.innerHTML = result.status === "stopped" ? "Stopped. Press a Train button to start again." : describeFailure(result);
          return;
        }
        const losses = lossesFromProgress(result.progress, cfg.steps);
        points.splice(0, points.length, ...losses.map((y, x) => ({ x, y })));
        const lossGap = Math.max(...losses.map((l, i) => Math.abs(l - single.losses[i]) / single.losses[i]));
        runs.get(P).report = { P, seconds, lossGap, params: maxRelativeDifference(result.results[0].params, single.params), replicas: replicaGap(result.results) };
        draw();
      }
      report();
    } catch (err) {
      status.textContent = `The run could not start: ${err.message}`;
    } finally {
      stopper = null;
      for (const b of [all, one]) b.disabled = false;
      lockSettings(figure, false);
      stop.hidden = true;
    }
  }

  function report() {
    const done = [...runs.values()].map((r) => r.report).filter(Boolean).sort((a, b) => a.P - b.P);
    const worst = Math.max(...done.map((r) => Math.max(r.lossGap, r.params)));
    status.textContent = done.map((r) => `P = ${r.P}: ${formatNumber(cfg.steps / r.seconds, { digits: 2 })} steps/s`).join("; ") +
      `. Every run's losses and final parameters equal one device's to ${formatNumber(worst, { digits: 2 })} (relative)` +
      `${worst < 1e-9 ? ": the same training, up to the order of floating-point sums." : " — NOT the same training."}`;
    describeChart(figure, `Loss from ${formatNumber(single.losses[0])} to ${formatNumber(single.losses[cfg.steps - 1])} in ` +
      `${cfg.steps} steps; the curves of ${done.map((r) => `P = ${r.P}`).join(", ")} lie on the single-device one.`,
      [["P", "steps/s", "largest relative loss difference", "parameters vs one device"],
        ...done.map((r) => [r.P, formatNumber(cfg.steps / r.seconds, { digits: 2 }), formatNumber(r.lossGap, { digits: 2 }), formatNumber(r.params, { digits: 2 })])]);
  }
}
