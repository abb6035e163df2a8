// The page tests' site is rebuilt when its sources are newer (scripts/site_fresh.mjs, used by tests/e2e/harness.mjs).
//   node --test tests/web/site_fresh.test.mjs
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { staleReason } from "../../scripts/site_fresh.mjs";

test("a site older than a lesson, a runtime file, a script or the core is stale; a newer one is not", () => {
  const root = mkdtempSync(join(tmpdir(), "dsml-fresh-"));
  try {
    const file = (path, seconds) => {
      mkdirSync(join(root, path, ".."), { recursive: true });
      writeFileSync(join(root, path), "x");
      utimesSync(join(root, path), seconds, seconds);
    };
    const site = join(root, "site"), wasmDir = join(root, "build/wasm/wasm");
    file("lessons/week1/index.html", 1000);
    file("web/style.css", 1000);
    file("scripts/assemble_site.mjs", 1000);
    file("build/wasm/wasm/dsml.wasm", 1000);
    assert.match(staleReason(site, { root, wasmDir }), /not assembled yet/);
    file("site/sw.js", 2000);
    assert.equal(staleReason(site, { root, wasmDir }), null);
    for (const source of ["lessons/week1/index.html", "web/style.css", "scripts/assemble_site.mjs", "build/wasm/wasm/dsml.wasm"]) {
      file(source, 3000);
      assert.equal(staleReason(site, { root, wasmDir }), `${source} is newer than the site`);
      file(source, 1000);
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
