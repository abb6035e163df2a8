// calcs.js — every number in Week 2's prose, computed by the core (keys match data-calc in index.html, whose
// header comment lists the formulas). The page test checks each against the value printed in the HTML.
import { LINKS } from "../../web/hardware.js";
import { formatBytes, formatRate, formatRatio, formatSeconds } from "../../web/units.js";

const NET = { alpha: 5e-6, beta: 1 / 25e9, gamma: 0 };  // α = 5 µs, 25 GB/s
// A ratio with 3 significant digits, or a fixed number of decimals.
const times = (x, decimals) => formatRatio(x, decimals === undefined ? {} : { decimals });
const C = (core, coll, alg, p, n) => core.collectiveCost(coll, alg, { ranks: p, bytes: n, ...NET });
const AR = (core, alg, p, n) => C(core, "all-reduce", alg, p, n);
const LB = (core, coll, p, n) => core.lowerBound(coll, { ranks: p, bytes: n, ...NET });
const sched = (core, alg) => core.schedule("all-reduce", alg, { ranks: 8, bytes: 1e9 });
// Bytes rank r moves in steps whose op is in `ops`.
const bytesOf = (s, r, ops) => s.steps[r].filter((st) => ops.includes(st.op))
  .reduce((sum, st) => sum + st.slots.reduce((b, slot) => b + s.slotBytes[slot], 0), 0);
// The size where two algorithms' (linear in n) costs meet.
function cross(core, p, a, b) {
  const A = (x) => AR(core, x, p, 0), B = (x) => (AR(core, x, p, 1e9) - A(x)) / 1e9;
  return (A(a) - A(b)) / (B(b) - B(a));
}
const kStar = (core) => Math.round(Math.sqrt((6 * core.messageTime(0, NET.beta, 1e8)) / NET.alpha));
const chain = (core, k) => core.messagesTime(NET.alpha, NET.beta, 8 + k - 2, 1e8 / k);
const BEST = (core, alg, p, n) => core.bestSegments(alg, { ranks: p, bytes: n, alpha: NET.alpha, beta: NET.beta });
// Two nodes of 8 GPUs on the course's links (web/hardware.js): NVLink inside a node, one InfiniBand NIC per node.
const TWO_NODES = { kind: "hierarchical", nodes: 2, perNode: 8, intra: { alpha: LINKS.nvlink.alpha, beta: LINKS.nvlink.beta },
  inter: { alpha: LINKS.infiniband.alpha, beta: LINKS.infiniband.beta } };
const onTwoNodes = (core, algorithm) => core.simulateCollective({ collective: "all-reduce", algorithm, ranks: 16, bytes: 1e9,
  gamma: 0, devicesPerNode: 8, topology: TWO_NODES }).makespan;

