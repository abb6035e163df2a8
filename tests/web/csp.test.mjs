// Every page of the site carries the same Content-Security-Policy, as its first <meta> after the charset (a
// policy in a <meta> only covers what comes after it): only the site's own origin, wasm compilation allowed,
// no inline script and no eval. The pages are checked as the site serves them: each source page of lessons/ in the
// layout the assembler applies (scripts/page_layout.mjs), the guides, and the redirect pages.
// (Enforcement in Chromium: tests/e2e/csp.test.mjs.)
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { layoutPage } from "../../scripts/page_layout.mjs";
import { writeRedirects } from "../../scripts/assemble_site.mjs";
import { GUIDES, renderGuide } from "../../scripts/render_guide.mjs";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const sources = execFileSync("git", ["ls-files", "lessons/*.html", "lessons/**/*.html"], { cwd: ROOT, encoding: "utf8" })
  .split("\n").filter(Boolean);
const served = new Map([
  ...sources.map((f) => [f, layoutPage(readFileSync(join(ROOT, f), "utf8"), { page: f.replace(/^lessons\//, "") })]),
  ...GUIDES.map((g) => [`lessons/${g.slug}/index.html`, layoutPage(renderGuide(g), { page: `${g.slug}/index.html` })]),
  ...redirects(["", "week3"]),
]);

function redirects(slugs) {
  const dir = mkdtempSync(join(tmpdir(), "dsml-redirects-"));
  try {
    writeRedirects(dir, slugs);
    return slugs.map((slug) => [`${slug}/index.html (redirect)`, readFileSync(join(dir, slug, "index.html"), "utf8")]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
const META = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/;

test("every page has one policy, the same everywhere, before any script or stylesheet", () => {
  assert.ok(sources.length >= 8, `found ${sources.length} pages`);
  const policies = new Set();
  for (const [page, html] of served) {
    const m = META.exec(html);
    assert.ok(m, `${page} has no Content-Security-Policy meta`);
    assert.equal(html.match(new RegExp(META.source, "g")).length, 1, page);
    const head = html.slice(html.indexOf("<head>"), m.index);
    assert.doesNotMatch(head, /<script|<link/, `${page}: the policy must come before scripts and stylesheets`);
    policies.add(m[1]);
  }
  assert.equal(policies.size, 1, [...policies].join("\n"));
});

test("the policy allows only the site's own origin, and no inline script or eval", () => {
  const policy = META.exec(served.get("lessons/index.html"))[1];
  const directives = Object.fromEntries(policy.split(";").map((d) => d.trim().split(/\s+/)).map(([k, ...v]) => [k, v]));
  assert.deepEqual(directives["default-src"], ["'self'"]);
  assert.deepEqual(directives["script-src"], ["'self'", "'wasm-unsafe-eval'"]);
  assert.deepEqual(directives["object-src"], ["'none'"]);
  for (const sources of Object.values(directives)) {
    for (const s of sources) {
      assert.ok(["'self'", "'none'", "'wasm-unsafe-eval'", "'unsafe-inline'", "data:"].includes(s), `unexpected source ${s}`);
    }
  }
  assert.ok(!directives["script-src"].includes("'unsafe-inline'") && !directives["script-src"].includes("'unsafe-eval'"));
});
