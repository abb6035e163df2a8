// The Content-Security-Policy of every page, in real Chromium: it is enforced (inline scripts and handlers are
// refused), and nothing the course does trips it — the core compiled from wasm, the Workers, the learner's
// module loaded from a Blob URL inside a Worker, KaTeX's fonts and the inline styles of KaTeX, CodeMirror and
// Chart.js.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { openSite, watch } from "./harness.mjs";
import { WEEKS } from "../../web/lesson/course.js";

let site;
before(async () => { site = await openSite(); });
after(async () => { await site?.close(); });

async function openWatched(path) {
  const page = await site.context.newPage();
  const problems = watch(page);
  page.on("dialog", (d) => d.accept());
  await page.addInitScript(() => {
    window.__csp = [];
    document.addEventListener("securitypolicyviolation", (e) => window.__csp.push(`${e.effectiveDirective} ${e.blockedURI}`));
  });
  await page.goto(site.url + path);
  return { page, problems };
}

test("the policy is enforced: an inline script and an inline event handler are refused", async () => {
  const { page } = await openWatched("index.html");
  await page.waitForSelector("#weeks a");
  await page.evaluate(() => {
    const s = document.createElement("script");
    s.textContent = "window.__inline = true";
    document.body.append(s);
    const b = document.createElement("button");
    b.setAttribute("onclick", "window.__handler = true");
    document.body.append(b);
    b.click();
  });
  assert.equal(await page.evaluate(() => window.__inline ?? false), false);
  assert.equal(await page.evaluate(() => window.__handler ?? false), false);
  const seen = await page.evaluate(() => window.__csp);
  assert.equal(seen.filter((v) => v.startsWith("script-src")).length, 2, `violations reported: ${seen}`);
  await page.close();
});

for (const w of WEEKS.filter((x) => x.available)) {
  test(`${w.slug}: core, Workers, the learner's Blob module (where it has code exercises), fonts and inline styles work with no CSP violation`, async () => {
    const { page, problems } = await openWatched(`${w.slug}/`);
    await page.waitForSelector("html[data-ready=true]", { timeout: 60000 });
    await page.evaluate(() => window.dsml.mountAll());   // every widget and editor, as printing builds them
    await page.evaluate(() => document.fonts.ready);
    assert.ok(await page.evaluate(() => document.fonts.check("16px KaTeX_Main")), "KaTeX's font loaded");
    // A page with code exercises (not the planner's) also runs a learner's module on its Workers.
    const id = await page.evaluate(() => [...window.dsml.exercises.values()].find((c) => c.exercise.kind === "code")?.exercise.id);
    if (id) {
      assert.ok(await page.locator(".cm-editor").count() > 0, "CodeMirror (its styles are injected inline)");
      await page.evaluate((i) => { const c = window.dsml.exercises.get(i); c.setCode(c.exercise.solution); return c.run(); }, id);
      await page.waitForSelector(`#ex-${id} .verdict.info`, { timeout: 120000 });
    } else {
      assert.ok(await page.locator("canvas").count() > 0, "a chart (Chart.js sets inline styles)");
    }
    assert.deepEqual(await page.evaluate(() => window.__csp), []);
    assert.deepEqual(problems, []);
    await page.close();
  });
}
