// no_solutions.test.mjs — the site of a graded term (assembleSite { solutions: false }: scripts/withhold_solutions.mjs)
// holds no reference solution text: no exercise's solutionText, and no line of a code exercise's reference that the
// course does not show elsewhere (a line of at least 12 characters in no starter and in no page, program or runtime
// file of lessons/ and web/ outside the exercise modules) — except for the references the page itself runs: a function
// of a week's own program (found in its programs/ folder) or one a widget runs (the exercise's pageRunsReference).
// Every exercise keeps what the page needs (id, prompt, starter, hints, params, answer, cases, check), and the page
// says the solutions are withheld.
import test from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { assembleSite } from "../../scripts/assemble_site.mjs";
import { WEEKS } from "../../web/lesson/course.js";
import { EXERCISES } from "../exercises/course.mjs";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const site = mkdtempSync(join(tmpdir(), "dsml-no-solutions-"));
await assembleSite(site, { solutions: false });
test.after(() => rmSync(site, { recursive: true, force: true }));

const textFiles = (dir) => readdirSync(dir, { recursive: true, withFileTypes: true })
  .filter((d) => d.isFile() && /\.(js|mjs|html|css|json|md)$/.test(d.name)).map((d) => join(d.parentPath ?? d.path, d.name));
const siteTexts = textFiles(site).map((f) => ({ file: relative(site, f), text: readFileSync(f, "utf8") }));
const isExerciseModule = (file) => /^lessons\/[^/]+\/(exercises\.js$|exercises\/)/.test(file);
const courseTexts = [...textFiles(join(ROOT, "lessons")), ...textFiles(join(ROOT, "web"))]
  .map((f) => ({ file: relative(ROOT, f), text: readFileSync(f, "utf8") })).filter(({ file }) => !isExerciseModule(file));
const code = EXERCISES.filter((e) => e.kind === "code");
const programs = courseTexts.filter(({ file }) => /^(lessons\/[^/]+|web)\/programs\//.test(file));
const runByPage = (e) => Boolean(e.pageRunsReference) || programs.some(({ text }) => text.includes(e.solution.trim()));

test("no exercise's solutionText is in the site", () => {
  for (const e of EXERCISES.filter((e) => e.solutionText)) {
    const found = siteTexts.find(({ text }) => text.includes(e.solutionText));
    assert.equal(found, undefined, `${e.id}: its solutionText is in ${found?.file}`);
  }
});

test("no line of a withheld reference solution is in the site", () => {
  const shown = (line) => code.some((e) => e.starter.includes(line)) || courseTexts.some(({ text }) => text.includes(line));
  let checked = 0;
  for (const e of code.filter((e) => !runByPage(e))) {
    const lines = [...new Set(e.solution.split("\n").map((l) => l.trim()))].filter((l) => l.length >= 12 && !shown(l));
    assert.ok(lines.length >= 3, `${e.id}: a reference with lines of its own`);
    for (const line of lines) {
      const found = siteTexts.find(({ text }) => text.includes(line));
      assert.equal(found, undefined, `${e.id}: “${line}” is in ${found?.file}`);
    }
    checked += 1;
  }
  assert.ok(checked >= code.length / 2, `${checked} of ${code.length} references withheld`);
});

test("every exercise keeps what the page needs, and the page says the solutions are withheld", async () => {
  const shipped = [];
  for (const week of WEEKS.filter((w) => w.available)) {
    shipped.push(...(await import(pathToFileURL(join(site, "lessons", week.slug, "exercises.js")).href)).default);
  }
  assert.deepEqual(shipped.map((e) => e.id), EXERCISES.map((e) => e.id));
  EXERCISES.forEach((e, i) => {
    const s = shipped[i];
    for (const key of Object.keys(e).filter((k) => !["solution", "solutionText", "wrongs", "wrong"].includes(k))) {
      const same = (v) => (typeof v === "function" ? v.toString() : JSON.stringify(v));
      assert.equal(same(s[key]), same(e[key]), `${e.id}.${key}`);
    }
    if (e.kind === "code") assert.equal(s.solution.trim(), runByPage(e) ? e.solution.trim() : "", `${e.id}: its solution`);
  });
  const policy = await import(pathToFileURL(join(site, "web/exercise/solution_policy.js")).href);
  assert.equal(policy.SOLUTIONS, "withheld");
});
