// local_cluster.js — the judge cluster: the Worker cluster's API (cluster.js) in a single thread. Every rank's
// `async function main(ctx)` runs here, with the same ctx (rank, size, input, core, send, recv, barrier, log,
// now) and the same RunResult, and a scheduler decides, step by step, which message arrives and which rank
// runs next (local_run.js). It is what CI judges exercises with, and the reference semantics of the run
// options `delivery` and `sendMode` (run_options.js) that the Worker cluster honours too.
//
//   const cluster = new LocalCluster(4, { core });     // core: the wasm core every rank sees as ctx.core
//   const run = await cluster.run(code, { inputs, delivery: { seed: 7 }, sendMode: "sync" });
//   // or, in one call:  await runLocal(code, { ranks: 4, inputs, delivery: { seed: 7 } })
// Options as cluster.js's: inputs, timeoutMs (real time; Infinity for none), stallMs (accepted; a judge run
// always moves on or ends, so it never stalls), onLog, onProgress, signal (Stop), sendMode, delivery, learnerLines.
//
// Differences from the Workers, on purpose: time is virtual (deterministic; RunResult.clock says so), each
// rank's code is compiled on its own (its top-level variables are its own, as in a Worker) with its own
// console and timers, and a deadlock is found the moment nothing can happen any more. A rank stuck in a
// synchronous endless loop cannot be interrupted in one thread — that is what the Workers are for.
import { LocalRun } from "./local_run.js";
import { MARK, markLines } from "./line_marks.js";
import { checkRunOptions } from "./run_options.js";

const SHIMS = ["console", "setTimeout", "clearTimeout", "setInterval", "clearInterval", MARK];
const PREFIX = '"use strict";';   // module code is strict; on line 1, so line numbers are kept
const BODY_FIRST_LINE = 3;        // new Function puts the body on line 3 ("function anonymous(…\n) {\n")
let runs = 0;

export class LocalCluster {
  #busy = false;
  #terminated = false;

  constructor(size, { core = null } = {}) {
    if (!Number.isInteger(size) || size < 1) throw new RangeError(`LocalCluster: size must be a positive integer (got ${size})`);
    this.size = size;
    this.core = core;
  }

  ready() {
    return this.#terminated ? Promise.reject(new Error("LocalCluster: this cluster has been terminated")) : Promise.resolve();
  }

