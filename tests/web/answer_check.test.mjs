// answer_check.js: judging a learner's typed number and the feedback it gets. An equal quantity is accepted in any unit
// the box reads (50 000 B as "48.828125 KiB"). A wrong answer is told its direction and a coarse class (more than 10×
// off, 2–10×, within 2×, within 5%), never the expected value or the factor it is off by (that would let any exercise
// be passed on the second try); the usual slips (a unit prefix, KiB for kB in bytes only, bits vs bytes, a percentage
// typed as a fraction, a factor of 2) are named. Also, for every numeric exercise of Weeks 1 and 2: the core's answer
// written with a prefix ("39.7 ms", "62.5 kB", "61.04 KiB") is accepted.
//   node --test tests/web/answer_check.test.mjs
import { test } from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { formatAnswer, judgeAnswer, slipValues } from "../../web/exercise/answer_check.js";
import { EXERCISES } from "../exercises/course.mjs";
import { exerciseRng } from "../../web/exercise/random.js";
import { formatNumber, formatSI } from "../../web/units.js";
import week1 from "../../lessons/week1/exercises.js";
import week2 from "../../lessons/week2/exercises.js";

const core = await createRequire(import.meta.url)("../wasm/load_core.cjs")();

const BYTES = { unit: "bytes", unitSymbol: "B", tolerance: { rel: 0.01 } };
const SECONDS = { unit: "seconds", unitSymbol: "s", tolerance: { rel: 0.01 } };
const FRACTION = { unit: "fraction", unitSymbol: "", tolerance: { rel: 0.01 } };
const RATIO = { unit: "ratio", unitSymbol: "", tolerance: { rel: 0.01 } };
const SPEEDUP = { unit: "× (speed-up)", unitSymbol: "×", tolerance: { rel: 0.01 } };
const COUNT = { unit: "micro-batches", unitSymbol: "", tolerance: { abs: 1 } };
const RATE = { unit: "bytes/second", unitSymbol: "B/s", tolerance: { rel: 0.01 } };

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
  assert.match(judgeAnswer("2.24", 2.24, RATIO).message, /^2\.24 matches the core's 2\.24\.$/);
});

test("a wrong answer gets its direction and a coarse class, with no number that gives the answer away", () => {
  const says = (typed, want, exercise = RATIO) => {
    const { pass, message } = judgeAnswer(typed, want, exercise);
    assert.equal(pass, false, typed);
    return message;
  };
  assert.match(says("100", 1), /^Your answer is too large, by more than a factor of 10: check the formula and the unit/);
  assert.match(says("3.2e-7", 1), /^Your answer is too small, by more than a factor of 10/);
  assert.match(says("3.7", 1), /^Your answer is too large, by a factor between 2 and 10/);
  assert.match(says("0.3", 1), /^Your answer is too small, by a factor between 2 and 10/);
  assert.match(says("1.3", 1), /^Your answer is close but too large \(within a factor of 2\)/);
  assert.match(says("0.75", 1), /^Your answer is close but too small \(within a factor of 2\)/);
  assert.match(says("1.03", 1), /^Your answer is too large, within 5% but outside the tolerance: did you round/);
  assert.match(says("0.96", 1), /^Your answer is too small, within 5% but outside the tolerance/);
  assert.match(says("-1", 1), /wrong sign: the answer is positive/);
  assert.match(says("1", -1), /wrong sign: the answer is negative/);
  assert.match(says("0.2", 0, { ...RATIO, tolerance: { abs: 0.1 } }), /^Your answer is too large: check the formula\.$/);
  // The two the reviewer found: w3-bucket-crossover (1 B typed for 32 MB) and w3-strong-64 (off by 60%).
  assert.doesNotMatch(says("1", 3.2e7, BYTES), /32|3\.2|\d×/);
  assert.doesNotMatch(says("1", 2.5, SPEEDUP), /60|2\.5/);
});

