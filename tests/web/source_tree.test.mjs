// The source tree resolves as the site does: the site is laid out as the source tree is (lessons/ beside web/), so
// every relative import in web/, lessons/, tests/ and bench/ names a file that exists in the working tree, and every
// lesson module (calcs, widgets, exercises, programs, the shared runtime) loads in Node from the source tree.
//   node --test tests/web/source_tree.test.mjs
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, normalize } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { GUIDES } from "../../scripts/render_guide.mjs";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const tracked = (...dirs) => execFileSync("git", ["ls-files", ...dirs], { cwd: ROOT, encoding: "utf8" })
  .split("\n").filter(Boolean);

// What the build adds to the site (scripts/assemble_site.mjs): the core, KaTeX's stylesheet and the guides' pages.
const BUILD_OUTPUTS = [/^wasm\//, /^web\/vendor\/katex\.css$/,
  ...GUIDES.map((g) => new RegExp(`^lessons/${g.slug}/index\\.html$`))];

// Relative specifiers of static imports, dynamic imports of a literal, `new URL(literal, import.meta.url)`,
// and, in HTML, src/href attributes.
const SPECIFIER = /(?:from\s*|import\(\s*|new URL\(\s*|(?:src|href)=)(["'])(\.{1,2}\/[^"'`$]*?)\1/g;

function unresolved(files) {
  const missing = [];
  for (const file of files) {
    const text = readFileSync(join(ROOT, file), "utf8");
    for (const [, , spec] of text.matchAll(SPECIFIER)) {
      const target = normalize(join(dirname(file), spec.split(/[?#]/)[0]));
      if (BUILD_OUTPUTS.some((re) => re.test(target))) continue;
      if (!existsSync(join(ROOT, target))) missing.push(`${file}: ${spec}`);
    }
  }
  return missing;
}

test("every relative import and link in web/, lessons/, tests/ and bench/ resolves in the source tree", () => {
  const files = tracked("web", "lessons", "tests", "bench").filter((f) => /\.(m?js|cjs|html)$/.test(f))
    // Page tests evaluate code in the browser, relative to the page's URL, not to the test file.
    .filter((f) => !/^tests\/e2e\/.*\.test\.mjs$/.test(f) && !/^bench\/.*\.mjs$/.test(f));
  assert.ok(files.length > 100, `found only ${files.length} files`);
  assert.deepEqual(unresolved(files), []);
});

test("the site's page modules and the shared runtime's sources are where the pages expect them", () => {
  const pages = tracked("lessons").filter((f) => f.endsWith(".html"));
  assert.ok(pages.length >= 4);
  assert.deepEqual(unresolved(pages), []);
});

// Entry modules start at import and need their environment: a page's module (weekN.js, lab.js, index.js)
// needs a document, the Worker's (rank_worker.js) a Worker global scope, the service worker (sw.js) its own.
const entries = new Set([
  ...tracked("lessons").filter((f) => f.endsWith(".html")).flatMap((page) =>
    [...readFileSync(join(ROOT, page), "utf8").matchAll(/<script type="module" src="([^"]+)"/g)]
      .map(([, src]) => normalize(join(dirname(page), src)))),
  "web/worker/rank_worker.js",
  "web/sw.js",   // the service worker: needs a ServiceWorkerGlobalScope
  "web/lesson/calc_worker.js",
  "web/lesson/core_task_worker.js",   // a Worker entry: needs a DedicatedWorkerGlobalScope
  "web/lesson/guide_page.js",   // the guides' page module (scripts/render_guide.mjs writes their pages)
]);

test("every lesson module loads in Node from the source tree (calcs, widgets, exercises, programs, runtime)", async () => {
  const modules = tracked("lessons", "web").filter((f) => f.endsWith(".js") && !entries.has(f)
    && f !== "web/lesson/redirect.js");   // a classic script of the redirect pages: needs a document
  assert.ok(entries.size >= 4 && modules.length > 80, `${entries.size} entries, ${modules.length} modules`);
  const failures = [];
  for (const file of modules) {
    try {
      await import(pathToFileURL(join(ROOT, file)).href);
    } catch (err) {
      failures.push(`${file}: ${err.message.split("\n")[0]}`);
    }
  }
  assert.deepEqual(failures, []);
});

test("each week's exercises load from the source tree as data with an id, a kind and a reference", async () => {
  const { WEEKS } = await import("../../web/lesson/course.js");
  for (const week of WEEKS.filter((w) => w.available)) {
    const { default: exercises } = await import(`../../lessons/${week.slug}/exercises.js`);
    assert.ok(Array.isArray(exercises) && exercises.length > 0, week.slug);
    for (const e of exercises) {
      assert.equal(typeof e.id, "string", `${week.slug}: an exercise without an id`);
      assert.equal(typeof e.kind, "string", `${e.id}: no kind`);
    }
  }
});
