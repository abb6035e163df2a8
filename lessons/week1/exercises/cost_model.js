// cost_model.js — Week 1's numeric and predict exercises on the α–β model: the crossover size,
// bucketing, the "iron law" of a training step, and predicting a simulated broadcast or gather.
// Answers come from the core (core.crossoverSize, messagesTime, messageTime, simulate); each exercise
// also has a wrongAnswer, the mistake learners make most, which CI checks is rejected.
import { pick } from "../../../web/exercise/params.js";
import { formatBytes, formatRate, formatSeconds } from "../../../web/units.js";

const US = 1e-6;   // s per µs
const GBS = 1e9;   // B/s per GB/s

export const crossover = {
  id: "w1-crossover",
  kind: "numeric",
  title: "The crossover size n*",
  params: (rng) => ({ alphaUs: pick(rng, [1, 2, 5, 10]), bwGBs: pick(rng, [12.5, 25, 50, 100]) }),
  prompt: (p) => `<p>A link has latency α = ${p.alphaUs} µs and bandwidth ${p.bwGBs} GB/s
    (1 GB/s = 10<sup>9</sup> bytes per second), so a message of n bytes takes T(n) = α + β·n.
    At what size n* does the transfer time β·n equal the latency α?</p>
    <p>Answer in <strong>bytes</strong> (62.5 kB is 62500; <code>62.5k</code> is accepted too).</p>`,
  answer: (p, core) => core.crossoverSize(p.alphaUs * US, 1 / (p.bwGBs * GBS)),
  // Week 1's n* = α/β, by hand
  oracle: (p) => p.alphaUs * US * p.bwGBs * GBS,
  tolerance: { rel: 0.01 },
  unit: "bytes",
  unitSymbol: "B",
  // The answer in kB typed as if it were bytes: 1000× too small.
  wrongAnswer: (p, core) => core.crossoverSize(p.alphaUs * US, 1 / (p.bwGBs * GBS)) / 1000,
  hints: [
    "β is the time per byte, in seconds per byte: β = 1 / bandwidth.",
    "n* solves α = β·n*, so n* = α/β = α × bandwidth.",
    "Convert before multiplying: α in seconds (1 µs = 10<sup>−6</sup> s), bandwidth in bytes per second " +
      "(1 GB/s = 10<sup>9</sup> B/s). For example 5 µs at 12.5 GB/s gives 5·10<sup>−6</sup> × 12.5·10<sup>9</sup> = 62 500 B.",
  ],
  solutionText: `<p>n* = α/β = α × bandwidth. With α in seconds and bandwidth in bytes per second the product is in
    bytes. Messages much smaller than n* cost about α whatever their size (latency-bound); much larger ones cost about
    β·n (bandwidth-bound). At n = n* a message takes 2α and achieves exactly half the link's bandwidth.</p>`,
};

export const bucketing = {
  id: "w1-bucketing",
  kind: "numeric",
  title: "Bucketing: many small messages or one large one",
  params: (rng) => ({
    count: pick(rng, [50, 100, 200, 400]), sizeKB: pick(rng, [10, 50, 100]),
    alphaUs: pick(rng, [2, 5, 10]), bwGBs: pick(rng, [12.5, 25, 50]),
  }),
  prompt: (p) => `<p>After a backward pass a worker holds k = ${p.count} gradient tensors of m = ${p.sizeKB} kB each
    (1 kB = 1000 B) and must send them to a peer over a link with α = ${p.alphaUs} µs and ${p.bwGBs} GB/s.</p>
    <ul><li>Plan A sends them as ${p.count} separate messages, one after another.</li>
    <li>Plan B copies them into one ${formatBytes(p.count * p.sizeKB * 1e3, 4)} bucket and sends one message
    (ignore the copy).</li></ul>
    <p>How many times longer does plan A take than plan B? Give the ratio T<sub>A</sub> / T<sub>B</sub>.</p>`,
  answer: (p, core) => {
    const alpha = p.alphaUs * US, beta = 1 / (p.bwGBs * GBS), m = p.sizeKB * 1e3;
    return core.messagesTime(alpha, beta, p.count, m) / core.messageTime(alpha, beta, p.count * m);
  },
  // k separate messages over one of k·m bytes: (kα + βkm)/(α + βkm)
  oracle: (p) => {
    const a = p.alphaUs * US, b = 1 / (p.bwGBs * GBS), m = p.sizeKB * 1e3;
    return (p.count * a + b * p.count * m) / (a + b * p.count * m);
  },
  tolerance: { rel: 0.01 },
  unit: "ratio",
  unitSymbol: "",
  wrongAnswer: () => 1,   // "same bytes, same time"
  hints: [
    "Write both times with T(n) = α + β·n: plan A pays it k times for n = m; plan B once for n = k·m.",
    "T<sub>A</sub> = k·(α + β·m) = k·α + β·(k·m) and T<sub>B</sub> = α + β·(k·m). Both move the same k·m bytes, so the β terms are equal.",
    "T<sub>A</sub> − T<sub>B</sub> = (k − 1)·α exactly. Compute both in microseconds and divide.",
  ],
  solutionText: `<p>T<sub>A</sub> / T<sub>B</sub> = (k·α + β·k·m) / (α + β·k·m). The bytes cost the same either way;
    plan A pays the per-message latency k times instead of once, an extra (k − 1)·α. The ratio is large when
    k·α is large compared with the transfer time β·k·m, i.e. when each tensor is small compared with n* = α/β.
    This is why PyTorch DDP packs gradients into buckets (25 MiB by default) before all-reducing them.</p>`,
};

