// local_timers.js — the learner's setTimeout/setInterval in the judge cluster (local_run.js), on its virtual
// clock: a timer is due `ms` after it was set, and fires when the clock reaches it (in due order); when nothing
// else can happen the clock jumps to the next one. So a rank may sleep, deterministically, and a pending timer
// keeps a run from being declared deadlocked, as on a Worker (rank_blocking.js).
export class VirtualTimers {
  #timers = [];   // [{ id, rank, due, run, every }]  seconds on the run's clock
  #ids = 0;

  get pending() { return this.#timers.length > 0; }

  // The timer functions rank `rank` sees; now() is the run's clock in seconds.
  functions(rank, now) {
    const add = (fn, ms, args, repeat) => {
      if (typeof fn !== "function") return 0;
      const every = Math.max(0, Number(ms) || 0) / 1000;
      const id = ++this.#ids;
      this.#timers.push({ id, rank, due: now() + every, run: () => fn(...args), every: repeat ? Math.max(every, 1e-6) : null });
      return id;
    };
    const clear = (id) => { this.#timers = this.#timers.filter((t) => t.id !== id); };
    return {
      setTimeout: (fn, ms, ...args) => add(fn, ms, args, false), clearTimeout: clear,
      setInterval: (fn, ms, ...args) => add(fn, ms, args, true), clearInterval: clear,
    };
  }

  // The timers due at `clock`, in due order (a repeating one is set again for its next time).
  due(clock) {
    const due = this.#timers.filter((t) => t.due <= clock).sort((a, b) => a.due - b.due || a.id - b.id);
    for (const t of due) {
      if (t.every === null) this.#timers = this.#timers.filter((x) => x !== t);
      else t.due += t.every;
    }
    return due;
  }

  next() { return Math.min(...this.#timers.map((t) => t.due)); }
}
