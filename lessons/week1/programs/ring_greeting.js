// ring_greeting.js — the first program of the course. The page prints it (section "Processes and messages")
// and the hello-cluster widget runs exactly this text on p Workers.
export const RING_GREETING = `async function main(ctx) {
  const next = (ctx.rank + 1) % ctx.size;
  const prev = (ctx.rank - 1 + ctx.size) % ctx.size;
  ctx.send(next, \`hello from rank \${ctx.rank}\`);
  const greeting = await ctx.recv(prev);
  ctx.log(\`rank \${ctx.rank} got: \${greeting}\`);
}`;
