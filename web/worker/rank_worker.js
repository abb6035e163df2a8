// rank_worker.js — one rank of the Worker cluster (a module Worker). It runs the learner's main(ctx) and
// talks to the other ranks directly, over one MessagePort per peer that the page created and handed over.
//
// From the page:  init { rank, size, ports, wasmModule }  → ready (the core is instantiated on first use)
//                 run { run, t0, code, input, sendMode, fuzzSeed, learnerLines, step, heartbeatMs } → reports, ending in done | error
//                                                         (with heartbeatMs: a beat { run } every heartbeatMs while the run lasts)
//                 step { run, action }                    (a step-through: step_hooks.js)
//                 release { run, gen }                    (everyone reached barrier number gen)
//                 abandon { run }  → abandoned { run }    (the run ended; answering proves we are idle)
//                 ping { run }     → pong { run, line, timers, polling } (the watchdog fired: a rank that answers is
//                                                          not spinning; line: the last line marker it passed, timers: its
//                                                          live timers — a rank that sleeps in a timer loop is not stuck;
//                                                          polling: it probed just now — a loop of probes is not idle)
//                 rewire { ports }                        (new ports to peers whose Workers were replaced)
// To the page (rank_reports.js batches them): report { state, sent, recvd, logs, progress, spans } ·
//   barrier { gen, … } · done { result, … } · error { message, line, column, … } ·
//   at { run, line }: the line of the loop or await the rank's code last passed (line markers, cluster/line_marks.js),
//   posted when it changes, at most every AT_POST_MS — posted from inside a loop that never yields, so the page
//   knows where a rank the watchdog stops was spinning.
// Times are seconds since the run's start t0 on the common clock.
import { BlockWatch, watchTimers } from "./rank_blocking.js";
import { captureConsole, formatArgs } from "./rank_console.js";
import { LearnerError, learnerErrorFrom, loadLearnerModule } from "./learner_module.js";
import { RankMessaging } from "./rank_messaging.js";
import { Reporter } from "./rank_reports.js";
import { SpanRecorder, clockMs } from "./rank_spans.js";
import { StepHooks } from "./step_hooks.js";
import { MARK } from "./line_marker.js";

const MAX_LOG_LINES = 1000;  // per rank and run; a print in a hot loop must not flood the page
const AT_POST_MS = 100;      // the page hears where a rank is at most this often
const POLLING_MS = 50;       // a rank that probed this recently when pinged is polling (a probe answers in one turn)
const AT_CHECK = 64;         // passes of one marker between two looks at the clock (a marker in a hot loop is cheap)

let rank = -1;
let size = 0;
let ports = [];    // ports[peer]: MessagePort to that rank; ports[rank] loops back to this Worker
let core = null;   // the wasm core (Embind module) or null
let coreModule = null;  // the page's compiled WebAssembly.Module, instantiated on first use (see startRun)
let coreReady = null;   // Promise of `core` once instantiation has started
let run = null;    // the current run, see startRun()
let early = [];    // peer messages of a run whose "run" message has not reached us yet

// The learner's timers are counted on the current run's watch; the runtime's own use the native ones.
const { native: timers, clearTimersOf } = watchTimers(() => run?.watch ?? null);
const post = (message) => self.postMessage(message);

function onPeerMessage(src, msg) {
  if (!run || msg.run > run.id) early.push({ src, msg });
  else if (msg.run === run.id && !run.finished) run.messaging.arrive(src, msg);
  // else: a leftover of an earlier or finished run — dropped, so it can never wake old code
}

function live(r, what) {
  if (r !== run || r.finished) throw new Error(`${what}() was called after this rank's main() had finished`);
}

// The line marker (cluster/line_marks.js): the learner's code calls it in every loop body and before every awaited
// value. A change of line, or every AT_CHECK passes of the same one, looks at the clock.
globalThis[MARK] = (line) => {
  const r = run;
  if (!r || r.finished) return;
  if (line === r.at && ++r.marks % AT_CHECK !== 0) return;
  r.at = line;
  const now = performance.now();
  if (now < r.nextAt || line === r.postedAt) return;
  r.nextAt = now + AT_POST_MS;
  r.postedAt = line;
  post({ type: "at", run: r.id, line });
};

