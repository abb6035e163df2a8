// rank_blocking.js — inside a rank's Worker: is this rank blocked? The page's deadlock detector (deadlock.js)
// trusts these reports, so "blocked" must mean it: the rank's code is suspended on recv()/barrier() calls that
// have not resolved, and nothing else can wake it up.
//
// "Suspended" is observed, not guessed. recv() and barrier() return a Pending promise whose then() runs when
// the code awaits it (await, Promise.all, .then). Being awaited is not enough — `const p = ctx.recv(1);
// work(); await p` is busy in work() — so the verdict is taken in a fresh task, i.e. after the current
// synchronous code and all its microtasks have run. Pending timers (the learner's setTimeout/setInterval)
// could wake the rank, so they are tracked too, and a rank with a live timer is never blocked. Other
// wake-up sources (fetch, IndexedDB, …) are not tracked: a rank awaiting both a recv and a fetch would be
// reported blocked too early. SPMD code for this course has no use for them.

export class Pending extends Promise {
  static get [Symbol.species]() { return Promise; }  // .then() of a Pending gives a plain Promise
  then(onFulfilled, onRejected) {
    this.onAwait?.();
    return super.then(onFulfilled, onRejected);
  }
}

// One per run. onBlocked(on: [{ from, tag }], barrierGen: number | null) is called when the rank blocks.
export class BlockWatch {
  #awaited = new Set();   // waiters the code awaits that have not resolved
  #reported = null;       // what the page was last told (null: the page thinks the rank is running)
  #queued = false;
  #tick = new MessageChannel();

  constructor(onBlocked) {
    this.onBlocked = onBlocked;
    this.timers = new Set();  // ids of the learner's pending timers
    this.closed = false;
    this.#tick.port1.onmessage = () => { this.#queued = false; this.#check(); };
  }

  // A promise for `waiter` ({ kind: "recv", from, tag } or { kind: "barrier", gen }). The watch adds
  // waiter.settle(value, bytes) to resolve it; hooks.awaited() / hooks.settled(bytes) bracket the time the
  // code spent waiting on it (for the timeline).
  pending(waiter, hooks) {
    let resolve;
    const promise = new Pending((ok) => { resolve = ok; });
    promise.onAwait = () => {
      if (waiter.settled || waiter.awaited) return;
      waiter.awaited = true;
      this.#awaited.add(waiter);
      hooks.awaited();
      this.schedule();
    };
    waiter.settle = (value, bytes) => {
      waiter.settled = true;
      if (this.#awaited.delete(waiter)) hooks.settled(bytes);
      resolve(value);
    };
    return promise;
  }

  // The page now considers this rank running (it received a message, or left a barrier): if the rank is
  // still blocked on something else, say so again.
  wokeUp() {
    this.#reported = null;
    this.schedule();
  }

  schedule() {
    if (!this.#queued && !this.closed) { this.#queued = true; this.#tick.port2.postMessage(null); }
  }

  close() {
    this.closed = true;
    this.#tick.port1.close();
  }

  #check() {
    if (this.closed || this.#awaited.size === 0 || this.timers.size > 0) return;
    const on = [];
    let barrierGen = null;
    for (const w of this.#awaited) {
      if (w.kind === "recv") on.push({ from: w.from, tag: w.tag });
      else barrierGen = w.gen;
    }
    const key = JSON.stringify([on, barrierGen]);
    if (key === this.#reported) return;
    this.#reported = key;
    this.onBlocked(on, barrierGen);
  }
}

// Wraps the Worker's timer functions once, so the learner's timers are counted on the current run's watch.
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
      try { fn(...args); } finally { watch.schedule(); }  // it may have fired the rank's last timer
    }, ms);
    watch.timers.add(id);
    return id;
  };
  globalThis.clearTimeout = (id) => {
    currentWatch()?.timers.delete(id);
    native.clearTimeout(id);
    currentWatch()?.schedule();
  };
  globalThis.setInterval = (fn, ms, ...args) => {
    const id = native.setInterval(fn, ms, ...args);
    currentWatch()?.timers.add(id);  // a rank with a live interval is never blocked
    return id;
  };
  globalThis.clearInterval = globalThis.clearTimeout;  // one list of timer ids per global (HTML spec)
  // Timers a finished run left behind must not fire into the next one.
  return (watch) => { for (const id of watch.timers) native.clearTimeout(id); watch.timers.clear(); };
}
