// ddp_setup.js — Week 3's worked example and its three DDPs priced by the core (core.stepCost), the values that
// the prose (calcs.js), the overlap section (overlap_setup.js) and the DDP widgets all read.
import { LINKS } from "../../web/hardware.js";

// The worked example: a 12-block MLP (D = 2048, F = 8192: Ψ = 2·L·D·F ≈ 403 M parameters) on the 8 GPUs of one node,
// 100 TFLOP/s each, 2 048 rows per GPU, fp32 gradients, ring all-reduce on the course's NVLink (web/hardware.js:
// α = 3 µs, 200 GB/s).
export const EXAMPLE = Object.freeze({
  grid: { dp: 8 }, model: { layers: 12, width: 2048, hidden: 8192 }, batch: 8 * 2048,
  flops: 100e12, alpha: LINKS.nvlink.alpha, beta: LINKS.nvlink.beta, elementBytes: 4, optimizerStates: 2,
});
export const DDP_BUCKET = 25 * 2 ** 20;   // PyTorch DDP's default bucket_cap_mb = 25
export const PSI = (m) => 2 * m.layers * m.width * m.hidden;

// The three DDPs of section #ddp, priced: naive (a tensor at a time, after backward), flat (one bucket, after
// backward), bucketed (25 MiB, each launched as its gradients are ready: overlap).
export function priceDdps(core, fields = {}) {
  const ex = { ...EXAMPLE, ...fields };
  return {
    naive: core.stepCost({ ...ex, strategy: "dp", overlap: false }),
    flat: core.stepCost({ ...ex, strategy: "dp-bucketed", bucketBytes: PSI(ex.model) * ex.elementBytes, overlap: false }),
    bucketed: core.stepCost({ ...ex, strategy: "dp-bucketed", bucketBytes: ex.bucketBytes ?? DDP_BUCKET, overlap: true }),
    serial: core.stepCost({ ...ex, strategy: "dp-bucketed", bucketBytes: ex.bucketBytes ?? DDP_BUCKET, overlap: false }),
  };
}
