// prose_calcs.mjs — a lesson page's prose numbers against its calcs.js, for the week tests: every
// <span data-calc="key">text</span> of lessons/<slug>/index.html names a calc whose value (computed with `core`) is
// `text`, and (unless everyCalcUsed is false) every calc is used in the prose.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";

export function assertProseMatchesCalcs(slug, CALCS, core, { everyCalcUsed = true } = {}) {
  const page = readFileSync(new URL(`../../lessons/${slug}/index.html`, import.meta.url), "utf8").replace(/<!--[\s\S]*?-->/g, "");
  const used = new Set();
  for (const [, key, text] of page.matchAll(/<span data-calc="([^"]+)">([^<]*)</g)) {
    assert.ok(key in CALCS, `no calc for ${key}`);
    assert.equal(text, CALCS[key](core), key);
    used.add(key);
  }
  assert.ok(used.size > 0, `lessons/${slug}/index.html has no data-calc number`);
  if (!everyCalcUsed) return;
  for (const key of Object.keys(CALCS)) assert.ok(used.has(key), `calc ${key} is not in the prose`);
}
