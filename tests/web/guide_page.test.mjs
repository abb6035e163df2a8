// The guides (scripts/render_guide.mjs): Markdown of the repository rendered as pages of the site.
//   node --test tests/web/guide_page.test.mjs
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { layoutPage } from "../../scripts/page_layout.mjs";
import { GUIDES, renderGuide } from "../../scripts/render_guide.mjs";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

for (const guide of GUIDES) {
  const html = renderGuide(guide);
  const markdown = readFileSync(`${ROOT}${guide.source}`, "utf8");

  test(`${guide.slug}: one section per ## heading of ${guide.source}, each with an id the contents can link to`, () => {
    const headings = [...markdown.matchAll(/^## (.+)$/gm)].map((m) => m[1]);
    const sections = [...html.matchAll(/<section id="([a-z0-9-]+)">\n<h2>([^<]*)<\/h2>/g)].map((m) => m[2]);
    assert.ok(headings.length >= 4, "the guide has sections");
    assert.deepEqual(sections, headings.map((h) => h.replace(/&/g, "&amp;")));
    assert.equal((html.match(/<h1>/g) ?? []).length, 1, "one h1, the page's");
  });

  test(`${guide.slug}: every code block and table of the source is on the page, nothing left as Markdown`, () => {
    const fences = (markdown.match(/^```/gm) ?? []).length / 2;
    assert.equal((html.match(/<pre><code/g) ?? []).length, fences);
    assert.equal((html.match(/<div class="table-scroll" tabindex="0"><table>/g) ?? []).length,
                 (markdown.match(/^\|[- |]+\|$/gm) ?? []).length);
    assert.doesNotMatch(html.replace(/<pre>[\s\S]*?<\/pre>/g, ""), /```|^#+ |\*\*/m);
  });

  test(`${guide.slug}: the lessons' page shape and a policy that allows only the site's own origin`, () => {
    const page = layoutPage(html, { page: `${guide.slug}/index.html` });   // as assemble_site.mjs writes it
    assert.match(page, /<meta http-equiv="Content-Security-Policy" content="default-src 'self'; script-src 'self'/);
    assert.match(page, /<header class="site-header"><\/header>/);
    // The contents are written in (what ui/toc.js fills at load), so nothing moves when the page's script runs.
    const toc = /<nav class="toc" aria-label="Contents">([\s\S]*?)<\/nav>/.exec(html)?.[1] ?? "";
    const ids = [...html.matchAll(/<section id="([^"]+)">/g)].map((m) => m[1]);
    assert.ok(ids.length > 1);
    assert.deepEqual([...toc.matchAll(/<li><a href="#([^"]+)">/g)].map((m) => m[1]), ids);
    assert.match(html, /<script type="module" src="\.\.\/\.\.\/web\/lesson\/guide_page\.js"><\/script>/);
  });
}

test("the cluster guide's sample output is what the programs print under SMPI (no copied Open MPI lines)", () => {
  const markdown = readFileSync(`${ROOT}mpi/README.md`, "utf8");
  const smpi = markdown.slice(markdown.indexOf("## At simulated scale"), markdown.indexOf("## Measured"));
  const outputs = [...smpi.matchAll(/^\{"(?:collective|strategy)".*$/gm)].map((m) => m[0]);
  assert.equal(outputs.length, 2);
  for (const line of outputs) assert.match(line, /"mpi": "SMPI Version 3\.32"/);
  assert.match(outputs[0], /"ranks": 64/);
  assert.match(outputs[1], /"grid": \{"dp": 4, "tp": 4, "pp": 4/);
});
