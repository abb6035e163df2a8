// train_panel.js — widget "train": the lab itself. The learner picks a model and a dp × tp × pp grid and
// presses Train; every rank is a Web Worker holding only its part of the model (programs/lab_train.js) and
// training it with the core's kernels and real messages. Live: the loss of the parallel run on top of the
// single-device run (core.trainSingle, computed here first). After the run: the parameter difference from
// one device, the last step's timeline per rank, the memory each Worker held and the bytes moved by kind. With
// experts E > 0 every second block is an MoE layer split over ep ranks (programs/lab_moe.js), the reference is
// core.trainSingleMoe, and the report adds the tokens each expert wanted and kept.
// While it trains the controls are locked (the report always describes the run that produced it), a progress
// bar counts steps and estimates the time left, and Stop ends the run; long training is not a hang, so there is
// no time limit, only a watchdog for Workers that stop reporting (STALL_MS).
import { button, chartBox, controlRow, select, statusReadout } from "../../../web/ui/controls.js";
import { createLineChart, describeChart } from "../../../web/ui/charts.js";
import { describeFailure } from "../../../web/ui/run_output.js";
import { formatNumber, formatSeconds, plural, withArticle } from "../../../web/units.js";
import { modelTensors } from "../programs/lab_grid.js";
import {
  LAB_DEFAULTS, assembleParams, labPlan, labProgram, moeLoad,
} from "../programs/lab_program.js";
import { maxRelativeDifference } from "../../../web/exercise/compare_training.js";
import { renderMoves } from "./moves.js";
import { renderPhases } from "../../../web/ui/phase_timeline.js";
import { coreComparison, renderBytes, renderLoad, renderMemory } from "./train_report.js";
import { mountTrainStep } from "./train_step.js";

const MAX_WORKERS = 16;
const STALL_MS = 60000;   // no progress report from any Worker for this long: something is stuck

// The single-device reference, computed in a Worker of its own while the lab trains (the page stays free).
const REFERENCE = "async function main(ctx) { return ctx.core[ctx.input.fn](ctx.input.request); }";
const choices = (values, text = String) => values.map((v) => [String(v), text(v)]);

// What the measured timeline's boxes mean. A collective lasts until its slowest member has taken part, so with
// more Workers than cores much of an all-reduce's box is a member waiting for a core, not data moving (the lab's
// messages are a few KiB: microseconds on any link).
function timelineNote(ranks) {
  const cores = globalThis.navigator?.hardwareConcurrency ?? 0;
  return "Measured with the Workers' clock: compute is the core's kernels; idle is waiting for a pipeline neighbour; " +
    "a collective's box lasts until its slowest member has joined" +
    (cores && ranks > cores ? ` — here ${ranks} Workers share ${plural(cores, "core")}, so much of it is a member waiting for a core, not data moving.` : ".");
}

// The expert-parallel axis in words, under the diagram (which draws dp × tp × pp): who holds which experts and
// what the all-to-all moves.
function expertNote(cfg, layout) {
  const { dp, ep } = cfg.grid, per = layout.experts / ep;
  const groups = Array.from({ length: dp / ep }, (_, g) => `{d${g * ep}…d${g * ep + ep - 1}}`).join(" ");
  const p = document.createElement("p");
  p.className = "moves-summary";
  p.textContent = ep === 1
    ? `MoE blocks: every rank holds all ${layout.experts} experts and the router; no all-to-all, expert gradients are averaged over dp.`
    : `MoE blocks: ep groups ${groups} of each dp group; ` +
      `${Array.from({ length: ep }, (_, i) => `ep rank ${i} holds e${i * per}${per > 1 ? `–e${i * per + per - 1}` : ""}`).join(", ")}, ` +
      `each a copy of the router. Per MoE block and micro-batch, two all-to-alls forward (dispatch, combine) and two backward; ` +
      (dp === ep ? "each expert lives on one rank of the dp group, so its gradient needs no all-reduce."
        : `expert gradients are averaged over the ${dp / ep} ranks holding the same experts.`);
  return p;
}

