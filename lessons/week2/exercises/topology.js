// topology.js — numeric exercise "w2-hierarchical": a flat ring all-reduce on N nodes × g GPUs, where
// GPUs in a node share fast links and each node reaches the others through one slow NIC. The answer is the
// core's simulation (core.simulateCollective on a "hierarchical" topology), not a formula: the learner
// predicts it from the model. In a ring numbered node by node, every step sends one chunk of n/p bytes
// through each node's NIC and d − 1 chunks over fast links, no link carries two messages at once, and each
// rank's next send waits for what it receives — so the ring moves at the pace of the cross-node hop:
// T = 2(p − 1)·(α_intra + α_inter + β_inter·n/p), a cross-node message paying both hops' latencies
// (core/net/hierarchical.cpp: cut-through, T = Σ α_hop + β_max·n).
import { LINKS } from "../../../web/hardware.js";
import { pick } from "../../../web/exercise/params.js";
import { formatBytes, formatRate } from "../../../web/units.js";

const US = 1e-6, GBS = 1e9;
// The course's links (web/hardware.js): NVLink's and InfiniBand's α; the bandwidths are drawn (A100 or H100 NVLink,
// HDR InfiniBand or a NIC at half its speed).
const INTRA_ALPHA_US = Math.round(LINKS.nvlink.alpha * 1e6), INTER_ALPHA_US = Math.round(LINKS.infiniband.alpha * 1e6);

const topology = (p) => ({
  kind: "hierarchical", nodes: p.nodes, perNode: p.perNode,
  intra: { alpha: INTRA_ALPHA_US * US, beta: 1 / (p.intraGBs * GBS) },
  inter: { alpha: INTER_ALPHA_US * US, beta: 1 / (p.interGBs * GBS) },
});

export const hierarchicalRing = {
  id: "w2-hierarchical",
  kind: "numeric",
  title: "A flat ring across nodes",
  params: (rng) => ({
    nodes: pick(rng, [2, 4]), perNode: pick(rng, [4, 8]), sizeGB: pick(rng, [1, 4]),
    intraGBs: pick(rng, [LINKS.nvlink.bandwidth, LINKS.nvlinkH100.bandwidth].map((b) => b / GBS)), interGBs: pick(rng, [12.5, 25]),
  }),
  prompt: (p) => `<p>A cluster has N = ${p.nodes} nodes of g = ${p.perNode} GPUs (p = ${p.nodes * p.perNode} GPUs).
    Inside a node each GPU has its own NVLink-class link to the node's switch (α = ${INTRA_ALPHA_US} µs,
    ${formatRate(p.intraGBs * GBS)}); each node reaches the others through a <em>single</em> InfiniBand-class NIC
    (α = ${INTER_ALPHA_US} µs, ${formatRate(p.interGBs * GBS)}). A link carries one message at a time in each direction, and
    a message holds every link of its route at once: between nodes it pays both latencies and streams at the slower
    bandwidth, α<sub>intra</sub> + α<sub>inter</sub> + m/B<sub>inter</sub> for m bytes.</p>
    <p>A flat <strong>ring all-reduce</strong> of n = ${formatBytes(p.sizeGB * 1e9, 4)} runs over all p GPUs in rank order,
    ranks numbered node by node (node 0 holds ranks 0 … ${p.perNode - 1}). How long does it take? γ = 0.
    Answer in seconds, then try the topology widget above.</p>`,
  answer: (p, core) => core.simulateCollective({
    collective: "all-reduce", algorithm: "ring", ranks: p.nodes * p.perNode, bytes: p.sizeGB * 1e9, gamma: 0,
    topology: topology(p),
  }).makespan,
  // every one of the 2(p − 1) steps waits for a cross-node hop: both latencies, the NIC's bandwidth
  oracle: (p) => {
    const ranks = p.nodes * p.perNode;
    return 2 * (ranks - 1) * ((INTRA_ALPHA_US + INTER_ALPHA_US) * US + (p.sizeGB * 1e9) / ranks / (p.interGBs * GBS));
  },
  tolerance: { rel: 0.01 },
  unit: "seconds",
  unitSymbol: "s",
  // As if every link were NVLink-class: the ring formula with the fast link's α and β.
  wrongAnswer: (p, core) => core.collectiveCost("all-reduce", "ring", {
    ranks: p.nodes * p.perNode, bytes: p.sizeGB * 1e9, alpha: INTRA_ALPHA_US * US, beta: 1 / (p.intraGBs * GBS), gamma: 0,
  }),
  hints: [
    "Count the messages of one ring step that leave a node: the ring crosses from node i to node i + 1 exactly once. Does any link carry two messages at once?",
    "No link is shared, but every step has one message of n/p bytes through a NIC, and the next step needs it. The ring moves at the pace of its slowest hop.",
    "T = 2(p − 1)·(α<sub>intra</sub> + α<sub>inter</sub> + (n/p)/B<sub>inter</sub>): the ring formula with the cross-node hop's cost. The NVLink speed does not appear at all.",
  ],
  solutionText: `<p>Each of the 2(p − 1) steps sends one chunk of n/p bytes per rank; the chunk that crosses a NIC takes
    α<sub>intra</sub> + α<sub>inter</sub> + (n/p)·β<sub>inter</sub>, and because rank r's next send needs what it just
    received, every rank ends up waiting for the slow hops: T = 2(p − 1)(α<sub>intra</sub> + α<sub>inter</sub> +
    β<sub>inter</sub>·n/p) — almost the same as if <em>all</em> links were as slow as the NIC. Each NIC carries 2((p − 1)/p)·n bytes. A <em>hierarchical</em> all-reduce does better: reduce-scatter inside
    each node over the fast links, all-reduce the n/g-byte shards across nodes, all-gather inside the node. Then a NIC
    carries 2((N − 1)/N)·n — the least possible for N nodes — and the fast links do the rest.</p>`,
};
