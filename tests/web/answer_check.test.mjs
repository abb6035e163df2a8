// answer_check.js: judging a learner's typed number and the feedback it gets. The feedback is in plain units and plain
// percentages; an equal quantity is accepted in any unit the box reads (50 000 B as "48.828125 KiB"); the usual slips
// (kB vs KiB, bits vs bytes, a percentage typed as a fraction) are named. Also, for every numeric exercise of every
// week: the core's answer written with a prefix ("39.7 ms", "62.5 kB", "61.04 KiB") is accepted.
//   node --test tests/web/answer_check.test.mjs
import { test } from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { formatAnswer, judgeAnswer } from "../../lessons/web/exercise/answer_check.js";
import { exerciseRng } from "../../lessons/web/exercise/random.js";
import { formatSI } from "../../lessons/web/units.js";
import week1 from "../../lessons/week1/exercises.js";
import week2 from "../../lessons/week2/exercises.js";

const BYTES = { unit: "bytes", unitSymbol: "B", tolerance: { rel: 0.01 } };
const SECONDS = { unit: "seconds", unitSymbol: "s", tolerance: { rel: 0.01 } };
const FRACTION = { unit: "fraction", unitSymbol: "", tolerance: { rel: 0.01 } };
const RATIO = { unit: "ratio", unitSymbol: "", tolerance: { rel: 0.01 } };
const SPEEDUP = { unit: "× (speed-up)", unitSymbol: "×", tolerance: { rel: 0.01 } };

test("an equal quantity passes in any unit the box reads, binary prefixes included", () => {
  assert.equal(judgeAnswer("48.83 KiB", 50000, BYTES).pass, true);
  // Exactly equal: passes even with no tolerance beyond round-off.
  assert.equal(judgeAnswer("48.828125 KiB", 50000, { ...BYTES, tolerance: {} }).pass, true);
  assert.equal(judgeAnswer("0.05 MB", 50000, { ...BYTES, tolerance: {} }).pass, true);
  assert.equal(judgeAnswer("400 kb", 50000, { ...BYTES, tolerance: {} }).pass, true);   // bits
  assert.equal(judgeAnswer("39.7 ms", 0.0397, SECONDS).pass, true);
  assert.equal(judgeAnswer("39 700 µs", 0.0397, SECONDS).pass, true);
  assert.equal(judgeAnswer("100 Gb/s", 12.5e9, { unit: "bytes/second", unitSymbol: "B/s", tolerance: {} }).pass, true);
  assert.equal(judgeAnswer("6.67%", 1 / 15, FRACTION).pass, true);
  assert.equal(judgeAnswer("1/15", 1 / 15, FRACTION).pass, true);
  assert.equal(judgeAnswer("15×", 15, SPEEDUP).pass, true);
  assert.equal(judgeAnswer("2.24x", 2.24, RATIO).pass, true);
});

test("feedback writes numbers in plain units and plain percentages", () => {
  const fraction = judgeAnswer("0.0323", 0.0323, FRACTION);
  assert.equal(fraction.pass, true);
  assert.match(fraction.message, /^0\.0323 \(3\.23%\) matches the core's 0\.0323 \(3\.23%\)\.$/);   // was "32.3 m"
  assert.match(judgeAnswer("62.5 kB", 62500, BYTES).message, /62\.5 kB matches the core's 62\.5 kB/);
  assert.match(judgeAnswer("15", 15, SPEEDUP).message, /15× matches the core's 15×/);
  const wayOff = judgeAnswer("100", 1, RATIO);
  assert.equal(wayOff.pass, false);
  assert.match(wayOff.message, /about 100× too large/);                  // was "off by 9.9 k%"
  assert.doesNotMatch(wayOff.message, /k%/);
  assert.match(judgeAnswer("0.01", 1, RATIO).message, /about 100× too small/);
  assert.match(judgeAnswer("1.3", 1, RATIO).message, /too large \(off by 30%\)/);
  assert.match(judgeAnswer("0.75", 1, RATIO).message, /too small \(off by 25%\)/);
  assert.match(judgeAnswer("-1", 1, RATIO).message, /wrong sign/);
});

test("the usual slips are named", () => {
  // A percentage typed as a fraction: "3.23" for 3.23 %.
  const percent = judgeAnswer("3.23", 0.0323, FRACTION);
  assert.equal(percent.pass, false);
  assert.match(percent.message, /did you type a percentage\?/);
  assert.match(percent.message, /<code>0\.0323<\/code> or <code>3\.23%<\/code>/);
  // 1024 vs 1000: typing "48.83 k" (meaning KiB) for 50 000 B.
  assert.match(judgeAnswer("48.83k", 50000, BYTES).message, /off by 1000\/1024.*write KiB for 1024 B/);
  assert.match(judgeAnswer("62.5", 62500, BYTES).message, /1000× too small/);
  assert.match(judgeAnswer("500000", 62500, BYTES).message, /8× too large \(bits vs bytes\?\)/);
});

test("text that is not a quantity the box reads is refused with an example, not judged", () => {
  const wrongUnit = judgeAnswer("5 ms", 62500, BYTES);
  assert.equal(wrongUnit.pass, false);
  assert.ok(Number.isNaN(wrongUnit.value));
  assert.match(wrongUnit.message, /“5 ms” is a time, but this answer is a size in bytes\.$/);
  assert.match(judgeAnswer("3 kB", 2, SPEEDUP).message, /is a size in bytes, but this answer is a ratio/);
  assert.match(judgeAnswer("64 GPUs", 64, RATIO).message, /Enter a number \(unknown unit “GPUs”\), for example/);
  assert.match(judgeAnswer("", 1, SECONDS).message, /Enter a number, for example .*39\.7 ms/);
  // The learner's text is escaped before it reaches the verdict's HTML.
  const html = judgeAnswer("<img src=x onerror=alert(1)> 5 ms", 1, BYTES).message;
  assert.doesNotMatch(html, /<img/);
});

test("formatAnswer writes each kind of answer the way its exercise asks for it", () => {
  assert.equal(formatAnswer(0.0397, SECONDS), "39.7 ms");
  assert.equal(formatAnswer(1 / 15, FRACTION), "0.0667 (6.67%)");
  assert.equal(formatAnswer(2.2375, RATIO), "2.24");
  assert.equal(formatAnswer(15, SPEEDUP), "15×");
});

// Every numeric exercise of Weeks 1 and 2, over several learners' seeds: the core's answer typed with an SI prefix
// (and, for bytes, with a binary one) passes; a tenfold slip fails with a message that says so.
const core = await createRequire(import.meta.url)("../wasm/load_core.cjs")();
for (const exercise of [...week1, ...week2].filter((e) => e.kind === "numeric" || e.kind === "predict")) {
  test(`${exercise.id}: the answer passes written as a learner would write it`, () => {
    for (const seed of ["a", "b", "c", "d"]) {
      const params = exercise.params ? exercise.params(exerciseRng(seed, exercise.id)) : {};
      const want = exercise.answer(params, core);
      const symbol = exercise.unitSymbol ?? "";
      const typed = symbol === "" || symbol === "×" ? String(want) : formatSI(want, symbol, { digits: 6 });
      assert.equal(judgeAnswer(typed, want, exercise).pass, true, `${exercise.id} seed ${seed}: ${typed}`);
      if (symbol === "B") {
        assert.equal(judgeAnswer(`${want / 1024} KiB`, want, exercise).pass, true, `${exercise.id}: KiB`);
      }
      const slip = judgeAnswer(String(want * 10), want, exercise);
      assert.equal(slip.pass, false);
      assert.match(slip.message, /about 10× too large/);
    }
  });
}
