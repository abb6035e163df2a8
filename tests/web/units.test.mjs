// units.js, the course's one formatter and reader of quantities: what it writes, what it reads, and the mistakes of the
// formatters it replaced (a fraction as "32.3 m", "off by 9.9 k%", KiB read as kB, 93.7 % next to 93.8 %).
//   node --test tests/web/units.test.mjs
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  formatBytes, formatCount, formatNumber, formatPercent, formatRate, formatRatio, formatSeconds, formatSI, parseQuantity,
  plural, readQuantity, siUnit, upperFirst, withArticle,
} from "../../web/units.js";

const THIN = "\u202f";

test("formatSI: 3 significant digits, SI prefixes in powers of ten, from n to T", () => {
  assert.equal(formatSI(62500, "B"), "62.5 kB");
  assert.equal(formatBytes(562500, 4), "562.5 kB");
  assert.equal(formatSeconds(0.039685), "39.7 ms");
  assert.equal(formatSeconds(5e-6), "5 µs");
  assert.equal(formatSeconds(0), "0 s");
  assert.equal(formatRate(12.5e9), "12.5 GB/s");
  assert.equal(formatRate(1e12), "1 TB/s");
  assert.equal(formatSI(13.2e12, "FLOP"), "13.2 TFLOP");
  assert.equal(formatSeconds(-2e-3), "-2 ms");
  assert.equal(formatSeconds(0.07007, { digits: 5 }), "70.07 ms");
  // A value that rounds up to 1000 moves to the next prefix instead of reading "1000 kB".
  assert.equal(formatBytes(999_600), "1 MB");
  assert.equal(formatBytes(999.96, 4), "1 kB");
  assert.equal(formatBytes(999.4), "999 B");
});

test("equal values computed two ways read alike (floating-point noise is ignored)", () => {
  // The bubble widget printed "idle 93.7 %" from the simulator's 0.937499999… next to "(P − 1)/(m + P − 1) = 93.8 %".
  const simulated = 0.9374999999999999, formula = 15 / 16;
  assert.equal(formatPercent(simulated, { decimals: 1 }), formatPercent(formula, { decimals: 1 }));
  assert.equal(formatPercent(simulated, { decimals: 1 }), "93.8%");
  assert.equal(formatSeconds(0.1 + 0.2), formatSeconds(0.3));
  // 39.685 ms − 30 ms is 9.685 ms exactly: 9.69 ms, whatever the binary representation does.
  assert.equal(formatSeconds(5e-6 + 496e6 / 12.5e9 - 0.030), "9.69 ms");
});

test("plain numbers and percentages carry no SI prefix", () => {
  assert.equal(formatNumber(0.0323), "0.0323");          // was "32.3 m"
  assert.equal(formatNumber(15), "15");
  assert.equal(formatNumber(972.9, 4), "972.9");
  assert.equal(formatNumber(1e-7), "1e-7");
  assert.equal(formatNumber(2.5e6), "2.5e6");
  assert.equal(formatPercent(0.0667), "6.67%");
  assert.equal(formatPercent(99), "9900%");                // was "9.9 k%"
  assert.equal(formatPercent(990), `99${THIN}000%`);
  assert.equal(formatPercent(0.179, { decimals: 1 }), "17.9%");
  assert.equal(formatPercent(0.65, { decimals: 0 }), "65%");
  assert.equal(formatRatio(2.2375), "2.24×");
  assert.equal(formatRatio(6.3736, { digits: 2 }), "6.4×");
  assert.equal(formatRatio(3, { decimals: 1 }), "3.0×");
  assert.equal(formatCount(10000), `10${THIN}000`);
  assert.equal(formatCount(4096), "4096");
  assert.equal(formatCount(1048576), `1${THIN}048${THIN}576`);
});

test("plural and withArticle write counts as they are read", () => {
  assert.equal(plural(1, "worker"), "1 worker");
  assert.equal(plural(0, "worker"), "0 workers");
  assert.equal(plural(2, "step"), "2 steps");
  assert.equal(plural(1, "batch", "batches"), "1 batch");
  assert.equal(plural(3, "batch", "batches"), "3 batches");
  assert.equal(plural(12000, "message"), `12${THIN}000 messages`);
  // With an article: "the survivor", "the 3 survivors"; "both ranks", "all 9 ranks" (never "the 1 survivors", "All 2 ranks").
  assert.equal(plural(1, "survivor", { article: "the" }), "the survivor");
  assert.equal(plural(3, "survivor", { article: "the" }), "the 3 survivors");
  assert.equal(plural(2, "rank", { article: "all" }), "both ranks");
  assert.equal(plural(9, "rank", { article: "all" }), "all 9 ranks");
  assert.equal(plural(1, "rank", { article: "all" }), "the one rank");
  assert.equal(plural(1, "matrix", { plural: "matrices", article: "the" }), "the matrix");
  assert.equal(upperFirst(plural(2, "rank", { article: "all" })), "Both ranks");
  assert.equal(withArticle("8-block model"), "an 8-block model");
  assert.equal(withArticle("4-block model"), "a 4-block model");
  assert.equal(withArticle("11-way split"), "an 11-way split");
  assert.equal(withArticle("18-GPU node"), "an 18-GPU node");
  assert.equal(withArticle("110-GPU job"), "a 110-GPU job");
  assert.equal(withArticle("80 GB card"), "an 80 GB card");
  assert.equal(withArticle("11000-rank job"), "an 11000-rank job");
  assert.equal(withArticle("all-reduce"), "an all-reduce");
  assert.equal(withArticle("ring"), "a ring");
});