// The named slips' own factors (to 3%): their messages name the slip, and the slip is its factor.
const SLIPS = [100, 1e3, 1e6, 1e9, 8, 2, 1.024, 1.024 ** 2, 1.024 ** 3].flatMap((f) => [f, 1 / f]);
const numbersIn = (text) => (text.match(/\d+(?:[.\u202f]\d+)*(?:e[-+]?\d+)?/g) ?? []).map((n) => Number(n.replaceAll("\u202f", "")));

test("no wrong answer from 10⁻⁷× to 10⁷× or 1% to 60% off is told the answer or how far off it is", () => {
  const factors = [...Array.from({ length: 99 }, (_, k) => 10 ** ((k - 49) / 7)),
    ...Array.from({ length: 60 }, (_, k) => [1 + (k + 1) / 100, 1 - (k + 1) / 100]).flat()]
    .filter((f) => !SLIPS.some((s) => Math.abs(f / s - 1) < 0.03));
  assert.ok(factors.length > 150, `${factors.length} factors`);
  let judged = 0;
  for (const [exercise, want] of [[BYTES, 31_984_375], [SECONDS, 659.95], [SPEEDUP, 12.36], [RATIO, 4.17],
    [FRACTION, 0.0323], [COUNT, 17], [RATE, 9.3e9]]) {
    const shown = [formatAnswer(want, exercise), formatNumber(want), String(want)];
    for (const f of factors) {
      const { pass, message } = judgeAnswer(String(want * f), want, exercise);
      if (pass) continue;
      judged += 1;
      const where = `${exercise.unit} ${want} × ${f}: ${message}`;
      assert.match(message, f > 1 ? /too large/ : /too small/, where);
      for (const text of shown) assert.ok(!message.includes(text), `${where} — shows the answer ${text}`);
      // Only the classes' fixed bounds (a factor of 2 or 10, 5%) may appear: never the factor or the percentage.
      for (const n of numbersIn(message)) assert.ok([2, 5, 10].includes(n), `${where} — states ${n}`);
    }
  }
  assert.ok(judged > 1000, `${judged} wrong answers judged`);
});

// A slip's message names the mistake, never its factor: "1000× too small" or "half the expected value" is passed by
// multiplying.
const NAMES_A_FACTOR = /\d\s*×|10[⁶⁹]|twice|half the|\b(?:8|100|1000)\b|percentage of|3\.23|0\.0323/;

test("the usual slips are named, without the factor they are off by", () => {
  const says = (typed, want, exercise, named) => {
    const { pass, message } = judgeAnswer(typed, want, exercise);
    assert.equal(pass, false, typed);
    assert.match(message, named, `${typed} for ${want}`);
    assert.doesNotMatch(message, NAMES_A_FACTOR, `${typed} for ${want}: ${message}`);
    return message;
  };
  // A percentage typed as a fraction: "3.23" for 3.23 % (the example in the message is not the learner's answer).
  says("3.23", 0.0323, FRACTION, /^Your answer is too large: did you type a percentage\? .*<code>0\.5<\/code> or <code>50%<\/code>/);
  // A unit prefix: "62.5" (meaning kB) for 62 500 B; milliseconds typed as seconds; a speed-up from ms and s mixed.
  says("62.5", 62500, BYTES, /^Your answer is too small: a unit prefix slip .*reads a unit after your number/);
  says("39.7", 0.0397, SECONDS, /^Your answer is too large: a unit prefix slip/);
  says("0.0000397", 39.7, SECONDS, /^Your answer is too small: a unit prefix slip/);
  says("15000", 15, SPEEDUP, /^Your answer is too large: .*Convert every input to seconds and bytes/);
  // Bits vs bytes, in bytes and in a time computed from a bandwidth; not in a count.
  says("500000", 62500, BYTES, /^Your answer is too large: bits for bytes, or bytes for bits\?/);
  says("0.005", 0.04, SECONDS, /^Your answer is too small: bits for bytes/);
  assert.doesNotMatch(judgeAnswer("136", 17, COUNT).message, /bits|8×/);
  // A factor of 2, one too many or missing: named as the likely slip (both directions, one phase of two).
  says("8.34", 4.17, RATIO, /^Your answer is too large: is something in it counted again — both directions/);
  says("0.0198", 0.0397, SECONDS, /^Your answer is too small: is one of a pair missing — one direction of two/);
});

