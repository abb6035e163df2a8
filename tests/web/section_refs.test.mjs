// A lesson cites its sections by id (<a href="#ring" data-ref></a>), never by a typed number that goes stale when a
// section is inserted: no "section 6" or "§ 7" in what a learner reads; the build writes each reference's number as
// the table of contents counts it, and refuses a reference to an id that is no section of the page
// (web/lesson/section_refs.js, scripts/assemble_site.mjs).
//   node --test tests/web/section_refs.test.mjs
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { tokenizer } from "acorn";
import { layoutPage } from "../../scripts/page_layout.mjs";
import { checkModuleRefs } from "../../scripts/assemble_site.mjs";
import { renderSectionRefs, sectionRefsIn } from "../../web/lesson/section_refs.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const files = execFileSync("git", ["ls-files", "lessons"], { cwd: ROOT, encoding: "utf8" }).split("\n")
  .filter((f) => /\.(html|js)$/.test(f));

// What a learner reads, with the line it starts on: an HTML page without its comments and scripts; in a module, its
// strings and template texts (prompts, hints, solutions, messages), not its comments.
function readable(file) {
  const raw = readFileSync(join(ROOT, file), "utf8");
  if (file.endsWith(".html")) {
    const blank = (m) => m.replace(/[^\n]/g, " ");   // keeps the line numbers
    return [{ line: 1, text: raw.replace(/<!--[\s\S]*?-->/g, blank).replace(/<script[\s\S]*?<\/script>/g, blank) }];
  }
  const texts = [];
  for (const token of tokenizer(raw, { ecmaVersion: "latest", sourceType: "module", locations: true })) {
    if (token.type.label === "string" || token.type.label === "template") {
      texts.push({ line: token.loc.start.line, text: String(token.value) });
    }
  }
  return texts;
}

// "section 6", "Sections 6–8", "§7", "§ 7". A section of another work is allowed where it is cited as one: a
// numbered subsection (a paper's §3.1, "Section 3.3.4"), or right after its citation ("their §3", "(Kaplan et al.
// 2020, §2.1)").
const TYPED = /\b(sections?)\s+(\d+)(?![.\d])|§\s*(\d+)(?![.\d])/gi;
const CITED = /(?:\btheir|\b(?:19|20)\d\d,?)\s*$/i;
const TYPED_EXERCISE = /\bexercises?\s+\d+\b/gi;

test("no lesson text cites a section or an exercise by a typed number", () => {
  const typed = [];
  for (const file of files) {
    for (const { line, text } of readable(file)) {
      for (const re of [TYPED, TYPED_EXERCISE]) {
        for (const m of text.matchAll(re)) {
          if (re === TYPED && CITED.test(text.slice(Math.max(0, m.index - 40), m.index))) continue;
          const at = line + (text.slice(0, m.index).match(/\n/g)?.length ?? 0);
          typed.push(`${file}:${at}: “${m[0]}” — ${re === TYPED
            ? 'cite the section by its id: <a href="#its-id" data-ref></a> (lessons/AUTHORING.md, "Cite a section")'
            : "name the exercise by its title (its number follows its place in exercises.js)"}`);
        }
      }
    }
  }
  assert.deepEqual(typed, []);
});

test("the check above finds a typed section number in a page and in a module's prompt, and lets a paper's pass", () => {
  const found = (text) => [...text.matchAll(TYPED)].filter((m) => !CITED.test(text.slice(Math.max(0, m.index - 40), m.index)))
    .map((m) => m[0]);
  assert.deepEqual(found("as in section 6; Section 7 proves; (§4, what); § 9; sections 6–8"),
    ["section 6", "Section 7", "§4", "§ 9", "sections 6"]);
  assert.deepEqual(found("their §3 on the pitfalls; (Kaplan et al. 2020, §2.1); 2024. Section 3.3.4: 466"), []);
  assert.deepEqual(readable("lessons/week5/exercises/scale_numeric.js").filter((t) => /data-ref/.test(t.text)).length, 1);
});

