// ready_time.mjs — how long a lesson page takes to become ready: from navigation to html[data-ready] (the exercises
// live and the prose's numbers checked: web/lesson/lesson_page.js), in headless Chromium with a fresh profile per
// load (cold cache). Prints the median and every load's time per page. With --against, a second built site (e.g. one
// assembled before a change) is timed too, its loads alternating with the site's so both see the same machine load.
//   nice node bench/ready_time.mjs [--site site] [--against other-site] [--loads 7] week3 week6 …
import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { chromium } from "playwright-core";
import { startServer } from "../scripts/serve.mjs";
import { takeOption } from "./cli_args.mjs";
import { CHROMIUM, CHROMIUM_ARGS } from "../scripts/chromium.mjs";

const args = process.argv.slice(2);
const option = (name, fallback) => takeOption(args, name, fallback);
const siteDir = resolve(option("--site", "site"));
const againstDir = option("--against", null);
const loads = Number(option("--loads", "7"));
const pages = args.length ? args : ["week3", "week6"];

const sites = await Promise.all([siteDir, ...(againstDir ? [resolve(againstDir)] : [])]
  .map(async (dir) => ({ dir, ...(await startServer(dir, 0)) })));
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

// One cold load: ms from navigation start to data-ready, as the page's own clock tells it.
async function readyMs(url) {
  const profile = mkdtempSync(join(tmpdir(), "dsml-ready-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS,
    viewport: { width: 1280, height: 900 },
  });
  try {
    const page = await context.newPage();
    await page.goto(url);
    await page.waitForFunction(() => document.documentElement.dataset.ready === "true", null, { timeout: 120000 });
    return await page.evaluate(() => performance.now());
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  }
}

try {
  for (const slug of pages) {
    const times = sites.map(() => []);
    const load0 = loadavg()[0];
    for (let i = 0; i < loads; i++) {
      for (const [k, site] of sites.entries()) times[k].push(await readyMs(`${site.url}lessons/${slug}/`));
    }
    for (const [k, site] of sites.entries()) {
      console.log(`${slug.padEnd(8)} ${site.dir.padEnd(36)} ready median ${median(times[k]).toFixed(0).padStart(5)} ms ` +
        `(${times[k].map((t) => t.toFixed(0)).join(", ")}; load ${load0.toFixed(1)} → ${loadavg()[0].toFixed(1)})`);
    }
  }
} finally {
  for (const site of sites) await new Promise((ok) => site.server.close(ok));
}