test("a whole-number answer within 5% is not asked whether it rounded an intermediate value", () => {
  const count = { ...COUNT, tolerance: { rel: 0.01 } };
  for (const typed of ["172", "167", "174.5"]) {
    const { pass, message } = judgeAnswer(typed, 170, count);
    assert.equal(pass, false, typed);
    assert.doesNotMatch(message, /did you round an intermediate value/, typed);
    assert.match(message, /within 5% but outside the tolerance: this answer is a whole number — check where you round up or down/);
  }
  // A time or a ratio that happens to be whole is still a measured quantity: the rounding advice stays.
  assert.match(judgeAnswer("40.5", 40, SECONDS).message, /did you round an intermediate value/);
  assert.match(judgeAnswer("4.1", 4, SPEEDUP).message, /did you round an intermediate value/);
});

// A fraction's complement (0.7 typed for 0.3: the idle share for the busy one) is named as the other part of the
// whole; a value near it but outside the tolerance, or an answer near one half (where the two parts are alike), is not.
test("a fraction answered with its complement is told it gave the other part", () => {
  const other = /^Your answer is too large: it is the other part of the whole — the share the question does not ask about/;
  assert.match(judgeAnswer("0.7", 0.3, FRACTION).message, other);
  assert.match(judgeAnswer("70%", 0.3, FRACTION).message, other);
  assert.match(judgeAnswer("0.1", 0.9, FRACTION).message, /^Your answer is too small: it is the other part of the whole/);
  assert.doesNotMatch(judgeAnswer("0.75", 0.3, FRACTION).message, /other part/);
  assert.doesNotMatch(judgeAnswer("0.52", 0.48, FRACTION).message, /other part/);
  assert.doesNotMatch(judgeAnswer("0.7", 0.3, RATIO).message, /other part/, "a ratio has no complement");
});

// A count typed with a fractional part (12.5 micro-batches for 17) keeps its coarse class and is told a count is whole;
// a whole wrong count is not, nor is a fractional answer to a measured quantity.
test("a count typed with a fractional part is told the answer counts whole items", () => {
  const whole = /It is also not a whole number, but this answer counts micro-batches: round the way the question needs/;
  const m = judgeAnswer("12.5", 17, { ...COUNT, tolerance: { abs: 0 } }).message;
  assert.match(m, /^Your answer is close but too small \(within a factor of 2\)/);
  assert.match(m, whole);
  assert.match(judgeAnswer("40.2", 17, COUNT).message, /^Your answer is too large, by a factor between 2 and 10.*It is also not a whole number/);
  assert.doesNotMatch(judgeAnswer("12", 17, COUNT).message, /whole number/);
  assert.doesNotMatch(judgeAnswer("12.5", 17, RATIO).message, /whole number/);
});

test("KiB for kB is named for an answer in bytes and only there", () => {
  const kib = /binary and decimal prefixes.*write KiB, MiB or GiB for powers of 1024/;
  // "48.83 k" (meaning KiB) for 50 000 B; 50 "KiB" typed for 50 kB; MiB and GiB for MB and GB; a bandwidth in GiB/s.
  assert.match(judgeAnswer("48.83k", 50000, BYTES).message, /^Your answer is a little too small, as if binary/);
  assert.match(judgeAnswer("50 KiB", 50000, BYTES).message, /^Your answer is a little too large, as if binary/);
  assert.match(judgeAnswer("1 MiB", 1e6, BYTES).message, kib);
  assert.match(judgeAnswer("1 GB", 2 ** 30, BYTES).message, kib);
  assert.match(judgeAnswer("12.5 GiB/s", 12.5e9, RATE).message, kib);
  // Seconds (w6-young), a speed-up (w3-strong-64), a ratio, a fraction, a count (w5-optimal-m) 2.4% off: no KiB.
  for (const [exercise, want] of [[SECONDS, 663.9], [SPEEDUP, 12.07], [RATIO, 4.17], [FRACTION, 0.0323],
    [{ ...COUNT, tolerance: { rel: 0.01 } }, 170.5]]) {
    for (const f of [1.024, 1 / 1.024]) {
      const { pass, message } = judgeAnswer(String(want * f), want, exercise);
      assert.equal(pass, false);
      assert.doesNotMatch(message, /KiB|1024|binary/, `${exercise.unit} ${want} × ${f}: ${message}`);
      assert.match(message, /within 5% but outside the tolerance: did you round/);
    }
  }
});

