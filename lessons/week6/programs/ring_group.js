// ring_group.js — Week 2's ring collectives over a GROUP of ranks: `members` lists the global ranks taking part,
// in ring order, so when workers leave, the survivors "rebuild the ring" by calling the same functions with a
// shorter list (member i talks to members[i ± 1 mod P']). Shipped into the Workers as source text
// (live_program.js), so each function is self-contained.

// Sum-all-reduce of `data` (a Float64Array, summed in place) over the group: reduce-scatter then all-gather,
// 2(P'−1) messages of n/P' values each per rank (Patarasuk & Yuan 2009). wire: "fp64" sends the values as they are
// (the sum is then the same on every member to the last bit, in a fixed order); "fp32" sends Float32Array copies,
// as a real framework sends an fp32 gradient (the bytes compressionWire prices).
export async function ringAllReduce(ctx, members, data, { tag = "ring", wire = "fp64" } = {}) {
  const P = members.length, i = members.indexOf(ctx.rank);
  if (P === 1) return data;
  const next = members[(i + 1) % P], prev = members[(i - 1 + P) % P];
  const bounds = (c) => [Math.floor((c * data.length) / P), Math.floor(((c + 1) * data.length) / P)];
  const chunk = (c) => data.subarray(...bounds(c));
  const out = (c) => (wire === "fp32" ? Float32Array.from(chunk(c)) : chunk(c));
  for (let k = 0; k < P - 1; k++) {            // reduce-scatter: member i ends owning chunk (i + 1) mod P
    ctx.send(next, out((i - k + P) % P), { tag });
    const got = await ctx.recv(prev, { tag }), mine = chunk((i - k - 1 + P) % P);
    for (let j = 0; j < mine.length; j++) mine[j] += got[j];
  }
  for (let k = 0; k < P - 1; k++) {            // all-gather: pass the finished chunks around once more
    ctx.send(next, out((i + 1 - k + P) % P), { tag });
    chunk((i - k + P) % P).set(await ctx.recv(prev, { tag }));
  }
  return data;
}

// All-gather of one message per member over the ring: P'−1 hops, each forwarding what arrived last. `message` is
// an array of typed arrays (sent one by one, so the trace counts their bytes exactly). → messages[i] of member i.
export async function ringAllGather(ctx, members, message, { tag = "gather" } = {}) {
  const P = members.length, i = members.indexOf(ctx.rank);
  const next = members[(i + 1) % P], prev = members[(i - 1 + P) % P];
  const all = new Array(P);
  all[i] = message;
  for (let k = 0; k < P - 1; k++) {
    const forward = all[(i - k + P) % P];
    for (const part of forward) ctx.send(next, part, { tag });
    const from = (i - k - 1 + P) % P;
    all[from] = [];
    for (let p = 0; p < message.length; p++) all[from].push(await ctx.recv(prev, { tag }));
  }
  return all;
}