test("siUnit picks the axis unit formatSI would use", () => {
  assert.deepEqual(siUnit(0.0042, "s"), { scale: 1e-3, name: "ms" });
  assert.deepEqual(siUnit(3e-7, "s"), { scale: 1e-9, name: "ns" });
  assert.deepEqual(siUnit(0, "s"), { scale: 1, name: "s" });
});

test("readQuantity: numbers, SI and binary prefixes, units, percentages, fractions", () => {
  const cases = [
    ["62500", 62500, null], ["6.25e4", 62500, null], ["62,500", 62500, null], ["62 500", 62500, null],
    [`62${THIN}500`, 62500, null], ["62.5k", 62500, null], ["62.5 kB", 62500, "B"], ["62.5 KB", 62500, "B"],
    ["48.828125 KiB", 50000, "B"], ["1 MiB", 2 ** 20, "B"], ["2 GiB", 2 * 2 ** 30, "B"], ["25 Mi", 25 * 2 ** 20, "B"],
    ["39.7 ms", 0.0397, "s"], ["39700 µs", 0.0397, "s"], ["39700 us", 0.0397, "s"], ["39700 μs", 0.0397, "s"],
    ["0.0397 s", 0.0397, "s"], ["12.5 GB/s", 12.5e9, "B/s"], ["100 Gb/s", 12.5e9, "B/s"], ["8 bits", 1, "B"],
    ["6.67%", 0.0667, "%"], ["2.24×", 2.24, "×"], ["2.24x", 2.24, "×"], ["1/15", 1 / 15, null], ["−5", -5, null],
    ["13.2 TFLOP", 13.2e12, "FLOP"],
    // Any time unit (w6-young once refused "37.95 min" and "0.632 h" while printing "2.28 ks").
    ["37.95 min", 2277, "s"], ["0.632 h", 2275.2, "s"], ["2.28 ks", 2280, "s"], ["1.5 hours", 5400, "s"],
    ["2 days", 172800, "s"], ["3 hr", 10800, "s"], ["1 minute", 60, "s"], ["0.5 d", 43200, "s"],
  ];
  for (const [text, value, dimension] of cases) {
    const r = readQuantity(text);
    assert.ok(Math.abs(r.value - value) <= 1e-12 * Math.abs(value), `${text}: ${r.value} ≠ ${value}`);
    assert.equal(r.dimension, dimension, text);
  }
  // The old reader took "KiB" for "kB": 48.83 KiB came out as 48 830 B, "off by 1000/1024" from 50 000 B.
  assert.ok(Math.abs(parseQuantity("48.83 KiB") - 50001.92) < 1e-6);
});

test("readQuantity refuses what is not a quantity, and says why", () => {
  for (const [text, why] of [["", /empty/], ["abc", /not a number/], ["64 GPUs", /unknown unit “GPUs”/],
    ["5 kmin", /unknown unit/], ["2 mh", /unknown unit/], ["3 Kis", /unknown unit/], ["5 k%", /unknown unit/]]) {
    const r = readQuantity(text);
    assert.ok(Number.isNaN(r.value), text);
    assert.match(r.error, why, text);
  }
});

// A sentence built from a count says its noun through plural(): no "step(s)", "message(s)" in any text the course
// builds (lessons/ and web/, the planner's own pages aside while they are rewritten elsewhere).
test("no count in the course's built sentences is followed by a noun with (s)", async () => {
  const { execFileSync } = await import("node:child_process");
  const { readFileSync } = await import("node:fs");
  const root = new URL("../../", import.meta.url);
  const files = execFileSync("git", ["ls-files", "lessons", "web"], { cwd: root, encoding: "utf8" }).split("\n")
    .filter((f) => f.endsWith(".js") && !f.startsWith("web/vendor/") && !f.startsWith("lessons/planner/"));
  const found = files.flatMap((f) => readFileSync(new URL(f, root), "utf8").split("\n")
    .flatMap((line, i) => (/\$\{[^}]*\}[^`]*\b[a-z]+\(s\)/.test(line) ? [`${f}:${i + 1}`] : [])));
  assert.deepEqual(found, []);
});
