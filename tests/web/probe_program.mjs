// probe_program.mjs — one program that exercises ctx.probe (MPI_Iprobe), run by both clusters' tests
// (tests/web/local_cluster.test.mjs on the judge cluster, tests/e2e/cluster.test.mjs on the Workers): the same
// answers on both.
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

