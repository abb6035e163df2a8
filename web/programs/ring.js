// ring.js — the ring collectives over the cluster's messages (ctx.send / ctx.recv), and the chunk rule they split a
// buffer by: the one ring every trainer of the course sums its gradients with (Week 3's data parallelism, Week 5's
// tensor-parallel block, the lab's dp/tp/ep groups, Week 6's elastic and compressed runs).
//
// The ring (Patarasuk & Yuan, "Bandwidth optimal all-reduce algorithms for clusters of workstations", JPDC 2009),
// as the core builds it (core/collectives/reduce_scatter_ring.cpp, allgather_ring.cpp, allreduce_ring.cpp): the p
// members, listed in ring order, send only to the next member and receive only from the previous one, so every link
// is busy at once and none carries more than the minimum.
//   reduce-scatter, steps k = 0 … p − 2: member i sends chunk (i − k − 1) mod p and receives chunk (i − k − 2) mod p,
//     adding its own values into it. Chunk c starts at member c + 1 and gains one contribution per hop; after p − 1
//     hops member c adds the last (its own): member i ends holding the sum of chunk i (MPI_Reduce_scatter_block's
//     numbering — each keeps its own, which is what an FSDP shard is).
//   all-gather, steps k = 0 … p − 2: member i sends chunk (i − k) mod p and receives chunk (i − k − 1) mod p, copying it.
//   all-reduce = reduce-scatter then all-gather: 2(p − 1) messages per member of about n/p values each, so every
//     member sends 2(p − 1)/p · n values — the lower bound (Chan et al. 2007) — in 2(p − 1) latencies.
//
// The chunk rule (the core's: core/collectives/chunking.cpp split_bytes, dsml/comm.h shard_sizes; MPICH and NCCL
// split the same way): n values into p chunks as equal as possible, the first n mod p chunks one value larger.
// FSDP shards follow the same rule, so a shard is exactly what a reduce-scatter leaves on its member.
//
// Every function takes `members` (the global ranks of the group, in ring order; ctx.rank among them) and a
// Float64Array it works on in place, and options { tag, wire }: tag labels every message (the trace shows which
// collective sent it); wire "fp32" sends Float32Array copies of the chunks, as a framework sends an fp32 gradient
// (the sums are still taken in fp64), "fp64" (the default) the values as they are.
//
// Shipped into the Workers as source text (the rank programs join their functions' text): each function calls only
// other functions of this file — no imports, no module-level constants.

// The sizes of the p chunks of n values: the first n mod p one larger.
export function shardSizes(n, parts) {
  const base = Math.floor(n / parts), extra = n % parts;
  return Array.from({ length: parts }, (_, i) => base + (i < extra ? 1 : 0));
}

// Where each chunk starts: chunk c is [starts[c], starts[c + 1]); starts has p + 1 entries, the last n.
export function chunkStarts(n, parts) {
  const starts = [0];
  for (const size of shardSizes(n, parts)) starts.push(starts[starts.length - 1] + size);
  return starts;
}

// The ring as this member sees it: its place i, its neighbours, and chunk c of buf (c taken mod p) as a view.
export function ringView(ctx, members, buf, wire = "fp64") {
  const p = members.length, i = members.indexOf(ctx.rank);
  if (i < 0) throw new Error(`ring: rank ${ctx.rank} is not one of the members [${members.join(", ")}]`);
  const mod = (x) => ((x % p) + p) % p;
  const starts = chunkStarts(buf.length, p);
  const chunk = (c) => buf.subarray(starts[mod(c)], starts[mod(c) + 1]);
  return {
    p, i, chunk, next: members[mod(i + 1)], prev: members[mod(i - 1)],
    wire: (c) => (wire === "fp32" ? Float32Array.from(chunk(c)) : chunk(c)),   // what goes on the wire for chunk c
  };
}

// Reduce-scatter in place: afterwards chunk i of buf on member i holds the sum over all members (the other chunks
// hold partial sums). p − 1 messages. Resolves to buf.
export async function ringReduceScatter(ctx, members, buf, { tag, wire } = {}) {
  const r = ringView(ctx, members, buf, wire);
  for (let k = 0; k < r.p - 1; k++) {
    ctx.send(r.next, r.wire(r.i - k - 1), { tag });
    const got = await ctx.recv(r.prev, { tag }), mine = r.chunk(r.i - k - 2);
    for (let j = 0; j < mine.length; j++) mine[j] += got[j];
  }
  return buf;
}

// All-gather in place: member i holds chunk i of buf; afterwards every member holds every chunk. p − 1 messages.
// Resolves to buf.
export async function ringAllGather(ctx, members, buf, { tag, wire } = {}) {
  const r = ringView(ctx, members, buf, wire);
  for (let k = 0; k < r.p - 1; k++) {
    ctx.send(r.next, r.wire(r.i - k), { tag });
    r.chunk(r.i - k - 1).set(await ctx.recv(r.prev, { tag }));
  }
  return buf;
}

// All-reduce (sum) in place: reduce-scatter, then all-gather of the summed chunks. 2(p − 1) messages. Resolves to buf.
export async function ringAllReduce(ctx, members, buf, options = {}) {
  await ringReduceScatter(ctx, members, buf, options);
  return ringAllGather(ctx, members, buf, options);
}
