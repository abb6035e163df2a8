// planner_exercises.test.mjs — the planner page's exercises against the real wasm core: every reference answer is
// what the planner gives for every parameter set a learner can draw, checked here by an independent route (a search
// written out, MFU from its definition, the two totals, the doubled cluster), and every usual mistake fails.
import test from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";

import exercises from "../../lessons/planner/exercises.js";
import { doubleD, faster, mfu, smallestP } from "../../lessons/planner/exercises/planner_numeric.js";
import { plan, presets, table1Settings } from "../../lessons/planner/planner_setup.js";
import { judgeAnswer, slipValues, withinTolerance } from "../../web/exercise/answer_check.js";
import { formatSI } from "../../web/units.js";
import { mulberry32 } from "../../web/exercise/random.js";
import { assertOwnWords } from "./own_words.mjs";

const core = await createRequire(import.meta.url)("../wasm/load_core.cjs")();
const drawn = (ex) => [...new Map(Array.from({ length: 200 }, (_, s) => ex.params(mulberry32(s + 1)))
  .map((p) => [JSON.stringify(p), p])).values()];

test("the planner page has four exercises, each with hints and a solution", () => {
  assert.deepEqual(exercises.map((e) => e.id), ["planner-smallest-p", "planner-mfu", "planner-faster", "planner-double-d"]);
  for (const e of exercises) assertOwnWords(e, 2);
});

// What the prompts of planner-smallest-p and planner-faster say besides the layout, written out here.
const PROMPTED = { v: 1, c: 1, e: 1, b: 1, zero: 0, recompute: "full", sp: false, overlap: false,
  attention: "flash-attention-2", precision: "bf16" };

const byHand = {
  // Smallest p: walk p = 1, 2, … over the divisors and read the memory total against 80e9 bytes.
  "planner-smallest-p": (p) => {
    const L = presets(core).models.find((m) => m.name === p.model).layers;
    for (let pp = 1; pp <= p.nodes; ++pp) {
      if (L % pp || p.nodes % pp) continue;
      const r = plan(core, { ...PROMPTED, model: p.model, gpu: "a100-80gb", nodes: p.nodes, t: 8, p: pp, B: p.B });
      if (r.memory.total <= 80e9) return pp;
    }
    return NaN;
  },
  // MFU from its definition: B·s·(6Ψ + 12·l·h·s) / (step · GPUs · 312e12).
  "planner-mfu": (p) => {
    const row = presets(core).table1[p.row - 1];
    const m = presets(core).models.find((x) => x.name === row.model);
    const r = plan(core, { ...table1Settings(core, p.row - 1), b: p.b, v: 1 });
    return 100 * row.globalBatch * m.sequence * (6 * r.parameters + 12 * m.layers * m.hidden * m.sequence)
      / (r.time.total * row.gpus * 312e12);
  },
  "planner-faster": (p) => {
    const a = plan(core, { ...PROMPTED, model: p.model, gpu: p.gpu, nodes: p.nodes, t: 8, p: p.pp, B: p.B }).time.total;
    const b = plan(core, { ...PROMPTED, model: p.model, gpu: p.gpu, nodes: p.nodes, t: 4, p: 2 * p.pp, B: p.B }).time.total;
    return a < b ? a : b;
  },
  "planner-double-d": (p) => {
    const s = { ...table1Settings(core, p.row - 1), b: p.b, v: 1 };
    const r = plan(core, { ...s, nodes: 2 * s.nodes });
    assert.equal(r.layout.d, 2 * s.nodes * 8 / (s.t * s.p));
    return 100 * r.mfu;
  },
};

for (const ex of [smallestP, mfu, faster, doubleD]) {
  test(`${ex.id}: the reference is the planner's answer for every drawn parameter set; the usual mistake fails`, () => {
    const sets = drawn(ex);
    assert.ok(sets.length >= 3, `${ex.id}: only ${sets.length} distinct parameter sets`);
    for (const p of sets) {
      const want = ex.answer(p, core);
      assert.ok(Number.isFinite(want), `${ex.id} ${JSON.stringify(p)}: no answer`);
      assert.ok(Math.abs(want - byHand[ex.id](p)) <= 1e-9 * Math.max(1, Math.abs(want)), `${ex.id} ${JSON.stringify(p)}`);
      assert.ok(withinTolerance(want, want, ex.tolerance));
      const wrong = ex.wrongAnswer(p, core);
      assert.ok(!withinTolerance(wrong, want, ex.tolerance), `${ex.id} ${JSON.stringify(p)}: the wrong answer ${wrong} passes (${want})`);
      assert.match(ex.prompt(p), /<p>/);
    }
  });
}

// A prompt names every setting its answer depends on: the widget's switches included.
test("planner-faster and planner-smallest-p name every setting their answers use", () => {
  for (const [ex, words] of [[faster, ["v = 1", "c = e = 1", "micro-batch b = 1", "full recomputation", "no ZeRO",
    "sequence parallelism off", "not overlapped", "untick both", "FlashAttention-2", "BF16"]],
  [smallestP, ["t = 8", "v = 1", "c = e = 1", "micro-batch 1", "full recomputation", "no ZeRO", "no sequence parallelism",
    "FlashAttention-2", "BF16"]]]) {
    for (const p of drawn(ex)) for (const w of words) assert.ok(ex.prompt(p).replace(/\s+/g, " ").includes(w), `${ex.id}: "${w}"`);
  }
});

// planner-faster's slips (the slower layout; the widget's switches left on) are wrong for every draw and each is told
// its own explanation when typed as the widget shows a step time.
test("planner-faster: every slip fails and is named", () => {
  for (const p of drawn(faster)) {
    const want = faster.answer(p, core);
    for (const { name, value, explain } of slipValues(faster, p, core)) {
      const { pass, message } = judgeAnswer(formatSI(value, "s", { digits: 6 }), want, faster, { params: p, core });
      assert.equal(pass, false, `${name} ${JSON.stringify(p)} passes`);
      assert.ok(message.endsWith(explain), `${name}: ${message}`);
    }
  }
});

// The two MFU exercises ask for per cent: the answer typed as "36.52", "36.52%", "36.5 percent" or "36.5 per cent"
// (to the tolerance) passes, and the same MFU typed as a fraction is told it is one.
test("planner-mfu and planner-double-d read an answer in per cent, with or without the sign or the word", () => {
  for (const ex of [mfu, doubleD]) {
    assert.equal(ex.unitSymbol, "%");
    for (const p of drawn(ex)) {
      const want = ex.answer(p, core);
      const two = want.toFixed(2), one = want.toFixed(1);
      for (const typed of [two, `${two}%`, `${two} %`, `${one} percent`, `${one} per cent`]) {
        const r = judgeAnswer(typed, want, ex);
        assert.equal(r.pass, true, `${ex.id} ${JSON.stringify(p)} "${typed}": ${r.message}`);
      }
      assert.match(judgeAnswer(String(want / 100), want, ex).message, /did you type a fraction\?/);
    }
  }
});

test("doubling d at a fixed batch lowers MFU on every row the exercise draws", () => {
  for (const row of [5, 6, 7, 8, 9, 10]) {
    for (const b of [1, 2]) {
      const s = { ...table1Settings(core, row - 1), b, v: 1 };
      assert.ok(plan(core, { ...s, nodes: 2 * s.nodes }).mfu < plan(core, s).mfu, `row ${row}, b = ${b}`);
    }
  }
});
