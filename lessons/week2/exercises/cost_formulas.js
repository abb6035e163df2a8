// cost_formulas.js — Week 2's numeric exercises on the α–β cost of collectives (Thakur, Rabenseifner &
// Gropp 2005): ring all-reduce time, the message size where ring overtakes recursive doubling, a pipelined
// chain broadcast, and NCCL's bus bandwidth. Answers come from the core (collectiveCost, messagesTime,
// busBandwidth); each exercise has a wrongAnswer — the mistake learners make most — which CI checks fails.
import { pick } from "../../../web/exercise/params.js";
import { formatBytes, formatRate, formatSI, formatSeconds, withArticle } from "../../../web/units.js";

const US = 1e-6;   // s per µs
const GBS = 1e9;   // B/s per GB/s
const net = (p) => ({ alpha: p.alphaUs * US, beta: 1 / (p.bwGBs * GBS), gamma: 0 });
const linkText = (p) => `α = ${p.alphaUs} µs and ${formatRate(p.bwGBs * GBS)} (β = 1/bandwidth)`;
const MODEL = "each rank can send one message and receive one at the same time, and a message of m bytes takes α + β·m";

export const ringTime = {
  id: "w2-ring-time",
  kind: "numeric",
  title: "Ring all-reduce time",
  params: (rng) => ({
    ranks: pick(rng, [4, 8, 16, 32, 64, 128]), sizeMB: pick(rng, [16, 100, 256, 1000]),
    alphaUs: pick(rng, [2, 5, 10]), bwGBs: pick(rng, [12.5, 25, 50, 100]),
  }),
  prompt: (p) => `<p>Data-parallel training on p = ${p.ranks} GPUs: after the backward pass each GPU holds
    n = ${p.sizeMB} MB of gradients (1 MB = 10<sup>6</sup> B), summed with <strong>ring all-reduce</strong>. The network
    is fully connected with ${linkText(p)}; ${MODEL}. Ignore the time to add (γ = 0).</p>
    <p>How long does the all-reduce take? Answer in seconds; a prefix is fine (<code>70.1 ms</code>).</p>`,
  answer: (p, core) => core.collectiveCost("all-reduce", "ring", { ranks: p.ranks, bytes: p.sizeMB * 1e6, ...net(p) }),
  // Thakur et al. 2005: 2(p − 1)α + 2((p − 1)/p)·nβ
  oracle: (p) => 2 * (p.ranks - 1) * p.alphaUs * US + 2 * ((p.ranks - 1) / p.ranks) * p.sizeMB * 1e6 / (p.bwGBs * GBS),
  tolerance: { rel: 0.01 },
  unit: "seconds",
  unitSymbol: "s",
  // Only the reduce-scatter half: (p − 1)α + ((p − 1)/p)·nβ.
  wrongAnswer: (p, core) => core.collectiveCost("reduce-scatter", "ring", { ranks: p.ranks, bytes: p.sizeMB * 1e6, ...net(p) }),
  slips: [
    { name: "one phase of two",
      value: (p, core) => core.collectiveCost("reduce-scatter", "ring", { ranks: p.ranks, bytes: p.sizeMB * 1e6, ...net(p) }),
      explain: "It matches the time of one phase of the ring: an all-reduce is a reduce-scatter <em>and then</em> an " +
        "all-gather, each p − 1 steps long." },
    { name: "the whole vector every step",
      value: (p, core) => core.messagesTime(p.alphaUs * US, 1 / (p.bwGBs * GBS), 2 * (p.ranks - 1), p.sizeMB * 1e6),
      explain: "It matches a ring whose every step passes the whole vector: in a ring step each rank sends one chunk, n/p bytes." },
  ],
  hints: [
    "Ring all-reduce is a reduce-scatter followed by an all-gather, each p − 1 steps long.",
    "In every step each rank sends one chunk of n/p bytes to its neighbour, all ranks at once: a step costs α + β·n/p.",
    "T = 2(p − 1)·(α + β·n/p) = 2(p − 1)α + 2((p − 1)/p)·nβ. Put n in bytes and β = 1/bandwidth in s/B.",
  ],
  solutionText: `<p>T<sub>ring</sub> = 2(p − 1)α + 2((p − 1)/p)·nβ. The bandwidth term is almost 2nβ whatever p is — every
    byte of the vector leaves every rank about twice (once as a partial sum, once as a finished one) — while the latency
    term grows linearly with p. For large gradients the α term is negligible; for small ones, or very many ranks, it is
    not, and log-latency algorithms win.</p>`,
};

