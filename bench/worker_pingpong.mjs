// Round trip of a message between two Workers of the cluster, in headless Chromium: the cost every send/recv
// pays in the page's runtime (reports to the page, deadlock bookkeeping, the timeline), on top of the browser's
// own postMessage. Pairs (0,1), (2,3), … ping-pong at the same time; prints the median round trip per pair count,
// and the time from cluster.run() to the first message when the Workers are warm.
//   node bench/worker_pingpong.mjs [--rounds 400] [--ranks 2,8] [--site dir]
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { startServer } from "../scripts/serve.mjs";
import { CHROMIUM, CHROMIUM_ARGS } from "../scripts/chromium.mjs";

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const ROUNDS = Number(arg("rounds", 400));
const RANKS = arg("ranks", "2,8").split(",").map(Number);
const SITE = arg("site", new URL("../site/", import.meta.url).pathname);

const PROGRAM = `async function main(ctx) {
  const peer = ctx.rank ^ 1, rounds = ctx.input.rounds, times = [];
  if (peer >= ctx.size) return null;
  const first = ctx.now();
  for (let i = 0; i < rounds; i++) {
    const t = ctx.now();
    if (ctx.rank % 2 === 0) { ctx.send(peer, i); await ctx.recv(peer); }
    else { await ctx.recv(peer); ctx.send(peer, i); }
    times.push(ctx.now() - t);
  }
  return { first, times };
}`;

const { server, url } = await startServer(SITE, 0);
const profile = mkdtempSync(join(tmpdir(), "dsml-bench-"));
const browser = await chromium.launchPersistentContext(profile, {
  executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS,
});
try {
  const page = await browser.newPage();
  // A page of the site's origin that loads nothing itself (the course index would install the offline cache): a 404.
  await page.goto(new URL("bench-blank", url).href);
  for (const ranks of RANKS) {
    const out = await page.evaluate(async ({ ranks, rounds, program }) => {
      const { Cluster } = await import("./web/cluster/cluster.js");
      const cluster = new Cluster(ranks);
      await cluster.ready();
      await cluster.run(program, { inputs: Array(ranks).fill({ rounds: 20 }) });   // warm-up
      const t0 = performance.now();
      const run = await cluster.run(program, { inputs: Array(ranks).fill({ rounds }), timeoutMs: 120000 });
      const wall = performance.now() - t0;
      cluster.terminate();
      if (run.status !== "ok") return { error: run.status };
      const rt = run.results.filter((r, i) => r && i % 2 === 0).flatMap((r) => r.times.slice(10)).sort((a, b) => a - b);
      const firstMessage = Math.min(...run.trace.map((m) => m.sendTime)) * 1000;
      return { median: rt[rt.length >> 1], p90: rt[Math.floor(rt.length * 0.9)], wall, firstMessage };
    }, { ranks, rounds: ROUNDS, program: PROGRAM });
    if (out.error) throw new Error(`run ended ${out.error}`);
    console.log(`${ranks} Workers (${ranks / 2} pair${ranks > 2 ? "s" : ""}), ${ROUNDS} round trips: median ${out.median.toFixed(3)} ms, ` +
      `p90 ${out.p90.toFixed(3)} ms; run() to first message ${out.firstMessage.toFixed(1)} ms; whole run ${out.wall.toFixed(0)} ms`);
  }
} finally {
  await browser.close();
  server.close();
  rmSync(profile, { recursive: true, force: true });
}
