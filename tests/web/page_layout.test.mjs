// The one page layout (scripts/page_layout.mjs): a page of lessons/ holds its own content only, and the assembler
// adds the head, the site header, the prev/next links and the footer every page shares.
//   node --test tests/web/page_layout.test.mjs
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, normalize } from "node:path";
import { fileURLToPath } from "node:url";
import { layoutPage, pageSource } from "../../scripts/page_layout.mjs";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const sources = execFileSync("git", ["ls-files", "lessons/*.html", "lessons/**/*.html"], { cwd: ROOT, encoding: "utf8" })
  .split("\n").filter(Boolean);

// A new week as its author writes it: its title, description, module, a stylesheet of its own, and its content.
const NEW_WEEK = pageSource({ title: "Week 7 · dsml", description: "A new week.", module: "./week7.js", body: 'data-week="7"',
  main: '<main id="main" class="lesson"><article>\n<h1>Week 7</h1>\n</article></main>' })
  .replace("<script", `<link rel="stylesheet" href="${"./"}week7.css">\n<script`);   // (not a file of the repository)

test("every page of lessons/ writes its content only: none of the blocks the layout adds", () => {
  assert.ok(sources.length >= 8, `found ${sources.length} pages`);
  for (const f of sources) layoutPage(readFileSync(join(ROOT, f), "utf8"), { page: f.slice("lessons/".length) });
});

test("a lesson page gets the shared head before its own stylesheet and module, the header, prev/next and footer", () => {
  const html = layoutPage(NEW_WEEK, { page: "week7/index.html" });
  const order = ['<meta charset="utf-8">', "Content-Security-Policy", 'name="viewport"', "../../web/vendor/katex.css",
    "../../web/style.css", "./week7.css", "./week7.js", "</head>", '<body data-week="7">', 'class="skip-link"',
    '<header class="site-header"></header>', "<h1>Week 7</h1>", "</article>", '<nav class="prev-next"', "</main>",
    '<footer class="site-footer">', "</body>"];
  const at = order.map((s) => html.indexOf(s));
  assert.ok(at.every((i) => i >= 0), `missing: ${order.filter((_, k) => at[k] < 0)}`);
  assert.deepEqual([...at].sort((a, b) => a - b), at, "in this order");
  assert.equal(html.match(/<nav class="prev-next"/g).length, 1);
});

test("a page that is not a lesson (the index, a guide) gets no prev/next and no KaTeX stylesheet", () => {
  const html = layoutPage(NEW_WEEK.replace(' data-week="7"', "").replace("week7.", "home."), { page: "index.html" });
  assert.doesNotMatch(html, /prev-next|katex/);
  assert.match(html, /<link rel="stylesheet" href="\.\.\/web\/style\.css">/);
});

test("the shared stylesheets are linked relative to the page, so the site works under any base path", () => {
  for (const f of sources) {
    const html = layoutPage(readFileSync(join(ROOT, f), "utf8"), { page: f.slice("lessons/".length) });
    const href = /<link rel="stylesheet" href="([^"]+style\.css)">/.exec(html)[1];
    assert.ok(existsSync(join(ROOT, normalize(join(dirname(f), href)))), `${f}: ${href}`);
  }
});

test("a page that still writes a shared block is refused, naming the block to delete", () => {
  const old = NEW_WEEK.replace("<head>\n", '<head>\n<meta charset="utf-8">\n');
  assert.throws(() => layoutPage(old, { page: "week7/index.html" }), /lessons\/week7\/index\.html writes <meta charset> itself: delete it/);
  const footer = NEW_WEEK.replace("</main>\n", '</main>\n<footer class="site-footer"><p>x</p></footer>\n');
  assert.throws(() => layoutPage(footer, { page: "week7/index.html" }), /footer\.site-footer/);
  assert.throws(() => layoutPage(NEW_WEEK.replace("</main>", ""), { page: "week7/index.html" }), /exactly one <\/main>/);
});

// A lesson page of the course as its author writes it: its description, module and content only.
const lessonSource = (week, content = "") => `<!doctype html>
<!-- A lesson. -->
<meta name="description" content="A lesson.">
<script type="module" src="${"./"}lesson.js"></script>
<body data-week="${week}">
<header class="lesson-head">
  <p class="abstract">What it teaches.</p>
</header>
${content}<section id="exercises" data-exercises="code">
  <h2>Exercises</h2>
  <p>Its intro.</p>
</section>
`;

