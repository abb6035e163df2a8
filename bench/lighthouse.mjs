// lighthouse.mjs — Lighthouse scores of every page of the built site (a benchmark, not a test).
//
// What it measures: a learner's first visit to the course on GitHub Pages, as Lighthouse (npm `lighthouse`,
// pinned in package.json) scores it with its default settings, which are those of its CLI and of PageSpeed Insights:
// mobile form factor and screen, simulated throttling (Lantern: the load is recorded unthrottled on 127.0.0.1, then
// replayed on a model of slow 4G, 150 ms RTT and 1.6 Mbit/s, with the main thread's observed tasks × 4), and a cold
// load: before each run Lighthouse clears the origin's HTTP cache, storage and service worker, so no run reuses what
// an earlier page or run cached. The site is served as Pages serves it:
//   - HTTPS with HTTP/2 (Node's http2, a self-signed certificate made by `openssl` for 127.0.0.1): Lantern models
//     HTTP/2 as one multiplexed connection but HTTP/1.1 as at most 6 connections an origin, which a page of about
//     100 module requests waits on. Without openssl it falls back to HTTP/1.1 and says so; `--http1` asks for it;
//   - gzip (level 6) for text and wasm, as Pages sends (not Brotli), and Pages' `cache-control: max-age=600`
//     (scripts/serve.mjs sends "no-store" otherwise, which also keeps a page out of the back/forward cache).
// Not reproduced here: Pages' CDN (its server response time and real network; Lantern's fixed RTT and bandwidth
// stand for them). Chromium runs headless with the flags of scripts/chromium.mjs plus the ones Lighthouse's own
// launcher (npm chrome-launcher, used by its CLI) passes: RenderDocument off — with it on (Chromium's default),
// Lighthouse 12.2.3 misreads the trace of a navigation from about:blank (DOMContentLoaded at 7–10 ms) — and no
// renderer backgrounding or timer throttling.
// Lantern replays what it observed, so a run falls in one of two modes. Its FCP and LCP include every request that
// started before the paint it observed: when Chromium first painted after the page's ~100 module requests had
// started (they arrive in milliseconds from 127.0.0.1), all of them are on the simulated paint's path (Week 3: FCP
// 2.9–4.6 s, LCP 4–7 s); when it painted before, they are not (FCP ≈ LCP ≈ 1.2–1.9 s). Which happens varies from run
// to run with the machine's load; each line prints how many requests had started before the observed paint. On a
// throttled network the modules cannot arrive before the first paint: `--throttling devtools` loads the page through
// Chromium's own slow-4G and 4× CPU throttling and reports what it observes (more load-sensitive; not what
// PageSpeed Insights reports).
// The first line printed states what it measured with (server, protocol, compression, caching, throttling,
// browser), read from the first run's report. Then one line per page: the category scores (0–100), the metrics
// behind performance, and the page's requests. With simulated throttling, TBT and the CPU tasks on FCP's and LCP's
// paths are observed time × 4, so they depend on the machine's load: run it when `uptime` shows a quiet machine, use
// --runs 3, or compare builds with --against.
//   node bench/lighthouse.mjs [--site site] [--against other-site] [--runs 3] [--json out.json] [--long-tasks]
//                             [--http1] [--throttling simulate|devtools] [page …]
//   pages: "" (the index), every published week's slug/ (week1/ … lab/), every guide's (cluster/) — the default
// With --runs N, each page is audited N times and the run with the median performance score is printed, with
// every run's score and the machine's load average (1 minute) before the page's first and after its last run.
// With --against, every page of the other build (e.g. one assembled before a change) is audited too, its runs
// alternating with the site's, so that both see the same load: an A/B comparison on a shared machine.
// With --long-tasks, the printed run also lists the main thread's long tasks (start, duration, script) and the
// scripts that took the most main-thread time: where a Total Blocking Time comes from.
// bench/smoke.mjs audits the index once (`node bench/lighthouse.mjs ""`, 15–35 s); every page takes minutes.
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
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
// What Lighthouse's launcher adds to Chromium's command line and the trace depends on (see the top of this file).
const LIGHTHOUSE_ARGS = ["--disable-features=RenderDocument", "--disable-renderer-backgrounding",
  "--disable-background-timer-throttling", "--disable-backgrounding-occluded-windows"];
const FLAGS = ["--headless=new", ...CHROMIUM_ARGS, ...LIGHTHOUSE_ARGS];
// GitHub Pages' caching header for every file.
const PAGES_CACHE_CONTROL = "max-age=600";

const args = process.argv.slice(2);
const option = (name, fallback) => takeOption(args, name, fallback);
const siteDir = resolve(option("--site", "site"));
const againstDir = option("--against", null);
const runs = Number(option("--runs", "1"));
const jsonOut = option("--json", null);
const takeFlag = (name) => args.includes(name) && args.splice(args.indexOf(name), 1).length > 0;
const longTasks = takeFlag("--long-tasks");
const http1 = takeFlag("--http1");
const throttlingMethod = option("--throttling", "simulate");
const pages = args.length ? args
  : ["", ...WEEKS.filter((w) => w.available).map((w) => `${w.slug}/`), ...GUIDES.map((g) => `${g.slug}/`)];

const profile = mkdtempSync(join(tmpdir(), "dsml-lighthouse-"));
const tls = http1 ? null : localCertificate(profile);
const sites = await Promise.all([siteDir, ...(againstDir ? [resolve(againstDir)] : [])]
  .map(async (dir) => ({ dir, ...(await startServer(dir, 0, "127.0.0.1", { cacheControl: PAGES_CACHE_CONTROL, tls })) })));
