// What an exercise shows and when, in real Chromium: a reference solution is not in the page until the learner confirms
// "Show solution" (declining leaves it out), and a choice ticked as soon as its boxes appear — while the page is still
// starting — is the choice Check judges.
//   node --test --test-concurrency=1 tests/e2e/exercise_reveal.test.mjs
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { openSite, watch } from "./harness.mjs";

let site;
before(async () => { site = await openSite(); });
after(async () => { await site?.close(); });

// A page whose confirm dialogs are answered by `answer()` (true: accept).
async function open(slug, answer) {
  const page = await site.context.newPage();
  const problems = watch(page);
  page.on("dialog", (dialog) => (answer() ? dialog.accept() : dialog.dismiss()));
  await page.goto(`${site.url}${slug}/`);
  return { page, problems };
}
const html = (page) => page.evaluate(() => document.documentElement.outerHTML);

describe("reference solutions", () => {
  test("a code exercise's solution and solution text enter the page only when the learner confirms", async () => {
    let accept = false;
    const { page, problems } = await open("week2", () => accept);
    await page.waitForSelector("html[data-ready=true]", { timeout: 30000 });
    await page.evaluate(() => window.dsml.mountAll());
    const id = "w2-ring-allreduce";
    const { solution, solutionText } = await page.evaluate((i) => {
      const { exercise } = window.dsml.exercises.get(i);
      return { solution: exercise.solution, solutionText: exercise.solutionText };
    }, id);
    const marker = solutionText.replace(/<[^>]+>/g, "").trim().slice(0, 60);
    const button = page.locator(`#ex-${id} button:has-text("Show solution")`);
    assert.ok(!(await html(page)).includes(solution), "the solution's code is not in the page before the confirmation");
    assert.ok(!(await html(page)).includes(marker), "nor its explanation");
    await button.click();   // declined
    assert.ok(!(await html(page)).includes(solution), "declining the confirmation leaves it out");
    assert.equal(await page.locator(`#ex-${id} .solution-view`).isHidden(), true);
    accept = true;
    await button.click();
    assert.equal(await page.locator(`#ex-${id} .solution-view pre`).textContent(), solution);
    assert.ok((await page.locator(`#ex-${id} .solution-text`).textContent()).includes(marker));
    assert.deepEqual(problems, []);
    await page.close();
  });
});

describe("a choice ticked while the page starts", () => {
  test("w4-regime: boxes ticked as soon as they appear are still ticked when Check runs, and pass", async () => {
    const page = await site.context.newPage();
    const problems = watch(page);
    page.on("dialog", (dialog) => dialog.accept());
    // Every exercise as it enters the page: is it already whole (its link back to the section that practises it
    // included), or is a line inserted above its answers later, moving them under the learner's hand?
    await page.addInitScript(() => {
      window.arrivals = [];
      new MutationObserver((records) => {
        for (const r of records) for (const n of r.addedNodes) {
          if (n.nodeType === 1 && n.matches("article.exercise")) {
            window.arrivals.push({ id: n.id, backLink: Boolean(n.querySelector(".exercise-section")) });
          }
        }
      }).observe(document, { childList: true, subtree: true });
    });
    await page.goto(`${site.url}week4/`);
    const box = (i) => page.locator(`#ex-w4-regime input[type=checkbox]`).nth(i);
    await box(0).waitFor({ state: "attached", timeout: 30000 });
    const correct = await page.evaluate(() => window.dsml?.exercises?.get("w4-regime")?.exercise.options
      .flatMap((o, i) => (o.correct ? [i] : [])) ?? null);
    // Tick at once, before the page says it is ready (its widgets' modules and the numbers still loading).
    const indices = correct ?? [0, 1, 4];
    for (const i of indices) await box(i).check();
    await page.waitForSelector("html[data-ready=true]", { timeout: 30000 });
    // What the page does once ready happens under the learner's hand: until it has nothing left to fetch (its widgets'
    // modules, their Workers' modules and the core), then a frame drawn. (Not window.dsml.widgetModules: with the
    // reader down at this exercise the page's idle callback may not come while its widgets draw.)
    await page.waitForLoadState("networkidle");
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    for (const i of indices) assert.equal(await box(i).isChecked(), true, `option ${i} is still ticked`);
    assert.deepEqual(await page.evaluate(() => window.dsml.exercises.get("w4-regime").exercise.options
      .flatMap((o, i) => (o.correct ? [i] : []))), indices, "the options ticked are the correct ones");
    await page.locator("#ex-w4-regime button:has-text('Check')").click();
    await page.waitForSelector("#ex-w4-regime .verdict.pass", { timeout: 10000 });
    const arrivals = await page.evaluate(() => window.arrivals);
    const linked = await page.evaluate(() => [...document.querySelectorAll("article.exercise")]
      .filter((a) => a.querySelector(".exercise-section")).map((a) => a.id));
    assert.ok(linked.includes("ex-w4-regime"));
    for (const id of linked) {
      assert.deepEqual(arrivals.filter((a) => a.id === id), [{ id, backLink: true }], `${id} entered the page whole`);
    }
    assert.deepEqual(problems, []);
    await page.close();
  });
});
