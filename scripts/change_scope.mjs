// change_scope.mjs — what a change can break, from the files it touches. A lesson-only change (every file under
// lessons/ or web/, or a Markdown file) cannot change the C++ core, so it is checked by the site build, the Node tests
// (tests/web: links, references, the runtime; tests/exercises: every checker) and the page tests of the pages it
// changed; any other change needs the whole suite. scripts/test.sh --changed BASE runs what this says, and the Pages
// workflow deploys a lesson-only push to main after it (.github/workflows/pages.yml).
//   node scripts/change_scope.mjs BASE   → "lessons" or "full" on the first line, then one page test file per line
//                                          (BASE: the commit before the change; unknown or empty → "full")
//   node scripts/change_scope.mjs BASE --scope   the first line alone (needs no npm packages: the workflow's first job)
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { fileURLToPath } from "node:url";
import { WEEKS } from "../web/lesson/course.js";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const E2E = "tests/e2e";

export const lessonOnly = (file) => file.startsWith("lessons/") || file.startsWith("web/") || file.endsWith(".md");

// The page tests (paths relative to the repository) that cover `slug`: the files named after it (week2_widgets),
// those that name it ("week2", /week2/), and those that open every page (they read WEEKS from course.js).
function testsOfPage(slug, tests) {
  const names = new RegExp(`["'\`/]${slug}["'\`/]`);
  return tests.filter(({ file, text }) => basename(file).startsWith(`${slug}_`) || basename(file) === `${slug}.test.mjs`
    || names.test(text) || /\bWEEKS\b/.test(text)).map(({ file }) => file);
}

// files: paths relative to the repository; tests: [{ file, text }] of tests/e2e/*.test.mjs; guides: GUIDES of
// scripts/render_guide.mjs (a guide's Markdown is a page of the site).
// → { scope: "lessons" | "full", pages: the page test files to run (lesson scope only) }
export function changeScope(files, tests, guides) {
  if (!files.every(lessonOnly)) return { scope: "full", pages: [] };
  const every = tests.map(({ file }) => file);
  const slugs = new Set(WEEKS.map((w) => w.slug));
  const pages = new Set();
  for (const file of files) {
    const guide = guides.find((g) => g.source === file);
    const folder = file.match(/^lessons\/([^/]+)\//)?.[1];
    let covered;
    if (guide) covered = testsOfPage(guide.slug, tests);               // a guide's Markdown is a page of the site
    else if (file.endsWith(".md")) covered = [];                        // a README: checked in Node (tests/web)
    else if (folder && slugs.has(folder)) covered = testsOfPage(folder, tests);
    else if (/^lessons\/[^/]+\.json$/.test(file)) covered = [];         // a register read by tests/exercises
    else covered = every;                                               // the runtime every page loads, the index
    for (const t of covered) pages.add(t);
  }
  return { scope: "lessons", pages: every.filter((t) => pages.has(t)) };
}

const e2eTests = () => readdirSync(join(ROOT, E2E)).filter((f) => f.endsWith(".test.mjs")).sort()
  .map((f) => ({ file: `${E2E}/${f}`, text: readFileSync(join(ROOT, E2E, f), "utf8") }));

// The files changed between `base` and HEAD, or null when base is not a commit of this history (a first push, a
// shallow clone, workflow_dispatch).
function changedSince(base) {
  if (!base || /^0+$/.test(base)) return null;
  try {
    return execFileSync("git", ["diff", "--name-only", `${base}...HEAD`], { cwd: ROOT, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] })
      .split("\n").filter(Boolean);
  } catch {
    return null;
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const files = changedSince(process.argv[2]);
  if (process.argv[3] === "--scope") {
    console.log(files?.every(lessonOnly) ? "lessons" : "full");
  } else {
    const { GUIDES } = files?.every(lessonOnly) ? await import("./render_guide.mjs") : { GUIDES: [] };
    const { scope, pages } = files ? changeScope(files, e2eTests(), GUIDES) : { scope: "full", pages: [] };
    console.log([scope, ...pages].join("\n"));
  }
}
