// Week 1's runtime behaviour in real Chromium, one visit: widgets measure this browser and run programs on real
// Workers; the Worker runtime reports an exception with its rank and line; wrapped editor lines stay aligned with
// their numbers; a changed starter keeps the learner's code. (Loading, exercises and axe for every lesson:
// lessons.test.mjs. An endless loop stopped by the watchdog with the code kept: run_isolation.test.mjs; deadlocks
// named with their lines: stopped_lines.test.mjs, and in Node tests/web/stopped_lines.test.mjs; progress export →
// import: tests/web/progress_export.test.mjs.)
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { openSite } from "./harness.mjs";
import { openLesson } from "./pages.mjs";

let site;
before(async () => { site = await openSite(); });
after(async () => { await site?.close(); });

describe("week 1 runtime", () => {
  let page, problems;
  before(async () => { ({ page, problems } = await openLesson(site.context, site.url, "week1")); });
  after(async () => { await page?.close(); });

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

  test("an exception is reported with its rank and line", async () => {
    const throwing = "async function main({ rank }) {\n  if (rank === 1) {\n    null.boom();\n  }\n}\n";
    await page.evaluate((c) => { const x = window.dsml.exercises.get("w1-token-ring"); x.setCode(c); x.run(); }, throwing);
    await page.waitForFunction(() => /Rank 1 threw at line 3/.test(document.querySelector("#ex-w1-token-ring .verdict")?.innerText));
    assert.deepEqual(problems, []);
  });

  test("wrapped editor lines and their line numbers stay aligned once the editor scrolls into view", async () => {
    await page.evaluate(() => document.querySelector("#ex-w1-token-ring .editor").scrollIntoView());
    await page.waitForFunction(() => {
      const ed = document.querySelector("#ex-w1-token-ring .cm-editor");
      const px = (els) => [...els].map((e) => Math.round(e.getBoundingClientRect().height));
      const gutter = px(ed.querySelectorAll(".cm-lineNumbers .cm-gutterElement")).filter((h) => h > 0);
      return JSON.stringify(px(ed.querySelectorAll(".cm-line"))) === JSON.stringify(gutter);
    }, null, { timeout: 5000 });
  });

  // Last: it reloads the page.
  test("a changed starter keeps the learner's code and offers the new one", async () => {
    await page.evaluate(() => window.dsml.progress.update("w1-token-ring", { code: "// mine\n", starterHash: "old-version" }));
    await page.reload();
    await page.waitForSelector("html[data-ready=true]");
    await page.waitForSelector("#ex-w1-token-ring .notice:has-text('starter code of this exercise changed')");
    assert.equal(await page.evaluate(() => window.dsml.exercises.get("w1-token-ring").code), "// mine\n");
  });
});