const { chrome, port } = await launchChromium(profile, tls ? ["--ignore-certificate-errors"] : []);
const results = [];
let stated = false;
try {
  for (const page of pages) {
    const audits = sites.map(() => []);
    const loadBefore = loadavg()[0];
    for (let i = 0; i < runs; i++) {
      for (const [s, { url }] of sites.entries()) {
        audits[s].push(await audit(`${url}lessons/${page}`, port));
        if (!stated) { console.log(audits[s].at(-1).conditions); stated = true; }
      }
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
  const { lhr } = await lighthouse(pageUrl, { port, output: "json", logLevel: "error", onlyCategories: CATEGORIES,
    throttlingMethod });
  if (lhr.runtimeError) throw new Error(`${pageUrl}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
  const requests = lhr.audits["network-requests"].details?.items ?? [];
  const scores = Object.fromEntries(CATEGORIES.map((c) => [c, Math.round(100 * lhr.categories[c].score)]));
  const metrics = Object.fromEntries(Object.entries(METRICS).map(([id, name]) => [name, lhr.audits[id].numericValue]));
  const failing = Object.values(lhr.audits)
    .filter((a) => a.score !== null && a.score < 1 && a.scoreDisplayMode === "binary").map((a) => a.id);
  const tasks = (lhr.audits["long-tasks"].details?.items ?? [])
    .map((t) => ({ start: t.startTime, duration: t.duration, url: t.url }));
  const scripts = (lhr.audits["bootup-time"].details?.items ?? [])
    .map((b) => ({ url: b.url, total: b.total, scripting: b.scripting })).slice(0, 8);
  // Lantern's FCP and LCP include every request that had started before the paint it observed: a paint observed
  // after the module graph was requested (it arrives in milliseconds from 127.0.0.1) puts the whole graph on the
  // paint's simulated path, one observed before it does not. Printed so that a run's mode can be seen.
  const observed = lhr.audits.metrics.details?.items?.[0] ?? {};
  const beforePaint = requests.filter((r) => r.networkRequestTime < observed.observedFirstContentfulPaint).length;
  return { scores, metrics, requests: requests.length, beforePaint, observedFCP: observed.observedFirstContentfulPaint,
           observedDCL: observed.observedDomContentLoaded, failing, conditions: conditions(lhr, requests),
           ...(longTasks ? { tasks, scripts } : {}) };
}

// What a run measured with, from its own report: the server's protocol and compression as Chromium received the
// page, and Lighthouse's settings.
function conditions({ configSettings: c, environment, lighthouseVersion }, requests) {
  const doc = requests.find((r) => r.resourceType === "Document") ?? {};
  const t = c.throttling;
  const compressed = requests.filter((r) => r.transferSize < r.resourceSize).length;
  return `measured with: ${doc.url?.replace(/\/lessons\/.*$/, "/") ?? "?"} (scripts/serve.mjs) over ${doc.protocol ?? "?"}, `
    + `${compressed} of ${requests.length} responses compressed (gzip), cache-control ${PAGES_CACHE_CONTROL}; `
    + `Lighthouse ${lighthouseVersion}, ${c.formFactor} ${c.screenEmulation.width}×${c.screenEmulation.height}, `
    + `throttling ${c.throttlingMethod} (RTT ${t.rttMs} ms, ${(t.throughputKbps / 1024).toFixed(1)} Mbit/s, `
    + `CPU ×${t.cpuSlowdownMultiplier}), ${c.disableStorageReset ? "storage kept between runs" : "cold cache and storage each run"}; `
    + `${environment.hostUserAgent.match(/HeadlessChrome\/[\d.]+|Chrome\/[\d.]+/)?.[0] ?? "Chromium"} ${FLAGS.join(" ")}`;
}

// A self-signed certificate for 127.0.0.1 (openssl), so that the site is served over HTTPS and HTTP/2 as on Pages;
// null when openssl is missing (the site is then served over HTTP/1.1).
function localCertificate(dir) {
  const key = join(dir, "key.pem"), cert = join(dir, "cert.pem");
  try {
    execFileSync("openssl", ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
      "-keyout", key, "-out", cert, "-days", "1", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"],
      { stdio: "ignore" });
    return { key: readFileSync(key), cert: readFileSync(cert) };
  } catch {
    console.log("lighthouse: openssl failed, so the site is served over HTTP/1.1 (Pages serves HTTP/2)");
    return null;
  }
}

function describe({ page, site, scores, metrics, requests, beforePaint, observedFCP, observedDCL, failing,
                    performanceRuns, load, tasks, scripts }) {
  const s = CATEGORIES.map((c) => `${c} ${scores[c]}`).join(", ");
  const m = `FCP ${ms(metrics.FCP)}, LCP ${ms(metrics.LCP)}, TBT ${ms(metrics.TBT)}, CLS ${metrics.CLS.toFixed(3)}, `
    + `SI ${ms(metrics.SI)}, ${requests} requests (${beforePaint} before the observed first paint at ${ms(observedFCP)}, `
    + `DOMContentLoaded ${ms(observedDCL)})`;
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
function launchChromium(profileDir, extra) {
  const chrome = spawn(CHROMIUM,
    [...FLAGS, ...extra, "--remote-debugging-port=0", `--user-data-dir=${profileDir}`, "about:blank"],
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
