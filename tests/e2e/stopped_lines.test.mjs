// stopped_lines.test.mjs — on the Worker cluster in Chromium: a receive-first ring deadlocks, and
// the verdict names the line every rank waits at (from the call site each rank's recv kept: rank_blocking.js) and
// the editor marks that line as Step does (ui/step_lines.js); the watchdog pings the Workers and tells a spinning
// rank (it cannot answer; its Worker is ended within seconds) from an idle one and from one polling probe. All in one
// visit to Week 1, on one code exercise. The verdicts' words and lines for each case are Node's, on the judge cluster:
// tests/web/stopped_lines.test.mjs (deadlocks, syntax errors), tests/web/watchdog_lines.test.mjs (loops, idle awaits,
// polling), and the budget's bound tests/web/watchdog_budget.test.mjs.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { openSite } from "./harness.mjs";
import { openLesson, waitVerdict } from "./pages.mjs";

const ID = "w1-token-ring";   // any code exercise: the ring below is not its solution
const RECV_FIRST = `async function main(ctx) {
  const next = (ctx.rank + 1) % ctx.size, prev = (ctx.rank + ctx.size - 1) % ctx.size;
  const got = await ctx.recv(prev);
  ctx.send(next, got);
  return got;
}`;
let site;
before(async () => { site = await openSite(); });
after(async () => { await site?.close(); });

// Puts `code` in exercise `id`'s editor and presses Run; → the exercise's locator.
async function runCode(page, id, code) {
  await page.evaluate(([i, c]) => window.dsml.exercises.get(i).setCode(c), [id, code]);
  const ex = page.locator(`#ex-${id}`);
  await ex.scrollIntoViewIfNeeded();
  await ex.getByRole("button", { name: "Run", exact: true }).click();
  return ex;
}

// Rank 0 spins in a synchronous endless loop and cannot answer; its line comes from the line markers it passed
// (rank_worker.js posts the line of the loop it spins in). The other ranks finish.
const SPIN = `async function main(ctx) {
  let x = ctx.rank;
  while (ctx.rank === 0 && x >= 0) {
    x = (x + 1) % 1000;
  }
  return x;
}`;

// An await nothing resolves: no rank runs, every rank answers the watchdog's ping — idle, not an endless loop.
const NEVER = `async function main(ctx) {
  const ready = new Promise(() => {});
  await ready;
  return 0;
}`;

// A loop of probes answers the watchdog's ping between two looks, but it is not idle: it runs, looking for a message
// from a rank that has finished. The timeline under the verdict says the run did not finish — not how long "it takes".
const POLL = `async function main(ctx) {
  if (ctx.rank !== 0) return 0;
  while (!(await ctx.probe(1, { tag: 7 }))) {}
  return 1;
}`;

describe("stopped runs on the Workers, in Week 1's editor", () => {
  let page, problems;
  // (Its widgets are left to build on demand: none is needed here.)
  before(async () => { ({ page, problems } = await openLesson(site.context, site.url, "week1", { onDemand: true })); });
  after(async () => { await page?.close(); });

  test("code that does not parse ran on no rank: the verdict says where, and no timeline of the Workers' start is drawn", async () => {
    const ex = await runCode(page, ID, "async function main(ctx) {\n  return ctx.rank +;\n}");
    const verdict = await waitVerdict(page, ID, "fail", 30000);
    assert.match(verdict, /syntax error at line 2/i);
    assert.equal(await ex.locator(".timeline").count(), 0);
    assert.deepEqual(problems, []);
  });

  test("a deadlocked Run names each rank's line and marks it in the editor; the next run clears the marks", async () => {
    const ex = await runCode(page, ID, RECV_FIRST);
    const verdict = await waitVerdict(page, ID, "fail");
    assert.match(verdict, /Deadlock: rank 0 waits for rank \d+, .*\(ranks 0, 1(, \d+)* and \d+ at line 3\)/);
    await ex.locator(".cm-step-line").first().waitFor();
    assert.equal(await ex.locator(".cm-step-line").count(), 1);
    assert.match(await ex.locator(".cm-step-line").innerText(), /await ctx\.recv\(prev\)/);
    await page.evaluate((id) => window.dsml.exercises.get(id).setCode(window.dsml.exercises.get(id).exercise.solution), ID);
    await ex.getByRole("button", { name: "Run", exact: true }).click();
    await page.waitForFunction((id) => /Ran to completion/.test(document.querySelector(`#ex-${id} .verdict`)?.textContent), ID);
    assert.equal(await ex.locator(".cm-step-line").count(), 0);
    assert.deepEqual(problems, []);
  });

  test("an await that never resolves is named as such, at its line, and marked", async () => {
    const ex = await runCode(page, ID, NEVER);
    const verdict = await waitVerdict(page, ID, "fail", 30000);
    assert.match(verdict, /Stopped by the watchdog after \d+ ms: every rank is idle, waiting on an await that nothing resolves \(ranks 0, 1(, \d+)* and \d+ at line 3\)\./);
    assert.doesNotMatch(verdict, /endless loop|still running/);
    await ex.locator(".cm-step-line").first().waitFor();
    assert.match(await ex.locator(".cm-step-line").innerText(), /await ready;/);
    assert.deepEqual(problems, []);
  });

  test("a loop polling probe for a finished rank is named as running, not idle; its timeline says the run was stopped", async () => {
    const ex = await runCode(page, ID, POLL);
    const verdict = await waitVerdict(page, ID, "fail", 30000);
    assert.match(verdict, /Stopped by the watchdog after \d+ ms: rank 0 was still running \(rank 0 at line 3\) — polling with probe for a message that nobody sends\?/);
    assert.doesNotMatch(verdict, /idle/);
    const summary = await ex.locator(".timeline-summary").textContent();
    assert.match(summary, /the run did not finish \(the watchdog stopped it after [\d.]+ s\): this is what was recorded/);
    assert.doesNotMatch(summary, /the run takes|No rank waits/);
    assert.deepEqual(problems, []);
  });

  test("an endless loop is stopped within seconds; the verdict names the running rank's line and marks it", async () => {
    const ex = await runCode(page, ID, SPIN);
    const verdict = await waitVerdict(page, ID, "fail", 60000);
    const budget = Number(/after (\d+) ms/.exec(verdict)?.[1]);
    assert.ok(budget <= 15000, `stopped after ${budget} ms of running: ${verdict}`);
    assert.match(verdict, /Stopped by the watchdog after \d+ ms: rank 0 was still running \(rank 0 at line 3\) — an endless loop/);
    await ex.locator(".cm-step-line").first().waitFor();
    assert.ok((await ex.locator(".cm-step-line").allInnerTexts()).some((t) => /while \(ctx\.rank === 0 && x >= 0\) \{/.test(t)), "the loop's line is marked");
    assert.deepEqual(problems, []);
  });
});