  // Resolves with a RunResult; rejects only on misuse (bad arguments, a run already in progress).
  async run(code, { inputs = [], timeoutMs = 5000, stallMs = Infinity, onLog = null, onProgress = null, signal = null,
                    delivery = null, sendMode = "buffered", learnerLines = null } = {}) {
    if (this.#terminated) throw new Error("LocalCluster.run: this cluster has been terminated");
    if (this.#busy) throw new Error("LocalCluster.run: another run is still in progress on this cluster; await it before starting the next");
    if (typeof code !== "string") throw new TypeError("LocalCluster.run: code must be a string");
    if (!Array.isArray(inputs)) throw new TypeError("LocalCluster.run: inputs must be an array (one value per rank)");
    if (!(timeoutMs > 0)) throw new RangeError(`LocalCluster.run: timeoutMs must be a positive number of ms or Infinity (got ${timeoutMs})`);
    if (!(stallMs > 0)) throw new RangeError(`LocalCluster.run: stallMs must be a positive number of ms or Infinity (got ${stallMs})`);
    checkRunOptions({ delivery, sendMode }, "LocalCluster.run");
    try {
      inputs.forEach((x) => structuredClone(x));
    } catch (err) {
      throw new TypeError(`LocalCluster.run: an input cannot be sent to a Worker (${err.message}); use plain data`);
    }
    this.#busy = true;
    const id = ++runs;
    const run = new LocalRun({ size: this.size, inputs, core: this.core, timeoutMs, onLog, onProgress, delivery, sendMode });
    const stopWatching = watchRejections(id, run);
    const stop = () => run.stop();
    if (signal?.aborted) stop();
    signal?.addEventListener?.("abort", stop);
    try {
      // Line markers (line_marks.js): where a rank spins or sleeps, and a way to stop a loop that never lets the
      // scheduler run (for (;;) await null — microtasks only).
      const marked = markLines(code, { maxLine: learnerLines ?? Infinity });
      const loaded = Array.from({ length: this.size }, (_, r) => load(code, marked.code, sourceName(id, r), run.shims(r)));
      const failed = loaded.findIndex((x) => x.error);
      if (failed >= 0) {
        const { message, line, column, syntax } = loaded[failed].error;
        run.failWith(failed, message, line, column, syntax);
        return await run.execute([], () => ({}));
      }
      return await run.execute(loaded.map((x) => x.main), (err) => locate(err, id, learnerLines, marked.original));
    } finally {
      this.#busy = false;
      signal?.removeEventListener?.("abort", stop);
      stopWatching();
    }
  }

  terminate() { this.#terminated = true; }
}

export function runLocal(code, { ranks, core = null, ...options }) {
  return new LocalCluster(ranks, { core }).run(code, options);
}

// ---- the learner's code ---------------------------------------------------------------------------------------
const sourceName = (id, rank) => `dsml-run-${id}-rank-${rank}.js`;

// → { main } or { error: { message, line, column } }, the same words as the Workers' loader (learner_module.js).
// code: the learner's, marked: the same with line markers (what runs).
function load(code, marked, name, shims) {
  let factory;
  try {
    factory = new Function(...SHIMS, `${PREFIX}${marked}\nreturn typeof main === "undefined" ? undefined : main;\n//# sourceURL=${name}`);
  } catch (err) {
    const parsed = parseError(code);
    return { error: { message: parsed?.message ?? `${err.name}: ${err.message}`, line: parsed?.line ?? null, column: null, syntax: true } };
  }
  let main;
  try {
    main = factory(...SHIMS.map((k) => shims[k]));
  } catch (err) {
    const { line, column } = locateIn(err, name);
    return { error: { message: `${err.name}: ${err.message}`, line, column } };
  }
  if (main === undefined) return { error: { message: "your code must define a function named main, e.g. async function main(ctx) { … }", line: null, column: null } };
  if (typeof main !== "function") return { error: { message: `main must be a function, e.g. async function main(ctx) { … } (it is a ${typeof main})`, line: null, column: null } };
  return { main };
}

// The innermost stack frame in the learner's code (any rank's copy): { line, column, inCourseCode }. With
// learnerLines (the learner's code is the first lines of a composed program), an error raised in the course's part
// is placed at the learner's calling line, as the Workers do (learner_module.js).
function locate(err, id, learnerLines, original) {
  const stack = typeof err?.stack === "string" ? err.stack : "";
  const frames = [...stack.matchAll(new RegExp(`dsml-run-${id}-rank-\\d+\\.js:(\\d+):(\\d+)`, "g"))]
    .map((m) => position(Number(m[1]), Number(m[2])))
    .map(({ line, column }) => ({ line, column: original(line, column) }));
  if (!frames.length) return { line: null, column: null, inCourseCode: false };
  if (!learnerLines || frames[0].line <= learnerLines) return { ...frames[0], inCourseCode: false };
  const mine = frames.find((f) => f.line <= learnerLines);
  return { line: mine?.line ?? null, column: mine?.column ?? null, inCourseCode: true };
}
function locateIn(err, name) {
  const stack = typeof err?.stack === "string" ? err.stack : "";
  const at = stack.indexOf(`${name}:`);
  const m = at < 0 ? null : /^:(\d+):(\d+)/.exec(stack.slice(at + name.length));
  return m ? position(Number(m[1]), Number(m[2])) : { line: null, column: null };
}
function position(line, column) {
  const l = line - BODY_FIRST_LINE + 1;
  return { line: l, column: l === 1 ? column - PREFIX.length : column };
}

// The engine gives a SyntaxError of `new Function` no position, and words about the wrapper it adds ("Unexpected
// token ')'" for a missing brace); in Node, compiling the code as a script gives the line and the Workers' words
// (their loader compiles the code as a module). → { message, line } or null (no node:vm: in a page).
function parseError(code) {
  const vm = globalThis.process?.getBuiltinModule?.("node:vm");
  if (!vm) return null;
  try {
    new vm.Script(PREFIX + code, { filename: "learner.js" });
  } catch (err) {
    const m = /^learner\.js:(\d+)/.exec(typeof err?.stack === "string" ? err.stack : "");
    return { message: `${err.name}: ${err.message}`, line: m ? Number(m[1]) : null };
  }
  return null;
}

// A promise the learner's code rejects and nobody handles (an un-awaited async call) ends the run with an error
// on the rank whose code it came from, as on a Worker, instead of crashing the page or the test process. In a
// page the event is cancelled; Node has no way to cancel it for its other listeners (node:test counts it as a
// failure), so while runs are in progress process.emit passes on every event but these.
const watched = new Map();   // run id → LocalRun
const nodeProcess = globalThis.process?.emit ? globalThis.process : null;
let nodeEmit = null;

function owner(reason) {
  const m = /dsml-run-(\d+)-rank-(\d+)\.js/.exec(typeof reason?.stack === "string" ? reason.stack : "");
  const run = m && watched.get(Number(m[1]));
  return run ? { run, rank: Number(m[2]) } : null;
}
function onPageRejection(event) {
  const found = owner(event.reason);
  if (found) { event.preventDefault(); found.run.fail(found.rank, event.reason); }
}

function watchRejections(id, run) {
  if (watched.size === 0) {
    if (nodeProcess) {
      nodeEmit = nodeProcess.emit;
      nodeProcess.emit = function emit(name, reason, ...rest) {
        const found = name === "unhandledRejection" ? owner(reason) : null;
        if (!found) return nodeEmit.call(this, name, reason, ...rest);
        found.run.fail(found.rank, reason);
        return true;
      };
    } else {
      globalThis.addEventListener?.("unhandledrejection", onPageRejection);
    }
  }
  watched.set(id, run);
  // Rejections are reported after the microtasks that caused them: keep listening one macrotask longer.
  return () => setTimeout(() => {
    watched.delete(id);
    if (watched.size > 0) return;
    if (nodeProcess) nodeProcess.emit = nodeEmit;
    else globalThis.removeEventListener?.("unhandledrejection", onPageRejection);
  }, 0);
}
