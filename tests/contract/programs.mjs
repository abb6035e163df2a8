// programs.mjs — learners' programs that more than one contract case, or a cluster's own tests, run.

// Each rank passes on what it got last, p − 1 times: every rank ends with the sum of all inputs.
export const RING_SUM = `async function main(ctx) {
  const { rank, size } = ctx;
  const right = (rank + 1) % size, left = (rank + size - 1) % size;
  let sum = ctx.input, token = ctx.input;
  for (let step = 0; step < size - 1; step++) {
    ctx.send(right, token);
    token = await ctx.recv(left);
    sum += token;
  }
  return sum;
}`;

// probe (MPI_Iprobe): rank 1 sends "a" (tag 0) and then "x" (tag 5); rank 0 polls for the tagged one, looks again
// (a probe takes nothing), receives it, and probes once more for what is left.
export const PROBE = `async function main(ctx) {
  if (ctx.rank === 1) { ctx.send(0, "a"); ctx.send(0, "x", { tag: 5 }); return; }
  if (ctx.rank === 2) return await ctx.probe(0);   // nothing will ever come: null, at once
  let polls = 1, seen;
  while (!(seen = await ctx.probe(1, { tag: 5 }))) polls++;
  const again = await ctx.probe({ tag: 5 });        // any source; the message is still there
  const x = await ctx.recv(1, { tag: 5 });
  const gone = await ctx.probe(1, { tag: 5 });
  const untagged = await ctx.probe();              // any source, tag 0: "a", still unreceived
  const a = await ctx.recv(1);
  return { polls, seen, again, x, gone, untagged, a };
}`;


// A server takes 3 pushes from each of its workers with recvAny.
export const ANY_SERVER = `async function main(ctx) {
  if (ctx.rank !== 0) { for (let i = 0; i < 3; i++) ctx.send(0, ctx.rank * 10 + i, { tag: "push" }); return; }
  const got = [];
  for (let i = 0; i < 3 * (ctx.size - 1); i++) {
    const { from, data } = await ctx.recvAny({ tag: "push" });
    got.push([from, data]);
  }
  return got;
}`;

// Top-level state a run would carry over if the program were not loaded afresh.
export const FRESH = `let calls = 0;
const seen = [];
async function main(ctx) { calls += 1; seen.push(ctx.rank); ctx.input.push(ctx.rank); return [calls, seen.length, ctx.input]; }`;

// Both ranks ping-pong for ever: only the watchdog or Stop ends it.
export const PING_PONG = "async function main(ctx) { for (;;) { ctx.send(1 - ctx.rank, 0); await ctx.recv(1 - ctx.rank); } }";
