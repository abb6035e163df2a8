// lighthouse.mjs — Lighthouse scores of every page of the built site (a benchmark, not a test).
//
// Serves site/ on 127.0.0.1, starts Debian's Chromium headless with a DevTools port, and runs Lighthouse
// (npm `lighthouse`, pinned in package.json) with its default settings: mobile form factor, simulated slow 4G
// and 4× CPU slowdown, cold cache and storage. Prints one line per page: the category scores (0–100) and the
// metrics behind performance. Timings depend on the machine's load: run it when `uptime` shows a quiet machine.
//   node bench/lighthouse.mjs [--site site] [--against other-site] [--runs 3] [--json out.json] [--long-tasks] [page …]
//   pages: "" (the index), every published week's slug/ (week1/ … lab/), every guide's (cluster/) — the default
// With --runs N, each page is audited N times and the run with the median performance score is printed, with
// every run's score and the machine's load average (1 minute) before the page's first and after its last run.
// With --against, every page of the other build (e.g. one assembled before a change) is audited too, its runs
// alternating with the site's, so that both see the same load: an A/B comparison on a shared machine.
// With --long-tasks, the printed run also lists the main thread's long tasks (start, duration, script) and the
// scripts that took the most main-thread time: where a Total Blocking Time comes from.
// bench/smoke.mjs audits the index once (`node bench/lighthouse.mjs ""`, 15–35 s); every page takes minutes.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import lighthouse from "lighthouse";
import { startServer } from "../scripts/serve.mjs";
import { takeOption } from "./cli_args.mjs";
import { WEEKS } from "../web/lesson/course.js";
import { GUIDES } from "../scripts/render_guide.mjs";
import { CHROMIUM, CHROMIUM_ARGS } from "../scripts/chromium.mjs";

const CATEGORIES = ["performance", "accessibility", "best-practices", "seo"];
const METRICS = { "first-contentful-paint": "FCP", "largest-contentful-paint": "LCP", "total-blocking-time": "TBT",
  "cumulative-layout-shift": "CLS", "speed-index": "SI" };
const FLAGS = ["--headless=new", ...CHROMIUM_ARGS];

const args = process.argv.slice(2);
const option = (name, fallback) => takeOption(args, name, fallback);
const siteDir = resolve(option("--site", "site"));
const againstDir = option("--against", null);
const runs = Number(option("--runs", "1"));
const jsonOut = option("--json", null);
const longTasks = args.includes("--long-tasks") && args.splice(args.indexOf("--long-tasks"), 1).length > 0;
const pages = args.length ? args
  : ["", ...WEEKS.filter((w) => w.available).map((w) => `${w.slug}/`), ...GUIDES.map((g) => `${g.slug}/`)];

const sites = await Promise.all([siteDir, ...(againstDir ? [resolve(againstDir)] : [])]
  .map(async (dir) => ({ dir, ...(await startServer(dir, 0)) })));
const profile = mkdtempSync(join(tmpdir(), "dsml-lighthouse-"));
const { chrome, port } = await launchChromium(profile);
const results = [];
try {
  for (const page of pages) {
    const audits = sites.map(() => []);
    const loadBefore = loadavg()[0];
    for (let i = 0; i < runs; i++) {
      for (const [s, { url }] of sites.entries()) audits[s].push(await audit(`${url}lessons/${page}`, port));
    }
    const load = [loadBefore, loadavg()[0]].map((l) => Number(l.toFixed(2)));
    for (const [s, { dir }] of sites.entries()) {
      audits[s].sort((a, b) => a.scores.performance - b.scores.performance);
      const median = audits[s][Math.floor(audits[s].length / 2)];
      results.push({ page: page || "index", ...(sites.length > 1 ? { site: dir } : {}), ...median,
                     performanceRuns: audits[s].map((a) => a.scores.performance), load });
      console.log(describe(results.at(-1)));
    }
  }
} finally {
  await new Promise((ok) => { chrome.once("exit", ok); chrome.kill(); });
  for (const { server } of sites) server.close();
  try { rmSync(profile, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 }); } catch { /* Chromium's last writes */ }
}
if (jsonOut) writeFileSync(jsonOut, JSON.stringify(results, null, 2));

async function audit(pageUrl, port) {
  const { lhr } = await lighthouse(pageUrl, { port, output: "json", logLevel: "error", onlyCategories: CATEGORIES });
  if (lhr.runtimeError) throw new Error(`${pageUrl}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
  const scores = Object.fromEntries(CATEGORIES.map((c) => [c, Math.round(100 * lhr.categories[c].score)]));
  const metrics = Object.fromEntries(Object.entries(METRICS).map(([id, name]) => [name, lhr.audits[id].numericValue]));
  const failing = Object.values(lhr.audits)
    .filter((a) => a.score !== null && a.score < 1 && a.scoreDisplayMode === "binary").map((a) => a.id);
  const tasks = (lhr.audits["long-tasks"].details?.items ?? [])
    .map((t) => ({ start: t.startTime, duration: t.duration, url: t.url }));
  const scripts = (lhr.audits["bootup-time"].details?.items ?? [])
    .map((b) => ({ url: b.url, total: b.total, scripting: b.scripting })).slice(0, 8);
  return { scores, metrics, failing, ...(longTasks ? { tasks, scripts } : {}) };
}

function describe({ page, site, scores, metrics, failing, performanceRuns, load, tasks, scripts }) {
  const s = CATEGORIES.map((c) => `${c} ${scores[c]}`).join(", ");
  const m = `FCP ${ms(metrics.FCP)}, LCP ${ms(metrics.LCP)}, TBT ${ms(metrics.TBT)}, CLS ${metrics.CLS.toFixed(3)}, `
    + `SI ${ms(metrics.SI)}`;
  const r = (performanceRuns.length > 1 ? ` (performance of ${performanceRuns.length} runs: ${performanceRuns.join(", ")})` : "")
    + ` [load ${load.join(" → ")}]`;
  const f = failing.length ? `\n    failing audits: ${failing.join(", ")}` : "";
  const name = (url) => url.replace(/^https?:\/\/[^/]+/, "");
  const t = tasks ? `\n    long tasks (simulated): ${tasks.map((k) => `${ms(k.start)} +${ms(k.duration)} ${name(k.url)}`).join("; ")}`
    + `\n    main-thread time by script: ${scripts.map((b) => `${name(b.url)} ${ms(b.total)}`).join("; ")}` : "";
  return `${page.padEnd(6)}  ${site ? `${site}  ` : ""}${s}  |  ${m}${r}${f}${t}`;
}

function ms(v) { return v >= 1000 ? `${(v / 1000).toFixed(2)} s` : `${Math.round(v)} ms`; }

// Chromium with a DevTools port of its own choosing; the port is read from the line it prints on stderr.
function launchChromium(profileDir) {
  const chrome = spawn(CHROMIUM,
    [...FLAGS, "--remote-debugging-port=0", `--user-data-dir=${profileDir}`, "about:blank"],
    { stdio: ["ignore", "ignore", "pipe"] });
  return new Promise((ok, fail) => {
    let err = "";
    const timer = setTimeout(() => { chrome.kill(); fail(new Error(`Chromium did not start:\n${err}`)); }, 30_000);
    chrome.stderr.on("data", (chunk) => {
      err += chunk;
      const m = /DevTools listening on ws:\/\/[^:]+:(\d+)\//.exec(err);
      if (m) { clearTimeout(timer); ok({ chrome, port: Number(m[1]) }); }
    });
    chrome.once("exit", (code) => { clearTimeout(timer); fail(new Error(`Chromium exited (${code}):\n${err}`)); });
  });
}
