// rank_worker.js — one rank of the Worker cluster (a module Worker). It runs the learner's main(ctx) and
// talks to the other ranks directly, over one MessagePort per peer that the page created and handed over.
//
// From the page:  init { rank, size, ports, wasmModule }  → ready (the core is instantiated on first use)
//                 run { run, t0, code, input }            → a stream of reports, ending in done | error
//                 release { run, gen }                    (everyone reached barrier number gen)
//                 abandon { run }  → abandoned { run }    (the run ended badly; answering proves we are idle)
//                 rewire { ports }                        (new ports to peers whose Workers were replaced)
// Reports to the page, in order (deadlock.js explains why the order matters):
//   sent { dst, tag, bytes, id, t } — posted BEFORE the data leaves;  unsent { dst, tag, id }
//   received { src, tag, id, t } · blocked { on, barrierGen, since } · barrier { gen } · log { line }
//   done { result, dropped } · error { message, line, column }
// Every report carries `spans`: the rank's timeline spans closed since its previous report (rank_spans.js).
// Times are seconds since the run's start t0 on the common clock.
import { BlockWatch, watchTimers } from "./rank_blocking.js";
import { captureConsole, formatArgs } from "./rank_console.js";
import { LearnerError, learnerErrorFrom, loadLearnerModule } from "./learner_module.js";
import { messageBytes, preparePayload } from "./message_size.js";
import { SpanRecorder, clockMs } from "./rank_spans.js";

const MAX_LOG_LINES = 1000;  // per rank and run; a print in a hot loop must not flood the page

let rank = -1;
let size = 0;
let ports = [];    // ports[peer]: MessagePort to that rank; ports[rank] loops back to this Worker
let core = null;   // the wasm core (Embind module) or null
let coreModule = null;  // the page's compiled WebAssembly.Module, instantiated on first use (see startRun)
let coreReady = null;   // Promise of `core` once instantiation has started
let run = null;    // the current run, see startRun()
let early = [];    // peer messages of a run whose "run" message has not reached us yet

function report(r, type, fields = {}) {
  self.postMessage({ type, run: r.id, ...fields, spans: r.spans.take() });
}

// Blocking is observed by the run's BlockWatch (rank_blocking.js); waits are timed by its SpanRecorder.
const clearTimersOf = watchTimers(() => run?.watch ?? null);

function pending(r, waiter) {
  return r.watch.pending(waiter, {
    awaited: () => r.spans.beginWait(waiter.from),
    settled: (bytes) => r.spans.endWait(bytes),
  });
}

// ---- Point-to-point messages ------------------------------------------------------------------------------
const boxKey = (src, tag) => `${src}#${JSON.stringify(tag)}`;
const queue = (map, key) => map.get(key) ?? map.set(key, []).get(key);

function onPeerMessage(src, msg) {
  if (!run || msg.run > run.id) early.push({ src, msg });
  else if (msg.run === run.id && !run.finished) deliver(run, src, msg);
  // else: a leftover of an earlier or finished run — dropped, so it can never wake old code
}

function deliver(r, src, msg) {
  const waiters = r.waiters.get(boxKey(src, msg.tag));
  if (waiters?.length) consume(r, src, msg, waiters.shift());
  else queue(r.mailbox, boxKey(src, msg.tag)).push(msg);
}

function consume(r, src, msg, waiter) {
  waiter.settle(msg.data, msg.bytes);
  report(r, "received", { src, tag: msg.tag, id: msg.id, t: r.spans.now() });
  r.watch.wokeUp();  // the page counts this rank as running again
}

function checkRank(peer, what) {
  if (!Number.isInteger(peer) || peer < 0 || peer >= size) {
    throw new RangeError(`${what}: there is no rank ${JSON.stringify(peer)} (ranks are 0 … ${size - 1})`);
  }
}
function checkTag(tag, what) {
  if (!Number.isInteger(tag) && typeof tag !== "string") {
    throw new TypeError(`${what}: tag must be an integer or a string (got ${JSON.stringify(tag)})`);
  }
}
function checkLive(r, what) {
  if (r !== run || r.finished) throw new Error(`${what}() was called after this rank's main() had finished`);
}

function send(r, to, data, { tag = 0, move = false } = {}) {
  checkLive(r, "send");
  checkRank(to, "send");
  checkTag(tag, "send");
  const start = r.spans.now();
  const bytes = messageBytes(data);
  const { payload, transfer } = preparePayload(data, move);
  const id = r.nextId++;
  report(r, "sent", { dst: to, tag, bytes, id, t: start });  // before the data leaves: see deadlock.js
  try {
    ports[to].postMessage({ run: r.id, id, tag, bytes, data: payload }, transfer);
  } catch (err) {
    report(r, "unsent", { dst: to, tag, id });
    throw new TypeError(`send: this value cannot be sent to another Worker (${err.message})`);
  }
  r.spans.send(to, bytes, start, r.spans.now());
}

