// page_sim_1024.mjs — a 1024-rank ring all-reduce of 1 MiB (--ranks), simulated by the wasm core inside a Web Worker
// of a lesson page in headless Chromium (the page's thread stays free). Prints the time measured in the Worker
// and the round trip seen by the page, best of 3 (--runs).
//   node bench/page_sim_1024.mjs [--ranks 1024] [--runs 3]      (bench/smoke.mjs: --ranks 64 --runs 1)
import { openSite } from "../tests/e2e/harness.mjs";
import { takeOption } from "./cli_args.mjs";

const args = process.argv.slice(2);
const ranks = Number(takeOption(args, "--ranks", "1024"));
const runs = Number(takeOption(args, "--runs", "3"));
if (args.length) throw new Error(`unknown arguments ${args.join(" ")} (--ranks N --runs N)`);

const site = await openSite();
const page = await site.context.newPage();
await page.goto(`${site.url}week2/`);
await page.waitForSelector("html[data-ready=true]");
const result = await page.evaluate(async ({ ranks, runs }) => {
  const { Cluster } = await import("../../web/cluster/cluster.js");
  const { compileCore } = await import("../../web/wasm.js");
  const cluster = new Cluster(1, { wasmModule: await compileCore() });
  await cluster.ready();
  const code = `async function main(ctx) {
    const t0 = ctx.now();
    const r = ctx.core.simulateCollective({ collective: "all-reduce", algorithm: "ring", ranks: ${ranks}, bytes: 1048576,
      record: false, topology: { kind: "fully-connected", alpha: 1e-6, beta: 1e-10 } });
    return { workerMs: ctx.now() - t0, makespan: r.makespan, events: r.events };
  }`;
  const times = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    const run = await cluster.run(code, { timeoutMs: 60000 });
    if (run.status !== "ok") return { error: run.error?.message ?? run.status };
    times.push({ ...run.results[0], pageMs: performance.now() - t0 });
  }
  cluster.terminate();
  return times;
}, { ranks, runs });
if (result.error) { console.error(result.error); process.exitCode = 1; }
else {
  const best = result.reduce((a, b) => (b.workerMs < a.workerMs ? b : a));
  console.log(`${ranks}-rank ring all-reduce, 1 MiB, in a Worker: ${best.workerMs.toFixed(0)} ms in the Worker, ` +
    `${best.pageMs.toFixed(0)} ms page round trip, ${best.events} events, simulated ${(best.makespan * 1e3).toFixed(3)} ms`);
}
await site.close();
