// readme_counts.test.mjs — the README's table of weeks says how many auto-checked exercises each page has (and how many
// run on Workers); those numbers are typed in, so this test holds them to the pages' exercises.js (found through
// web/lesson/course.js, as the tests find exercises: tests/exercises/course.mjs). Add an exercise, update the count in
// README.md and in docs/weeks.md (the full inventory); the README's cells stay a line each.
import test from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";

import { COURSE } from "../exercises/course.mjs";

// The README's table says each week in a line; docs/weeks.md holds the full inventory, with the same counts.
const TABLES = ["README.md", "docs/weeks.md"].map((path) => [path, readFileSync(new URL(`../../${path}`, import.meta.url), "utf8")]);
const WORDS = { one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10 };
const number = (text) => (/^\d+$/.test(text) ? Number(text) : WORDS[text.toLowerCase()]);

// The table row of a page: "| 3 Data parallelism | …" for Week 3, "| Lab: …" for the lab.
function rowOf(week, text) {
  const head = week.number != null ? `| ${week.number} ` : `| ${week.slug[0].toUpperCase()}${week.slug.slice(1)}:`;
  return text.split("\n").find((line) => line.startsWith(head));
}

for (const { week, exercises } of COURSE) {
  for (const [path, text] of TABLES) {
    test(`${path}: the ${week.slug} row counts ${week.slug}'s exercises.js`, () => {
      const row = rowOf(week, text);
      assert.ok(row, `${path}'s table of weeks has no row for ${week.slug}`);
      const total = /(\d+|\w+) auto-checked exercises/.exec(row);
      assert.ok(total, `the ${week.slug} row of ${path} does not say how many auto-checked exercises it has`);
      assert.equal(number(total[1]), exercises.length, `${path} says ${total[1]} auto-checked exercises for ${week.slug}; ` +
        `lessons/${week.slug}/exercises.js lists ${exercises.length}`);
      const code = /^[^;|]*?\b(\d+|\w+) (?:run on Workers|of them code on Workers)/.exec(row.slice(total.index + total[0].length));
      const onWorkers = exercises.filter((e) => e.kind === "code").length;
      if (code) assert.equal(number(code[1]), onWorkers, `${path} says ${code[1]} run on Workers for ${week.slug}; ${onWorkers} are code`);
    });
  }
}

// The README's table stays a table of lines: no cell over 300 characters (the full inventories are in docs/).
test("README.md: no table cell is longer than 300 characters", () => {
  const [, readme] = TABLES[0];
  for (const line of readme.split("\n").filter((l) => l.startsWith("|"))) {
    for (const cell of line.slice(1, -1).split("|")) assert.ok(cell.trim().length <= 300, `${cell.trim().slice(0, 80)}… (${cell.trim().length})`);
  }
});
