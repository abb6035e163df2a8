// readme_counts.test.mjs — the README's table of weeks says how many auto-checked exercises each page has (and how many
// run on Workers); those numbers are typed in, so this test holds them to the pages' exercises.js (found through
// web/lesson/course.js, as the tests find exercises: tests/exercises/course.mjs). Add an exercise, update the count.
import test from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";

import { COURSE } from "../exercises/course.mjs";

const README = readFileSync(new URL("../../README.md", import.meta.url), "utf8");
const WORDS = { one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10 };
const number = (text) => (/^\d+$/.test(text) ? Number(text) : WORDS[text.toLowerCase()]);

// The table row of a page: "| 3 Data parallelism | …" for Week 3, "| Lab: …" for the lab.
function rowOf(week) {
  const head = week.number != null ? `| ${week.number} ` : `| ${week.slug[0].toUpperCase()}${week.slug.slice(1)}:`;
  return README.split("\n").find((line) => line.startsWith(head));
}

for (const { week, exercises } of COURSE) {
  test(`README: the ${week.slug} row counts ${week.slug}'s exercises.js`, () => {
    const row = rowOf(week);
    assert.ok(row, `README.md's table of weeks has no row for ${week.slug}`);
    const total = /(\d+|\w+) auto-checked exercises/.exec(row);
    assert.ok(total, `the ${week.slug} row does not say how many auto-checked exercises it has`);
    assert.equal(number(total[1]), exercises.length, `README.md says ${total[1]} auto-checked exercises for ${week.slug}; ` +
      `lessons/${week.slug}/exercises.js lists ${exercises.length}`);
    const code = /^[^;|]*?\b(\d+|\w+) (?:run on Workers|of them code on Workers)/.exec(row.slice(total.index + total[0].length));
    const onWorkers = exercises.filter((e) => e.kind === "code").length;
    if (code) assert.equal(number(code[1]), onWorkers, `README.md says ${code[1]} run on Workers for ${week.slug}; ${onWorkers} are code`);
  });
}