function log(r, line) {
  if (r.finished) return;
  if (r.lines++ >= MAX_LOG_LINES) r.dropped += 1;
  else r.reporter.log(line);
}
captureConsole((line) => { if (run) log(run, line); });

function finish(r) {
  r.finished = true;
  timers.clearInterval(r.beat);
  r.watch.close();
  r.reporter.close();
  r.spans.finish();
}

function fail(r, err) {
  if (r.finished) return;
  finish(r);
  r.reporter.flush("error", { state: { kind: "done" }, message: err.message, line: err.line, column: err.column,
                              syntax: err.syntax === true });
}

function newRun({ run: id, t0, sendMode = "buffered", fuzzSeed = null }) {
  const r = { id, t0, lines: 0, dropped: 0, finished: false, beat: 0, where: () => ({ line: null, column: null }),
              at: null, marks: 0, nextAt: 0, postedAt: null };   // line markers: the last line, and what the page knows
  r.spans = new SpanRecorder(rank, t0);
  r.watch = new BlockWatch(() => r.reporter.changed());
  r.reporter = new Reporter({ run: id, post, watch: r.watch, spans: r.spans, timers });
  r.messaging = new RankMessaging({ id, rank, size, ports, sendMode, fuzzSeed, watch: r.watch, spans: r.spans,
                                    reporter: r.reporter, timers, live: (what) => live(r, what) });
  return r;
}

async function startRun(msg) {
  if (run) clearTimersOf(run.watch);
  const r = newRun(msg);
  run = r;
  // Heartbeats (cluster_run.js, heartbeat): "this Worker is alive", from a native timer, whatever the learner's code
  // does between its awaits — a rank blocked in recv() still beats; a terminated Worker falls silent.
  if (msg.heartbeatMs > 0) {
    post({ type: "beat", run: r.id });
    r.beat = timers.setInterval(() => post({ type: "beat", run: r.id }), msg.heartbeatMs);
  }
  const mine = early.filter((e) => e.msg.run === r.id);
  early = early.filter((e) => e.msg.run > r.id);
  for (const { src, msg: m } of mine) r.messaging.arrive(src, m);

  // A step-through (step: { sites }): the instrumented code finds its stepper when it is loaded.
  r.step = msg.step ? new StepHooks({ sites: msg.step.sites, post: (m) => post({ type: "step", run: r.id, ...m }) }) : null;
  StepHooks.install(r.step);
  let learner;
  try {
    learner = await loadLearnerModule(msg.code, { locateSyntaxError: rank === 0, learnerLines: msg.learnerLines });
  } catch (err) {
    // The same code fails to parse on every rank: rank 0 alone reports it, with the line it located.
    if (err.syntax && rank !== 0) finish(r);
    else fail(r, err instanceof LearnerError ? err : learnerErrorFrom(err, r.where));
    return;
  }
  if (r.finished) return;  // abandoned while the code was loading
  if (coreModule && !core && /\bcore\b/.test(msg.code)) {
    coreReady ??= instantiateCore(coreModule).then((c) => { core = c; return c; });
    try {
      await coreReady;
    } catch (err) {
      fail(r, new LearnerError(`the wasm core could not be started in this Worker: ${err?.message ?? err}`));
      return;
    }
    if (r.finished) return;
  }
  r.where = learner.where;
  r.watch.lineOf = (site) => learner.where(site).line;
  r.spans.restart();  // the timeline starts when main() does
  const m = r.messaging;
  const base = {
    rank, size, input: msg.input, core,
    send: (to, data, options) => m.send(to, data, options),
    recv: (from, options) => m.recv(from, options),
    recvAny: (options) => m.recvAny(options),
    probe: (from, options) => { r.probedAt = performance.now(); return m.probe(from, options); },
    barrier: () => m.barrier((gen) => r.reporter.flush("barrier", { state: { kind: "running" }, gen })),
    log: (...args) => log(r, formatArgs(args)),
    // { flush: true }: posted to the page now, not with the next batch — a checkpoint that must reach the page
    // before this rank goes on (a Worker killed a moment later would take an unsent batch with it).
    // The value is copied now, as the judge cluster copies it: a later change to it does not reach the page.
    progress: (value, { flush = false } = {}) => {
      if (r.finished) return;
      let copy;
      try { copy = structuredClone(value); } catch (err) {
        throw new TypeError(`progress: this value cannot be passed to the page (${err.message}); use plain data`);
      }
      r.reporter.progress(copy);
      if (flush) r.reporter.flush();
    },
    now: () => clockMs() - r.t0,  // ms since the run started, comparable across ranks
  };
  const ctx = r.step ? r.step.wrap(base) : base;
  let result;
  try {
    result = await learner.main(ctx);
  } catch (err) {
    fail(r, learnerErrorFrom(err, r.where));
    return;
  }
  if (r.finished) return;  // an uncaught error elsewhere already ended this rank
  finish(r);
  try {
    structuredClone(result);
  } catch (err) {
    r.reporter.flush("error", { state: { kind: "done" }, line: null, column: null,
      message: `main() returned a value that cannot be passed to the page (${err.message}); return plain data` });
    return;
  }
  r.reporter.flush("done", { state: { kind: "done" }, result, dropped: r.dropped });
}

