// scaling_numeric.js — Week 3's exercises on sections #large-batch … #comm-wall (data):
//   w3-scaling-rule   (choice)  which learning rate and warm-up survive at P = 8 — every option's claim is a run of
//                               the core's trainer (large_batch_setup.js), so the flags cannot drift from the runs
//   w3-comm-bound     (numeric) the per-device batch below which DP is communication-bound, for a given device
//                               and link (core.commBoundBatch; the JAX scaling book's C/W)
//   w3-strong-64      (numeric) the strong-scaling speed-up at P = 64 (core.dpScaling), whose usual mistake is
//                               answering with the weak-scaling one
import { pick } from "../../../web/exercise/params.js";
import { formatCount, formatRate, formatSI } from "../../../web/units.js";
import { BASE, finalLoss, scaled, train } from "../large_batch_setup.js";
import { FLOPS, MIXED, MODEL, commBound, linkAt, scaling } from "../scaling_setup.js";
import { A100_SUSTAINED_FLOPS, LINKS } from "../../../web/hardware.js";

const sgdAt8 = (core, lr, warmup = false) => train(core, { optimizer: "sgd", lr, ranks: 8, warmup });
const best = (core, lrs) => lrs.reduce((a, lr) => (finalLoss(sgdAt8(core, lr)) < finalLoss(sgdAt8(core, a)) ? lr : a));

export const scalingRule = {
  id: "w3-scaling-rule",
  kind: "choice",
  title: "Which rate survives at P = 8?",
  prompt: `<p>The large-batch experiment of this section: the teacher MLP (L = 4, D = 16, F = 64), 16 rows per rank,
    3,200 samples in all. On one rank SGD does best at lr = ${BASE.sgd} (200 steps). Now P = 8 ranks: batch 128,
    25 steps. Which statements are true? Choose every correct one; the widget above runs each of them.</p>`,
  options: [
    { text: `The linear scaling rule gives lr = 8 × ${BASE.sgd} = ${8 * BASE.sgd}; without warm-up SGD trains at that rate.`,
      claim: (core) => sgdAt8(core, 8 * BASE.sgd).divergedAt < 0,
      correct: false,
      why: "It diverges within a few steps: at random initialisation the loss surface is too sharp for a step that large." },
    { text: `With a linear warm-up over the first 20% of the samples (5 steps), SGD trains at lr = ${8 * BASE.sgd}.`,
      claim: (core) => sgdAt8(core, 8 * BASE.sgd, true).divergedAt < 0,
      correct: false,
      why: "Warm-up only delays the blow-up by a few steps here: 1.2 is beyond what this task tolerates even after the " +
        "sharp early phase. The linear rule has a ceiling — Goyal et al. saw it beyond batch 8k on ImageNet." },
    { text: "With that warm-up, SGD trains at lr = 0.4, where it diverges without one.",
      claim: (core) => sgdAt8(core, 0.4, true).divergedAt < 0 && sgdAt8(core, 0.4).divergedAt >= 0,
      correct: true,
      why: "Warm-up lets the weights leave the sharp region at initialisation with small steps; after it 0.4 is stable." },
    { text: "Of the sweep {0.02, 0.1, 0.4, 0.9} without warm-up, 0.1 gives SGD the lowest final loss at P = 8.",
      claim: (core) => best(core, [0.02, 0.1, 0.4, 0.9]) === 0.1,
      correct: true,
      why: "0.4 and 0.9 diverge; 0.02 is too timid for 25 steps." },
    { text: `LARS at its linearly scaled rate (8 × ${BASE.lars}, no warm-up) ends with a lower loss than SGD's best rate of the sweep.`,
      claim: (core) => finalLoss(scaled(core, "lars", 8, false)) < finalLoss(sgdAt8(core, best(core, [0.02, 0.1, 0.4, 0.9]))),
      correct: true,
      why: "LARS moves each layer by about lr·η_trust·‖w‖ per step whatever ‖g‖ is, so a large rate cannot blow a layer up; " +
        "it is the one optimizer here that the linear rule does not break." },
    { text: `Adam at its linearly scaled rate (8 × ${BASE.adam}, no warm-up) ends below a loss of 1.`,
      claim: (core) => finalLoss(scaled(core, "adam", 8, false)) < 1,
      correct: false,
      why: "Adam's step is about lr per coordinate already; 0.08 is far too large and the loss ends near 10 — Adam " +
        "scales better with √P (as LAMB's authors use) than with P." },
  ],
  hints: [
    "Move the widget to P = 8 and try each rate with warm-up off and on.",
    "A run that diverges has divergedAt ≥ 0 and its curve blows up; compare final losses of the runs that survive.",
    "Three statements are true.",
  ],
  solutionText: `<p>True: warm-up rescues 0.4; 0.1 is SGD's best of the sweep at P = 8; LARS at 8 × ${BASE.lars} beats it.
    False: SGD at the linearly scaled ${8 * BASE.sgd} diverges with or without a 5-step warm-up, and Adam at 8 × ${BASE.adam}
    ends near a loss of 10. The linear scaling rule holds only up to the largest stable step; warm-up raises that
    limit a little, layer-wise trust ratios (LARS, LAMB) raise it a lot, because they bound each layer's step by its
    own weight norm.</p>`,
};