// A page as its author writes it: the outcomes of its head (a section without an id), numbered sections, one with a
// section nested in it, one without a heading of its own. The table of contents lists #a, #b, #d: 1, 2, 3.
const PAGE = (refs, extra = "") => `<!doctype html>
<!-- a page for the test -->
<body data-week="2">
<header class="lesson-head">
  <p>What this page is.</p>
  <section class="outcomes" aria-labelledby="outcomes-h"><h2 id="outcomes-h">You will be able to</h2></section>
</header>

<section id="a">
  <h2>First</h2>
  <p>${refs}</p>
</section>
${extra}
<section id="b">
  <h2>Second</h2>
  <section id="b-inner"><h2>Nested</h2></section>
</section>

<section id="no-heading">
  <p>No heading, not in the contents.</p>
</section>

<section id="d">
  <h2>Third</h2>
</section>
`;
const built = (source) => renderSectionRefs(layoutPage(source, { page: "week2/index.html" }), "lessons/week2/index.html");
const texts = (html) => sectionRefsIn(html).map((r) => r.text);

test("a reference is written with its section's number in the contents, in the word the author chose", () => {
  const html = built(PAGE('<a href="#a" data-ref></a>, <a href="#b" data-ref="Section"></a>, <a href="#d" data-ref="§"></a>'));
  assert.deepEqual(texts(html), ["section&nbsp;1", "Section&nbsp;2", "§&nbsp;3"]);
  assert.match(html, /<a href="#d" data-ref="§">§&nbsp;3<\/a>/);
});

test("inserting a section renumbers the references after it, and only those", () => {
  const refs = '<a href="#a" data-ref></a> <a href="#b" data-ref></a> <a href="#d" data-ref></a>';
  const inserted = built(PAGE(refs, '<section id="new">\n  <h2>Inserted</h2>\n</section>\n'));
  assert.deepEqual(texts(inserted), ["section&nbsp;1", "section&nbsp;3", "section&nbsp;4"]);
});

test("a reference to an id that is no section, to a nested one, to another page, or with typed text fails the build", () => {
  for (const [ref, message] of [
    ['<a href="#ring" data-ref></a>', /lessons\/week2\/index\.html: a cross-reference names "#ring", which is no section of the page \(its sections: a, b, d\)/],
    ['<a href="#b-inner" data-ref></a>', /names "#b-inner"/],
    ['<a href="#no-heading" data-ref></a>', /names "#no-heading"/],
    ['<a href="https://example.org/week3/#ddp" data-ref></a>', /must point to a section of its own page/],
    ['<a href="#b" data-ref>section 6</a>', /has text of its own \("section 6"\): leave it empty/],
  ]) assert.throws(() => built(PAGE(ref)), message, ref);
});

test("every page of the course builds, and each of its references reads the number of its section in the contents", () => {
  let checked = 0;
  for (const file of files.filter((f) => /^lessons\/[a-z0-9]+\/index\.html$/.test(f))) {
    const html = built(readFileSync(join(ROOT, file), "utf8"));
    // The contents, counted another way: in the page as written, a <section id> at the start of a line whose next
    // line opens its <h2> (the pages' own layout).
    const contents = [...html.replace(/<!--[\s\S]*?-->/g, "").matchAll(/^<section id="([^"]+)"[^>]*>\n\s*<h2\b/gm)].map((m) => m[1]);
    for (const ref of sectionRefsIn(html)) {
      checked += 1;
      assert.equal(ref.text, `${ref.word || "section"}&nbsp;${contents.indexOf(ref.id) + 1}`, `${file}: #${ref.id}`);
    }
  }
  assert.ok(checked >= 25, `only ${checked} references`);
});

test("a reference in a lesson's module to an id its page lacks fails the build, naming the module and the id", () => {
  const dir = mkdtempSync(join(tmpdir(), "dsml-refs-"));
  try {
    mkdirSync(join(dir, "week2/exercises"), { recursive: true });
    writeFileSync(join(dir, "week2/index.html"), PAGE(""));
    writeFileSync(join(dir, "week2/exercises/x.js"), 'export const x = { prompt: `<p>As in <a href="#d" data-ref></a>.</p>` };\n');
    checkModuleRefs(dir);
    writeFileSync(join(dir, "week2/exercises/x.js"), 'export const x = { prompt: "<p>As in <a href=\\"#ring\\" data-ref></a>.</p>" };\n');
    assert.throws(() => checkModuleRefs(dir),
      /lessons\/week2\/exercises\/x\.js: a cross-reference names "#ring", which is no section of lessons\/week2\/index\.html/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  checkModuleRefs();   // the course's own modules
});
