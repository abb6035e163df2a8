// End-to-end tests of the shared lesson UI (web/style.css, ui/theme.js, lesson/lesson.js, ui/charts.js, ui/timeline.js,
// progress.js) and the course home (lessons/index.html), in real Chromium.
//   node --test tests/e2e/ui.test.mjs
// The site is assembled from the sources into a temporary folder (scripts/assemble_site.mjs, plus
// the repo's tests/), so the test sees the working tree and does not need the wasm build. With DSML_SCREENSHOTS=<dir> it also saves light/dark × 1280/360 px screenshots.
import { test, before, after } from "node:test";
import { WEEKS } from "../../web/lesson/course.js";
import assert from "node:assert/strict";
import { mkdirSync, symlinkSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { startServer } from "../../scripts/serve.mjs";
import { assembleSite } from "../../scripts/assemble_site.mjs";
import { axeViolations, newBrowserContext } from "./harness.mjs";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const SHOTS = process.env.DSML_SCREENSHOTS;
let tmp, server, base, ctx, browser;

// Served: the site assembled from the working tree (laid out as the source tree is) and the repo's tests/ beside it
// (the fixtures import ../../../web/…, which resolves the same in the source tree).
async function assembleTestSite(dir) {
  await assembleSite(dir);
  symlinkSync(join(ROOT, "tests"), join(dir, "tests"));
}

before(async () => {
  tmp = mkdtempSync(join(tmpdir(), "dsml-ui-"));
  const site = join(tmp, "site");
  await assembleTestSite(site);
  ({ server, url: base } = await startServer(site, 0));
  browser = await newBrowserContext({ acceptDownloads: true, colorScheme: "light", viewport: { width: 1280, height: 900 } });
  ctx = browser.context;
});

after(async () => {
  await browser?.close();
  server?.close();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

// A page that records console output, page errors and failed requests.
async function openPage(path, { clearStorage = true, colorScheme = "light", width = 1280 } = {}) {
  const page = await ctx.newPage();
  await page.setViewportSize({ width, height: 900 });
  await page.emulateMedia({ colorScheme });
  if (clearStorage) {
    // Clear this origin's storage from a page without scripts, so no request of the real page is aborted.
    await page.goto(base + "tests/e2e/fixtures/blank.html");
    await page.evaluate(() => localStorage.clear());
  }
  const problems = [];
  page.on("console", (m) => problems.push(`console.${m.type()}: ${m.text()} (${m.location().url})`));
  page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
  page.on("requestfailed", (r) => problems.push(`request failed: ${r.url()} ${r.failure()?.errorText}`));
  page.on("response", (r) => { if (r.status() >= 400) problems.push(`HTTP ${r.status()}: ${r.url()}`); });
  await page.goto(base + path);
  await page.waitForLoadState("networkidle");
  return { page, problems };
}

test("course index loads cleanly: cards, header, no console output, no failed requests", async () => {
  const { page, problems } = await openPage("lessons/index.html");
  assert.deepEqual(problems, []);
  assert.equal(await page.locator(".week-cards > li").count(), WEEKS.length, "a card per page of web/lesson/course.js");
  const published = WEEKS.filter((w) => w.available).length;
  assert.equal(await page.locator(".week-cards a").count(), published, "exactly the published weeks are linked");
  assert.equal(await page.locator(".week-cards .badge", { hasText: "In preparation" }).count(), WEEKS.length - published);
  assert.equal(await page.locator("header.site-header a.site-brand").getAttribute("href"), "./index.html");
  assert.equal(await page.locator("button.theme-toggle").count(), 1);
  await page.close();
});

test("fixture: TOC, math, chart with marker, timeline, prev/next — and nothing on the console", async () => {
  const { page, problems } = await openPage("tests/e2e/fixtures/ui.html");
  await page.waitForFunction(() => window.__uiReady === true);
  assert.deepEqual(problems, []);
  assert.equal(await page.locator("nav.toc li").count(), 4);
  assert.ok(await page.locator(".m .katex").count() >= 10, "inline math rendered");
  assert.equal(await page.locator(".m-display .katex-display").count(), 2);
  assert.equal(await page.locator(".katex-error").count(), 0);
  assert.match(await page.locator("#widget-alpha-beta .chart-summary").textContent(), /crossover n\* = 10000 bytes/);
  assert.equal(await page.locator("#widget-alpha-beta details.chart-data tbody tr").count(), 10);
  assert.equal(await page.locator("#tl svg .tl-rank").count(), 4);
  assert.equal(await page.locator("#tl svg .tl-zero").count(), 1, "zero-length span drawn as a tick");
  assert.ok(await page.locator("#tl svg rect.tl-span title").count() > 8);
  assert.equal(await page.locator("#tl .timeline-data tbody tr").count(), 4);
  assert.equal(await page.locator("nav.prev-next a[href='../index.html']").count(), 1);
  // The fixture poses as week 1: its "next" is week 2, linked once published, marked "in preparation" before.
  assert.match(await page.locator("nav.prev-next .next").textContent(),
    WEEKS[1].available ? /Week 2.*Collectives from scratch/ : /Week 2.*in preparation/);
  for (const [value, rows] of [["64", 64], ["1", 1], ["0", 4]]) {
    await page.selectOption("#ranks", value);
    assert.equal(await page.locator("#tl .timeline-data tbody tr").count(), rows);
  }
  assert.match(await page.locator("#tl .timeline-summary").textContent(), /No activity recorded/);
  // The timeline redraws to the width of its box when the window narrows.
  await page.selectOption("#ranks", "4");
  const wide = Number(await page.locator("#tl svg").getAttribute("width"));
  await page.setViewportSize({ width: 360, height: 800 });
  // Sections off screen skip layout (content-visibility: auto), so the box's new width, and the redraw, come when
  // the learner scrolls it into view.
  await page.locator("#tl").scrollIntoViewIfNeeded();
  await page.waitForFunction((w) => Number(document.querySelector("#tl svg").getAttribute("width")) < w, wide);
  assert.ok(Number(await page.locator("#tl svg").getAttribute("width")) <= 330);
  assert.deepEqual(problems, []);
  await page.close();
});

test("theme toggle switches, persists across reload, and re-themes charts; system changes are followed", async () => {
  const { page } = await openPage("tests/e2e/fixtures/ui.html");
  await page.waitForFunction(() => window.__uiReady === true);
  const toggle = page.locator("button.theme-toggle");
  const state = () => page.evaluate(() => ({
    attr: document.documentElement.dataset.theme ?? null, stored: localStorage.getItem("dsml.theme"),
    bg: getComputedStyle(document.body).backgroundColor,
  }));
  const tickColor = () => page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue("--muted").trim());
  assert.equal(await toggle.getAttribute("aria-pressed"), "false");
  const lightMuted = await tickColor();
  await toggle.click();
  assert.equal(await toggle.getAttribute("aria-pressed"), "true");
  assert.deepEqual(await state(), { attr: "dark", stored: "dark", bg: "rgb(20, 22, 26)" });
  assert.notEqual(await tickColor(), lightMuted);
  await page.reload();
  await page.waitForFunction(() => window.__uiReady === true);
  assert.equal((await state()).attr, "dark");
  assert.equal(await toggle.getAttribute("aria-pressed"), "true");
  await toggle.click();
  assert.deepEqual(await state(), { attr: "light", stored: "light", bg: "rgb(252, 252, 250)" });

  // Back to "system": the resolved theme follows prefers-color-scheme, and an event announces the change.
  await page.evaluate(async () => {
    const { setTheme } = await import(new URL("../../../web/ui/theme.js", location.href).href)   // from the fixture page's URL;
    setTheme("system");
    window.__themeEvents = [];
    document.addEventListener("dsml-theme", (e) => window.__themeEvents.push(e.detail.theme));
  });
  await page.emulateMedia({ colorScheme: "dark" });
  await page.waitForFunction(() => window.__themeEvents.length === 1);
  assert.deepEqual(await page.evaluate(() => window.__themeEvents), ["dark"]);
  assert.equal(await toggle.getAttribute("aria-pressed"), "true");
  assert.equal((await state()).bg, "rgb(20, 22, 26)");
  await page.close();
});

test("charts re-theme live: the canvas is redrawn with the dark palette", async () => {
  const { page } = await openPage("tests/e2e/fixtures/ui.html");
  await page.waitForFunction(() => window.__uiReady === true);
  const colors = () => page.evaluate(async () => {
    const { Chart } = await import(new URL("../../../web/vendor/chart.js", location.href).href);
    const chart = Chart.getChart(document.getElementById("chart"));
    return { tick: chart.options.scales.x.ticks.color, line: chart.data.datasets[0].borderColor };
  });
  const light = await colors();
  assert.deepEqual(light, { tick: "#555c67", line: "#0b63c5" });
  await page.locator("button.theme-toggle").click();
  assert.deepEqual(await colors(), { tick: "#a6adb8", line: "#6cb2ff" });
  await page.close();
});

test("progress: export → import round-trip, and a bad file is refused without touching the data", async () => {
  const { page } = await openPage("lessons/index.html");
  // ownCode: the learner's code set aside while they try the reference solution (exercise/solution_view.js).
  const saved = { schema: 2, seed: 12345, exercises: {
    "w1-crossover": { code: null, starterHash: null, solved: true, solvedAt: "2025-01-02T03:04:05.000Z", attempts: 2, answer: 62500, hintsShown: 1, ownCode: null },
    "w1-ring": { code: "async function main(ctx) { return 1; }", starterHash: "0badf00d", solved: false, solvedAt: null, attempts: 3, answer: null, hintsShown: 0, ownCode: null },
  } };
  await page.evaluate((s) => localStorage.setItem("dsml.progress", JSON.stringify(s)), saved);
  await page.reload();
  const [download] = await Promise.all([page.waitForEvent("download"), page.click("#export-progress")]);
  assert.match(download.suggestedFilename(), /^dsml-progress-\d{4}-\d{2}-\d{2}\.json$/);
  const file = join(tmp, download.suggestedFilename());
  await download.saveAs(file);
  const exported = JSON.parse(readFileSync(file, "utf8"));
  assert.equal(exported.schema, 2);
  assert.ok(!Number.isNaN(Date.parse(exported.exportedAt)));
  assert.deepEqual(exported.exercises, saved.exercises);
  await page.waitForSelector("#progress-message.success");

  // Wipe, then import the file.
  await page.evaluate(() => localStorage.removeItem("dsml.progress"));
  await page.reload();
  assert.deepEqual(JSON.parse(await page.evaluate(() => localStorage.getItem("dsml.progress"))).exercises, {});
  await page.setInputFiles("#import-file", file);
  await page.waitForSelector("#progress-message.success");
  assert.match(await page.textContent("#progress-message"), /Imported .*2 exercise records, 1 solved/);
  const after = JSON.parse(await page.evaluate(() => localStorage.getItem("dsml.progress")));
  assert.deepEqual(after, { schema: 2, seed: 12345, exercises: saved.exercises });

  // A bad file: readable error, data intact.
  await page.setInputFiles("#import-file", { name: "bad.json", mimeType: "application/json", buffer: Buffer.from('{"schema": 9, "exercises": {}}') });
  await page.waitForSelector("#progress-message.error");
  assert.match(await page.textContent("#progress-message"), /newer version of dsml \(schema 9\).*unchanged/);
  assert.deepEqual(JSON.parse(await page.evaluate(() => localStorage.getItem("dsml.progress"))), after);
  await page.close();
});

test("progress: corrupt saved data is backed up, reset, and a notice says so", async () => {
  const { page } = await openPage("lessons/index.html");
  await page.evaluate(() => localStorage.setItem("dsml.progress", "{this is not json"));
  await page.reload();
  const notice = page.locator("#notices .notice.warn");
  await notice.waitFor();
  assert.match(await notice.textContent(), /could not be read; it was backed up as dsml\.progress\.backup-\S+ and reset/);
  const store = await page.evaluate(() => Object.fromEntries(Object.entries(localStorage)));
  const backups = Object.keys(store).filter((k) => k.startsWith("dsml.progress.backup-"));
  assert.equal(backups.length, 1);
  assert.equal(store[backups[0]], "{this is not json");
  assert.ok((await notice.textContent()).includes(backups[0]));
  assert.equal(JSON.parse(store["dsml.progress"]).schema, 2);
  await page.close();
});

test("progress: a schema-1 blob is migrated to schema 2", async () => {
  const { page } = await openPage("lessons/index.html");
  await page.evaluate(() => localStorage.setItem("dsml.progress",
    JSON.stringify({ version: 1, solved: { "w1-crossover": true }, code: { "w1-ring": "// mine" } })));
  await page.reload();
  const data = JSON.parse(await page.evaluate(() => localStorage.getItem("dsml.progress")));
  assert.equal(data.schema, 2);
  assert.ok(Number.isInteger(data.seed) && data.seed > 0);
  assert.equal(data.exercises["w1-crossover"].solved, true);
  assert.equal(data.exercises["w1-ring"].code, "// mine");
  assert.equal(data.exercises["w1-ring"].solved, false);
  assert.equal(await page.locator("#notices .notice").count(), 0);
  await page.close();
});

// axe in light at 1280 px and in dark at 360 px (colour contrast is the scheme's, layout the width's); no sideways
// scrolling at either width in either scheme.
for (const colorScheme of ["light", "dark"]) {
  for (const path of ["lessons/index.html", "tests/e2e/fixtures/ui.html"]) {
    test(`axe: no serious or critical violations on ${path} (${colorScheme}), no overflow at 360 px`, async () => {
      for (const width of [1280, 360]) {
        const { page } = await openPage(path, { colorScheme, width });
        if (path.startsWith("tests")) await page.waitForFunction(() => window.__uiReady === true);
        await page.evaluate(() => document.fonts.ready);
        if (width === (colorScheme === "light" ? 1280 : 360)) {
          assert.deepEqual(await axeViolations(page), [], `${path} ${colorScheme} ${width}px`);
        }
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        assert.ok(overflow <= 0, `${path} ${colorScheme} ${width}px overflows by ${overflow}px`);
        if (SHOTS) {
          mkdirSync(SHOTS, { recursive: true });
          const name = `${path.replace(/\W+/g, "-").replace(/-html$/, "")}-${colorScheme}-${width}.png`;
          await page.screenshot({ path: join(SHOTS, name), fullPage: true });
          // Phone-width pages are long: also save screen-sized parts that are readable at full size.
          const height = await page.evaluate(() => document.documentElement.scrollHeight);
          for (let y = 0, i = 1; width < 600 && y < height; y += 900, i++) {
            await page.screenshot({ path: join(SHOTS, name.replace(".png", `-part${i}.png`)), fullPage: true,
              clip: { x: 0, y, width, height: Math.min(900, height - y) } });
          }
        }
        await page.close();
      }
    });
  }
}
