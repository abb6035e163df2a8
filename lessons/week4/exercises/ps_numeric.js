// ps_numeric.js — Week 4's numeric exercises, each answered by the core's closed forms (ps_closed_forms.h) and each
// with the usual mistake as its wrongAnswer:
//   w4-barrier        E[slowest of P exponential workers] = m·H_P             (mistake: the mean m)
//   w4-backup         E[P-th of P + b] = m·(H_{P+b} − H_b)                     (mistake: the slowest of all P + b)
//   w4-servers        the fewest shards K with the servers no longer the bottleneck (mistake: one, "a server's link is as fast as a worker's")
//   w4-ssp-stall      SSP's stall fraction with fixed speeds                    (mistake: the 1/(s + 1) rule of thumb)
//   w4-hogwild        Hogwild!'s collision rate 1 − q^(T−1), q = C(n−k, k)/C(n, k)   (mistake: the k = 1 formula)
import { pick } from "../../../web/exercise/params.js";
import { formatBytes, formatSeconds } from "../../../web/units.js";
import { ETHERNET } from "../ps_setup.js";

// For the oracles (the answers by hand, without the core): H_n = 1 + 1/2 + … + 1/n, and C(n, k).
const harmonic = (n) => Array.from({ length: n }, (_, i) => 1 / (i + 1)).reduce((a, b) => a + b, 0);
const choose = (n, k) => { let r = 1; for (let i = 0; i < k; i++) r *= (n - i) / (k - i); return r; };

export const barrier = {
  id: "w4-barrier",
  // How the prompt writes the parameters it does not show as their plain value (tests/exercises/numeric_statements).
  promptShows: { mean: (v) => formatSeconds(v) },
  kind: "numeric",
  title: "The straggler barrier",
  params: (rng) => ({ workers: pick(rng, [4, 8, 16, 32, 64]), mean: pick(rng, [0.2, 0.5, 1, 2]) }),
  prompt: (p) => `<p>P = ${p.workers} workers compute a gradient each round; each compute time is exponential with mean
    ${formatSeconds(p.mean)}, independent of the others. Under BSP a round ends when the last gradient arrives (ignore
    the network). What is the expected round time, in seconds?</p>`,
  answer: (p, core) => core.expectedMaxExponential(p.workers, p.mean),
  // E[max of P exponentials] = mean · H_P
  oracle: (p) => p.mean * harmonic(p.workers),
  tolerance: { rel: 0.01 },
  unit: "seconds",
  unitSymbol: "s",
  wrongAnswer: (p) => p.mean,   // the mean of one worker: forgetting the barrier waits for the slowest
  hints: [
    "The round is the maximum of P compute times, not their mean.",
    "For exponentials, after the first finishes the remaining P − 1 are still exponential (memoryless): the gaps are m/P, m/(P − 1), …, m/1.",
    "E[max] = m·(1 + 1/2 + … + 1/P) = m·H_P.",
  ],
  solutionText: `<p>E[max] = m·H_P, H_P = 1 + 1/2 + … + 1/P ≈ ln P + 0.577. The barrier's price grows with the logarithm
    of the number of workers: 2.08× the mean for 4 workers, 4.74× for 64. It is the reason the largest synchronous jobs
    fight tail latency (Dean &amp; Barroso 2013).</p>`,
};

export const backup = {
  id: "w4-backup",
  // How the prompt writes the parameters it does not show as their plain value (tests/exercises/numeric_statements).
  promptShows: { mean: (v) => formatSeconds(v) },
  kind: "numeric",
  title: "Backup workers: the P-th of P + b",
  params: (rng) => ({ quota: pick(rng, [4, 8, 16, 32]), backup: pick(rng, [1, 2, 4]), mean: pick(rng, [0.5, 1, 2]) }),
  prompt: (p) => `<p>A synchronous job needs P = ${p.quota} gradients a round and runs ${p.quota + p.backup} workers
    (b = ${p.backup} backups); the first P gradients win and the late workers abandon theirs. Compute times are
    exponential with mean ${formatSeconds(p.mean)}, independent. What is the expected round time, in seconds?</p>`,
  answer: (p, core) => core.expectedOrderStatisticExponential(p.quota, p.quota + p.backup, p.mean),
  // the P-th of P + b exponentials: mean · (H_{P+b} − H_b)
  oracle: (p) => p.mean * (harmonic(p.quota + p.backup) - harmonic(p.backup)),
  tolerance: { rel: 0.01 },
  unit: "seconds",
  unitSymbol: "s",
  wrongAnswer: (p, core) => core.expectedMaxExponential(p.quota + p.backup, p.mean),   // waiting for all P + b
  hints: [
    "The round ends at the P-th smallest of N = P + b exponentials, not the largest.",
    "With N running, the first finishes after m/N on average, the next after m/(N − 1) more, and so on.",
    "E[P-th of N] = m·(1/N + 1/(N − 1) + … + 1/(b + 1)) = m·(H_N − H_b).",
  ],
  solutionText: `<p>E = m·(H_{P+b} − H_b): the sum of the first P gaps. The first backup removes the longest gap (m/1),
    the second the next (m/2): the gains shrink quickly, so one or two backups per few dozen workers buy most of it
    (Chen et al. 2016 used about 5%).</p>`,
};