// ---- the comm-bound batch ---------------------------------------------------------------------------------------
// The course's hardware (web/hardware.js): each link's bandwidth per GPU.
const DEVICES_OF = { a100: ["A100-class, 150 TFLOP/s sustained", A100_SUSTAINED_FLOPS], h100: ["H100-class, 400 TFLOP/s sustained", 400e12] };
const LINKS_OF = { nvlink: ["NVLink", LINKS.nvlink.bandwidth], nvlink4: ["NVLink 4", LINKS.nvlinkH100.bandwidth],
  ib: ["InfiniBand", LINKS.infiniband.bandwidth], ib400: ["InfiniBand NDR", LINKS.infinibandNDR.bandwidth] };

export const commBoundNumeric = {
  id: "w3-comm-bound",
  // How the prompt writes the parameters it does not show as their plain value (tests/exercises/numeric_statements).
  promptShows: { link: (v) => ({ nvlink: "200 GB/s", nvlink4: "450 GB/s", ib: "25 GB/s", ib400: "50 GB/s" })[v] },
  kind: "numeric",
  title: "When does data parallelism become communication-bound?",
  params: (rng) => ({ device: pick(rng, Object.keys(DEVICES_OF)), link: pick(rng, Object.keys(LINKS_OF)), ranks: pick(rng, [8, 16, 64, 256]) }),
  prompt: (p) => `<p>Data parallelism over P = ${p.ranks} ${DEVICES_OF[p.device][0]} GPUs, bf16 gradients (2 bytes a
    value), a ring all-reduce at ${formatRate(LINKS_OF[p.link][1])} per GPU (ignore α), launched during backward so it
    overlaps the backward pass. A row costs 2Ψ FLOPs forward and 4Ψ backward for Ψ parameters.</p>
    <p>Below how many rows per GPU does the all-reduce take longer than backward, so that DP is
    communication-bound? (A plain number of rows.)</p>`,
  answer: (p, core) => core.commBoundBatch({ flops: DEVICES_OF[p.device][1], bandwidth: LINKS_OF[p.link][1], elementBytes: 2,
    ranks: p.ranks, overlap: true }),
  // (P − 1)/P · C/W: the JAX scaling book's C/W for bf16 gradients (2 B) on a ring
  oracle: (p) => ((p.ranks - 1) / p.ranks) * (DEVICES_OF[p.device][1] / LINKS_OF[p.link][1]),
  tolerance: { rel: 0.02 },
  unit: "rows",
  unitSymbol: "",
  // Forgetting that a ring all-reduce moves each byte twice (reduce-scatter, then all-gather).
  wrongAnswer: (p, core) => commBoundNumeric.answer(p, core) / 2,
  hints: [
    "All-reduce time on a ring: 2(P − 1)/P · Ψ · 2 B / W. Backward time: 4 · b · Ψ / R for b rows per GPU at R FLOP/s.",
    "Set them equal: Ψ cancels. b* = (P − 1)/P · (2 · 2 B)/(4) · R/W = (P − 1)/P · R/W.",
    `For ${formatSI(150e12, "FLOP/s")} and 200 GB/s that is about 750 rows; the threshold is the device's FLOPs per byte of link.`,
  ],
  solutionText: `<p>b* = (P − 1)/P · (e/2) · R/W with e = 2 bytes: the ratio of the device's speed R (FLOP/s) to its
    link's W (bytes/s) — what the JAX scaling book, writing C for R, calls the condition for pure data parallelism to stay
    compute-bound (B/X &gt; C/W). The model
    size cancels: a bigger model has more to send <em>and</em> more to compute per row. Without overlap the all-reduce
    adds to the whole step instead, b* = (P − 1)/P · (e/3) · R/(k·W) with k accumulation steps: accumulation divides the
    threshold by k; with overlap it does not, since the all-reduce still hides behind only the last micro-batch's
    backward.</p>`,
};

