// numeric_statements.test.mjs — an exercise must read one way. Every numeric exercise of every week and
// the lab names its unit and its tolerance (the answer box says both, from the exercise's own data: answer_terms.js)
// and every input its answer depends on — every drawn parameter appears in the prompt, for every parameter set
// seeds 1…200 draw. Then the exercises the issue names, each against the ambiguity it had.
//   node --test tests/exercises/numeric_statements.test.mjs
import test from "node:test";
import assert from "node:assert/strict";

import { answerLabel, toleranceText } from "../../web/exercise/answer_terms.js";
import { withinTolerance } from "../../web/exercise/answer_check.js";
import { mulberry32 } from "../../web/exercise/random.js";
import { formatCount } from "../../web/units.js";
import { EXERCISES } from "./course.mjs";
import { interleavedSchedule } from "../../lessons/week5/exercises/interleaved_schedule.js";

const all = EXERCISES;   // every page's exercises, found through web/lesson/course.js
const numeric = all.filter((e) => e.kind === "numeric");
const byId = (id) => all.find((e) => e.id === id);
const text = (e, p) => (typeof e.prompt === "function" ? e.prompt(p) : e.prompt).replace(/<[^>]+>/g, " ").replace(/\s+/g, " ");
const drawn = (e) => (e.params
  ? [...new Map(Array.from({ length: 200 }, (_, s) => e.params(mulberry32(s + 1))).map((p) => [JSON.stringify(p), p])).values()]
  : [{}]);

// A parameter the prompt writes in another form than its value (a prefix, a name, a percentage) is given by the
// exercise's own promptShows: { key: (value) => text }; nothing here names an exercise.
// → the forms the prompt may show: the named one, or the value as written or grouped (16 384).
const shown = (e, key, value) => (e.promptShows?.[key] ? [e.promptShows[key](value)]
  : Array.isArray(value) ? [value.join(", ")] : typeof value === "number" ? [String(value), formatCount(value)] : [String(value)]);

test("the numeric exercises under this check", () => {
  assert.ok(numeric.length >= 25, `${numeric.length} numeric exercises`);
});

for (const e of numeric) {
  test(`${e.id}: names its unit and tolerance, and every drawn input is in its prompt`, () => {
    assert.ok(typeof e.unit === "string" && e.unit.length > 0, "a unit (\"fraction\", \"seconds\", \"ratio\", …)");
    const tolerance = e.tolerance ?? { rel: 0.01 };
    const label = answerLabel(e);
    assert.ok(label.includes(e.unit) && label.includes(toleranceText(tolerance, e.unit)), label);
    assert.match(label, /within/);
    for (const p of drawn(e)) {
      const prompt = text(e, p);
      for (const [key, value] of Object.entries(p)) {
        const forms = shown(e, key, value);
        assert.ok(forms.some((f) => prompt.toLowerCase().includes(f.replace(/\s+/g, " ").toLowerCase())),
          `${JSON.stringify(p)}: ${key} (${forms.join(" or ")}) is not in “${prompt}”`);
      }
    }
  });
}

test("the answer box's tolerance text says what withinTolerance accepts", () => {
  assert.equal(toleranceText({ rel: 0.01 }), "within 1% of the answer");
  assert.equal(toleranceText({ abs: 1 }, "micro-batches"), "within ±1 micro-batches");
  assert.equal(toleranceText({ rel: 0.02, abs: 0.5 }, "rows"), "within 2% of the answer or ±0.5 rows, whichever is looser");
  assert.ok(withinTolerance(101, 100, { rel: 0.01 }) && !withinTolerance(101.5, 100, { rel: 0.01 }));
});

// ── the exercises a review found reading two ways ────────────────────────────────────────────────────────────────
test("w3-strong-64 states both links' α and bandwidth, the bucket size and the compute model; 64 GPUs are 8 nodes of 8", () => {
  const e = byId("w3-strong-64");
  for (const [network, nic] of [["nodes", "25 GB/s"], ["nodes-ndr", "50 GB/s"]]) {
    const prompt = text(e, { network, batch: 8192 });
    assert.doesNotMatch(prompt, /as in the lab/);
    assert.match(prompt, /The 64 GPUs are 8 nodes of 8: inside a node NVLink joins them \(α = 3 µs, 200 GB\/s per GPU\)/,
      "an NVLink domain spans 8 GPUs, not 64");
    assert.ok(prompt.includes("α = 10 µs") && prompt.includes(nic), prompt);
    assert.match(prompt, /25 MiB buckets/);
    assert.match(prompt, /2Ψ FLOPs forward and 4Ψ backward/);
  }
});

test("w4-ssp-stall says which reading of 'finished' it grades (they differ by more than its 1% tolerance)", () => {
  const prompt = text(byId("w4-ssp-stall"), { speeds: [1, 1, 1, 1, 3, 5], iterations: 20, bound: 8 });
  assert.match(prompt, /finished when the server answers its last push/);
});

test("w5-interleave says which ideal: one pipeline device's busy time, not the single-device time", () => {
  const prompt = text(byId("w5-interleave"), { P: 4, m: 8, v: 2 });
  assert.match(prompt, /one pipeline device's own work without idling/);
  assert.match(prompt, /not the time one device would take for the whole model/);
});

test("w5-interleaved-schedule gives the warm-up count and says its unit times are per chunk", () => {
  const prompt = text(interleavedSchedule, {});
  assert.match(prompt, /warm-up of min\(2\(P − d − 1\) \+ \(v − 1\)·P, v·m\) forwards/);
  assert.match(prompt, /unit times per chunk/);
});

test("w3-sum-or-mean: every option is judged under the prompt's premise (each replica computes the mean of its rows)", () => {
  const e = byId("w3-sum-or-mean");
  assert.match(e.prompt, /each compute the mean gradient of their B\/P rows/);
  for (const o of e.options) {
    assert.doesNotMatch(o.text, /\bif the loss is a sum\b|\bif each replica (sums|computes the sum)\b/, `changes the setup: ${o.text}`);
  }
  assert.ok(e.options.find((o) => /P times the gradient of the global batch's mean loss/.test(o.text))?.correct);
});