export const ironLaw = {
  id: "w1-iron-law",
  kind: "numeric",
  title: "The iron law: compute, communication, overlap",
  params: (rng) => ({
    computeMs: pick(rng, [20, 40, 80]), gradMB: pick(rng, [100, 250, 500, 1000]),
    alphaUs: 10, bwGBs: pick(rng, [12.5, 25, 50]),
  }),
  prompt: (p) => `<p>Each training step computes for C = ${p.computeMs} ms and communicates G = ${p.gradMB} MB of gradients
    (1 MB = 10<sup>6</sup> B). Model the communication as one message over a link with α = ${p.alphaUs} µs and
    ${p.bwGBs} GB/s. (A real data-parallel step all-reduces the gradients: a ring all-reduce on p workers sends
    2(p − 1)/p times G from each, in 2(p − 1) messages — Week 2. One message keeps this exercise to the iron law.)</p>
    <p>Assume communication overlaps perfectly with computation — the ideal that bucketing and overlap approach.
    What is the step time? Answer in seconds; a prefix is fine (<code>39.7 ms</code>).</p>`,
  answer: (p, core) => Math.max(p.computeMs * 1e-3, core.messageTime(p.alphaUs * US, 1 / (p.bwGBs * GBS), p.gradMB * 1e6)),
  // the step is the longer of compute and an unhidden all-gradient message α + βn
  oracle: (p) => Math.max(p.computeMs * 1e-3, p.alphaUs * US + (p.gradMB * 1e6) / (p.bwGBs * GBS)),
  tolerance: { rel: 0.01 },
  unit: "seconds",
  unitSymbol: "s",
  // No overlap: C + M.
  wrongAnswer: (p, core) => p.computeMs * 1e-3 + core.messageTime(p.alphaUs * US, 1 / (p.bwGBs * GBS), p.gradMB * 1e6),
  slips: [
    { name: "no overlap",
      value: (p, core) => p.computeMs * 1e-3 + core.messageTime(p.alphaUs * US, 1 / (p.bwGBs * GBS), p.gradMB * 1e6),
      explain: "It matches the step without overlap, compute and then communication: overlapped, the two run side by side." },
    // When compute and communication take the same time (to the tolerance) the shorter is the answer: no slip then.
    { name: "the shorter of the two",
      value: (p, core) => {
        const c = p.computeMs * 1e-3, m = core.messageTime(p.alphaUs * US, 1 / (p.bwGBs * GBS), p.gradMB * 1e6);
        return Math.abs(c - m) <= 0.01 * Math.max(c, m) ? null : Math.min(c, m);
      },
      explain: "It matches the shorter of compute and communication: overlapped, the step lasts as long as the longer one." },
  ],
  hints: [
    "First the communication time M = α + β·G. Convert: G in bytes, β = 1 / bandwidth in s/B.",
    "With perfect overlap the two proceed side by side, so the step lasts as long as the longer of them.",
    "Step time = max(C, M). Without overlap it would be C + M; overlap saves min(C, M).",
  ],
  solutionText: `<p>M = α + β·G; the step time with perfect overlap is max(C, M), without overlap C + M.
    If M &gt; C the step is <em>communication-bound</em>: faster GPUs would not shorten it, and the only remedies are
    fewer bytes (compression, Week 6), faster links, or a better collective (Week 2). Overlap can at best halve
    a step, when C = M.</p>`,
};