export const servers = {
  id: "w4-servers",
  kind: "numeric",
  title: "How many server shards?",
  params: (rng) => ({ workers: pick(rng, [4, 8, 16, 32]), megabytes: pick(rng, [40, 100, 400]) }),
  prompt: (p) => `<p>${p.workers} workers and K parameter-server shards share a switch; every node has one 10 Gb/s link
    (α = 50 µs). Each round every worker pushes its ${formatBytes(p.megabytes * 1e6)} gradient, split by key range
    into K equal parts, one per shard. What is the fewest K for which a shard's incoming link carries no more than
    a worker's outgoing link?</p>`,
  answer: (p, core) => core.psServersToBalance(ETHERNET, p.workers, p.megabytes * 1e6),
  // K servers balance W workers' links when K = W (equal links)
  oracle: (p) => p.workers,
  tolerance: { abs: 0.01 },
  unit: "shards",
  unitSymbol: "",
  wrongAnswer: () => 1,   // "a server's link is as fast as a worker's"
  hints: [
    "A worker's uplink carries S bytes a round (K messages of S/K).",
    "A shard's downlink carries S/K from each of the W workers: W·S/K.",
    "W·S/K ≤ S when K ≥ W (the α terms, W·α against K·α, give the same answer).",
  ],
  solutionText: `<p>K = W: a shard receives W·S/K bytes a round, a worker sends S. With fewer shards the servers' links are
    the bottleneck by a factor W/K — the star traffic pattern that made the parameter server need as many servers as
    workers (Li et al. 2014), and the reason all-reduce, which uses every link equally, replaced it for dense models.</p>`,
};

