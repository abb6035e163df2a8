// change_scope.test.mjs — scripts/change_scope.mjs: a change to lessons/, web/ or Markdown alone is lesson-only and
// runs the page tests of the pages it touches; anything else (the core, a script, a test, the workflow) is the
// whole suite. The page test files here are made up, so the expected lists are written by hand.
import test from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { changeScope as scopeOf, lessonOnly } from "../../scripts/change_scope.mjs";

const GUIDES = [{ slug: "cluster", source: "mpi/README.md" }];
const changeScope = (files, tests) => scopeOf(files, tests, GUIDES);
const TESTS = [
  { file: "tests/e2e/every_page.test.mjs", text: 'import { WEEKS } from "../../web/lesson/course.js";' },
  { file: "tests/e2e/guide.test.mjs", text: 'for (const from of ["week1/index.html"]) page.goto(new URL("cluster/index.html", site.url).href);' },
  { file: "tests/e2e/reading.test.mjs", text: 'openLesson(site.context, site.url, "week3");' },
  { file: "tests/e2e/week2_widgets.test.mjs", text: "" },
  { file: "tests/e2e/week3_widgets.test.mjs", text: "" },
];

test("lesson-only: lessons/, web/ and Markdown files; nothing else", () => {
  for (const f of ["lessons/week2/index.html", "web/exercise/answer_check.js", "README.md", "mpi/README.md"]) assert.ok(lessonOnly(f), f);
  for (const f of ["core/sim/simulator.cpp", "scripts/test.sh", "tests/exercises/judging.test.mjs", ".github/workflows/pages.yml",
    "package-lock.json", "CMakeLists.txt"]) assert.ok(!lessonOnly(f), f);
});

test("a page's change runs the tests named after it, naming it, or opening every page", () => {
  assert.deepEqual(changeScope(["lessons/week3/exercises/accumulate.js"], TESTS),
    { scope: "lessons", pages: ["tests/e2e/every_page.test.mjs", "tests/e2e/reading.test.mjs", "tests/e2e/week3_widgets.test.mjs"] });
  assert.deepEqual(changeScope(["lessons/week2/index.html"], TESTS),
    { scope: "lessons", pages: ["tests/e2e/every_page.test.mjs", "tests/e2e/week2_widgets.test.mjs"] });
});

test("the runtime in web/ runs every page test; a README or the id register none; a guide's source its page's", () => {
  assert.deepEqual(changeScope(["web/ui/charts.js"], TESTS).pages, TESTS.map((t) => t.file));
  assert.deepEqual(changeScope(["README.md", "web/README.md", "lessons/published_ids.json"], TESTS), { scope: "lessons", pages: [] });
  assert.deepEqual(changeScope(["mpi/README.md"], TESTS).pages, ["tests/e2e/every_page.test.mjs", "tests/e2e/guide.test.mjs"]);
});

test("one file outside lessons/, web/ and Markdown makes it the whole suite", () => {
  assert.deepEqual(changeScope(["lessons/week2/index.html", "core/collectives/allreduce_ring.cpp"], TESTS), { scope: "full", pages: [] });
});

test("the command line: an unknown or empty base is the whole suite", () => {
  const script = fileURLToPath(new URL("../../scripts/change_scope.mjs", import.meta.url));
  for (const base of ["0000000000000000000000000000000000000000", "not-a-commit", ""]) {
    assert.equal(execFileSync(process.execPath, [script, base], { encoding: "utf8" }), "full\n", base);
    assert.equal(execFileSync(process.execPath, [script, base, "--scope"], { encoding: "utf8" }), "full\n", base);
  }
});
