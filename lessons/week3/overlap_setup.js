// overlap_setup.js — Week 3's partial overlap (section #partial-overlap): a step of compute C plus the part of the
// communication M that is NOT hidden, T(o) = C + (1 − o)·M for an overlap fraction o of the communication (the
// core's partialOverlapStep, what `dsml scaling --overlap-fraction` prices), and the o that bucketed DDP actually
// achieves, read off the core's priced step (stepCost with overlap: the communication left after backward is
// total − compute). o ≤ min(1, C/M): no more communication can hide than there is compute to hide it behind (the
// seed notebook's formula leaves that bound implicit).
import { EXAMPLE, priceDdps } from "./ddp_setup.js";
import { LINKS } from "../../web/hardware.js";

const commOf = (r) => Object.values(r.comm).reduce((a, b) => a + b, 0);

// The largest overlap fraction a step of compute C (s) and communication M (s) allows: min(1, C/M).
export const maxOverlap = (C, M) => (M > 0 ? Math.min(1, C / M) : 1);

// T(o) = C + (1 − o)·M, s: core.partialOverlapStep. @throws on o outside [0, min(1, C/M)], naming the bound.
export const partialStep = (core, C, M, o) => core.partialOverlapStep(C, M, o);

// What bucketed DDP achieves on the worked example (fields: alpha, beta, bucketBytes …, as priceDdps):
// → { compute, comm, total, exposed, o } with o = 1 − exposed / comm, comm the buckets' all-reduces end to end.
// `priced` is priceDdps(core, fields) when the caller has it already (calcs.js: the prose prices it once).
export function measuredOverlap(core, fields = {}, priced = priceDdps(core, fields)) {
  const { bucketed } = priced;
  const comm = commOf(bucketed), exposed = bucketed.total - bucketed.compute - bucketed.bubble;
  // (clamped: at one bucket the exposed part equals the communication up to rounding)
  const o = comm > 0 ? Math.min(1, Math.max(0, 1 - exposed / comm)) : 1;
  return { compute: bucketed.compute, comm, total: bucketed.total, exposed, o };
}

export { EXAMPLE };

// The links of the ddp-price widget (alpha s, beta s/B), for the exercise's parameters.
// The course's links (web/hardware.js), each named with its α and bandwidth.
const choice = (link, name) => Object.freeze({ name, alpha: link.alpha, beta: link.beta });
export const LINK_CHOICES = Object.freeze({
  nvlink: choice(LINKS.nvlink, "NVLink in an A100 node (α 3 µs, 200 GB/s sustained)"),
  ib: choice(LINKS.infiniband, "InfiniBand HDR (α 10 µs, 25 GB/s)"),
  ethernet: choice(LINKS.ethernet, "Ethernet (α 20 µs, 12.5 GB/s)"),
});