// Errors the learner's code throws outside main()'s promise chain (timer callbacks, un-awaited async calls).
self.addEventListener("error", (event) => {
  event.preventDefault();
  if (run && !run.finished) fail(run, learnerErrorFrom(event.error ?? new Error(event.message), run.where));
});
self.addEventListener("unhandledrejection", (event) => {
  event.preventDefault();
  if (run && !run.finished) fail(run, learnerErrorFrom(event.reason, run.where));
});

// The Emscripten module built on the page's compiled WebAssembly.Module: instantiated here, never downloaded
// or compiled again (same as instantiateCore in wasm.js, without importing it: one fetch less per Worker).
async function instantiateCore(module) {
  const { default: createDsml } = await import(new URL("../../wasm/dsml.mjs", import.meta.url));
  return createDsml({
    instantiateWasm(imports, done) {
      WebAssembly.instantiate(module, imports).then((instance) => done(instance, module));
      return {};
    },
  });
}

function init(msg) {
  rank = msg.rank;
  size = msg.size;
  ports = msg.ports.slice();
  msg.ports.forEach((port, peer) => { if (port) listen(peer, port); });
  const loop = new MessageChannel();  // sending to oneself behaves like any other message
  ports[rank] = loop.port1;
  listen(rank, loop.port2);
  // The Worker is ready to run code now: the core is instantiated the first time a run's code mentions `core`
  // (startRun), so 16 Workers start about as fast as 16 empty ones and runs that do not use it never pay for it.
  coreModule = msg.wasmModule ?? null;
  post({ type: "ready" });
}

// The run ended (deadlock, error, timeout or stop elsewhere). Whatever of this rank's code is suspended stays
// suspended for good: no message, barrier release or timer of that run can reach it any more. Answering
// proves to the page that this Worker is not stuck in the learner's code, so it is kept for the next run.
function abandon({ run: id }) {
  if (run && run.id === id) {
    if (!run.finished) finish(run);
    clearTimersOf(run.watch);
    run.messaging.clear();
  }
  post({ type: "abandoned", run: id });
}

function listen(peer, port) {
  port.onmessage = (e) => onPeerMessage(peer, e.data);
}

// Some peers' Workers were replaced: talk to the new ones on these ports (the old ones are dead).
function rewire(msg) {
  msg.ports.forEach((port, peer) => {
    if (!port) return;
    ports[peer]?.close();
    ports[peer] = port;
    listen(peer, port);
  });
}

self.onmessage = ({ data }) => {
  if (data.type === "init") init(data);
  else if (data.type === "run") startRun(data);
  else if (data.type === "release") { if (run?.id === data.run) run.messaging.release(data.gen); }
  else if (data.type === "step") { if (run?.id === data.run) run.step?.control(data); }
  else if (data.type === "abandon") abandon(data);
  else if (data.type === "ping") {
    // polling: a probe() waits for its answer, or it called one a moment ago — a loop of probes answers pings between
    // two looks, but it runs.
    if (run?.id === data.run) {
      post({ type: "pong", run: data.run, line: run.at, timers: run.watch.timers.size,
             polling: run.messaging.probing || (run.probedAt !== undefined && performance.now() - run.probedAt < POLLING_MS) });
    }
  }
  else if (data.type === "rewire") rewire(data);
};