// Every numeric exercise that declares its likely slips (slips: [{ name, value(params, core), explain }]), over many
// learners' seeds: each slip's value fails (it is a wrong answer, proven like wrongAnswer), and typed as the learner
// would type it, it is told its own explanation — which states neither the answer nor the slip's value. A value of
// null says that mistake gives the answer for those parameters; a slip must still be a slip for most learners.
// Every exercise of every page (tests/exercises/course.mjs finds them through web/lesson/course.js).
const withSlips = EXERCISES.filter((e) => e.slips);
test("some numeric exercises declare their likely slips, and only numeric ones", () => {
  assert.ok(withSlips.length > 0, "no exercise declares slips");
  for (const e of withSlips) assert.ok(e.kind === "numeric" || e.kind === "predict", `${e.id}: slips on a ${e.kind} exercise`);
});
for (const exercise of withSlips) {
  test(`${exercise.id}: every declared slip fails and is told its own explanation, not the answer`, () => {
    assert.ok(exercise.kind === "numeric" || exercise.kind === "predict", exercise.kind);
    const names = exercise.slips.map((s) => s.name);
    assert.equal(new Set(names).size, names.length, "slip names are unique");
    for (const slip of exercise.slips) {
      assert.ok(typeof slip.name === "string" && slip.name.length > 3, "a slip has a name");
      assert.equal(typeof slip.value, "function", slip.name);
    }
    let named = 0;
    for (let seed = 0; seed < 40; seed++) {
      const params = exercise.params ? exercise.params(exerciseRng(seed + 1, exercise.id)) : {};
      const want = exercise.answer(params, core);
      const slips = slipValues(exercise, params, core);
      assert.equal(new Set(slips.map((s) => s.explain)).size, slips.length, `${exercise.id}: two slips share one explanation`);
      for (const { name, value, explain } of slips) {
        const where = `${exercise.id} ${name} ${JSON.stringify(params)}`;
        assert.ok(typeof explain === "string" && explain.trim() !== "", `${where}: explain`);
        if (value === null) continue;
        assert.ok(Number.isFinite(value), `${where}: value ${value}`);
        const symbol = exercise.unitSymbol ?? "";
        const typed = symbol === "" || symbol === "×" ? String(value) : formatSI(value, symbol, { digits: 6 });
        const { pass, message } = judgeAnswer(typed, want, exercise, { params, core });
        assert.equal(pass, false, `${where}: the slip passes`);
        // Without the learner's parameters the box cannot know the slip; with them it names it.
        assert.ok(message.endsWith(explain), `${where}: ${message}`);
        assert.match(message, value > want ? /^Your answer is too large\. / : /^Your answer is too small\. /);
        for (const shown of [formatAnswer(want, exercise), formatNumber(want), formatAnswer(value, exercise)]) {
          assert.ok(!message.includes(shown), `${where}: the message shows ${shown}`);
        }
        named += 1;
      }
    }
    assert.ok(named >= 30 * exercise.slips.length, `${exercise.id}: slips named on ${named} of ${40 * exercise.slips.length} draws`);
  });
}

