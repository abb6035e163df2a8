// stopped_lines.test.mjs — on the Worker cluster in Chromium (issue 25 §4.2): a receive-first ring deadlocks, and
// the verdict names the line every rank waits at (from the call site each rank's recv kept: rank_blocking.js) and
// the editor marks that line as Step does (ui/step_lines.js). Node's judge-cluster side: tests/web/stopped_lines.test.mjs.
import test, { after, before } from "node:test";
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

test("a deadlocked Run names each rank's line and marks it in the editor", async () => {
  const { page, problems } = await openLesson(site.context, site.url, "week1");
  await page.evaluate(([id, code]) => window.dsml.exercises.get(id).setCode(code), [ID, RECV_FIRST]);
  const ex = page.locator(`#ex-${ID}`);
  await ex.scrollIntoViewIfNeeded();
  await ex.getByRole("button", { name: "Run", exact: true }).click();
  const verdict = await waitVerdict(page, ID, "fail");
  assert.match(verdict, /Deadlock: rank 0 waits for rank \d+, .*\(ranks 0, 1(, \d+)* and \d+ at line 3\)/);
  await ex.locator(".cm-step-line").first().waitFor();
  assert.equal(await ex.locator(".cm-step-line").count(), 1);
  assert.match(await ex.locator(".cm-step-line").innerText(), /await ctx\.recv\(prev\)/);
  // The next run clears the marks.
  await page.evaluate((id) => window.dsml.exercises.get(id).setCode(window.dsml.exercises.get(id).exercise.solution), ID);
  await ex.getByRole("button", { name: "Run", exact: true }).click();
  await page.waitForFunction((id) => /Ran to completion/.test(document.querySelector(`#ex-${id} .verdict`)?.textContent), ID);
  assert.equal(await ex.locator(".cm-step-line").count(), 0);
  assert.deepEqual(problems, []);
});
