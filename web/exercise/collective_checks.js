// collective_checks.js — what the collective checkers share (Week 2's, and Week 6's elastic ring): chunk arithmetic,
// reading a rank's returned vector, explaining a wrong sum by whose contributions it misses or counts twice, and replaying the
// learner's trace in the core's simulator to compare it with the closed form and the lower bound.
// Pure functions, no DOM: the page and the Node tests use them alike. The checkers judge the recorded
// trace and the returned values, never what a program says about itself (Week 1's run_checks.js).
import { esc } from "./params.js";
import { formatSeconds, plural } from "../units.js";

// The reference cluster a learner's trace is replayed on: α = 5 µs, 25 GB/s (β = 4·10⁻¹¹ s/B).
export const REFERENCE_NET = { alpha: 5e-6, beta: 1 / 25e9 };
export const BYTES_PER_NUMBER = 8;   // a Float64Array element

export const mod = (x, p) => ((x % p) + p) % p;
export const isPowerOfTwo = (x) => x > 0 && (x & (x - 1)) === 0;

// Chunk c of an n-element vector split over p ranks: [chunkStart(c), chunkStart(c + 1)). The first
// n mod p chunks are one element longer (the convention of the core's schedules, core/collectives/chunking.cpp).
export const chunkStart = (n, p, c) => c * Math.floor(n / p) + Math.min(c, n % p);
export const chunkOf = (n, p, i) => {
  let c = 0;
  while (chunkStart(n, p, c + 1) <= i) c++;
  return c;
};
export const chunkText = (n, p, c) => {
  const a = chunkStart(n, p, c), b = chunkStart(n, p, c + 1) - 1;
  return a === b ? `chunk ${c} (element ${a})` : `chunk ${c} (elements ${a}–${b})`;
};

// A returned vector as a plain array of numbers, or null. Accepts an Array or any typed array.
export function asNumbers(value) {
  if (ArrayBuffer.isView(value) && !(value instanceof DataView)) return Array.from(value);
  if (Array.isArray(value) && value.every((x) => typeof x === "number")) return value;
  return null;
}

// What came back, in words, for a message: "a Float64Array of 12 numbers" is not visible in a trace,
// so describe the bytes instead.
export const numbersIn = (bytes) => (bytes % BYTES_PER_NUMBER === 0 ? bytes / BYTES_PER_NUMBER : null);
export const plainArrayNote = "A message whose size is not a multiple of 8 bytes was not a Float64Array: " +
  "a plain array travels as JSON text, whose size depends on the digits. Send " +
  "<code>buf.slice(a, b)</code> or <code>buf.subarray(a, b)</code> of a <code>Float64Array</code>.";

// Integers drawn for inputs: non-zero (a missing 0 would be invisible) and in [−999, 999].
export function nonZeroInt(rng) {
  const x = Math.floor(rng() * 1998) - 999;
  return x >= 0 ? x + 1 : x;
}

// Explain wrong sums by ranks' contributions. diffs[e] = got − expected for the wrong elements e;
// contrib[s][e] = rank s's input at element e. Finds the smallest set S of ranks with
// diffs[e] = ±Σ_{s∈S} contrib[s][e] for every e. Returns { sign: −1 (missing) | +1 (twice), ranks } or null.
export function explainBySubsets(diffs, contrib) {
  const p = contrib.length;
  const subsets = [];
  for (let mask = 1; mask < 1 << p; mask++) subsets.push(mask);
  subsets.sort((a, b) => popcount(a) - popcount(b) || a - b);
  for (const mask of subsets) {
    const ranks = [...Array(p).keys()].filter((s) => mask & (1 << s));
    for (const sign of [-1, 1]) {
      if (diffs.every((d, e) => d === sign * ranks.reduce((acc, s) => acc + contrib[s][e], 0))) return { sign, ranks };
    }
  }
  return null;
}
const popcount = (x) => { let c = 0; for (; x; x &= x - 1) c++; return c; };