test("a lesson page of its content only gets <html>, <head>, its title, kicker and <h1> from course.js, the contents, the ctx paragraph and the end", () => {
  const html = layoutPage(lessonSource("4"), { page: "week4/index.html" });
  const order = ["<!doctype html>", "<!-- A lesson. -->", '<html lang="en">', "<head>", '<meta charset="utf-8">', "../../web/style.css",
    "<title>Week 4 — Parameter servers and asynchrony · dsml</title>", 'content="A lesson."', "./lesson.js", "</head>",
    '<body data-week="4">', 'class="skip-link"', '<header class="site-header"></header>', '<main id="main" class="lesson"><article>',
    '<header class="lesson-head">', '<p class="kicker">Week 4</p>', "<h1>Week 4 — Parameter servers and asynchrony</h1>",
    "What it teaches.</p>\n</header>", '<nav class="toc" aria-label="Contents"></nav>', '<section id="exercises">', "Its intro.",
    `<a href="${"../"}ctx/index.html">`, "<div data-exercises></div>", "</section>", "</article>", '<nav class="prev-next"', "</main>",
    '<footer class="site-footer">', "</body>", "</html>"];
  const at = order.map((s) => html.indexOf(s));
  assert.ok(at.every((i) => i >= 0), `missing: ${order.filter((_, k) => at[k] < 0)}`);
  assert.deepEqual([...at].sort((a, b) => a - b), at, "in this order");
  assert.doesNotMatch(html, /data-exercises="code"/);
  for (const once of ["<html", "<head>", "<title>", "<h1>", "<main", 'class="toc"', "ctx/index.html", "</body>"]) {
    assert.equal(html.split(once).length, 2, `${once} once`);
  }
  const lab = layoutPage(lessonSource("lab"), { page: "lab/index.html" });
  assert.match(lab, /<p class="kicker">Lab<\/p>\n  <h1>The parallelism lab<\/h1>/);
  assert.match(lab, /<title>The parallelism lab · dsml<\/title>/);
});

test("a lesson page that writes what course.js or the layout writes, or names no page of the course, is refused", () => {
  const src = lessonSource("4");
  const h1 = src.replace('<header class="lesson-head">\n', '<header class="lesson-head">\n  <h1>Week 4</h1>\n');
  assert.throws(() => layoutPage(h1, { page: "week4/index.html" }), /writes the <h1> itself: delete it/);
  const toc = lessonSource("4", '<nav class="toc" aria-label="Contents"></nav>\n');
  assert.throws(() => layoutPage(toc, { page: "week4/index.html" }), /writes nav\.toc itself/);
  assert.throws(() => layoutPage(src.replace("<body", "</head>\n<body"), { page: "week4/index.html" }), /writes <\/head> itself/);
  assert.throws(() => layoutPage(lessonSource("9"), { page: "week9/index.html" }), /names no page of web\/lesson\/course\.js/);
});

test("a lesson's symbol rows get the one frame every page shares; a page that writes the frame itself is refused", () => {
  const rows = '  <table data-symbols>\n    <tr><td><span class="m">p</span></td><td>ranks</td><td>—</td></tr>\n  </table>\n';
  const source = lessonSource("4").replace("</header>", `${rows}</header>`);
  const html = layoutPage(source, { page: "week4/index.html" });
  assert.match(html, new RegExp(['  <details class="symbols" id="symbols">', "    <summary>Symbols on this page</summary>",
    '    <div class="scroll-x"><table class="symbol-table">', "      <caption>[^<]+</caption>",
    '      <thead><tr><th scope="col">Symbol</th><th scope="col">Meaning</th><th scope="col">Unit</th></tr></thead>',
    "      <tbody>", '        <tr><td><span class="m">p</span></td><td>ranks</td><td>—</td></tr>', "      </tbody>",
    "    </table></div>", "  </details>", "</header>"].join("\n")));
  assert.doesNotMatch(html, /data-symbols/);
  const framed = lessonSource("4").replace("</header>", '  <details class="symbols" id="symbols"></details>\n</header>');
  assert.throws(() => layoutPage(framed, { page: "week4/index.html" }), /writes the symbol table's frame/);
  assert.throws(() => layoutPage(source.replace("</header>", `${rows}</header>`), { page: "week4/index.html" }), /more than one <table data-symbols>/);
});
