// run_options.js — the two run options that turn a cluster into a judge, with the same meaning in the Worker
// cluster (cluster.js) and the single-threaded judge cluster (local_cluster.js):
//
//   delivery: null | { seed }
//       null: messages are delivered in the order the network happens to give (the judge: oldest message
//       first, ranks resumed in the order they became ready). With a seed: a seeded random interleaving —
//       messages of one ordered pair src → dst stay in order (FIFO, as MPI guarantees for one communicator and
//       tag), messages of different pairs are delivered in any order, and the order in which ready ranks run
//       is drawn from the same seed. The judge is fully deterministic for a given seed.
//   sendMode: "buffered" | "sync"
//       buffered (default): send() copies the data and returns at once (it returns an already-resolved
//       promise, so `await ctx.send(…)` also works). sync: send() returns a promise that resolves only when
//       the receiver's recv() has taken the message (MPI_Ssend). A send that is not awaited is a nonblocking
//       send and stays correct; `await ctx.send(…)` before the matching recv deadlocks when both sides do
//       it, and the deadlock is reported with its wait-for cycle ("rank 0 waits in send for rank 1, …").
import { mulberry32 } from "../exercise/random.js";

export const SEND_MODES = ["buffered", "sync"];

// Throws a readable TypeError/RangeError (`who` names the caller) unless the options are well-formed.
export function checkRunOptions({ delivery = null, sendMode = "buffered" } = {}, who = "Cluster.run") {
  if (delivery !== null) {
    if (typeof delivery !== "object" || !Number.isInteger(delivery.seed)) {
      throw new TypeError(`${who}: delivery must be null or { seed } with an integer seed (got ${JSON.stringify(delivery)})`);
    }
  }
  if (!SEND_MODES.includes(sendMode)) {
    throw new RangeError(`${who}: sendMode must be "buffered" or "sync" (got ${JSON.stringify(sendMode)})`);
  }
  return { delivery, sendMode };
}

// The judge's scheduler for one run: which of the possible next steps to take, and how far its virtual
// clock advances per step (seconds). Without a seed: always the first choice, 1 µs per step. With a seed:
// a uniform choice, and a heavy-tailed step (mostly 0.5–1.5 µs, one step in seven 5–50 µs — a garbage
// collection, a descheduled thread), so timings spread as on a real machine and a mean differs from a median.
export function interleaving(delivery) {
  if (!delivery) return { seeded: false, pick: () => 0, tick: () => 1e-6 };
  const rng = mulberry32(delivery.seed >>> 0);
  return {
    seeded: true,
    pick: (n) => Math.min(n - 1, Math.floor(rng() * n)),
    tick: () => (rng() < 6 / 7 ? 0.5 + rng() : 5 + 45 * rng()) * 1e-6,
  };
}
