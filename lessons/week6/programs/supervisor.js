// supervisor.js — the page as torchelastic's agent: it launches the training (live_train.js) on P Workers, keeps the
// committed checkpoints the ranks send (checkpointStore), and when a run ends "failed" — a rank's Worker stopped
// sending heartbeats (web/cluster/cluster_run.js) — it rolls back: the next run starts on the same cluster,
// where the dead Worker has been replaced by a fresh one, from the last committed checkpoint. Nobody tells the
// supervisor that a Worker died; kill() only terminates it, as a crash would.
//
//   const sup = new Supervisor(clusters, core, { P, config, heartbeat, schedule: { rank, step } | null });
//   const outcome = await sup.run();        // sup.kill(rank) meanwhile: the "Kill a Worker" button
//   outcome: { status, params, attempts, events, trail, restarts }   times in s since sup.run() began
//     attempts: { from (step), start: { step, params } (the checkpoint it started from), status, failed, elapsedMs }
//     events: { kind: "start" | "checkpoint" | "kill" | "detected" | "done", time, step, rank?, attempt,
//               lost? (steps to redo), silence? (s the dead rank had been silent when the page declared it dead) }
//     trail:  { time, step } — the highest step any rank has reported, against time (drops back at each rollback)
import { mulberry32 } from "../../../web/exercise/random.js";
import { checkpointStore, initialParams, liveInput, liveProgram } from "./live_program.js";

export const HEARTBEAT = Object.freeze({ periodMs: 100, timeoutMs: 1000 });

export class Supervisor {
  #cluster = null;
  #t0 = 0;
  #killed = false;   // a kill in the current attempt (one failure per attempt is what the timeline explains)

  constructor(clusters, core, { P, config, heartbeat = HEARTBEAT, schedule = null, maxRestarts = 4, signal = null,
                                onChange = null }) {
    Object.assign(this, { clusters, core, P, config, heartbeat, schedule, maxRestarts, signal, onChange });
    this.events = [];
    this.trail = [];
    this.attempts = [];
  }

  now() { return (performance.now() - this.#t0) / 1000; }

  get running() { return this.#cluster !== null; }

  // A Worker may be killed now: a run is going on and none of its Workers has been killed yet.
  get canKill() { return this.#cluster !== null && !this.#killed; }

  // Terminates rank's Worker now (if a run is going on and nothing was killed in it yet). → true if it did.
  kill(rank) {
    if (!this.#cluster || this.#killed || !this.#cluster.kill(rank)) return false;
    this.#killed = true;
    this.#event({ kind: "kill", rank, step: this.#reached() });
    return true;
  }

  async run() {
    this.#t0 = performance.now();
    const store = checkpointStore({ step: 0, params: initialParams(this.core, this.config) });
    const program = liveProgram();
    for (let attempt = 0; attempt <= this.maxRestarts; attempt++) {
      const from = store.committed;
      this.#killed = false;
      const input = liveInput(this.P, { ...this.config, start: { step: from.step, params: from.params } });
      const result = await this.clusters.run(this.P, program, {
        inputs: new Array(this.P).fill(input), heartbeat: this.heartbeat, timeoutMs: Infinity, stallMs: 60000,
        signal: this.signal,
        onStart: (cluster) => {
          this.#cluster = cluster;
          this.#event({ kind: "start", step: from.step, attempt });
          this.trail.push({ time: this.now(), step: from.step });
        },
        onProgress: (rank, value) => this.#progress(store, value, attempt),
      }).finally(() => { this.#cluster = null; });
      this.attempts.push({ from: from.step, start: from, status: result.status, failed: result.failed, elapsedMs: result.elapsedMs });
      if (result.status === "ok") {
        this.#event({ kind: "done", step: this.config.steps, attempt });
        const params = result.results.find((r) => r?.left === null).params;
        return { status: "ok", params, ...this.#record() };
      }
      if (result.status !== "failed") return { status: result.status, result, ...this.#record() };
      const reached = this.#reached(), { rank, lastBeat, detectedAt } = result.failed;
      this.#event({ kind: "detected", rank, step: reached, attempt, lost: reached - store.committed.step,
                    silence: detectedAt - lastBeat });
      const time = this.now();   // the rollback: progress falls back to the checkpoint the next run starts from
      this.trail.push({ time, step: reached }, { time, step: store.committed.step });
    }
    return { status: "gave-up", ...this.#record() };
  }

  #progress(store, value, attempt) {
    if (value.kind === "step") {
      const time = this.now();
      if (value.step > this.#reached()) this.trail.push({ time, step: value.step });
      if (this.schedule && !this.#killed && value.step >= this.schedule.step && attempt === 0) this.kill(this.schedule.rank);
    } else if (store.take(value)) {
      this.#event({ kind: "checkpoint", step: value.step, attempt });
    }
  }

  // The highest step reported since the last (re)start.
  #reached() { return this.trail.at(-1)?.step ?? 0; }

  #event(e) {
    this.events.push({ time: this.now(), ...e });
    try { this.onChange?.(this); } catch { /* a failing UI callback must not break the run */ }
  }

  #record() { return { events: this.events, trail: this.trail, attempts: this.attempts, restarts: this.attempts.length - 1 }; }
}

// A seeded failure: rank r at step s, drawn from (seed, P, steps, k) so the kill never lands on a checkpoint step
// and always after the first one (there is work to lose and a checkpoint to return to).
export function seededFailure(seed, P, { steps, checkpointEvery }) {
  const rng = mulberry32(seed);
  const rank = Math.floor(rng() * P);
  let step = checkpointEvery + 1 + Math.floor(rng() * (steps - 2 * checkpointEvery));
  if (step % checkpointEvery === 0) step += 1;
  return { rank, step };
}
