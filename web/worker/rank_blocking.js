// rank_blocking.js — inside a rank's Worker: is this rank blocked? The page's deadlock detector (deadlock.js)
// trusts what the rank reports, so "blocked" must mean it: the rank's code is suspended on send()/recv()/
// barrier() calls that have not resolved, and nothing else can wake it up.
//
// "Suspended" is observed, not guessed. Those calls return a Pending promise whose then() runs when the code
// awaits it (await, Promise.all, .then). Being awaited is not enough — `const p = ctx.recv(1); work(); await p`
// is busy in work() — so the verdict is only ever taken in a fresh task (a timer callback, see rank_reports.js),
// i.e. after the current synchronous code and all its microtasks have run. Pending timers (the learner's
// setTimeout/setInterval) could wake the rank, so they are tracked too, and a rank with a live timer is never
// blocked. Other wake-up sources (fetch, IndexedDB, …) are not tracked: a rank awaiting both a recv and a fetch
// would be reported blocked too early. SPMD code for this course has no use for them.

export class Pending extends Promise {
  static get [Symbol.species]() { return Promise; }  // .then() of a Pending gives a plain Promise
  then(onFulfilled, onRejected) {
    this.onAwait?.();
    return super.then(onFulfilled, onRejected);
  }
}

// One per run. onChange() is called whenever the rank may have become blocked or changed what it waits for
// (it starts awaiting a call, a call it awaits resolves, a timer of its own ends); the reporter then takes the
// verdict, state(), in a fresh task.
export class BlockWatch {
  #awaited = new Set();   // waiters the code awaits that have not resolved

  constructor(onChange) {
    this.onChange = onChange;
    this.lineOf = () => null;   // (an Error taken at a call) → the learner's line of that call, or null (rank_worker.js)
    this.timers = new Set();  // ids of the learner's pending timers
    this.closed = false;
  }

  // A promise for `waiter` ({ kind: "recv", from, tag } · { kind: "send", to, tag, id } · { kind: "barrier",
  // gen }). The watch adds waiter.settle(value, bytes) to resolve it; hooks.awaited() / hooks.settled(bytes)
  // bracket the time the code spent waiting on it (for the timeline).
  pending(waiter, hooks) {
    let resolve;
    const promise = new Pending((ok) => { resolve = ok; });
    promise.onAwait = () => {
      if (waiter.settled || waiter.awaited) return;
      waiter.awaited = true;
      this.#awaited.add(waiter);
      hooks.awaited();
      this.changed();
    };
    waiter.settle = (value, bytes) => {
      waiter.settled = true;
      if (this.#awaited.delete(waiter)) {
        hooks.settled(bytes);
        this.changed();
      }
      resolve(value);
    };
    return promise;
  }

  // Cheap, and true whenever state() could say blocked: the code awaits a call and has no timer of its own.
  get mayBeBlocked() { return !this.closed && this.#awaited.size > 0 && this.timers.size === 0; }

  changed() { if (!this.closed) this.onChange(); }

  close() { this.closed = true; }

  // Only meaningful in a fresh task. null: the rank is running (or may be woken by its own timer); otherwise
  // what it waits for: { on: [{ kind: "recv", from, tag } | { kind: "send", to, tag, id }], barrierGen, line } —
  // line: where in the learner's code the first of those calls was made (null if not in their code).
  state() {
    if (this.closed || this.#awaited.size === 0 || this.timers.size > 0) return null;
    const on = [];
    let barrierGen = null;
    const first = this.#awaited.values().next().value;
    if (first.line === undefined) first.line = first.site ? this.lineOf(first.site) : null;   // read once per call
    for (const w of this.#awaited) {
      if (w.kind === "recv") on.push({ kind: "recv", from: w.from, tag: w.tag });
      else if (w.kind === "send") on.push({ kind: "send", to: w.to, tag: w.tag, id: w.id });
      else barrierGen = w.gen;
    }
    return { on, barrierGen, line: first.line };
  }
}

// Wraps the Worker's timer functions once, so the learner's timers are counted on the current run's watch.
// Returns the native functions (the runtime's own timers must not count) and a cleanup for a finished run.
export function watchTimers(currentWatch) {
  const native = {
    setTimeout: setTimeout.bind(globalThis), clearTimeout: clearTimeout.bind(globalThis),
    setInterval: setInterval.bind(globalThis), clearInterval: clearInterval.bind(globalThis),
  };
  globalThis.setTimeout = (fn, ms, ...args) => {
    const watch = currentWatch();
    if (!watch || typeof fn !== "function") return native.setTimeout(fn, ms, ...args);
    const id = native.setTimeout(() => {
      watch.timers.delete(id);
      try { fn(...args); } finally { watch.changed(); }  // it may have been the rank's last timer
    }, ms);
    watch.timers.add(id);
    return id;
  };
  globalThis.clearTimeout = (id) => {
    const watch = currentWatch();
    watch?.timers.delete(id);
    native.clearTimeout(id);
    watch?.changed();
  };
  globalThis.setInterval = (fn, ms, ...args) => {
    const id = native.setInterval(fn, ms, ...args);
    currentWatch()?.timers.add(id);  // a rank with a live interval is never blocked
    return id;
  };
  globalThis.clearInterval = globalThis.clearTimeout;  // one list of timer ids per global (HTML spec)
  // Timers a finished run left behind must not fire into the next one.
  const clearTimersOf = (watch) => { for (const id of watch.timers) native.clearTimeout(id); watch.timers.clear(); };
  return { native, clearTimersOf };
}
