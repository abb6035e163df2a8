// scaling_setup.js — the hardware, model and batches Week 3's sections #strong-weak and #comm-wall price, in one place so the prose
// (calcs_large_batch.js), the widgets (widgets/scaling.js, widgets/comm_wall.js) and the exercises
// (exercises/scaling_numeric.js) agree. The hardware is the lab's (web/lab_example.js, from the course's table
// web/hardware.js): 150 TFLOP/s per GPU, nodes of 8 GPUs joined by NVLink at 200 GB/s — one NVLink domain — and the
// nodes by InfiniBand, 25 GB/s per GPU; bf16 gradients (2 B). A ring over more GPUs than one node holds crosses nodes,
// and a ring runs at the pace of its slowest hop (Week 2): past 8 GPUs it is priced on the InfiniBand link.
import { FLOPS, INFINIBAND, MIXED, MODEL, NVLINK } from "../../web/lab_example.js";
import { LINKS, NVLINK_DOMAIN } from "../../web/hardware.js";

export { FLOPS, INFINIBAND, MIXED, MODEL, NVLINK, NVLINK_DOMAIN };
// How the GPUs are joined: nodes of 8 on NVLink (the ring leaves NVLink past 8 GPUs), with one HDR or one NDR NIC per
// GPU between nodes; or InfiniBand between every pair of GPUs (one GPU per node).
// Labels short enough for a phone's select (the figure's caption says NVLink inside, InfiniBand between).
export const NETWORK_CHOICES = [["nodes", "8 GPUs a node, HDR between"], ["nodes-ndr", "8 GPUs a node, NDR between"],
  ["infiniband", "1 GPU a node, HDR"]];
const BETWEEN = { nodes: INFINIBAND, "nodes-ndr": LINKS.infinibandNDR, infiniband: INFINIBAND };
/** The link a ring over P GPUs runs at on `network`: NVLink while it stays in one node, else the link between nodes. */
export const linkAt = (network, P) => (network !== "infiniband" && P <= NVLINK_DOMAIN ? NVLINK : BETWEEN[network]);
export const DEVICES = [1, 2, 4, 8, 16, 32, 64];
export const STRONG_BATCH = 16384;   // rows per step, fixed: strong scaling
export const WEAK_BATCH = 1024;      // rows per device, fixed: weak scaling

// Section #comm-wall: a 50 MB gradient (12.5 M fp32 values): L = 5 blocks of D = 1250, F = 1000 (Ψ = 2·L·D·F).
export const GRAD_MODEL = { layers: 5, width: 1250, hidden: 1000 };
export const GRAD_BYTES = 50e6;
export const WALL_DEVICES = [2, 4, 8, 16, 32, 64, 128, 256];
export const WALL_ROWS = 4096;   // rows per device in section #comm-wall's step: backward ≈ 1.4 ms, about the 64-GPU all-reduce

// Speed-up of data parallelism against P (core.dpScaling), the bucketed DDP of the page's model, each P priced on the
// link its ring runs at (linkAt). → [{ ranks, speedup, efficiency, … }] in the order of `ranks`.
export function scaling(core, { mode, network = "nodes", batch, overlap = true, microBatches = 1, ranks = DEVICES,
  model = MODEL }) {
  return ranks.map((P) => {
    const link = linkAt(network, P);
    const points = core.dpScaling({ mode, model, batch, ranks: P === 1 ? [1] : [1, P], flops: FLOPS, alpha: link.alpha,
      beta: link.beta, elementBytes: MIXED.elementBytes, overlap, microBatches, strategy: "dp-bucketed" });
    return points.at(-1);
  });
}

// Rows per device below which DP is communication-bound (core.commBoundBatch).
export function commBound(core, { link = NVLINK, ranks = 64, overlap = true, microBatches = 1 } = {}) {
  return core.commBoundBatch({ flops: FLOPS, bandwidth: 1 / link.beta, elementBytes: MIXED.elementBytes, ranks,
    overlap, microBatches });
}

// Time to ring-all-reduce `bytes` over P devices (core.collectiveCost, closed form).
export const allReduceTime = (core, ranks, link = NVLINK, bytes = GRAD_BYTES) =>
  core.collectiveCost("all-reduce", "ring", { ranks, bytes, alpha: link.alpha, beta: link.beta, gamma: 0 });

// One step of the 50 MB model at `rowsPerDevice` on P devices, the three DDPs (core.ddpVariants), fp32 gradients.
export function ddpStep(core, { ranks, link = NVLINK, rowsPerDevice = WALL_ROWS, bucketBytes = 25 * 2 ** 20 }) {
  return core.ddpVariants({ strategy: "dp-bucketed", grid: { dp: ranks }, model: GRAD_MODEL, batch: rowsPerDevice * ranks,
    flops: FLOPS, alpha: link.alpha, beta: link.beta, elementBytes: 4, bucketBytes });
}