// The message size at which two linear cost models a + b·n meet, from the core's own cost at n = 0 and 1 GB.
function crossing(core, p, first, second, params) {
  const N = 1e9;
  const at = (alg, n) => core.collectiveCost("all-reduce", alg, { ranks: p, bytes: n, ...params });
  const a1 = at(first, 0), b1 = (at(first, N) - a1) / N;
  const a2 = at(second, 0), b2 = (at(second, N) - a2) / N;
  return (a1 - a2) / (b2 - b1);
}

export const crossover = {
  id: "w2-crossover",
  kind: "numeric",
  title: "Where ring overtakes recursive doubling",
  params: (rng) => ({ ranks: pick(rng, [8, 16, 32, 64, 128]), alphaUs: pick(rng, [2, 5, 10]), bwGBs: pick(rng, [12.5, 25, 50, 100]) }),
  prompt: (p) => `<p>On p = ${p.ranks} ranks of a fully connected network with ${linkText(p)} (${MODEL}; γ = 0),
    compare two all-reduce algorithms on a vector of n bytes:</p>
    <ul><li>recursive doubling: log₂p steps, each exchanging the whole vector with one partner;</li>
    <li>ring: 2(p − 1) steps, each passing a chunk of n/p bytes to a neighbour.</li></ul>
    <p>Above which message size n is the ring faster? Answer in <strong>bytes</strong> (<code>1.1e6</code> or <code>1.1M</code>).</p>`,
  answer: (p, core) => crossing(core, p.ranks, "ring", "recursive-doubling", net(p)),
  // log₂p·(α + βn) = 2(p − 1)α + 2((p − 1)/p)βn solved for n
  oracle: (p) => {
    const L = Math.log2(p.ranks), a = p.alphaUs * US, b = 1 / (p.bwGBs * GBS);
    return ((2 * (p.ranks - 1) - L) * a) / ((L - (2 * (p.ranks - 1)) / p.ranks) * b);
  },
  tolerance: { rel: 0.01 },
  unit: "bytes",
  unitSymbol: "B",
  // Week 1's crossover n* = α/β of a single message.
  wrongAnswer: (p) => (p.alphaUs * US) * (p.bwGBs * GBS),
  hints: [
    "Write both as a + b·n. Recursive doubling: log₂p·α + log₂p·β·n. Ring: 2(p − 1)α + 2((p − 1)/p)·β·n.",
    "The ring has the larger constant and the smaller slope (for p ≥ 4), so it wins above the size where the two lines meet.",
    "n<sub>×</sub> = (2(p − 1) − log₂p)·α / ((log₂p − 2(p − 1)/p)·β). For p = 8, α = 5 µs, 25 GB/s: 11α/(1.25β) = 1.1 MB.",
  ],
  solutionText: `<p>Setting log₂p·(α + βn) = 2(p − 1)α + 2((p − 1)/p)βn gives
    n<sub>×</sub> = (2(p − 1) − log₂p)/(log₂p − 2(p − 1)/p) · α/β. The crossover is a multiple of Week 1's n* = α/β,
    and the multiple grows with p: more ranks make the ring's 2(p − 1) latency terms dearer. Libraries switch on exactly
    this kind of threshold — MPICH uses recursive doubling below 2 KiB and Rabenseifner's algorithm above; NCCL's tuner
    compares its own α–β estimates of ring and tree for every call.</p>`,
};

