// How long until a cluster of Web Workers is ready in headless Chromium — the wait a learner has before the
// first run (new Cluster + ready()), and before the next run after a failed one (cluster.js recycles: idle
// Workers are kept, stuck ones replaced).
//   node bench/workers_ready.mjs [--ranks 16] [--loads 7] [--bundled]
// Each page load is fresh; we print medians over the loads. If build/wasm/wasm/ exists (the built core), every Worker
// is handed the compiled core, as the lesson pages do (it instantiates it on first use), and the output says so.
// For scale, the same number of empty module Workers is timed too: the floor this browser and machine allow.
// --bundled serves rank_worker.js bundled into one file with esbuild (one fetch per Worker instead of six).
import { existsSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { startServer } from "../scripts/serve.mjs";
import { assembleSite } from "../scripts/assemble_site.mjs";
import { CHROMIUM, CHROMIUM_ARGS } from "../scripts/chromium.mjs";

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const RANKS = arg("ranks", 16);
const LOADS = arg("loads", 7);
const BUNDLED = process.argv.includes("--bundled");
const ROOT = new URL("../", import.meta.url).pathname;
const WASM = join(ROOT, "build/wasm/wasm");
const withWasm = existsSync(join(WASM, "dsml.wasm")) && existsSync(join(WASM, "dsml.mjs"));

// A throwaway site from this working tree (not a stale site/ copy): assembled as the pages get it (--bundled),
// or web/ as plain modules; wasm/ is the built core if any.
const dir = mkdtempSync(join(tmpdir(), "dsml-bench-site-"));
if (BUNDLED) {
  await assembleSite(dir, { wasmDir: WASM });
} else {
  symlinkSync(join(ROOT, "web"), join(dir, "web"));
  if (withWasm) symlinkSync(WASM, join(dir, "wasm"));
}
writeFileSync(join(dir, "bench.html"), `<!doctype html><html lang="en"><head><meta charset="utf-8">
<link rel="icon" href="data:,"><title>workers ready</title><script type="module">
import { Cluster } from "./web/cluster/cluster.js";
${withWasm ? 'import { compileCore } from "./web/wasm.js";' : ""}
const EMPTY = URL.createObjectURL(new Blob(["postMessage(0)"], { type: "text/javascript" }));
window.measure = async (ranks) => {
  let t = performance.now();
  const empty = Array.from({ length: ranks }, () => new Worker(EMPTY, { type: "module" }));
  await Promise.all(empty.map((w) => new Promise((ok) => { w.onmessage = ok; })));
  const floor = performance.now() - t;
  empty.forEach((w) => w.terminate());

  const wasmModule = ${withWasm ? "await compileCore()" : "null"};   // compiled once per page, not timed
  t = performance.now();
  const cluster = new Cluster(ranks, { wasmModule });
  await cluster.ready();
  const first = performance.now() - t;
  // After a deadlock every Worker is idle and kept: the cluster only checks that they answer.
  await cluster.run("async function main(ctx) { await ctx.recv((ctx.rank + 1) % ctx.size); }");
  t = performance.now();
  await cluster.ready();
  const kept = performance.now() - t;
  // An endless loop on every rank, stopped by the watchdog: all Workers are replaced (the worst case).
  await cluster.run("async function main(ctx) { while (true) {} }", { timeoutMs: 50 });
  t = performance.now();
  await cluster.ready();
  const replaced = performance.now() - t;
  cluster.terminate();
  return { floor, first, kept, replaced };
};
</script></head><body></body></html>`);

const { server, url } = await startServer(dir, 0);
const profile = mkdtempSync(join(tmpdir(), "dsml-bench-profile-"));
const context = await chromium.launchPersistentContext(profile, {
  executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS,
});
const samples = [];
try {
  const page = await context.newPage();
  for (let i = 0; i < LOADS; i++) {
    await page.goto(`${url}bench.html`);
    await page.waitForFunction(() => window.measure);
    samples.push(await page.evaluate((n) => window.measure(n), RANKS));
  }
} finally {
  await context.close();
  server.close();
  rmSync(profile, { recursive: true, force: true });
  rmSync(dir, { recursive: true, force: true });
}

const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };
const fmt = (key) => {
  const xs = samples.map((s) => s[key]);
  return `median ${median(xs).toFixed(0)} ms (min ${Math.min(...xs).toFixed(0)}, max ${Math.max(...xs).toFixed(0)})`;
};
console.log(`${RANKS} Workers, ${withWasm ? "each handed the compiled wasm core from build/wasm (instantiated on first use)" : "without the wasm core (build/wasm not built)"}, ` +
            `${BUNDLED ? "rank_worker.js bundled" : "rank_worker.js as plain modules"}, ${LOADS} page loads:`);
console.log(`  new Cluster → ready():                 ${fmt("first")}`);
console.log(`  after a deadlock (all kept) → ready(): ${fmt("kept")}`);
console.log(`  all replaced after a timeout → ready(): ${fmt("replaced")}`);
console.log(`  floor: ${RANKS} empty module Workers:      ${fmt("floor")}`);