// ---- strong vs weak at P = 64 ----------------------------------------------------------------------------------
// 64 GPUs are 8 nodes of 8: NVLink inside a node (one NVLink domain), InfiniBand between nodes, so the ring runs at the
// pace of its InfiniBand hops (scaling_setup.js linkAt). What is drawn is the NIC: HDR (25 GB/s) or NDR (50 GB/s).
const NICS = { nodes: "HDR", "nodes-ndr": "NDR" };
const strongAt64 = (core, p) => scaling(core, { mode: "strong", network: p.network, batch: p.batch, ranks: [64] })[0].speedup;

export const strong64 = {
  id: "w3-strong-64",
  // How the prompt writes the parameters it does not show as their plain value (tests/exercises/numeric_statements).
  promptShows: { network: (v) => `InfiniBand ${NICS[v]}` },
  kind: "numeric",
  title: "Strong scaling at P = 64",
  params: (rng) => ({ network: pick(rng, Object.keys(NICS)), batch: pick(rng, [8192, 16384, 65536]) }),
  // Every input the answer depends on, in the prompt: both links' α and bandwidth, the bucket size, the compute model —
  // the scaling widget's (core.dpScaling with scaling_setup.js's hardware).
  prompt: (p) => {
    const inside = linkAt(p.network, 8), between = linkAt(p.network, 64);
    return `<p>The lab's model (L = ${MODEL.layers}, D = ${MODEL.width}, F = ${MODEL.hidden}: 134 M parameters)
    with bf16 gradients (${MIXED.elementBytes} B) on ${formatSI(FLOPS, "FLOP/s")} GPUs; a row costs 2Ψ FLOPs forward
    and 4Ψ backward. The 64 GPUs are 8 nodes of 8: inside a node NVLink joins them (α = ${formatSI(inside.alpha, "s")},
    ${formatRate(1 / inside.beta)} per GPU), and the nodes are joined by InfiniBand ${NICS[p.network]}, one NIC per GPU
    (α = ${formatSI(between.alpha, "s")}, ${formatRate(1 / between.beta)} per GPU). Gradients are all-reduced by one
    ring over all 64 GPUs in 25 MiB buckets, each launched during backward as soon as it is full (bucketed DDP with
    overlap): a step is the compute plus whatever of the all-reduces backward cannot hide. The global batch is fixed
    at ${formatCount(p.batch)} rows.</p>
    <p>What speed-up over one GPU do 64 GPUs give (rows per second ÷ one GPU's)? Answer as a ratio
    (<code>40</code> or <code>40×</code>). The <a href="#widget-scaling">scaling widget</a> of
    <a href="#strong-weak">Strong and weak scaling</a> computes this model.</p>`;
  },
  answer: (p, core) => strongAt64(core, p),
  exempt: {
    oracle: "T₁/T₆₄ of the core's step model has no closed form; tests/core/test_dp_scaling.cpp checks that model step by step",
    distinctParams: "two NICs × three batches: each is a different regime of the scaling curve the page shows",
  },
  tolerance: { rel: 0.03 },
  unit: "ratio",
  unitSymbol: "×",
  // Weak scaling's number: each GPU keeping the whole batch.
  wrongAnswer: (p, core) => scaling(core, { mode: "weak", network: p.network, batch: p.batch, ranks: [64] })[0].speedup,
  hints: [
    "Strong scaling: the global batch stays, so each GPU computes B/64 rows; the all-reduce of the gradients does not shrink.",
    "A ring runs at the pace of its slowest hop: a ring over 8 nodes crosses InfiniBand, so price the all-reduce with the NIC's α and bandwidth, not NVLink's.",
    "Speed-up = T₁/T₆₄, with T₆₄ = compute of B/64 rows plus whatever of the all-reduce backward cannot hide. Set the scaling widget to this network and batch and read the strong curve at P = 64.",
  ],
  solutionText: `<p>T₆₄ = compute(B/64) + exposed all-reduce; the compute falls as 1/P but the ring all-reduce of
    2(P − 1)/P·Ψ·2 B does not, and over 8 nodes it moves at the NIC's speed — an NVLink domain ends at 8 GPUs — so the
    speed-up flattens once B/64 is below the comm-bound batch. Weak scaling (each GPU keeps its rows) stays close to 64×
    only while its rows per GPU are above that threshold. Hierarchical all-reduces (Week 2) put the NVLink back to work:
    reduce-scatter in the node, all-reduce 1/8 of the gradient across nodes, all-gather in the node.</p>`,
};
