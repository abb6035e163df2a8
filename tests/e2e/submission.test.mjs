// A submission from the course index, in real Chromium, graded in Node: a learner answers Week 1's crossover exercise
// on the page, types their name under "Hand in for grading" and saves the file; the file carries their name, their
// seed and the site's version, and the grader's rows (scripts/gradebook.mjs) pass that answer for that seed.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { SITE, downloadText, openSite } from "./harness.mjs";
import { openLesson, waitVerdict } from "./pages.mjs";
import { submissionRows } from "../../scripts/gradebook.mjs";
import { EXERCISES } from "../exercises/course.mjs";

let site;
before(async () => { site = await openSite(); });
after(async () => { await site?.close(); });

test("a learner's saved submission names them and the site, and the grader passes their answer", async () => {
  const { page, problems } = await openLesson(site.context, site.url, "week1", { onDemand: true });
  const answer = await page.evaluate(() => String(window.dsml.exercises.get("w1-crossover").expected()));
  await page.fill("#ex-w1-crossover input[type=text]", answer);
  await page.click("#ex-w1-crossover button[type=submit]");
  await waitVerdict(page, "w1-crossover", "pass");
  const seed = await page.evaluate(() => JSON.parse(localStorage.getItem("dsml.progress")).seed);

  await page.goto(site.url);
  await page.fill("#student-name", "  Ada   Lovelace ");
  const [download] = await Promise.all([page.waitForEvent("download"), page.click("#submission-form button[type=submit]")]);
  assert.match(download.suggestedFilename(), /^dsml-submission-ada-lovelace-\d{4}-\d\d-\d\d\.json$/);
  assert.match(await page.textContent("#progress-message"), /^Saved dsml-submission-ada-lovelace-.*Send this file to your lecturer/);
  const text = await downloadText(download);
  const file = JSON.parse(text);
  assert.equal(file.student, "Ada Lovelace");
  assert.equal(file.seed, seed);
  const built = readFileSync(join(SITE, "web/lesson/site_version.js"), "utf8");
  assert.match(file.site.version, /^[0-9a-f]{16}$/);
  assert.ok(built.includes(`"version":"${file.site.version}"`), "the site's own version");

  const core = await createRequire(import.meta.url)("../wasm/load_core.cjs")();
  const crossover = EXERCISES.find((e) => e.id === "w1-crossover");
  const { rows } = await submissionRows("ada.json", text, { exercises: [crossover], core, judgeCode: null });
  assert.deepEqual(rows.map((r) => [r.student, r.exercise, r.passed, r.attempts]), [["Ada Lovelace", "w1-crossover", "yes", 1]]);
  assert.deepEqual(problems, []);
});
