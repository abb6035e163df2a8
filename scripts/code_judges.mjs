// code_judges.mjs — the grader's pool of worker threads that judge learners' code (grade_worker.mjs), `jobs` at a
// time. A Check is given the time its runs may take (each run's time-out, as in the tests: judge_local.js) and a
// margin for starting a thread; code that outlasts it — a loop that never reaches the judge cluster's line markers, a
// rank that exhausts memory, process.exit() — ends its thread, which is replaced, and becomes a failed row.
//   const judges = new CodeJudges({ jobs: 2, attempt: 1 });
//   await judges.judge(exercise, code, seed)   → { pass, message }
//   await judges.close();
import { Worker } from "node:worker_threads";
import { JUDGE_TIMEOUT_MS, planOf } from "../web/exercise/judge_local.js";

const WORKER = new URL("./grade_worker.mjs", import.meta.url);
export const START_MARGIN_MS = 20_000;   // a thread loads every exercise module and the wasm core before its first Check

export class CodeJudges {
  #queue = [];
  #idle = [];
  #all = new Set();
  #next = 0;

  // runMs: what each run is allowed in the budget (default: the exercise's own run time-out); tests shorten it.
  constructor({ jobs, attempt, marginMs = START_MARGIN_MS, runMs = null }) {
    Object.assign(this, { jobs, attempt, marginMs, runMs });
  }

  judge(exercise, code, seed) {
    const budgetMs = planOf(exercise, seed, this.attempt).length * (this.runMs ?? exercise.timeoutMs ?? JUDGE_TIMEOUT_MS)
      + this.marginMs;
    return new Promise((resolve) => {
      this.#queue.push({ task: { key: this.#next++, id: exercise.id, code, seed }, budgetMs, resolve });
      this.#pump();
    });
  }

  async close() {
    await Promise.all([...this.#all].map((w) => w.terminate()));
    this.#all.clear();
  }

  #pump() {
    while (this.#queue.length && (this.#idle.length || this.#all.size < this.jobs)) {
      const worker = this.#idle.pop() ?? this.#spawn();
      this.#run(worker, this.#queue.shift());
    }
  }

  #spawn() {
    const worker = new Worker(WORKER, { workerData: { attempt: this.attempt }, env: {}, stdout: true, stderr: true,
      resourceLimits: { maxOldGenerationSizeMb: 2048 } });
    worker.stdout.resume();   // a learner's console output is not the grader's
    worker.stderr.resume();
    this.#all.add(worker);
    return worker;
  }

  #run(worker, { task, budgetMs, resolve }) {
    let done = false;
    const finish = (result, healthy) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      worker.off("message", onMessage).off("error", onError).off("exit", onExit);
      resolve(result);
      if (healthy) this.#idle.push(worker);
      else { this.#all.delete(worker); worker.terminate(); }
      this.#pump();
    };
    const onMessage = (msg) => { if (msg.key === task.key) finish({ pass: msg.pass, message: msg.message }, true); };
    const onError = (err) => finish({ pass: false, message: `The code stopped the grader's thread: ${err.message}.` }, false);
    const onExit = (code) => finish({ pass: false, message: `The code ended the grader's thread (exit code ${code}).` }, false);
    const timer = setTimeout(() => finish({ pass: false, message: `The Check did not finish in ${Math.round(budgetMs / 1000)} s `
      + "(every run's time-out, and a margin), so the grader stopped it: code that runs on without reaching a loop's "
      + "next pass or an await (a regular expression that backtracks for ever, one enormous built-in call) cannot be "
      + "stopped by the run's own watchdog." }, false), budgetMs);
    worker.on("message", onMessage).on("error", onError).on("exit", onExit);
    worker.postMessage(task);
  }
}