export function mountTrainPanel(figure, core, clusters) {
  const d = LAB_DEFAULTS;
  const c = {
    layers: select({ label: "Blocks L", value: String(d.model.layers), options: choices([2, 4, 8]) }),
    width: select({ label: "Width D", value: String(d.model.width), options: choices([16, 32, 64]) }),
    hidden: select({ label: "Hidden F", value: String(d.model.hidden), options: choices([64, 128, 256]) }),
    batch: select({ label: "Batch B", value: String(d.batch), options: choices([16, 32, 64]) }),
    dp: select({ label: "dp", value: String(d.grid.dp), options: choices([1, 2, 4]) }),
    tp: select({ label: "tp", value: String(d.grid.tp), options: choices([1, 2, 4]) }),
    pp: select({ label: "pp", value: String(d.grid.pp), options: choices([1, 2, 4]) }),
    fsdp: select({ label: "Sharding over dp", value: d.fsdp ? "on" : "off",
      options: [["off", "replicas (DDP)"], ["on", "FSDP / ZeRO-3"]] }),
    micro: select({ label: "Micro-batches m", value: String(d.microBatches), options: choices([1, 2, 4, 8]) }),
    schedule: select({ label: "Schedule", value: d.schedule, options: [["1f1b", "1F1B"], ["gpipe", "GPipe"],
      ["interleaved", "interleaved 1F1B, v = 2"], ["zb-h1", "zero-bubble ZB-H1"]] }),
    optimizer: select({ label: "Optimizer", value: d.optimizer.kind, options: [["adam", "Adam, lr 0.003"], ["sgd", "SGD, lr 0.05"]] }),
    steps: select({ label: "Steps", value: String(d.steps), options: choices([20, 40, 100]) }),
    experts: select({ label: "Experts E", value: String(d.moe.experts),
      options: choices([0, 2, 4, 8], (v) => (v ? `${v} (every 2nd block MoE)` : "0 (dense)")) }),
    topK: select({ label: "Top-k", value: String(d.moe.topK), options: choices([1, 2]) }),
    capacity: select({ label: "Capacity factor", value: String(d.moe.capacityFactor), options: choices([0.5, 1, 1.25, 2]) }),
    ep: select({ label: "ep", value: String(d.grid.ep), options: choices([1, 2, 4]) }),
  };
  const train = button("Train", () => run());
  const stop = button("Stop", () => stopper?.abort(), { secondary: true });
  stop.hidden = true;
  const row = controlRow(figure, ...Object.values(c), train, stop);
  const status = statusReadout(figure);
  const progress = document.createElement("progress");
  progress.className = "train-progress";
  progress.hidden = true;
  progress.setAttribute("aria-label", "Training steps done");
  status.after(progress);
  const canvas = chartBox(figure, "Loss per step: the parallel run on the Workers over the single-device run");
  const chart = createLineChart(canvas, { xLabel: "step", yLabel: "loss (mean squared error)", datasets: [] });
  const parts = {};
  for (const [key, title] of [["moves", "What moves where"], ["timeline", "The last step on each Worker (measured)"],
    ["memory", "Memory each Worker held (measured)"], ["bytes", "Bytes per step by kind (measured)"],
    ["experts", "Tokens per expert in the last step (measured)"]]) {
    const section = document.createElement("div");
    section.className = `train-${key}`;
    const h = document.createElement("h3");
    h.textContent = title;
    parts[key] = document.createElement("div");
    section.hidden = key !== "moves";   // the measured panels appear with the first run's report
    section.append(h, parts[key]);
    figure.querySelector("figcaption").before(section);
  }

  // Step: one step of the same program, statement by statement (train_step.js).
  const stepper = mountTrainStep(figure, { clusters, config: () => preview(), before: figure.querySelector("figcaption") });
  row.append(stepper.button);

  const config = () => ({
    model: { layers: +c.layers.value, width: +c.width.value, hidden: +c.hidden.value, activation: "gelu", residual: true },
    optimizer: c.optimizer.value === "adam" ? { kind: "adam", lr: 0.003 } : { kind: "sgd", lr: 0.05 },
    grid: { dp: +c.dp.value, tp: +c.tp.value, pp: +c.pp.value, ep: +c.ep.value },
    moe: { experts: +c.experts.value, topK: +c.topK.value, capacityFactor: +c.capacity.value, every: 2 },
    fsdp: c.fsdp.value === "on", microBatches: +c.micro.value, schedule: c.schedule.value,
    batch: +c.batch.value, steps: +c.steps.value, seed: d.seed,
  });
  const rankName = (cfg) => (r) => {
    const { dp, tp } = cfg.grid;
    return `rank ${r} (d${Math.floor(r / tp) % dp} t${r % tp} p${Math.floor(r / (tp * dp))})`;
  };

  // The diagram follows the controls; a configuration that cannot run says why at once. `plan` is what a Train
  // then runs (labPlan: layout, inputs, the reference request, computed once per configuration).
  let plan = null;
  const preview = () => {
    const cfg = config();
    plan = null;
    try {
      const { layout, ranks } = plan = labPlan(cfg);
      if (ranks > MAX_WORKERS) throw new Error(`dp × tp × pp = ${ranks} Workers; the lab runs at most ${MAX_WORKERS}`);
      renderMoves(parts.moves, { grid: cfg.grid, fsdp: cfg.fsdp, model: cfg.model, microBatches: cfg.microBatches });
      if (layout.experts) parts.moves.querySelector(".moves-summary")?.after(expertNote(cfg, layout));
      train.disabled = false;
      stepper.setDisabled(false);
      status.textContent = `${ranks} Worker${ranks > 1 ? "s" : ""}, each holding its part of ` +
        `${withArticle(`${cfg.model.layers}-block model`)}${layout.experts ? ` with ${Math.floor(cfg.model.layers / 2)} MoE blocks of ${layout.experts} experts` : ""} ` +
        `(Ψ = ${plural(modelTensors(cfg, layout).reduce((n, t) => n + t.length, 0), "parameter")}). Press Train.`;
      return cfg;
    } catch (err) {
      train.disabled = true;
      stepper.setDisabled(true);
      plan = null;
      status.textContent = `${err.message}. Change the grid, the model or the schedule.`;
      return null;
    }
  };
  for (const control of Object.values(c)) control.el.querySelector("select").addEventListener("change", preview);

  let busy = false;
  let stopper = null;
  const lock = (locked) => {
    for (const control of Object.values(c)) control.el.querySelector("select").disabled = locked;
    train.disabled = locked;
    stepper.setDisabled(locked);
    stop.hidden = !locked;
    progress.hidden = !locked;
  };
  // The panels below describe one run: cleared when the next starts.
  const REPORT = ["timeline", "memory", "bytes", "experts"];
  const clearReport = () => {
    for (const key of REPORT) { parts[key].replaceChildren(); parts[key].parentElement.hidden = true; }
  };

  async function run() {
    const cfg = preview(), current = plan;
    if (!cfg || busy) return;
    busy = true;
    stopper = new AbortController();
    lock(true);
    clearReport();
    try {
      const { ranks, layout } = current;
      const single = [];
      const live = { sums: new Float64Array(cfg.steps), counts: new Int32Array(cfg.steps), points: [] };
      // Chart.js draws the first dataset on top: the single-device line dashed over the Workers' points.
      const draw = () => chart.update({ datasets: [
        { label: `one device (core.${current.reference.fn})`, data: single, dashed: true },
        { label: `${ranks} Workers`, data: live.points, points: true },
      ] });
      draw();
      // The chart's text (also the canvas's screen-reader description) speaks of this run from its start.
      describeChart(figure, `Training on ${plural(ranks, "Worker")}: the Workers' loss is drawn as each step ends.`);
      progress.max = cfg.steps;
      progress.value = 0;
      let started = null, frame = 0, done = 0;
      const showProgress = () => {
        if (started === null) { status.textContent = `Starting ${ranks} Workers…`; return; }
        const elapsed = (performance.now() - started) / 1000;
        const left = done > 0 ? elapsed / done * (cfg.steps - done) : null;
        status.textContent = `Training on ${ranks} Workers: step ${done} of ${cfg.steps}` +
          (left === null ? "…" : `, about ${formatSeconds(left, 2)} left.`);
      };
      showProgress();
      const reference = clusters.run(1, REFERENCE, { inputs: [current.reference], timeoutMs: Infinity, stallMs: STALL_MS,
        signal: stopper.signal });
      reference.then((r) => {
        if (r.status !== "ok") return;
        single.push(...Array.from(r.results[0].losses, (y, x) => ({ x, y })));
        draw();
      }, () => {});   // a failure is reported below, once the lab's own run has ended
      const result = await clusters.run(ranks, labProgram(), {
        inputs: current.inputs, timeoutMs: Infinity, stallMs: STALL_MS, signal: stopper.signal,
        onStart: () => { started = performance.now(); showProgress(); },
        onProgress(rank, { step, loss }) {
          live.sums[step] += loss;
          if (++live.counts[step] < cfg.grid.dp) return;
          live.points.push({ x: step, y: live.sums[step] / cfg.grid.dp });
          done = Math.max(done, step + 1);
          progress.value = done;
          frame ||= requestAnimationFrame(() => { frame = 0; draw(); showProgress(); });
        },
      });
      const seconds = (performance.now() - (started ?? performance.now())) / 1000;
      cancelAnimationFrame(frame);   // a pending progress frame must not overwrite the report
      draw();
      if (result.status !== "ok") {
        describeChart(figure, partialSummary(live.points, cfg.steps, result.status));
        status.innerHTML = result.status === "stopped"
          ? `Stopped after ${done} of ${cfg.steps} steps. Press Train to start again.` : describeFailure(result);
        return;
      }
      status.textContent = "Finishing the single-device reference…";
      const ref = await reference;
      if (ref.status !== "ok") {
        status.innerHTML = `The single-device reference failed: ${describeFailure(ref)}`;
        return;
      }
      report(cfg, layout, result, ref.results[0], seconds);
    } catch (err) {
      status.textContent = `The lab could not run: ${err.message}`;
    } finally {
      busy = false;
      stopper = null;
      lock(false);
    }
  }

  // What the chart shows of a run that did not finish: the steps it drew, not an earlier run's curve.
  function partialSummary(points, steps, status) {
    const how = status === "stopped" ? "Stopped" : "Ended";
    if (!points.length) return `${how} before the first of ${plural(steps, "step")} ended: no loss to draw.`;
    const last = points.reduce((a, p) => (p.x > a.x ? p : a));
    return `${how} after ${points.length} of ${plural(steps, "step")}: the Workers' loss went from ` +
      `${formatNumber(points.find((p) => p.x === 0)?.y ?? points[0].y)} to ${formatNumber(last.y)}.`;
  }

  function report(cfg, layout, result, ref, seconds) {
    const { params, replicaGap } = assembleParams(result.results, cfg, layout);
    const gap = maxRelativeDifference(params, ref.params);
    const ranks = result.results.length;
    status.textContent = `${plural(cfg.steps, "step")} on ${plural(ranks, "Worker")} in ${formatSeconds(seconds)} ` +
      `(${formatNumber(cfg.steps / seconds, { digits: 2 })} steps/s). Assembled from the Workers' shards, the parameters differ from ` +
      `single-device training by ${formatNumber(gap, { digits: 2 })} (relative)` +
      `${cfg.grid.dp > 1 && !cfg.fsdp ? `; the dp replicas agree to ${formatNumber(replicaGap, { digits: 2 })}` : ""}: ` +
      `${gap < 1e-9 ? "the same training, up to the order of floating-point sums." : "NOT the same training."}`;
    describeChart(figure, `Loss from ${formatNumber(ref.losses[0])} to ` +
      `${formatNumber(ref.losses[cfg.steps - 1])} in ${plural(cfg.steps, "step")}; the parallel curve lies on the single-device one.`);
    // Shown before drawing: the timeline is drawn to its box's width, which a hidden box does not have.
    const load = moeLoad(result.results, cfg);
    for (const key of REPORT) parts[key].parentElement.hidden = key === "experts" && !load.length;
    const phases = result.results.flatMap((r) => r.phases);
    const t0 = Math.min(...phases.map((p) => p.start));
    const name = rankName(cfg);
    renderPhases(parts.timeline, phases.map((p) => ({ ...p, start: p.start - t0, end: p.end - t0 })), {
      ranks, rowLabel: (r) => name(r).replace("rank ", "r"),
      title: `Step ${cfg.steps - 1}, ${formatSeconds(Math.max(...phases.map((p) => p.end)) - t0)} on the Workers`,
      note: timelineNote(ranks),
    });
    const comparison = coreComparison(core, cfg);   // the matching C++ strategy's accountant and log, once
    renderMemory(parts.memory, result.results, cfg, core, name, comparison);
    renderBytes(parts.bytes, result, cfg, core, comparison);
    if (load.length) renderLoad(parts.experts, load, ref.load);
  }

  preview();
}
