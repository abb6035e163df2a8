// ring.js — the ring collectives over the cluster's messages (ctx.send / ctx.recv), and the chunk rule they split a
// buffer by. Every trainer of the course that sums over a group of Workers runs these functions.
//
// The chunk rule (the core's, core/collectives/chunking.cpp split_bytes; dsml/comm.h shard_sizes): n values into
// p chunks as equal as possible, the first n mod p chunks one value larger. FSDP shards follow the same rule, so a
// shard is exactly what a reduce-scatter leaves on its member.
//
// Shipped into the Workers as source text (the rank programs join their functions' text): each function is
// self-contained or calls only other functions of this file — no imports, no module-level constants.

// The sizes of the p chunks of n values: the first n mod p one larger.
export function shardSizes(n, parts) {
  const base = Math.floor(n / parts), extra = n % parts;
  return Array.from({ length: parts }, (_, i) => base + (i < extra ? 1 : 0));
}