function recv(r, from, { tag = 0 } = {}) {
  checkLive(r, "recv");
  checkRank(from, "recv");
  checkTag(tag, "recv");
  const waiter = { kind: "recv", from, tag };
  const promise = pending(r, waiter);
  const box = r.mailbox.get(boxKey(from, tag));
  if (box?.length) consume(r, from, box.shift(), waiter);
  else queue(r.waiters, boxKey(from, tag)).push(waiter);
  return promise;
}

// The page counts arrivals and releases everyone when the last rank arrives (cluster_run.js).
function barrier(r) {
  checkLive(r, "barrier");
  if (r.barrier) throw new Error("barrier() was called again before the previous barrier() had resolved — await it");
  const waiter = { kind: "barrier", gen: r.barrierGen, from: null };
  r.barrier = waiter;
  const promise = pending(r, waiter);
  report(r, "barrier", { gen: waiter.gen });
  return promise;
}

function release({ run: id, gen }) {
  const r = run;
  if (!r || r.id !== id || r.barrier?.gen !== gen) return;
  const waiter = r.barrier;
  r.barrier = null;
  r.barrierGen += 1;
  waiter.settle(undefined, 0);
  r.watch.wokeUp();  // the page counts every rank as running again
}

// ---- Running the learner's code ---------------------------------------------------------------------------
function log(r, line) {
  if (r.finished) return;
  if (r.lines++ >= MAX_LOG_LINES) r.dropped += 1;
  else report(r, "log", { line });
}
captureConsole((line) => { if (run) log(run, line); });

function finish(r) {
  r.finished = true;
  r.watch.close();
  r.spans.finish();
}

function fail(r, err) {
  if (r.finished) return;
  finish(r);
  report(r, "error", { message: err.message, line: err.line, column: err.column });
}

async function startRun({ run: id, t0, code, input }) {
  if (run) clearTimersOf(run.watch);
  const r = {
    id, t0, spans: new SpanRecorder(rank, t0), where: () => ({ line: null, column: null }),
    mailbox: new Map(), waiters: new Map(), barrier: null, barrierGen: 0, nextId: 0,
    lines: 0, dropped: 0, finished: false,
  };
  r.watch = new BlockWatch((on, barrierGen) => report(r, "blocked", { on, barrierGen, since: r.spans.cursor }));
  run = r;
  const mine = early.filter((e) => e.msg.run === id);
  early = early.filter((e) => e.msg.run > id);
  for (const { src, msg } of mine) deliver(r, src, msg);

  let learner;
  try {
    learner = await loadLearnerModule(code, { locateSyntaxError: rank === 0 });
  } catch (err) {
    // The same code fails to parse on every rank: rank 0 alone reports it, with the line it located.
    if (err.syntax && rank !== 0) finish(r);
    else fail(r, err instanceof LearnerError ? err : learnerErrorFrom(err, r.where));
    return;
  }
  if (r.finished) return;  // abandoned while the code was loading
  if (coreModule && !core && /\bcore\b/.test(code)) {
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
  r.spans = new SpanRecorder(rank, t0);  // the timeline starts when main() does
  const ctx = {
    rank, size, input, core,
    send: (to, data, options) => send(r, to, data, options),
    recv: (from, options) => recv(r, from, options),
    barrier: () => barrier(r),
    log: (...args) => log(r, formatArgs(args)),
    now: () => clockMs() - t0,  // ms since the run started, comparable across ranks
  };
  let result;
  try {
    result = await learner.main(ctx);
  } catch (err) {
    fail(r, learnerErrorFrom(err, r.where));
    return;
  }
  if (r.finished) return;  // an uncaught error elsewhere already ended this rank
  finish(r);
  const spans = r.spans.take();
  try {
    self.postMessage({ type: "done", run: id, result, dropped: r.dropped, spans });
  } catch (err) {
    self.postMessage({ type: "error", run: id, spans, line: null, column: null,
      message: `main() returned a value that cannot be passed to the page (${err.message}); return plain data` });
  }
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

async function init(msg) {
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
  self.postMessage({ type: "ready" });
}

// The run ended (deadlock, error or timeout elsewhere). Whatever of this rank's code is suspended stays
// suspended for good: no message, barrier release or timer of that run can reach it any more. Answering
// proves to the page that this Worker is not stuck in the learner's code, so it is kept for the next run.
function abandon({ run: id }) {
  if (run && run.id === id) {
    if (!run.finished) finish(run);
    clearTimersOf(run.watch);
    run.waiters.clear();
    run.mailbox.clear();
    run.barrier = null;
  }
  self.postMessage({ type: "abandoned", run: id });
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
  else if (data.type === "release") release(data);
  else if (data.type === "abandon") abandon(data);
  else if (data.type === "rewire") rewire(data);
};
