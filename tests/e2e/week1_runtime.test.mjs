// Week 1's runtime behaviour in real Chromium: the Worker runtime stops infinite loops and reports deadlocks
// and exceptions with rank and line; a changed starter keeps the learner's code; progress round-trips;
// widgets run programs on real Workers. (Loading, exercises and axe for every lesson: lessons.test.mjs.)
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { openSite } from "./harness.mjs";
import { openLesson, waitVerdict } from "./pages.mjs";
import { watchdogBudget } from "../../web/exercise/watchdog_budget.js";

let site;
before(async () => { site = await openSite(); });
after(async () => { await site?.close(); });

describe("week 1 runtime", () => {
  test("an infinite loop is stopped by the watchdog; the page stays responsive and keeps the code", async () => {
    const { page } = await openLesson(site.context, site.url, "week1");
    const code = "async function main(ctx) {\n  while (true) {}\n}\n";
    await page.evaluate((c) => { const x = window.dsml.exercises.get("w1-token-ring"); x.setCode(c); x.run(); }, code);
    await page.waitForSelector("#ex-w1-token-ring .run-status:has-text('watchdog')");
    assert.equal(await page.evaluate(() => 1 + 1), 2, "main thread answers while the Workers spin");
    const text = await waitVerdict(page, "w1-token-ring", "fail", 15000);
    assert.match(text, new RegExp(`Stopped by the watchdog after ${watchdogBudget({ id: "w1-token-ring" })} ms: .*still running.*at line 2`));
    assert.equal(await page.evaluate(() => window.dsml.exercises.get("w1-token-ring").code), code);
    await page.close();
  });

  test("a deadlock is reported with its wait-for cycle; an exception with its rank and line", async () => {
    const { page } = await openLesson(site.context, site.url, "week1");
    const deadlock = "async function main({ rank, size, send, recv }) {\n  const x = await recv((rank + size - 1) % size);\n  send((rank + 1) % size, x);\n}\n";
    await page.evaluate((c) => { const x = window.dsml.exercises.get("w1-token-ring"); x.setCode(c); x.run(); }, deadlock);
    const text = await waitVerdict(page, "w1-token-ring", "fail", 4000);  // named as a deadlock, not a watchdog stop
    assert.match(text, /rank 0 waits for rank \d+/);
    const throwing = "async function main({ rank }) {\n  if (rank === 1) {\n    null.boom();\n  }\n}\n";
    await page.evaluate((c) => { const x = window.dsml.exercises.get("w1-token-ring"); x.setCode(c); x.run(); }, throwing);
    await page.waitForFunction(() => /Rank 1 threw at line 3/.test(document.querySelector("#ex-w1-token-ring .verdict").innerText));
    await page.close();
  });

  test("a changed starter keeps the learner's code and offers the new one", async () => {
    const { page } = await openLesson(site.context, site.url, "week1");
    await page.evaluate(() => window.dsml.progress.update("w1-token-ring", { code: "// mine\n", starterHash: "old-version" }));
    await page.reload();
    await page.waitForSelector("html[data-ready=true]");
    await page.waitForSelector("#ex-w1-token-ring .notice:has-text('starter code of this exercise changed')");
    assert.equal(await page.evaluate(() => window.dsml.exercises.get("w1-token-ring").code), "// mine\n");
    await page.close();
  });

  test("wrapped editor lines and their line numbers stay aligned once the editor scrolls into view", async () => {
    const { page } = await openLesson(site.context, site.url, "week1");
    await page.evaluate(() => document.querySelector("#ex-w1-token-ring .editor").scrollIntoView());
    await page.waitForFunction(() => {
      const ed = document.querySelector("#ex-w1-token-ring .cm-editor");
      const px = (els) => [...els].map((e) => Math.round(e.getBoundingClientRect().height));
      const gutter = px(ed.querySelectorAll(".cm-lineNumbers .cm-gutterElement")).filter((h) => h > 0);
      return JSON.stringify(px(ed.querySelectorAll(".cm-line"))) === JSON.stringify(gutter);
    }, null, { timeout: 5000 });
    await page.close();
  });

  // Three checks that leave nothing behind for each other share one visit: the progress API, and two widgets.
  describe("on one page", () => {
    let page, problems;
    before(async () => { ({ page, problems } = await openLesson(site.context, site.url, "week1")); });
    after(async () => { await page?.close(); });

    test("progress export → import round-trips", async () => {
      const same = await page.evaluate(() => {
        const p = window.dsml.progress;
        p.update("w1-crossover", { answer: "123", solved: true });
        const exported = p.exportJSON();
        p.reset("w1-crossover");
        p.importJSON(exported);
        return p.get("w1-crossover").answer === "123" && p.get("w1-crossover").solved === true;
      });
      assert.ok(same);
    });

    test("the ping-pong widget measures this browser and fits α and β", async () => {
      await page.click("[data-widget=ping-pong] button");
      await page.waitForSelector("[data-widget=ping-pong] .widget-readout:has-text('Your browser')", { timeout: 30000 });
      assert.deepEqual(problems, []);
    });

    test("a widget runs a program on real Workers: the hello-cluster ring greeting", async () => {
      await page.click("[data-widget=hello-cluster] .widget-controls button");
      await page.waitForSelector("[data-widget=hello-cluster] .rank-log");
      assert.equal(await page.locator("[data-widget=hello-cluster] .rank-log").count(), 4);
      assert.match(await page.locator("[data-widget=hello-cluster] .rank-log").first().innerText(), /rank 0 got: hello from rank 3/);
      assert.deepEqual(problems, []);
    });
  });
});