export const CALCS = {
  "ex-chunk": (c) => formatBytes(sched(c, "ring").slotBytes[0]),
  "ex-step": (c) => formatSeconds(c.messageTime(5e-6, 1 / 25e9, 1e9 / 8), 4),
  "ex-ring": (c) => formatSeconds(AR(c, "ring", 8, 1e9), 5),
  "ex-ring-alpha": (c) => formatSeconds(AR(c, "ring", 8, 0)),
  "ex-ring-beta": (c) => formatSeconds(AR(c, "ring", 8, 1e9) - AR(c, "ring", 8, 0)),
  "ex-naive": (c) => formatSeconds(AR(c, "naive", 8, 1e9)),
  "ex-naive-ratio": (c) => times(AR(c, "naive", 8, 1e9) / AR(c, "ring", 8, 1e9)),
  "ex-rd": (c) => formatSeconds(AR(c, "recursive-doubling", 8, 1e9)),
  "ex-rab": (c) => formatSeconds(AR(c, "rabenseifner", 8, 1e9), 5),
  "ex-lb": (c) => formatSeconds(LB(c, "all-reduce", 8, 1e9), 5),
  "ex-algbw": (c) => formatRate(c.busBandwidth("all-reduce", 8, 1e9, AR(c, "ring", 8, 1e9)).algbw),
  "ex-busbw": (c) => formatRate(c.busBandwidth("all-reduce", 8, 1e9, AR(c, "ring", 8, 1e9)).busbw),
  "ctr-naive-root": (c) => formatBytes(bytesOf(sched(c, "naive"), 0, ["send", "recv-copy", "recv-reduce"])),
  "ctr-ring-sent": (c) => formatBytes(bytesOf(sched(c, "ring"), 0, ["send"])),
  "ctr-ring-msgs": (c) => String(sched(c, "ring").steps[0].filter((st) => st.op === "send").length),
  "bc-linear": (c) => formatSeconds(C(c, "broadcast", "linear", 8, 1e8)),
  "bc-binomial": (c) => formatSeconds(C(c, "broadcast", "binomial-tree", 8, 1e8)),
  "bc-sag": (c) => formatSeconds(C(c, "broadcast", "scatter-allgather", 8, 1e8)),
  "bc-chain-100": (c) => formatSeconds(chain(c, 100)),
  "bc-kstar": (c) => String(kStar(c)),
  "bc-chain-best": (c) => formatSeconds(chain(c, kStar(c))),
  "bc-lb": (c) => formatSeconds(LB(c, "broadcast", 8, 1e8), 4),
  "bc-chain-sim": (c) => formatSeconds(c.pipelinedBroadcast({ algorithm: "pipelined-chain", ranks: 8, bytes: 1e8,
    segments: 100, alpha: NET.alpha, beta: NET.beta }).simulated),
  "bc-tree-k": (c) => String(BEST(c, "pipelined-tree", 8, 1e8).segments),
  "bc-tree-best": (c) => formatSeconds(BEST(c, "pipelined-tree", 8, 1e8).seconds),
  "bc-1024-chain": (c) => formatSeconds(BEST(c, "pipelined-chain", 1024, 1e6).seconds),
  "bc-1024-tree": (c) => formatSeconds(BEST(c, "pipelined-tree", 1024, 1e6).seconds),
  "sm-ring": (c) => formatSeconds(AR(c, "ring", 8, 4e3)),
  "sm-rd": (c) => formatSeconds(AR(c, "recursive-doubling", 8, 4e3)),
  "sm-rab": (c) => formatSeconds(AR(c, "rabenseifner", 8, 4e3)),
  "sm-lb": (c) => formatSeconds(LB(c, "all-reduce", 8, 4e3)),
  "xo-8": (c) => formatBytes(cross(c, 8, "ring", "recursive-doubling")),
  "xo-64": (c) => formatBytes(cross(c, 64, "ring", "recursive-doubling")),
  "xo-rab-8": (c) => formatBytes(cross(c, 8, "rabenseifner", "recursive-doubling")),
  "ag-ring-48": (c) => formatSeconds(C(c, "all-gather", "ring", 48, 64e3)),
  "ag-bruck-48": (c) => formatSeconds(C(c, "all-gather", "bruck", 48, 64e3)),
  "ag-lb-48": (c) => formatSeconds(LB(c, "all-gather", 48, 64e3)),
  "rs-ring-8": (c) => formatSeconds(C(c, "reduce-scatter", "ring", 8, 1e9)),
  "ag-ring-8": (c) => formatSeconds(C(c, "all-gather", "ring", 8, 1e9)),
  "a2a-8": (c) => formatSeconds(C(c, "all-to-all", "pairwise", 8, 1e9)),
  "lb-small-ratio": (c) => times(AR(c, "ring", 64, 8e3) / LB(c, "all-reduce", 64, 8e3)),
  "lb-large-ratio": (c) => times(AR(c, "ring", 64, 1e9) / LB(c, "all-reduce", 64, 1e9), 2),
  "lb-rd-large-ratio": (c) => times(AR(c, "recursive-doubling", 64, 1e9) / LB(c, "all-reduce", 64, 1e9), 1),
  "topo-fc": (c) => formatSeconds(AR(c, "ring", 16, 1e9), 4),
  "topo-flat": (c) => formatSeconds(onTwoNodes(c, "ring"), 2),
  "topo-hier": (c) => formatSeconds(onTwoNodes(c, "hierarchical"), 2),
  "topo-nic-flat": (c) => formatBytes(c.busBandwidth("all-reduce", 16, 1e9, 1).busbw),
  "topo-nic-hier": (c) => formatBytes(c.busBandwidth("all-reduce", 2, 1e9, 1).busbw),
  "bb-algbw": (c) => formatRate(c.busBandwidth("all-reduce", 8, 1e9, 0.012).algbw),
  "bb-busbw": (c) => formatRate(c.busBandwidth("all-reduce", 8, 1e9, 0.012).busbw),
};
