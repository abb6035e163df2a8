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

// What only the page shows: the withheld note rendered in place of "Show solution" on every exercise of a page, and
// the page still judging. That every exercise of every week ships without its reference solution, keeping what the
// page needs, is checked on the assembled files in Node (tests/grading/no_solutions.test.mjs); Week 6, the page with the most
// code exercises and numeric ones too, stands for the pages here.
for (const slug of ["week6"]) {
  test(`${slug}: every exercise says its solution is withheld and offers no “Show solution”; a right answer passes, wrong code fails`, async () => {
    const week = WEEKS.find((w) => w.slug === slug);
    const { page, problems } = await openLesson(site.context, site.url, slug, { onDemand: true });
    const ids = EXERCISES.filter((e) => weekOf(e) === week).map((e) => e.id);
    assert.ok(ids.length >= 5, `${slug} has ${ids.length} exercises`);
    for (const id of ids) {
      assert.equal((await page.locator(`#ex-${id} .solution-withheld`).innerText()).trim(), WITHHELD, id);
    }
    assert.equal(await page.getByRole("button", { name: "Show solution" }).count(), 0);
    const numeric = ids.find((id) => EXERCISES.find((e) => e.id === id).kind === "numeric");
    const code = EXERCISES.find((e) => ids.includes(e.id) && e.kind === "code");
    const answer = await page.evaluate((i) => String(window.dsml.exercises.get(i).expected()), numeric);
    await page.fill(`#ex-${numeric} input[type=text]`, answer);
    await page.click(`#ex-${numeric} button[type=submit]`);
    await waitVerdict(page, numeric, "pass", 60000);
    await page.locator(`#ex-${code.id}`).scrollIntoViewIfNeeded();
    await page.waitForFunction((i) => window.dsml.exercises.get(i).code !== undefined, code.id);
    await page.evaluate(([i, text]) => window.dsml.exercises.get(i).setCode(text), [code.id, code.wrongs[0].code]);
    await page.evaluate((i) => window.dsml.exercises.get(i).check(), code.id);
    assert.match(await waitVerdict(page, code.id, "fail", 60000), /^Not yet\./);
    assert.deepEqual(problems, []);
    await page.close();
  });
}
