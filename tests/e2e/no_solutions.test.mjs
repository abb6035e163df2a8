// The site of a graded term in real Chromium (assembleSite { solutions: false }): every page with exercises loads
// without an error, each exercise says plainly that the reference solutions are withheld this term where "Show
// solution" would be, and the exercises are still checked in the page — a right answer passes, wrong code fails.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { assembleSite } from "../../scripts/assemble_site.mjs";
import { WEEKS } from "../../web/lesson/course.js";
import { EXERCISES, weekOf } from "../exercises/course.mjs";
import { openSite } from "./harness.mjs";
import { openLesson, waitVerdict } from "./pages.mjs";

let dir, site;
before(async () => {
  dir = mkdtempSync(join(tmpdir(), "dsml-withheld-"));
  await assembleSite(dir, { requireWasm: true, solutions: false });
  site = await openSite({ dir });
});
after(async () => {
  await site?.close();
  rmSync(dir, { recursive: true, force: true });
});

const WITHHELD = "Reference solutions are withheld this term: your lecturer grades these exercises. The hints above are all there is.";

for (const week of WEEKS.filter((w) => EXERCISES.some((e) => weekOf(e) === w))) {
  test(`${week.slug}: every exercise says its solution is withheld, and offers no “Show solution”`, async () => {
    const { page, problems } = await openLesson(site.context, site.url, week.slug, { onDemand: true });
    const ids = EXERCISES.filter((e) => weekOf(e) === week).map((e) => e.id);
    for (const id of ids) {
      assert.equal((await page.locator(`#ex-${id} .solution-withheld`).innerText()).trim(), WITHHELD, id);
    }
    assert.equal(await page.getByRole("button", { name: "Show solution" }).count(), 0);
    assert.deepEqual(problems, []);
    await page.close();
  });
}

test("week1: a right answer still passes and wrong code still fails, judged in the page", async () => {
  const { page, problems } = await openLesson(site.context, site.url, "week1", { onDemand: true });
  const answer = await page.evaluate(() => String(window.dsml.exercises.get("w1-crossover").expected()));
  await page.fill("#ex-w1-crossover input[type=text]", answer);
  await page.click("#ex-w1-crossover button[type=submit]");
  await waitVerdict(page, "w1-crossover", "pass");
  await page.locator("#ex-w1-token-ring").scrollIntoViewIfNeeded();
  await page.waitForFunction(() => window.dsml.exercises.get("w1-token-ring").code !== undefined);
  await page.evaluate(() => window.dsml.exercises.get("w1-token-ring").setCode(
    "async function main(ctx) { const prev = (ctx.rank - 1 + ctx.size) % ctx.size; return await ctx.recv(prev); }"));
  await page.evaluate(() => window.dsml.exercises.get("w1-token-ring").check());
  assert.match(await waitVerdict(page, "w1-token-ring", "fail", 60000), /^Not yet\./);
  assert.deepEqual(problems, []);
});
