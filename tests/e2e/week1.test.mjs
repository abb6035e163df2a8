// Week 1 in real Chromium: the page loads cleanly, every exercise's reference solution passes and a wrong
// answer fails, the Worker runtime stops infinite loops and reports deadlocks and exceptions, progress
// survives a reload, and axe finds nothing serious in light or dark mode.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { axeViolations, openSite, SITE, watch } from "./harness.mjs";

let site;
before(async () => { site = await openSite(); });
after(async () => { await site?.close(); });

async function openWeek1(context, url) {
  const page = await context.newPage();
  const problems = watch(page);
  page.on("dialog", (dialog) => dialog.accept());
  await page.goto(`${url}week1/`);
  await page.waitForSelector("html[data-ready=true]", { timeout: 20000 });
  return { page, problems };
}

const verdictOf = (page, id) => page.locator(`#ex-${id} .verdict`);

async function waitVerdict(page, id, cls, timeout = 30000) {
  await page.waitForSelector(`#ex-${id} .verdict.${cls}`, { timeout });
  return verdictOf(page, id).innerText();
}

describe("week 1 page", () => {
  test("loads with no console error or failed request; math, numbers, charts and timeline render", async () => {
    const { page, problems } = await openWeek1(site.context, site.url);
    assert.ok(await page.locator(".katex").count() > 10, "KaTeX rendered");
    // Every number in the prose is the core's: the text written in the HTML (for print and no-JS readers)
    // must equal what the core computes on the page.
    const html = readFileSync(join(SITE, "week1", "index.html"), "utf8").replace(/<!--[\s\S]*?-->/g, "");
    const written = Object.fromEntries([...html.matchAll(/<span data-calc="([^"]+)">([^<]*)</g)].map((m) => [m[1], m[2]]));
    const computed = await page.evaluate(() => Object.fromEntries(
      [...document.querySelectorAll("[data-calc]")].map((el) => [el.dataset.calc, el.textContent])));
    assert.ok(Object.keys(computed).length >= 20);
    assert.deepEqual(written, computed);
    assert.ok(await page.locator("canvas").count() >= 2, "charts present");
    assert.ok(await page.locator(".timeline svg").count() >= 1, "simulator timeline drawn");
    assert.ok(await page.locator("nav.toc a").count() >= 5, "table of contents");
    // Wrapped editor lines and their line numbers stay aligned once the editor scrolls into view.
    await page.evaluate(() => document.querySelector("#ex-w1-token-ring .editor").scrollIntoView());
    const aligned = () => {
      const ed = document.querySelector("#ex-w1-token-ring .cm-editor");
      const px = (els) => [...els].map((e) => Math.round(e.getBoundingClientRect().height));
      const lines = px(ed.querySelectorAll(".cm-line"));
      const gutter = px(ed.querySelectorAll(".cm-lineNumbers .cm-gutterElement")).filter((h) => h > 0);
      return JSON.stringify(lines) === JSON.stringify(gutter);
    };
    await page.waitForFunction(aligned, null, { timeout: 5000 });
    assert.deepEqual(problems, []);
    await page.close();
  });

  test("every exercise: the reference passes and a wrong answer fails", async () => {
    const { page, problems } = await openWeek1(site.context, site.url);
    const ids = await page.evaluate(() => [...window.dsml.exercises.keys()]);
    assert.ok(ids.length >= 4, `at least four exercises, found ${ids.length}`);
    for (const id of ids) {
      const kind = await page.evaluate((i) => window.dsml.exercises.get(i).exercise.kind, id);
      // wrong first, then right, so the exercise ends solved
      await page.evaluate((i) => {
        const c = window.dsml.exercises.get(i), ex = c.exercise;
        if (ex.kind === "code") { c.setCode(ex.wrong); return c.check(); }
        if (ex.kind === "choice") { c.choose(ex.options.flatMap((o, k) => (o.correct ? [] : [k])).slice(0, 1)); return c.submit(); }
        c.setAnswer(ex.wrongAnswer(c.params, window.dsml.core)); return c.submit();
      }, id);
      await waitVerdict(page, id, "fail");
      await page.evaluate((i) => {
        const c = window.dsml.exercises.get(i), ex = c.exercise;
        if (ex.kind === "code") { c.setCode(ex.solution); return c.check(); }
        if (ex.kind === "choice") { c.showSolution(); return c.submit(); }
        c.setAnswer(c.expected()); return c.submit();
      }, id);
      const text = await waitVerdict(page, id, "pass");
      assert.match(text, /Correct/, `${id} (${kind})`);
    }
    assert.deepEqual(problems, []);
    // progress survives a reload: every exercise is still solved
    await page.reload();
    await page.waitForSelector("html[data-ready=true]");
    assert.equal(await page.locator(".exercise.solved").count(), ids.length);
    await page.close();
  });

  test("an infinite loop is stopped by the watchdog; the page stays responsive and keeps the code", async () => {
    const { page } = await openWeek1(site.context, site.url);
    const code = "async function main(ctx) {\n  while (true) {}\n}\n";
    await page.evaluate((c) => { const x = window.dsml.exercises.get("w1-token-ring"); x.setCode(c); x.run(); }, code);
    await page.waitForSelector("#ex-w1-token-ring .run-status:has-text('watchdog')");
    assert.equal(await page.evaluate(() => 1 + 1), 2, "main thread answers while the Workers spin");
    const text = await waitVerdict(page, "w1-token-ring", "fail", 15000);
    assert.match(text, /5 s|5000 ms|did not finish|timed out/i);
    assert.equal(await page.evaluate(() => window.dsml.exercises.get("w1-token-ring").code), code);
    await page.close();
  });

  test("a deadlock is reported with its wait-for cycle; an exception with its rank and line", async () => {
    const { page } = await openWeek1(site.context, site.url);
    const deadlock = "async function main({ rank, size, send, recv }) {\n  const x = await recv((rank + size - 1) % size);\n  send((rank + 1) % size, x);\n}\n";
    await page.evaluate((c) => { const x = window.dsml.exercises.get("w1-token-ring"); x.setCode(c); x.run(); }, deadlock);
    const text = await waitVerdict(page, "w1-token-ring", "fail", 4000);  // well before the 5 s watchdog
    assert.match(text, /rank 0 waits for rank \d+/);
    const throwing = "async function main({ rank }) {\n  if (rank === 1) {\n    null.boom();\n  }\n}\n";
    await page.evaluate((c) => { const x = window.dsml.exercises.get("w1-token-ring"); x.setCode(c); x.run(); }, throwing);
    await page.waitForFunction(() => /Rank 1 threw at line 3/.test(document.querySelector("#ex-w1-token-ring .verdict").innerText));
    await page.close();
  });

  test("a changed starter keeps the learner's code and offers the new one", async () => {
    const { page } = await openWeek1(site.context, site.url);
    await page.evaluate(() => window.dsml.progress.update("w1-token-ring", { code: "// mine\n", starterHash: "old-version" }));
    await page.reload();
    await page.waitForSelector("html[data-ready=true]");
    await page.waitForSelector("#ex-w1-token-ring .notice:has-text('starter code of this exercise changed')");
    assert.equal(await page.evaluate(() => window.dsml.exercises.get("w1-token-ring").code), "// mine\n");
    await page.close();
  });

  test("progress export → import round-trips", async () => {
    const { page } = await openWeek1(site.context, site.url);
    const same = await page.evaluate(() => {
      const p = window.dsml.progress;
      p.update("w1-crossover", { answer: "123", solved: true });
      const exported = p.exportJSON();
      p.reset("w1-crossover");
      p.importJSON(exported);
      return p.get("w1-crossover").answer === "123" && p.get("w1-crossover").solved === true;
    });
    assert.ok(same);
    await page.close();
  });

  test("the ping-pong widget measures this browser and fits α and β", async () => {
    const { page, problems } = await openWeek1(site.context, site.url);
    await page.click("[data-widget=ping-pong] button");
    await page.waitForSelector("[data-widget=ping-pong] .widget-readout:has-text('Your browser')", { timeout: 30000 });
    assert.deepEqual(problems, []);
    await page.close();
  });

  for (const scheme of ["light", "dark"]) {
    test(`axe: no serious or critical violation (${scheme})`, async () => {
      const { page } = await openWeek1(site.context, site.url);
      await page.emulateMedia({ colorScheme: scheme });
      assert.deepEqual(await axeViolations(page), []);
      await page.close();
    });
  }
});
