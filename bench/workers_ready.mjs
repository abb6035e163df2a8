// How long until a cluster of Web Workers is ready in headless Chromium — the wait a learner has before the
// first run (new Cluster + ready()), and after a failed run, when all Workers are replaced.
//   node bench/workers_ready.mjs [--ranks 16] [--loads 7]
// Each page load is fresh; we print the median over the loads. If site/wasm/ exists (the built core), every
// Worker also instantiates the compiled core (as the lesson pages do) and the output says so.
import { existsSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { startServer } from "../scripts/serve.mjs";

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const RANKS = arg("ranks", 16);
const LOADS = arg("loads", 7);
const ROOT = new URL("../", import.meta.url).pathname;
const WASM = join(ROOT, "site/wasm");
const withWasm = existsSync(join(WASM, "dsml.wasm")) && existsSync(join(WASM, "dsml.mjs"));

// A throwaway site: web/ is this repo's runtime (not a stale site/ copy), wasm/ the built core if any.
const dir = mkdtempSync(join(tmpdir(), "dsml-bench-site-"));
symlinkSync(join(ROOT, "web"), join(dir, "web"));
if (withWasm) symlinkSync(WASM, join(dir, "wasm"));
writeFileSync(join(dir, "index.html"), `<!doctype html><html lang="en"><head><meta charset="utf-8">
<link rel="icon" href="data:,"><title>workers ready</title><script type="module">
import { Cluster } from "./web/cluster.js";
${withWasm ? 'import { compileCore } from "./web/wasm.js";' : ""}
window.measure = async (ranks) => {
  const wasmModule = ${withWasm ? "await compileCore()" : "null"};   // compiled once per page, not timed
  let t = performance.now();
  const cluster = new Cluster(ranks, { wasmModule });
  await cluster.ready();
  const first = performance.now() - t;
  // An endless loop stopped by the watchdog makes the cluster replace all its Workers: time the replacements.
  await cluster.run("async function main(ctx) { while (true) {} }", { timeoutMs: 50 });
  t = performance.now();
  await cluster.ready();
  const replaced = performance.now() - t;
  cluster.terminate();
  return { first, replaced };
};
</script></head><body></body></html>`);

const { server, url } = await startServer(dir, 0);
const profile = mkdtempSync(join(tmpdir(), "dsml-bench-profile-"));
const context = await chromium.launchPersistentContext(profile, {
  executablePath: "/usr/bin/chromium", headless: true,
  args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync"],
});
const samples = [];
try {
  const page = await context.newPage();
  for (let i = 0; i < LOADS; i++) {
    await page.goto(url);
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
const fmt = (xs) => `median ${median(xs).toFixed(0)} ms (min ${Math.min(...xs).toFixed(0)}, max ${Math.max(...xs).toFixed(0)})`;
console.log(`${RANKS} Workers ready, ${withWasm ? "each instantiating the wasm core from site/wasm" : "without the wasm core (site/wasm not built)"}, ${LOADS} page loads:`);
console.log(`  new Cluster → ready():              ${fmt(samples.map((s) => s.first))}`);
console.log(`  replaced after a failed run → ready(): ${fmt(samples.map((s) => s.replaced))}`);
