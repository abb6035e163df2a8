// Every page of the site carries the same Content-Security-Policy, as its first <meta> after the charset (a
// policy in a <meta> only covers what comes after it): only the site's own origin, wasm compilation allowed,
// no inline script and no eval. (Enforcement in Chromium: tests/e2e/csp.test.mjs.)
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const pages = execFileSync("git", ["ls-files", "lessons/*.html", "lessons/**/*.html"], { cwd: ROOT, encoding: "utf8" })
  .split("\n").filter(Boolean);
const META = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/;

test("every page has one policy, the same everywhere, before any script or stylesheet", () => {
  assert.ok(pages.length >= 4, `found ${pages.length} pages`);
  const policies = new Set();
  for (const page of pages) {
    const html = readFileSync(join(ROOT, page), "utf8");
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
  const policy = META.exec(readFileSync(join(ROOT, "lessons/index.html"), "utf8"))[1];
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
