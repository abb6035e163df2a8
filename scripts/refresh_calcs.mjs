// Rewrites the expected text of every <span data-calc="key"> in lessons/<slug>/index.html with what the lesson's
// calcs.js computes on the wasm core (build/wasm/wasm-node), for an author whose change moved the core's numbers.
// The page fills these spans itself at load; the text in the HTML is what readers without JavaScript and print see,
// and what the tests compare with the core (tests/exercises/prose_calcs.mjs). Prints each span it changed.
//   node scripts/refresh_calcs.mjs week5
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";

const slug = process.argv[2];
if (!slug || process.argv.length > 3) {
  console.error("usage: node scripts/refresh_calcs.mjs <lesson folder, e.g. week5>");
  process.exit(2);
}
const page = new URL(`../lessons/${slug}/index.html`, import.meta.url);
const { CALCS } = await import(new URL(`../lessons/${slug}/calcs.js`, import.meta.url));
const core = await createRequire(import.meta.url)("../tests/wasm/load_core.cjs")();
let changed = 0;
const refresh = (part) => part.replace(/<span data-calc="([^"]+)">([^<]*)</g, (span, key, text) => {
  if (!(key in CALCS)) {
    console.error(`lessons/${slug}/index.html: no calc for ${key} in calcs.js`);
    process.exit(1);
  }
  const now = CALCS[key](core);
  if (now === text) return span;
  changed += 1;
  console.log(`${key}: ${text} → ${now}`);
  return `<span data-calc="${key}">${now}<`;
});
// Comments are left as they are (they may show the markup as an example); only the prose is refreshed.
const html = readFileSync(page, "utf8").split(/(<!--[\s\S]*?-->)/).map((part, i) => (i % 2 ? part : refresh(part)));
writeFileSync(page, html.join(""));
console.log(`${changed} span(s) changed in lessons/${slug}/index.html`);