export const pipelinedBroadcast = {
  id: "w2-pipeline",
  kind: "numeric",
  title: "A pipelined chain broadcast",
  params: (rng) => ({
    ranks: pick(rng, [8, 16, 32, 64]), sizeMB: pick(rng, [16, 64, 256]), segments: pick(rng, [4, 16, 64, 256]),
    alphaUs: pick(rng, [2, 5, 10]), bwGBs: pick(rng, [12.5, 25, 50]),
  }),
  prompt: (p) => `<p>Rank 0 broadcasts n = ${p.sizeMB} MB to p = ${p.ranks} ranks arranged in a chain
    0 → 1 → 2 → … → ${p.ranks - 1}. The message is cut into k = ${p.segments} equal segments. Every rank forwards a
    segment to the next rank as soon as it has received it, while receiving the following segment; ${MODEL},
    with ${linkText(p)}.</p>
    <p>When has the last rank received all n bytes? Answer in seconds (a prefix is fine).</p>`,
  answer: (p, core) => core.messagesTime(p.alphaUs * US, 1 / (p.bwGBs * GBS), p.ranks + p.segments - 2, (p.sizeMB * 1e6) / p.segments),
  // p + k − 2 steps of one segment n/k each
  oracle: (p) => (p.ranks + p.segments - 2) * (p.alphaUs * US + (p.sizeMB * 1e6) / p.segments / (p.bwGBs * GBS)),
  tolerance: { rel: 0.01 },
  unit: "seconds",
  unitSymbol: "s",
  // No pipelining: the whole message hops p − 1 times.
  wrongAnswer: (p, core) => core.messagesTime(p.alphaUs * US, 1 / (p.bwGBs * GBS), p.ranks - 1, p.sizeMB * 1e6),
  slips: [
    { name: "no pipelining",
      value: (p, core) => core.messagesTime(p.alphaUs * US, 1 / (p.bwGBs * GBS), p.ranks - 1, p.sizeMB * 1e6),
      explain: "It matches the chain without segments: the whole message hopping from rank to rank. With k segments a " +
        "rank forwards the first while it receives the next." },
    // With α small against a segment's time this is the unpipelined chain's time: that slip names it then (null here).
    { name: "every segment over every hop",
      value: (p, core) => {
        const net = [p.alphaUs * US, 1 / (p.bwGBs * GBS)];
        const serial = core.messagesTime(...net, (p.ranks - 1) * p.segments, (p.sizeMB * 1e6) / p.segments);
        const whole = core.messagesTime(...net, p.ranks - 1, p.sizeMB * 1e6);
        return Math.abs(serial - whole) <= 0.01 * whole ? null : serial;
      },
      explain: "It counts every segment on every hop one after another: the hops work at the same time, so after " +
        "the first segment arrives at the last rank, one more arrives every step." },
  ],
  hints: [
    "One segment of n/k bytes takes α + β·n/k per hop. Think in steps of that length.",
    "The first segment reaches the last rank after p − 1 steps. After that, one more segment arrives every step.",
    "T = (p − 1 + k − 1)·(α + β·n/k) = (p + k − 2)·(α + β·n/k).",
  ],
  solutionText: `<p>T(k) = (p + k − 2)(α + βn/k): p − 1 steps to fill the pipeline, then k − 1 more to drain it. More
    segments shrink the bandwidth part towards nβ but add latency terms; the best is k* = √((p − 2)nβ/α), giving
    T* = (√((p − 2)α) + √(nβ))². For large n that approaches nβ — the broadcast lower bound, since every rank must receive
    all n bytes — which a binomial tree (⌈log₂p⌉ rounds of the full n) cannot approach. Trees pipelined the same way keep
    log-depth start-up; NCCL pipelines its rings and trees in chunks for this reason.</p>`,
};

const BUS_FACTOR_TEXT = { "all-reduce": "2(p − 1)/p", "all-gather": "(p − 1)/p", "reduce-scatter": "(p − 1)/p" };
const BUS_FACTOR = { "all-reduce": (p) => (2 * (p - 1)) / p, "all-gather": (p) => (p - 1) / p, "reduce-scatter": (p) => (p - 1) / p };

