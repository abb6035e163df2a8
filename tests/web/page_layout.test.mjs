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