export const rankList = (ranks) => (ranks.length === 1 ? `rank ${ranks[0]}`
  : `ranks ${ranks.slice(0, -1).join(", ")} and ${ranks.at(-1)}`);

// "rank 3's chunk 2 misses the contribution of rank 1" (or counts ranks 1 and 2 twice), from the
// wrong elements of one chunk on one rank. `where` names the part ("chunk 2 (elements 10–14)").
// Returns { text, why } with `why` from explainBySubsets (null when no set of ranks explains it).
export function describeWrongSum({ rank, where, indices, got, want, contrib }) {
  const diffs = indices.map((i, e) => got[e] - want[e]);
  const first = `element ${indices[0]}: expected ${want[0]}, got ${esc(got[0])}`;
  const why = explainBySubsets(diffs, contrib);
  if (!why) return { why, text: `Rank ${rank}'s ${where} is wrong in ${plural(indices.length, "element")} (${first}).` };
  const whose = `the contribution${why.ranks.length > 1 ? "s" : ""} of ${rankList(why.ranks)}`;
  return { why, text: why.sign < 0
    ? `Rank ${rank}'s ${where} misses ${whose} (${first}).`
    : `Rank ${rank}'s ${where} counts ${whose} twice (${first}).` };
}

// The trace as the core's replay reads it (core/include/dsml/trace_replay.h): it turns each rank's sends and
// receives, ordered by their times on that rank, into that rank's program. The measured times cannot give that
// order: a Worker's clock is coarse (0.1 ms in some browsers), so send k and the receive after it often tie, and
// the replay, taking receives first on a tie, would make every send wait for the message before it — a chain
// around the ring that the program does not have (145 µs instead of 80 µs at p = 9). Each record's place in its
// rank's own sequence (sendOrder, recvOrder: the runtime's program order) is handed over as its time instead;
// the replay compares times only within one rank, so it then replays exactly the program's order.
export function programOrderTrace(trace) {
  const ordered = trace.every((m) => Number.isInteger(m.sendOrder) && (m.recvTime == null || Number.isInteger(m.recvOrder)));
  return trace.map(({ src, dst, bytes, sendTime, recvTime, sendOrder, recvOrder }) => (ordered
    ? { src, dst, bytes, sendTime: sendOrder, recvTime: recvTime == null ? null : recvOrder }
    : { src, dst, bytes, sendTime, recvTime }));
}

// What a Week 2 code exercise's messages implement, its `replays` field: { collective, algorithm, numbers(testCase) }
// (numbers: the n of the formula, in Float64Array elements). Its checker ends a pass message with
// replayNote(run, testCase, replays, core); tests/exercises/replay_notes.test.mjs compares the note with the closed form.
// Replays the trace on the reference network and words the comparison; "" when the core cannot
// (no core on the page, or an older core without these functions) — the verdict never depends on it.
export function replayNote(run, testCase, { collective, algorithm, numbers }, core) {
  if (!core?.simulateTrace || !core?.collectiveCost || !core?.lowerBound) return "";
  try {
    const ranks = testCase.ranks, bytes = numbers(testCase) * BYTES_PER_NUMBER;
    const params = { ranks, bytes, ...REFERENCE_NET, gamma: 0 };
    const sim = core.simulateTrace({ ranks, topology: { kind: "fully-connected", ...REFERENCE_NET }, gamma: 0,
                                     trace: programOrderTrace(run.trace ?? []) });
    const formula = core.collectiveCost(collective, algorithm, params);
    const bound = core.lowerBound(collective, params);
    return ` Replayed on a simulated cluster (α = 5 µs, 25 GB/s links), your messages take ${formatSeconds(sim.makespan)}; ` +
      `the ${algorithm} formula gives ${formatSeconds(formula)} and the lower bound for any ${collective} is ${formatSeconds(bound)}.`;
  } catch {
    return "";
  }
}