export const busBandwidth = {
  id: "w2-busbw",
  // How the prompt writes the parameters it does not show as their plain value (tests/exercises/numeric_statements).
  promptShows: { sizeMB: (v) => formatSI(v * 1e6, "B"), seconds: (v) => formatSeconds(v) },
  kind: "numeric",
  title: "Bus bandwidth from a measurement",
  // A true bus bandwidth is drawn, the time it implies is rounded to 3 significant digits, and the answer is
  // computed from the rounded time the learner sees.
  params: (rng) => {
    const collective = pick(rng, ["all-reduce", "all-gather", "reduce-scatter"]);
    const ranks = pick(rng, [4, 8, 16, 32]);
    const sizeMB = pick(rng, [100, 500, 1000, 4000]);
    const busGBs = pick(rng, [20, 45, 90, 150, 350]);
    const seconds = Number(((sizeMB * 1e6 * BUS_FACTOR[collective](ranks)) / (busGBs * GBS)).toPrecision(3));
    return { collective, ranks, sizeMB, seconds };
  },
  prompt: (p) => `<p>nccl-tests reports that ${withArticle(p.collective).split(" ")[0]} <strong>${p.collective}</strong> of S = ${formatBytes(p.sizeMB * 1e6, 4)} on
    p = ${p.ranks} GPUs took t = ${formatSeconds(p.seconds)} (S is the full vector: the input of an all-reduce or reduce-scatter,
    the output of an all-gather).</p>
    <p>What is its <em>bus bandwidth</em>? Answer in bytes per second (<code>146e9</code> or <code>146 GB/s</code>).</p>`,
  answer: (p, core) => core.busBandwidth(p.collective, p.ranks, p.sizeMB * 1e6, p.seconds).busbw,
  // nccl-tests PERFORMANCE.md: busbw = algbw · 2(p − 1)/p (all-reduce) or (p − 1)/p
  oracle: (p) => ((p.sizeMB * 1e6) / p.seconds) * (p.collective === "all-reduce" ? (2 * (p.ranks - 1)) / p.ranks : (p.ranks - 1) / p.ranks),
  tolerance: { rel: 0.01 },
  unit: "bytes/second",
  unitSymbol: "B/s",
  // The algorithm bandwidth S/t, without the correction factor.
  wrongAnswer: (p) => (p.sizeMB * 1e6) / p.seconds,
  slips: [
    { name: "the algorithm bandwidth", value: (p) => (p.sizeMB * 1e6) / p.seconds,
      explain: "It matches the algorithm bandwidth S/t: the bus bandwidth counts the bytes that cross each rank's link." },
    { name: "another collective's factor",
      value: (p) => (p.sizeMB * 1e6) / p.seconds * (p.collective === "all-reduce" ? BUS_FACTOR["all-gather"] : BUS_FACTOR["all-reduce"])(p.ranks),
      explain: "It uses the factor of another collective: in an all-reduce the bytes cross each link twice " +
        "(reduce-scatter, then all-gather); in an all-gather or a reduce-scatter once." },
  ],
  hints: [
    "First the algorithm bandwidth: algbw = S/t, in bytes per second.",
    "The bus bandwidth multiplies it by the fraction of S that crosses each rank's link in a bandwidth-optimal algorithm.",
    `busbw = algbw × factor, with factor 2(p − 1)/p for all-reduce and (p − 1)/p for all-gather and reduce-scatter.`,
  ],
  solutionText: `<p>busbw = (S/t) × factor; factor = ${BUS_FACTOR_TEXT["all-reduce"]} for all-reduce and
    ${BUS_FACTOR_TEXT["all-gather"]} for all-gather and reduce-scatter (1 for broadcast and reduce). The factor is the
    bandwidth lower bound of the collective divided by Sβ, so busbw is the link speed a bandwidth-optimal algorithm would
    have needed to finish in time t. That makes it comparable across p and with the hardware's peak: a ring all-reduce of
    a large vector on links of bandwidth B reports busbw ≈ B whatever p is, while algbw falls towards B/2.</p>`,
};
