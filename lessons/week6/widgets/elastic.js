// elastic.js — widget "elastic": data parallelism on P workers of which k leave after step 9 and (optionally) come
// back at step 25, the global batch kept and the optimizer state re-sharded (ZeRO-1) or replicated — the loss per step
// beside one device on the same batches (elastic_setup.elasticRun → core.trainElastic, in a Worker). A world that
// cannot divide the batch is refused by the core; its message is shown. The k may instead crash during step 10: then
// ZeRO-1 rolls back to its last checkpoint (every c steps) and the chart marks the steps recomputed; replicated state
// redoes only the step in flight.
import { createLineChart, describeChart } from "../../../web/ui/charts.js";
import { chartBox, controlRow, readout, select, slider } from "../../../web/ui/controls.js";
import { formatBytes, formatNumber, plural } from "../../../web/units.js";
import { coreTasks, recordRun } from "../../../web/lesson/core_tasks.js";
import { ELASTIC } from "../elastic_setup.js";

const tasks = coreTasks(new URL("../elastic_setup.js", import.meta.url));

export function mountElastic(figure) {
  const workers = select({ label: "Workers P", options: [["4", "4"], ["6", "6"], ["8", "8"]], value: "4", onChange: draw });
  // "Leaving at step 10: k = 2" — the step and the number of leavers each named (k, as in the caption); short
  // enough not to wrap on a 360 px screen.
  const drop = slider({ label: `Leaving at step ${ELASTIC.dropAt}:`, min: 0, max: 7, step: 1, value: 2,
    format: (k) => `k = ${Math.round(k)}`, onInput: draw });
  const rejoin = select({ label: `At step ${ELASTIC.rejoinAt}`, options: [["yes", "they come back"], ["no", "they stay away"]], value: "yes", onChange: draw });
  const state = select({ label: "Optimizer state", options: [["zero", "sharded (ZeRO-1)"], ["dp", "replicated"]], value: "zero", onChange: draw });
  const how = select({ label: "They", options: [["leave", "leave gracefully"], ["crash", "crash"]], value: "leave", onChange: draw });
  const every = select({ label: "Checkpoint every", options: [3, 4, 5, 6, 8].map((c) => [String(c), `${c} steps`]),
    value: String(ELASTIC.checkpointEvery), onChange: draw });
  controlRow(figure, workers, drop, rejoin, state, how, every);
  const out = readout(figure);
  const canvas = chartBox(figure, "Loss per step of the elastic run and of one device on the same batches");
  const chart = createLineChart(canvas, { xLabel: "step", yLabel: "training loss", datasets: [], empty: "Training…" });

  async function draw() {
    const P = Number(workers.value), k = Math.round(drop.value), crash = how.value === "crash";
    every.el.querySelector("select").disabled = !crash;   // only a crash reads a checkpoint
    if (k >= P) {
      out.textContent = `${k} of ${P} workers cannot leave: at least one must stay. Choose fewer than ${P}.`;
      return;
    }
    out.textContent = "Training…";
    const started = performance.now();
    let r;
    try {
      r = await tasks.latest("draw", "elasticRun", { workers: P, drop: k, rejoin: rejoin.value === "yes", replicated: state.value === "dp",
        crash, checkpointEvery: Number(every.value) });
    } catch (err) {
      out.textContent = `The run could not start: ${err.message}`;
      return;
    }
    if (!r) return;
    recordRun(figure, started);
    if (r.error) {
      chart.update({ datasets: [] });
      out.innerHTML = `<strong>Refused by the core:</strong> ${r.error}.`;
      describeChart(figure, "No run: the world size does not divide the global batch.");
      return;
    }
    // The steps a crash made the run compute again: from the checkpoint it rolled back to, up to the crash.
    const redone = new Set(r.resizes.filter((e) => e.lostSteps > 0)
      .flatMap((e) => Array.from({ length: e.lostSteps }, (_, i) => e.restoredFrom + i)));
    chart.update({
      datasets: [
        { label: "one device", data: r.single.map((y, x) => ({ x, y })) },
        { label: "elastic run", points: true, line: false, data: r.losses.map((y, x) => ({ x, y })) },
        ...(redone.size ? [{ label: "recomputed after the crash", points: true, line: false, radius: 6,
          data: [...redone].map((x) => ({ x, y: r.losses[x] })) }] : []),
      ],
      verticalLines: [
        ...r.resizes.map((e) => ({ x: e.step, label: `${e.crash ? "crash " : ""}${e.from} → ${e.to}` })),
        ...r.resizes.filter((e) => e.restoredFrom >= 0).map((e) => ({ x: e.restoredFrom, label: `checkpoint ${e.restoredFrom}` })),
      ],
    });
    figure.dataset.redone = String(redone.size);
    const moves = r.resizes.map((e) => (e.crash
      ? `During step ${e.step}, ${e.from - e.to} of ${e.from} workers ${e.from - e.to === 1 ? "crashes" : "crash"}: ${e.restoredFrom >= 0
        ? `their optimizer shards are lost, so ${plural(e.to, "survivor", { article: "the" })} ${e.to === 1 ? "rolls" : "roll"} back to the checkpoint of step ${e.restoredFrom}, read ${formatBytes(e.bytesRestored)} from it and recompute <strong>${plural(e.lostSteps, "step")}</strong>${e.lostSteps === 1 ? ` (step ${e.restoredFrom})` : e.lostSteps ? ` (steps ${e.restoredFrom}–${e.step - 1})` : ""} before redoing step ${e.step}`
        : `every survivor holds the whole state, so only step ${e.step}, in flight, is redone (0 steps recomputed)`}`
      : `At step ${e.step}, ${e.from} → ${e.to} workers: ${formatBytes(e.optimizerBytesMoved)} of optimizer state moved${
        e.parameterBytesToJoiners ? `, ${formatBytes(e.parameterBytesToJoiners)} of parameters to the joiners` : ""}`));
    out.innerHTML = `Global batch ${ELASTIC.batch} rows every step, whatever P. ${moves.length ? `${moves.join(". ")}.` : "No worker leaves."}
      The final parameters differ from one device's by at most <strong>${formatNumber(r.maxRelativeDifference, 2)}</strong> (relative).`;
    describeChart(figure, `The elastic run's loss lies on one device's at every step, across ${plural(r.resizes.length, "resize")}${
      redone.size ? `; ${plural(redone.size, "step")} ${redone.size === 1 ? "was" : "were"} recomputed after the crash` : ""}.`,
      [["step", "workers", "elastic loss", "one device"], ...r.losses.map((l, i) => [String(i), String(r.workers[i]), formatNumber(l, 6), formatNumber(r.single[i], 6)])]);
  }
  draw();
}