// w6-fleet asks for hours: 34.2 h is 123 120 s and 1.425 days, all read as 34.2 (hours).
test("an answer asked for in hours reads a plain number of hours or any typed time", () => {
  const HOURS = { unit: "hours", unitSymbol: "", tolerance: { rel: 0.02 } };
  for (const typed of ["34.2", "34.2 h", "34.2 hours", "123120 s", "2052 min", "1.425 days"]) {
    const r = judgeAnswer(typed, 34.2, HOURS);
    assert.equal(r.pass, true, `${typed}: ${r.message}`);
    assert.match(r.message, /^34\.2 h matches the core's 34\.2 h\.$/);
  }
  assert.equal(judgeAnswer("34.2 s", 34.2, HOURS).pass, false, "seconds are not hours");
  assert.match(judgeAnswer("34.2 GB", 34.2, HOURS).message, /is a size in bytes, but this answer is a plain number/);
  assert.match(judgeAnswer("", 34.2, HOURS).message, /for example <code>34\.2<\/code>, <code>34\.2 h<\/code>/);
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

test("w6-young reads the interval in any time unit: 37.95 min and 0.632 h pass", () => {
  const young = EXERCISES.find((e) => e.id === "w6-young");
  const params = { checkpoint: 60, mtbfHours: 12 };
  const want = young.answer(params, core);
  for (const typed of ["37.95 min", "0.632 h", "2.28 ks", "2277 s", "0.02635 days"]) {
    assert.equal(judgeAnswer(typed, want, young, { params, core }).pass, true, typed);
  }
});

// An answer asked for in per cent (the planner's MFU: unit "%", unitSymbol "%").
const PERCENT = { unit: "%", unitSymbol: "%", tolerance: { rel: 0.01 } };

test("an answer in per cent reads 36.52, 36.52%, 36.5 percent and 36.5 per cent as the same number", () => {
  for (const typed of ["36.52", "36.52%", "36.52 %", "36.5 percent", "36.5 per cent"]) {
    const r = judgeAnswer(typed, 36.52, PERCENT);
    assert.equal(r.pass, true, `${typed}: ${r.message}`);
    assert.ok(Math.abs(r.value - 36.52) < 0.03, typed);
  }
  assert.equal(judgeAnswer("36.52%", 36.52, PERCENT).message, "36.5% matches the core's 36.5%.");
  // The same number as a fraction is a hundredth of the answer: named as such.
  assert.match(judgeAnswer("0.3652", 36.52, PERCENT).message, /too small: did you type a fraction\? This box reads per cent/);
  // Another dimension is refused by name, with an example that exists.
  assert.match(judgeAnswer("36 ms", 36.52, PERCENT).message, /“36 ms” is a time, but this answer is a percentage\.$/);
  const unknown = judgeAnswer("36.5 pc of peak", 36.52, PERCENT).message;
  assert.match(unknown, /^Enter a number \(unknown unit “pcofpeak”\), for example <code>36\.5<\/code>, <code>36\.5%<\/code>/);
  assert.doesNotMatch(unknown, /undefined/);
});

test("formatAnswer writes each kind of answer the way its exercise asks for it", () => {
  assert.equal(formatAnswer(0.0397, SECONDS), "39.7 ms");
  assert.equal(formatAnswer(1 / 15, FRACTION), "0.0667 (6.67%)");
  assert.equal(formatAnswer(2.2375, RATIO), "2.24");
  assert.equal(formatAnswer(15, SPEEDUP), "15×");
  assert.equal(formatAnswer(36.52, PERCENT), "36.5%");
});

// Every numeric exercise of Weeks 1 and 2, over several learners' seeds: the core's answer typed with an SI prefix
// (and, for bytes, with a binary one) passes; a 4× and a 20× slip fail with their class, not the answer.
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
      for (const [f, says] of [[4, /too large, by a factor between 2 and 10/], [1 / 20, /too small, by more than a factor of 10/]]) {
        const slip = judgeAnswer(String(want * f), want, exercise);
        assert.equal(slip.pass, false);
        assert.match(slip.message, says);
        assert.ok(!slip.message.includes(formatAnswer(want, exercise)), slip.message);
      }
    }
  });
}
