// bucket_size.js — numeric exercise "w3-bucket-crossover": the bucket size at which a bucket's ring all-reduce
// spends as long in latency as in bandwidth. Below it, DDP's buckets are α-bound (merge them); above it, bigger
// buckets buy little and delay the first launch. The answer is the core's collectiveCost split into its α part
// (cost at n = 0) and its β slope; the usual mistake is Week 1's n* = α/β, which forgets the ring's p.
import { pick } from "../../../web/exercise/params.js";
import { formatRate } from "../../../web/units.js";

const net = (p) => ({ alpha: p.alphaUs * 1e-6, beta: 1 / (p.bwGBs * 1e9), gamma: 0 });

// n where the ring's α part 2(p − 1)α equals its β part 2((p − 1)/p)·nβ, read from the core's cost.
export function ringBalance(core, ranks, params) {
  const at = (n) => core.collectiveCost("all-reduce", "ring", { ranks, bytes: n, ...params });
  const latency = at(0), slope = (at(1e9) - latency) / 1e9;
  return latency / slope;
}

export const bucketCrossover = {
  id: "w3-bucket-crossover",
  kind: "numeric",
  title: "The bucket size where latency stops mattering",
  params: (rng) => ({ ranks: pick(rng, [8, 16, 32, 64, 256]), alphaUs: pick(rng, [2, 5, 10, 20]), bwGBs: pick(rng, [12.5, 25, 50, 100]) }),
  prompt: (p) => `<p>DDP all-reduces each gradient bucket of n bytes with a ring over P = ${p.ranks} GPUs; the network is
    fully connected with α = ${p.alphaUs} µs and ${formatRate(p.bwGBs * 1e9)} per link (β = 1/bandwidth, in seconds per byte; the time to add the received bytes — Week 1's γ — is ignored). One
    bucket's all-reduce costs 2(P − 1)·α + 2((P − 1)/P)·n·β.</p>
    <p>At what bucket size n does the latency part equal the bandwidth part? (Smaller buckets are latency-bound.) Answer in
    bytes; a prefix is fine (<code>12 MB</code>, <code>3 MiB</code>).</p>`,
  answer: (p, core) => ringBalance(core, p.ranks, net(p)),
  // n = P·α/β
  oracle: (p) => p.ranks * p.alphaUs * 1e-6 * p.bwGBs * 1e9,
  tolerance: { rel: 0.01 },
  unit: "bytes",
  unitSymbol: "B",
  wrongAnswer: (p, core) => core.crossoverSize(net(p).alpha, net(p).beta),
  hints: [
    "Set 2(P − 1)·α = 2((P − 1)/P)·n·β and solve for n.",
    "The 2(P − 1) cancels: n = P·α/β — Week 1's crossover α/β, times P, because each ring step moves only n/P bytes.",
    "β = 1/bandwidth in s/B: n = P·α·bandwidth.",
  ],
  solutionText: `<p>n = P·α/β. Each of the ring's 2(P − 1) steps pays one α but moves only n/P bytes, so the bucket must be P times
    Week 1's crossover before bandwidth dominates. On 256 GPUs with α = 5 µs and 25 GB/s that is 32 MB — which is why
    PyTorch's default of 25 MiB buckets (bucket_cap_mb = 25, times 1024²) is no accident, and why very large jobs use tree or hierarchical all-reduce whose α term
    grows with log P rather than P.</p>`,
};