const SPEED_SETS = [[1, 1, 1, 1, 3, 5], [1, 1, 2], [1, 2, 4], [1, 1, 1, 4]];
// Σ (finish − own compute) / Σ finish, for a rule finish(t_w, t_max, I) (speeds × 0.1 s).
function stallOf(p, finishOf) {
  const t = p.speeds.map((m) => 0.1 * m), tmax = Math.max(...t), I = p.iterations;
  const finish = t.map((tw) => finishOf(tw, tmax, I));
  return finish.reduce((a, f, w) => a + f - I * t[w], 0) / finish.reduce((a, b) => a + b, 0);
}
const STALL_RULE = (p) => (tw, tmax, I) => Math.max(I * tw, Math.max(0, I - p.bound) * tmax);
function slipOf(p, finishOf) {
  const value = stallOf(p, finishOf), answer = stallOf(p, STALL_RULE(p));
  return Math.abs(value - answer) <= 0.01 * answer ? null : value;
}
export const sspStall = {
  id: "w4-ssp-stall",
  kind: "numeric",
  title: "SSP's stall with a persistent straggler",
  params: (rng) => ({ speeds: pick(rng, SPEED_SETS), iterations: pick(rng, [20, 40, 100]), bound: pick(rng, [1, 2, 4, 8]) }),
  prompt: (p) => `<p>${p.speeds.length} workers take [${p.speeds.join(", ")}] × 0.1 s per clock, always (no noise), and run
    I = ${p.iterations} clocks each under SSP with bound s = ${p.bound}; ignore the network. A worker may start clock c
    (counting from 1) once the slowest has finished c − s − 1 clocks, and a worker is finished when the server answers its
    last push — which the server holds, like every answer, until the slowest has finished at least I − s clocks (so the
    wait after the last clock counts, as in <a href="#regimes" data-ref="§"></a>). What fraction of all the workers' time (Σ waiting / Σ (compute +
    waiting)) is spent waiting? Give it as a fraction between 0 and 1.</p>`,
  answer: (p, core) => core.sspStallFixedSpeeds({ distribution: "fixed", base: 0.1, multipliers: p.speeds }, p.speeds.length,
    p.iterations, p.bound).stallFraction,
  // each worker finishes at max(I·t_w, (I − s)·t_max); the stall is the time beyond its own work
  oracle: (p) => {
    const t = p.speeds.map((m) => 0.1 * m), tmax = Math.max(...t), I = p.iterations;
    const finish = t.map((tw) => Math.max(I * tw, Math.max(0, I - p.bound) * tmax));
    return finish.reduce((a, f, w) => a + f - I * t[w], 0) / finish.reduce((a, b) => a + b, 0);
  },
  tolerance: { rel: 0.01 },
  unit: "fraction",
  unitSymbol: "",
  wrongAnswer: (p) => 1 / (p.bound + 1),   // the rule of thumb "SSP stalls 1/(s + 1) of the time"
  // The two readings a learner of the section meets: the count stopped when the last compute ends (the section names
  // it as another convention), and the bound left out (every clock waits for the slowest, BSP).
  // Either can land within the tolerance of the answer (a long run, a small s): then it is no slip for that draw (null).
  slips: [
    { name: "the wait after the last clock left out",
      value: (p) => slipOf(p, (tw, tmax, I) => Math.max(I * tw, Math.max(0, I - p.bound - 1) * tmax + tw)),
      explain: "It stops counting when each worker's last compute ends. Here a worker is finished only when the server " +
        "answers its last push, and the server holds that answer, like every other, until the slowest has finished at " +
        "least I − s clocks: that last wait counts too." },
    { name: "the bound left out (BSP)",
      value: (p) => slipOf(p, (tw, tmax, I) => I * tmax),
      explain: "It is BSP's stall, every worker waiting for the slowest at every clock (s = 0). With bound s a fast " +
        "worker runs up to s clocks ahead of the slowest before it waits." },
  ],
  hints: [
    "The slowest worker never waits; it finishes at I·t_max.",
    "A faster worker w can be at most s clocks ahead: it finishes at max(I·t_w, (I − s)·t_max) and waits the difference with its compute I·t_w.",
    "Stall = Σ_w waits / Σ_w finish times.",
  ],
  solutionText: `<p>finish_w = max(I·t_w, (I − s)·t_max), wait_w = finish_w − I·t_w, stall = Σ wait / Σ finish. With a
    straggler that is always slow the bound only delays the fast workers' waiting by s clocks: the stall falls slowly
    with s, nothing like 1/(s + 1). SSP pays off when slowness comes and goes.</p>`,
};

export const hogwildCollision = {
  id: "w4-hogwild",
  kind: "numeric",
  title: "Hogwild!: how often do updates collide?",
  params: (rng) => ({ threads: pick(rng, [4, 8, 16]), features: pick(rng, [1000, 10000]), support: pick(rng, [5, 10, 20]) }),
  prompt: (p) => `<p>T = ${p.threads} threads run lock-free SGD on a model of n = ${p.features} parameters. Each update
    touches k = ${p.support} distinct parameters chosen uniformly at random, and overlaps in time with the T − 1 updates
    of the other threads. What is the probability that an update shares at least one parameter with one of those?</p>`,
  answer: (p, core) => core.hogwildCollisionProbability(p.threads, p.features, p.support),
  // 1 − q^(T−1), q = C(F − k, k)/C(F, k): no other thread's k coordinates meet mine
  oracle: (p) => 1 - (choose(p.features - p.support, p.support) / choose(p.features, p.support)) ** (p.threads - 1),
  tolerance: { rel: 0.01 },
  unit: "fraction",
  unitSymbol: "",
  wrongAnswer: (p) => 1 - (1 - 1 / p.features) ** (p.threads - 1),   // the one-coordinate formula, k ignored
  hints: [
    "Two updates are disjoint when the second's k parameters all avoid the first's: q = C(n − k, k)/C(n, k).",
    "The T − 1 others are independent: P(no collision) = q^(T−1).",
    "For k ≪ n, q ≈ (1 − k/n)^k ≈ e^(−k²/n): the collision rate grows with k², not k.",
  ],
  solutionText: `<p>P = 1 − q^(T−1), q = C(n−k, k)/C(n, k) ≈ e^(−k²/n). It is the birthday problem: with k = 10 of 1000 and
    16 threads, 78% of updates collide although each touches 1% of the model. Hogwild!'s guarantee needs this overlap
    to be rare; its updates still converge when collisions are frequent but the atomic adds keep every write.</p>`,
};
