// failure_live.js — widget "failure-live" (section "Checkpointing", live): data-parallel SGD on P real Workers with
// a checkpoint every k steps held by the page; the learner kills a Worker (or a seeded schedule does), the page
// notices by the missing heartbeats, rolls back to the last committed checkpoint and restarts with a fresh Worker
// in the dead one's place (programs/supervisor.js). The chart is the run's progress against wall time — the drop
// back to the checkpoint is the lost work — and the table its timeline. Then the page proves the recovery exact:
// the final θ against an uninterrupted run from the same checkpoint, one from the start, and one device.
import { button, chartBox, controlRow, select, statusReadout, tableScroll } from "../../../web/ui/controls.js";
import { createLineChart, describeChart } from "../../../web/ui/charts.js";
import { describeFailure } from "../../../web/ui/run_output.js";
import { formatNumber, formatSeconds, plural } from "../../../web/units.js";
import { LIVE, finalParams, liveInput, liveProgram, maxAbsDifference, singleDevice } from "../programs/live_program.js";
import { HEARTBEAT, Supervisor, seededFailure } from "../programs/supervisor.js";

const SEEDS = [1, 2, 4];

export function mountFailureLive(figure, core, clusters) {
  const workers = select({ label: "Workers P", value: "4", options: [["4", "4"], ["8", "8"]], onChange: () => refreshRanks() });
  const failure = select({ label: "Failure", value: "click", options: [["click", "when you press Kill"],
    ...SEEDS.map((s) => [String(s), `seeded (seed ${s})`])], onChange: () => refreshRanks() });
  const victim = select({ label: "Rank to kill", value: "2", options: [], onChange: () => {} });
  const train = button("Train on the Workers", () => start());
  const kill = button("Kill a Worker", () => killShown(), { secondary: true });
  kill.disabled = true;
  const stop = button("Stop", () => stopper?.abort(), { secondary: true });
  stop.disabled = true;
  controlRow(figure, workers, failure, victim, train, kill, stop);
  const settings = [workers, failure].map((c) => c.el.querySelector("select"));   // fixed while a run goes on
  const status = statusReadout(figure);
  const chart = createLineChart(chartBox(figure, "Steps done against wall-clock time, with the failure and the rollback"),
    { xLabel: "wall-clock time (s)", yLabel: "steps done", datasets: [] });
  const tableBox = tableScroll(figure.querySelector(".chart-box"));
  let sup = null, stopper = null;

  // The select always shows the rank Kill will kill: the learner's choice while it is a rank of this P, else rank 2
  // (the last rank when P ≤ 2). An empty select (at mount) keeps nothing: Number("") is 0, a valid-looking rank.
  function refreshRanks(announce = true) {
    const P = Number(workers.value), was = victim.value;
    const sel = victim.el.querySelector("select");
    sel.replaceChildren(...Array.from({ length: P }, (_, r) => new Option(`rank ${r}`, String(r))));
    victim.value = was !== "" && Number(was) < P ? was : String(Math.min(2, P - 1));
    sel.disabled = failure.value !== "click";
    if (failure.value !== "click") {
      const { rank, step } = seededFailure(Number(failure.value), P, LIVE);
      victim.value = String(rank);
      if (announce) status.textContent = `The seeded schedule kills rank ${rank} when step ${step} is reached.`;
    }
  }

  function killShown() {
    const rank = Number(victim.value);
    if (!sup?.kill(rank)) return;
    kill.disabled = true;
    status.textContent = `Killed rank ${rank}'s Worker; the page learns of it only when its heartbeats stop.`;
  }

  async function start() {
    if (sup) return;
    const P = Number(workers.value);
    const schedule = failure.value === "click" ? null : seededFailure(Number(failure.value), P, LIVE);
    stopper = new AbortController();
    delete figure.dataset.equality;   // the last run's proof, until this run's
    sup = new Supervisor(clusters, core, { P, config: LIVE, schedule, signal: stopper.signal, onChange: () => draw(sup) });
    train.disabled = true;
    stop.disabled = false;
    settings.forEach((el) => { el.disabled = true; });
    status.textContent = `Training ${LIVE.steps} steps on ${P} Workers, a checkpoint every ${LIVE.checkpointEvery} steps` +
      (schedule ? `; rank ${schedule.rank} dies at step ${schedule.step}.` : ". Press “Kill a Worker” while it runs.");
    const timer = setInterval(() => draw(sup), 250);
    try {
      const outcome = await sup.run();
      clearInterval(timer);
      draw(sup);
      kill.disabled = true;
      if (outcome.status !== "ok") {
        status.innerHTML = outcome.result ? describeFailure(outcome.result) : "Too many failures: the supervisor gave up.";
        return;
      }
      status.textContent = "Trained. Checking the recovered parameters against uninterrupted runs…";
      status.textContent = await verify(P, outcome);
    } catch (err) {
      // Stop pressed during the check against uninterrupted runs ends it as it ends the training
      status.textContent = stopper.signal.aborted ? "Stopped before it finished." : `The run could not finish: ${err.message}`;
    } finally {
      clearInterval(timer);
      sup = stopper = null;
      train.disabled = false;
      stop.disabled = true;
      kill.disabled = true;
      settings.forEach((el) => { el.disabled = false; });
      refreshRanks(false);
    }
  }

  // Uninterrupted runs on the Workers from the checkpoint the last restart used and from the start, and one device.
  async function verify(P, outcome) {
    const fast = { ...LIVE, stepDelayMs: 0 };
    const uninterrupted = async (start) => {
      const run = await clusters.run(P, liveProgram(), { inputs: new Array(P).fill(liveInput(P, { ...fast, start })),
        timeoutMs: Infinity, stallMs: 60000, signal: stopper.signal });
      if (run.status !== "ok") throw new Error(describeFailure(run).replace(/<[^>]+>/g, ""));
      return finalParams(run);
    };
    const last = outcome.attempts.at(-1).start, killed = [...new Set(outcome.events.filter((e) => e.kind === "kill").map((e) => e.rank))];
    // With no restart the run started from step 0: "from that checkpoint" would be the run from the start again.
    const fromCheckpoint = outcome.restarts
      ? maxAbsDifference(outcome.params, await uninterrupted({ step: last.step, params: last.params })) : null;
    const fromStart = maxAbsDifference(outcome.params, await uninterrupted(null));
    const oneDevice = maxAbsDifference(outcome.params, singleDevice(core, LIVE).params);
    figure.dataset.equality = JSON.stringify({ restarts: outcome.restarts, killed, fromCheckpoint, fromStart, oneDevice });
    const rest = `${formatNumber(fromStart, 3)} against an uninterrupted run from the start, and ` +
      `${formatNumber(oneDevice, 2)} against one device (rounding: the ring sums in another order).`;
    if (!outcome.restarts) return `No Worker failed, so nothing was rolled back. Final parameters: max |Δθ| = ${rest}`;
    const who = killed.length ? ` (killed: ${killed.map((r) => `rank ${r}`).join(", ")})` : "";
    return `Final parameters after ${plural(outcome.restarts, "restart")}${who}, the last from the checkpoint at step ` +
      `${last.step}: max |Δθ| = ${formatNumber(fromCheckpoint, 3)} against an uninterrupted run from that checkpoint, ${rest}`;
  }

  function draw(s) {
    if (!s) return;
    kill.disabled = s.schedule !== null || !s.canKill;   // one kill per attempt; a restarted run can be killed again
    const at = (kind) => s.events.filter((e) => e.kind === kind);
    chart.update({
      datasets: [
        { label: "steps done (highest step reported)", data: s.trail.map((p) => ({ x: p.time, y: p.step })) },
        { label: "committed checkpoints", data: at("checkpoint").map((e) => ({ x: e.time, y: e.step })), points: true, line: false },
      ],
      verticalLines: [...at("kill").map((e) => ({ x: e.time, label: `rank ${e.rank} killed` })),
        ...at("detected").map((e) => ({ x: e.time, label: "detected" }))],
    });
    renderTable(s);
    const kills = at("kill"), found = at("detected");
    describeChart(figure, `Steps done against time: ${plural(at("checkpoint").length, "checkpoint")} committed, ` +
      `${plural(kills.length, "Worker")} killed, ${plural(found.length, "failure")} detected, ` +
      `${found.reduce((n, e) => n + e.lost, 0)} steps redone.`);
  }

  function renderTable(s) {
    const rows = [];
    let dead = null;
    for (const e of s.events) {
      if (e.kind === "checkpoint") continue;
      if (e.kind === "detected") dead = e.rank;
      const note = {
        start: e.attempt ? `restart ${e.attempt} from checkpoint ${e.step}; a fresh Worker is rank ${dead}` : "launch",
        kill: `rank ${e.rank}'s Worker terminated; nobody is told`,
        detected: `rank ${e.rank} silent ${formatSeconds(e.silence, 2)} (timeout ${formatSeconds(HEARTBEAT.timeoutMs / 1000)}): ` +
                  `run failed, ${plural(e.lost, "step")} to redo`,
        done: "all steps done",
      }[e.kind];
      rows.push(`<tr><td>${formatSeconds(e.time, 3)}</td><td>${e.kind}, step ${e.step}</td><td>${note}</td></tr>`);
    }
    const kill = s.events.find((e) => e.kind === "kill"), found = s.events.find((e) => e.kind === "detected");
    const back = found && s.events.find((e) => e.kind === "start" && e.time > found.time);
    const summary = kill && found ? `<p>First failure: detection delay ${formatSeconds(found.time - kill.time, 2)}` +
      (back ? `, recovery (replacement Worker started, run relaunched) ${formatSeconds(back.time - found.time, 2)}` : "") +
      `, lost work ${plural(found.lost, "step")}.</p>` : "";
    tableBox.innerHTML = `<table tabindex="0"><caption>Timeline of the run</caption><thead><tr><th scope="col">time</th>` +
      `<th scope="col">event</th><th scope="col">what happened</th></tr></thead><tbody>` +
      rows.join("") + `</tbody></table>${summary}`;
  }

  refreshRanks();
  status.textContent = `${LIVE.steps} SGD steps on the Workers, a sharded checkpoint every ${LIVE.checkpointEvery} steps, ` +
    `heartbeats every ${HEARTBEAT.periodMs} ms. Press “Train on the Workers”, then “Kill a Worker”.`;
}
