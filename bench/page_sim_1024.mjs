// page_sim_1024.mjs — a 1024-rank ring all-reduce of 1 MiB, simulated by the wasm core inside a Web Worker
// of a lesson page in headless Chromium (the page's thread stays free). Prints the time measured in the Worker
// and the round trip seen by the page, best of 3.   node bench/page_sim_1024.mjs
import { openSite } from "../tests/e2e/harness.mjs";

const site = await openSite();
const page = await site.context.newPage();
await page.goto(`${site.url}week2/`);
await page.waitForSelector("html[data-ready=true]");
const result = await page.evaluate(async () => {
  const { Cluster } = await import("../web/cluster/cluster.js");
  const { compileCore } = await import("../web/wasm.js");
  const cluster = new Cluster(1, { wasmModule: await compileCore() });
  await cluster.ready();
  const code = `async function main(ctx) {
    const t0 = ctx.now();
    const r = ctx.core.simulateCollective({ collective: "all-reduce", algorithm: "ring", ranks: 1024, bytes: 1048576,
      record: false, topology: { kind: "fully-connected", alpha: 1e-6, beta: 1e-10 } });
    return { workerMs: ctx.now() - t0, makespan: r.makespan, events: r.events };
  }`;
  const runs = [];
  for (let i = 0; i < 3; i++) {
    const t0 = performance.now();
    const run = await cluster.run(code, { timeoutMs: 60000 });
    if (run.status !== "ok") return { error: run.error?.message ?? run.status };
    runs.push({ ...run.results[0], pageMs: performance.now() - t0 });
  }
  cluster.terminate();
  return runs;
});
if (result.error) { console.error(result.error); process.exitCode = 1; }
else {
  const best = result.reduce((a, b) => (b.workerMs < a.workerMs ? b : a));
  console.log(`1024-rank ring all-reduce, 1 MiB, in a Worker: ${best.workerMs.toFixed(0)} ms in the Worker, ` +
    `${best.pageMs.toFixed(0)} ms page round trip, ${best.events} events, simulated ${(best.makespan * 1e3).toFixed(3)} ms`);
}
await site.close();
