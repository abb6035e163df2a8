// harness.mjs — what every page test needs: the built site served on 127.0.0.1, a fresh browser context of
// Debian's Chromium driven by playwright-core, and a page watcher that collects console errors and failed requests.
import { readFileSync } from "node:fs";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { startServer } from "../../scripts/serve.mjs";
import { ensureFreshSite } from "../../scripts/site_fresh.mjs";
import { CHROMIUM, CHROMIUM_ARGS } from "../../scripts/chromium.mjs";

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
export const SITE = join(ROOT, "site");

// A fresh browser context: its own storage, cache and service workers, as a new profile has. When the test runner
// started one browser for every page-test file (scripts/run_in_order.mjs --browser sets DSML_BROWSER_WS), the
// context is opened in it; a file run alone launches its own browser. close() closes the context, and the browser
// only if this file launched it.
export async function newBrowserContext(options = {}) {
  const shared = process.env.DSML_BROWSER_WS;
  const browser = shared
    ? await chromium.connect(shared)
    : await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
  const context = await browser.newContext({ serviceWorkers: "allow", ...options });
  return {
    context,
    async close() {
      await context.close();
      await browser.close();   // for a connected browser: disconnects, and the runner's browser runs on
    },
  };
}

// Serves `dir` (default: the built site) in a fresh browser context. Call close() in an after() hook. `url` is the
// course's folder (the site's lessons/: `${url}week1/` is Week 1), `root` the site's root; `server` is the
// http.Server (a test can stop it to prove the pages come from the service worker's cache).
// The built site is reassembled first when a source (lessons/, web/, scripts/, the wasm core) is newer than it.
export async function openSite({ dir = SITE, colorScheme = "light", viewport = { width: 1280, height: 900 } } = {}) {
  if (dir === SITE) await ensureFreshSite(SITE);
  const { server, url } = await startServer(dir, 0);
  const browser = await newBrowserContext({ colorScheme, viewport });
  return {
    url: `${url}lessons/`, root: url, context: browser.context, server,
    async close() {
      await browser.close();
      await new Promise((ok) => server.close(ok));
    },
  };
}

// A download's text. Read as a stream: a browser the test runner shared (newBrowserContext) keeps its downloads on
// its side, where download.path() cannot reach them.
export async function downloadText(download) {
  const chunks = [];
  for await (const chunk of await download.createReadStream()) chunks.push(chunk);
  return Buffer.concat(chunks).toString("utf8");
}

// Records what a page must never do: log a console error, throw, or fail a request. A request the browser cancels
// because the page that made it is being left (net::ERR_ABORTED after a later navigation of the main frame began)
// is the navigation's doing, not a failure of the page.
export function watch(page) {
  const problems = [];
  let navigations = 0;
  const madeDuring = new WeakMap();   // request → the number of main-frame navigations begun before it
  page.on("request", (req) => {
    if (req.isNavigationRequest() && req.frame() === page.mainFrame()) navigations += 1;
    else madeDuring.set(req, navigations);
  });
  const leftBehind = (req) => req.failure()?.errorText === "net::ERR_ABORTED" && madeDuring.get(req) < navigations;
  page.on("console", (msg) => { if (msg.type() === "error") problems.push(`console error: ${msg.text()}`); });
  page.on("pageerror", (err) => problems.push(`uncaught: ${err.message}`));
  page.on("requestfailed", (req) => {
    if (!leftBehind(req)) problems.push(`request failed: ${req.url()} ${req.failure()?.errorText}`);
  });
  page.on("response", (res) => { if (res.status() >= 400) problems.push(`HTTP ${res.status()}: ${res.url()}`); });
  return problems;
}

// axe-core's serious and critical violations on the current page, as readable strings.
// A violation must still be there a second later: right after a colour-scheme switch or a widget's mount the page
// can be caught between two frames' colours (once seen: color-contrast on the lab's :root, gone on a second look).
export async function axeViolations(page) {
  await injectAxe(page);
  const look = async () => {
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    const result = await page.evaluate(() => window.axe.run(document, { resultTypes: ["violations"] }));
    return result.violations.filter((v) => v.impact === "serious" || v.impact === "critical")
      .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.slice(0, 3).map((n) => n.target.join(" ")).join("; ")}`);
  };
  const first = await look();
  if (!first.length) return first;
  await page.waitForTimeout(1000);
  return look();
}

// axe-core evaluated through DevTools: the pages' Content-Security-Policy (script-src 'self') refuses the inline
// <script> that page.addScriptTag would add.
export async function injectAxe(page) {
  await page.evaluate(readFileSync(join(ROOT, "node_modules", "axe-core", "axe.min.js"), "utf8"));
}
