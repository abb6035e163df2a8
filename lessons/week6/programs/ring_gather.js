// ring_gather.js — an all-gather of whole messages around a GROUP of ranks: `members` lists the global ranks taking
// part, in ring order, so when workers leave the survivors "rebuild the ring" by calling it with a shorter list
// (member i talks to members[i ± 1 mod P']). Top-k compression gathers each member's (indices, values) this way: the
// messages differ in length, so they are not chunks of one buffer (for those, web/programs/ring.js's ringAllGather).
// Shipped into the Workers as source text (live_program.js), so the function is self-contained.

// All-gather of one message per member over the ring: P'−1 hops, each forwarding what arrived last. `message` is
// an array of typed arrays (sent one by one, so the trace counts their bytes exactly). → messages[i] of member i.
export async function ringGatherMessages(ctx, members, message, { tag = "gather" } = {}) {
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
