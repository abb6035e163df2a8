// symbol_tables.test.mjs — one symbol, one meaning per page. Every lesson page lists the symbols of its formulas in
// its head (<table data-symbols>, whose frame the layout writes: scripts/page_layout.mjs; symbol, meaning, unit); a
// symbol listed twice — above all with two meanings —
// fails, and so does a listed symbol the page's formulas no longer use, so the table cannot drift from the page.
//   node --test tests/web/symbol_tables.test.mjs
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { WEEKS } from "../../web/lesson/course.js";

// The pages that carry a table: every lesson page but the planner's, whose prose is rewritten on its own.
const PAGES = WEEKS.filter((w) => w.available && w.slug !== "planner").map((w) => w.slug);

const read = (slug) => readFileSync(new URL(`../../lessons/${slug}/index.html`, import.meta.url), "utf8")
  .replace(/<!--[\s\S]*?-->/g, "");
const text = (html) => html.replace(/<[^>]+>/g, " ").replace(/&amp;/g, "&").replace(/&lt;/g, "<").replace(/&gt;/g, ">")
  .replace(/\s+/g, " ").trim();
const tex = (html) => html.replace(/\s+/g, " ").trim();

/** The page's symbol table: [{ symbol (its TeX), meaning, unit }], or null when the page has none. */
export function symbolTable(html) {
  const block = /<table data-symbols>([\s\S]*?)<\/table>/.exec(html);
  if (!block) return null;
  return [...block[1].matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map(([, row]) => {
    const cells = [...row.matchAll(/<td>([\s\S]*?)<\/td>/g)].map((m) => m[1]);
    assert.equal(cells.length, 3, `a row has a symbol, a meaning and a unit: ${row}`);
    const symbol = /^<span class="m">([\s\S]*)<\/span>$/.exec(cells[0].trim());
    assert.ok(symbol, `the symbol is math (<span class="m">): ${cells[0]}`);
    return { symbol: tex(symbol[1]), meaning: text(cells[1]), unit: text(cells[2]) };
  });
}

/** Every symbol listed more than once: "M: … | …" naming its meanings. */
export function repeatedSymbols(rows) {
  const meanings = new Map();
  for (const { symbol, meaning } of rows) meanings.set(symbol, [...(meanings.get(symbol) ?? []), meaning]);
  return [...meanings].filter(([, list]) => list.length > 1).map(([symbol, list]) =>
    `${symbol} is listed ${list.length} times${new Set(list).size > 1 ? ` with different meanings: ${list.join(" | ")}` : ""}`);
}

// The math of the page outside the table: each listed symbol must occur in it as a whole token.
function pageMath(html) {
  const rest = html.replace(/<table data-symbols>[\s\S]*?<\/table>/, "");
  return [...rest.matchAll(/<(span|div) class="m(?:-display)?">([\s\S]*?)<\/\1>/g)].map((m) => tex(m[2])).join(" ");
}
const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const usedIn = (math, symbol) => new RegExp(`(?<![A-Za-z\\\\])${escape(symbol)}(?![A-Za-z])`).test(math);

test("the check itself: a symbol listed twice with two meanings is caught, and named", () => {
  const html = `<table data-symbols>
    <tr><td><span class="m">M</span></td><td>the fleet's MTBF</td><td>s</td></tr>
    <tr><td><span class="m">P</span></td><td>workers</td><td>—</td></tr>
    <tr><td><span class="m">M</span></td><td>PowerSGD's matrix</td><td>—</td></tr>
  </table>`;
  assert.deepEqual(repeatedSymbols(symbolTable(html)), ["M is listed 2 times with different meanings: the fleet's MTBF | PowerSGD's matrix"]);
  assert.deepEqual(repeatedSymbols(symbolTable(html).slice(0, 2)), []);
});

for (const slug of PAGES) {
  test(`${slug}: a symbol table in the lesson head, each symbol listed once with one meaning and a unit`, () => {
    const html = read(slug);
    const rows = symbolTable(html);
    assert.ok(rows, `${slug} has no <table data-symbols>`);
    const head = /<header class="lesson-head">([\s\S]*?)<\/header>/.exec(html)[1];
    assert.match(head, /<table data-symbols>/, "the table sits in the lesson head");
    assert.ok(rows.length >= 5, `${slug}: ${rows.length} symbols`);
    assert.deepEqual(repeatedSymbols(rows), [], `${slug}: one symbol, one meaning`);
    for (const { symbol, meaning, unit } of rows) {
      assert.ok(meaning.length >= 3, `${slug}: ${symbol} has no meaning`);
      assert.ok(unit.length >= 1, `${slug}: ${symbol} has no unit (— for a pure number)`);
    }
    const math = pageMath(html);
    // A bare "<" in TeX starts an HTML tag and cuts the formula short (KaTeX then reports a parse error): write &lt;.
    assert.doesNotMatch(math, /<[A-Za-z]/, `${slug}: a formula holds a raw "<"`);
    const unused = rows.filter(({ symbol }) => !usedIn(math, symbol)).map((r) => r.symbol);
    assert.deepEqual(unused, [], `${slug}: listed but used in none of the page's formulas`);
  });
}
