// choose_algorithm.js — choice exercise "w2-fastest": which all-reduce algorithm wins, for a small and a
// large message, on one fixed cluster. The options are claims about the closed forms (Thakur et al. 2005);
// each option also carries `claim(core)`, the same claim computed with the core, which the tests evaluate
// so that the `correct` flags can never drift from the formulas.

export const FASTEST_SCENARIO = { ranks: 64, alpha: 5e-6, beta: 1 / 25e9, gamma: 0, small: 8e3, large: 256e6 };
const ALGORITHMS = ["naive", "ring", "recursive-doubling", "rabenseifner"];

const cost = (core, algorithm, bytes) => core.collectiveCost("all-reduce", algorithm, { ...FASTEST_SCENARIO, bytes });
const fastest = (core, bytes) => ALGORITHMS.reduce((best, a) => (cost(core, a, bytes) < cost(core, best, bytes) ? a : best));
const S = FASTEST_SCENARIO;

export const fastestAllreduce = {
  id: "w2-fastest",
  kind: "choice",
  title: "Which all-reduce is fastest?",
  prompt: `<p>A fully connected cluster of p = 64 GPUs has α = 5 µs and 25 GB/s links; each GPU sends one message
    and receives one at a time (γ = 0). Compare the four all-reduce algorithms of this page — naive (through rank 0),
    ring, recursive doubling and Rabenseifner's halving-doubling — by their closed forms, for a small vector of
    8 kB and a large one of 256 MB. Which statements are true? Choose every correct one.</p>`,
  options: [
    {
      text: "For 8 kB, recursive doubling is the fastest of the four.",
      claim: (core) => fastest(core, S.small) === "recursive-doubling",
      correct: true,
      why: "log₂64 = 6 rounds of α + 8 kB·β ≈ 5.3 µs: about 32 µs. Rabenseifner needs 12 rounds (about 61 µs), the ring " +
        "126 (about 631 µs). At this size every algorithm is latency-bound, so the fewest rounds win.",
    },
    {
      text: "For 8 kB, more than 99% of the ring's time is its latency term 2(p − 1)α.",
      claim: (core) => (2 * (S.ranks - 1) * S.alpha) / cost(core, "ring", S.small) > 0.99,
      correct: true,
      why: "2·63·5 µs = 630 µs, against 2·(63/64)·8 kB/25 GB/s ≈ 0.63 µs of bandwidth term: 99.9% latency.",
    },
    {
      text: "For 256 MB, the ring is the fastest of the four.",
      claim: (core) => fastest(core, S.large) === "ring",
      correct: false,
      why: "Rabenseifner's algorithm has the same bandwidth term 2((p − 1)/p)·nβ and only 2 log₂p = 12 latency terms " +
        "instead of 126, so on this model (fully connected, p a power of two) it is never slower than the ring. " +
        "The ring wins in practice for reasons the model leaves out: it only talks to neighbours (no contention on rings, " +
        "tori or nodes × GPUs), works for any p, and pipelines in small chunks.",
    },
    {
      text: "For 256 MB, the ring and Rabenseifner's algorithm are within 5% of each other.",
      claim: (core) => cost(core, "ring", S.large) / cost(core, "rabenseifner", S.large) < 1.05,
      correct: true,
      why: "Both pay 2·(63/64)·256 MB/25 GB/s ≈ 20.2 ms of bandwidth; the ring's extra 114 α = 0.57 ms is about 3%.",
    },
    {
      text: "For 256 MB, recursive doubling is within 2× of the ring.",
      claim: (core) => cost(core, "recursive-doubling", S.large) < 2 * cost(core, "ring", S.large),
      correct: false,
      why: "Recursive doubling sends the whole vector in each of its 6 rounds: 6·256 MB·β ≈ 61 ms, about 3× the ring's " +
        "20.8 ms. Its bandwidth term is log₂p·nβ against the ring's 2((p − 1)/p)·nβ.",
    },
    {
      text: "For 256 MB, the naive all-reduce through rank 0 is about p/2 = 32 times slower than the ring.",
      claim: (core) => Math.abs(cost(core, "naive", S.large) / cost(core, "ring", S.large) / 32 - 1) < 0.25,
      correct: false,
      why: "About p = 64 times: rank 0 moves 2(p − 1)·n bytes one after another, the ring 2((p − 1)/p)·n per rank, " +
        "a ratio of exactly p in the bandwidth terms.",
    },
  ],
  hints: [
    "Compute each algorithm's rounds (the α coefficient) and bytes on the busiest rank (the β coefficient) for p = 64.",
    "At 8 kB, nβ ≈ 0.32 µs ≪ α = 5 µs: count rounds. At 256 MB, nβ ≈ 10 ms ≫ α: compare the β coefficients.",
    "β coefficients: naive 2(p − 1)n, ring 2((p − 1)/p)n, recursive doubling log₂p·n, Rabenseifner 2((p − 1)/p)n. Three statements are true.",
  ],
  solutionText: `<p>True: recursive doubling wins at 8 kB; the ring is 99.9% latency there; ring and Rabenseifner are within
    3% at 256 MB. False: the ring is not the fastest at 256 MB in this model — Rabenseifner's algorithm has the same
    bandwidth term with 12 instead of 126 latency terms; recursive doubling is 3× slower than the ring at 256 MB; naive is
    about p = 64 times slower, not 32. The time-vs-size widget shows the whole picture: log-round algorithms win small
    messages, bandwidth-optimal ones large messages, and the crossover moves with p, α and β.</p>`,
};