// The page runs `scenario(params, core)` through core.simulate after the learner locks in a prediction.
const PREDICT_SCENARIOS = {
  "linear-broadcast": (p) => `Rank 0 sends the same ${formatBytes(p.bytes, 4)} message to ranks 1, 2, …, ${p.ranks - 1},
    one after another (a <em>linear broadcast</em>).`,
  "gather-to-root": (p) => `At time 0, each of ranks 1, …, ${p.ranks - 1} sends ${formatBytes(p.bytes, 4)} to rank 0,
    which receives all of them (a <em>gather to the root</em>).`,
};

const simulation = (p) => ({
  ranks: p.ranks, alpha: p.alphaUs * US, beta: 1 / (p.bwGBs * GBS),
});

export const predictSim = {
  id: "w1-predict-sim",
  kind: "predict",
  title: "Predict the simulator: one root, many messages",
  params: (rng) => ({
    name: pick(rng, Object.keys(PREDICT_SCENARIOS)), ranks: pick(rng, [4, 6, 8, 12, 16]),
    bytes: pick(rng, [1e3, 64e3, 1e6]), alphaUs: pick(rng, [2, 5, 10]), bwGBs: pick(rng, [10, 25, 50]),
  }),
  prompt: (p) => `<p>${PREDICT_SCENARIOS[p.name](p)} There are p = ${p.ranks} ranks; every link has
    α = ${p.alphaUs} µs and ${formatRate(p.bwGBs * GBS)}. The simulator's network is <em>single-port</em>: each rank
    sends at most one message at a time and receives at most one at a time, and a message of n bytes occupies the
    sender's and the receiver's link for α + β·n.</p>
    <p>When does the last rank finish? Answer in seconds (a prefix is fine: <code>595 µs</code>),
    then run the simulation and compare.</p>`,
  scenario: (p, core) => ({ ...simulation(p), programs: core.scenario(p.name, { ranks: p.ranks, bytes: p.bytes }) }),
  answer: (p, core) =>
    core.simulate({ ...simulation(p), programs: core.scenario(p.name, { ranks: p.ranks, bytes: p.bytes }) }).makespan,
  // p − 1 messages one after another from (or to) rank 0
  oracle: (p) => (p.ranks - 1) * (p.alphaUs * US + p.bytes / (p.bwGBs * GBS)),
  tolerance: { rel: 0.01 },
  unit: "seconds",
  unitSymbol: "s",
  // "The messages travel in parallel": one message time.
  wrongAnswer: (p, core) => core.messageTime(p.alphaUs * US, 1 / (p.bwGBs * GBS), p.bytes),
  slips: [
    { name: "messages in parallel", value: (p, core) => core.messageTime(p.alphaUs * US, 1 / (p.bwGBs * GBS), p.bytes),
      explain: "It matches one message's time, as if the root's messages travelled side by side: a single-port link " +
        "carries one message at a time." },
  ],
  hints: [
    "One message costs T(n) = α + β·n. Compute it first.",
    "How many messages must pass through rank 0's link? Can two of them share it at the same time?",
    "The root's uplink (broadcast) or downlink (gather) carries the p − 1 messages one after another: " +
      "nothing overlaps at the root.",
  ],
  solutionText: `<p>All p − 1 messages go through one port of rank 0, and a single-port link carries one message at
    a time, so they are serialised: the time is (p − 1)·(α + β·n). For a broadcast, rank 0 sends to rank 1, then
    rank 2, …; the last rank has the data after p − 1 message times. For a gather, the senders start together but
    rank 0's downlink admits one message at a time; the others wait. Week 2's tree broadcast cuts the
    (p − 1) to ⌈log<sub>2</sub> p⌉ rounds by letting ranks that already have the data forward it.</p>
    <p>The timeline after the run shows this: one rank busy all along, the others mostly waiting.</p>`,
};
