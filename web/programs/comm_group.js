// comm_group.js — the collectives of a group of ranks over the cluster's point-to-point messages, as the lab's
// trainer and Week 5's tensor-parallel block use them (shipped into the Workers as source text: self-contained
// functions, or calls to other shipped ones — the rings of ring.js).
//
// A group is the ranks of one grid line (the dp replicas of a shard, the tp ranks of a block, …). Every
// message carries the tag "<kind>:<group>|<step>|<call>": the page reads bytes per kind from the trace, and the
// call counter — equal on every member, because members issue the same collectives in the same order — keeps
// two collectives of one step apart. The rings are ring.js's (Patarasuk & Yuan 2009): reduce-scatter then
// all-gather, p − 1 steps each, chunks by the core's rule, so rank i of the group ends the reduce-scatter holding
// chunk i — the FSDP shard it owns.
import { chunkStarts, ringAllGather, ringAllReduce, ringReduceScatter } from "./ring.js";

// What a rank spends its time on, as non-overlapping segments: the innermost activity wins, so a TP block's
// matrix products show as compute and its all-reduce as all-reduce. Records only while `recording` (the last
// step), in seconds since the run started.
export function makeActivity(ctx) {
  const stack = [{ kind: "compute", label: "bookkeeping" }];
  const segments = [];
  let since = ctx.now();
  const close = () => {
    const now = ctx.now();
    const top = stack[stack.length - 1];
    if (activity.recording && now > since) {
      const segment = { rank: ctx.rank, kind: top.kind, label: top.label, start: since / 1000, end: now / 1000 };
      if (activity.chunk != null && top.kind === "compute") segment.chunk = activity.chunk;
      segments.push(segment);
    }
    since = now;
  };
  const activity = {
    recording: false,
    chunk: undefined,   // interleaved 1F1B: the model chunk the stage is computing, for the timeline's subscripts
    segments,
    enter(kind, label) { close(); stack.push({ kind, label }); },
    leave() { close(); stack.pop(); },
    async during(kind, label, work) {
      activity.enter(kind, label);
      try { return await work(); } finally { activity.leave(); }
    },
  };
  return activity;
}

export function makeGroup(ctx, name, ranks, activity) {
  const size = ranks.length, index = ranks.indexOf(ctx.rank);
  const calls = new Map();
  let tag = null;
  const mod = (x) => ((x % size) + size) % size;
  const group = {
    name, ranks, size, rank: index, step: 0,
    // Name the collective the next messages belong to (the harness does this before calling code that uses
    // send/recv directly).
    begin(kind) {
      const n = calls.get(kind) ?? 0;
      calls.set(kind, n + 1);
      tag = `${kind}:${name}|${group.step}|${n}`;
    },
    send(i, data) { return ctx.send(ranks[i], data, { tag }); },   // a promise (settled at once unless sends are synchronous)
    recv(i) { return ctx.recv(ranks[i], { tag }); },

    // Sum over the group, in place; returns buf. Sends 2(p − 1)/p · n numbers (ring.js).
    async allReduce(buf) {
      group.begin("all-reduce");
      if (size === 1) return buf;
      return activity.during("all-reduce", `all-reduce over ${name}`, () => ringAllReduce(ctx, ranks, buf, { tag }));
    },

    // Every member's shard (shardSizes(n, p)[i] values from member i) → the whole n values, in member order.
    async allGather(shard, n) {
      group.begin("all-gather");
      const starts = chunkStarts(n, size);
      if (shard.length !== starts[index + 1] - starts[index]) {
        throw new Error(`allGather: member ${index} holds ${shard.length} values, its shard of ${n} has ${starts[index + 1] - starts[index]}`);
      }
      const out = new Float64Array(n);
      out.set(shard, starts[index]);
      if (size === 1) return out;
      return activity.during("all-gather", `all-gather over ${name}`, () => ringAllGather(ctx, ranks, out, { tag }));
    },

    // Member q gets buffers[q] and sends back its own for us: received[q] is what member q sent this member
    // (our own block stays in place, no message). Pairwise exchange, as dsml/collectives' all-to-all: in round
    // s = 1 … p − 1 send to member i + s and receive from member i − s, so no member waits on two senders.
    // Expert parallelism's dispatch and combine (Week 5): each buffer is a fixed-size block of capacity slots.
    async allToAll(buffers) {
      group.begin("all-to-all");
      if (buffers.length !== size) throw new Error(`allToAll: ${buffers.length} buffers for a group of ${size}`);
      const received = new Array(size);
      received[index] = buffers[index];
      if (size === 1) return received;
      return activity.during("all-to-all", `all-to-all over ${name}`, async () => {
        for (let s = 1; s < size; s++) {
          group.send(mod(index + s), buffers[mod(index + s)]);
          received[mod(index - s)] = await group.recv(mod(index - s));
        }
        return received;
      });
    },

    // The sum over the group of `full` (left untouched), of which member i gets chunk i.
    async reduceScatter(full) {
      group.begin("reduce-scatter");
      const buf = Float64Array.from(full), starts = chunkStarts(buf.length, size);
      if (size === 1) return buf;
      return activity.during("reduce-scatter", `reduce-scatter over ${name}`, async () => {
        await ringReduceScatter(ctx, ranks, buf, { tag });
        return buf.slice(starts[index], starts[index + 1]);
      });
    },
  };
  return group;
}
