// week3_overlap.test.mjs — Week 3's section 3 (b), partial overlap, against the real wasm core: T(o) = C + (1 − o)·M
// composed from core.stepTime (overlap_setup.js) and its cap min(1, C/M); the o bucketed DDP achieves read off the
// priced step; the exercise "w3-overlap-fraction": its prompt's numbers equal the core's, the answer computed from
// the prompt's numbers passes, and the usual slips (the exposed share, dividing by C) fail.
//   node --test tests/exercises/week3_overlap.test.mjs
import test from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";

import { BUCKETS, PRICED, overlapFraction } from "../../lessons/week3/exercises/overlap_fraction.js";
import { LINK_CHOICES, maxOverlap, measuredOverlap, partialStep } from "../../lessons/week3/overlap_setup.js";
import { withinTolerance } from "../../web/exercise/answer_check.js";
import { mulberry32 } from "../../web/exercise/random.js";

const core = await createRequire(import.meta.url)("../wasm/load_core.cjs")();

test("T(o) = C + (1 − o)·M through core.partialOverlapStep, from C + M at o = 0 to max(C, M) at the cap; o past the cap throws", () => {
  for (const [C, M] of [[0.05, 0.03], [0.05, 0.117], [1, 1]]) {
    for (const o of [0, 0.25, 0.5, maxOverlap(C, M)]) {
      if (o > maxOverlap(C, M)) continue;
      assert.ok(Math.abs(partialStep(core, C, M, o) - (C + (1 - o) * M)) < 1e-15, `${C} ${M} ${o}`);
    }
    assert.ok(Math.abs(partialStep(core, C, M, maxOverlap(C, M)) - Math.max(C, M)) < 1e-15);
  }
  assert.throws(() => partialStep(core, 0.05, 0.117, 0.5), /overlap fraction must lie in \[0, 0\.42/);
  assert.throws(() => partialStep(core, 1, 1, -0.1), /overlap fraction must lie in \[0, 1\]/);
});

test("bucketed DDP's achieved o reproduces its priced step, stays under the cap, and is 0 for one bucket", () => {
  for (const link of Object.values(LINK_CHOICES)) {
    for (const bucketBytes of BUCKETS) {
      const m = measuredOverlap(core, { ...link, bucketBytes });
      assert.ok(m.o > 0 && m.o <= maxOverlap(m.compute, m.comm), `${link.name} ${bucketBytes}: o = ${m.o}`);
      assert.ok(Math.abs(partialStep(core, m.compute, m.comm, m.o) - m.total) < 1e-12 * m.total);
    }
    const flat = measuredOverlap(core, { ...link, bucketBytes: 4 * 403e6 });   // the whole gradient in one bucket
    assert.ok(flat.o < 1e-9, `one bucket cannot overlap anything (o = ${flat.o})`);
  }
  // Smaller is not always better: 400 MB buckets start late and leave a large last bucket exposed.
  const nv = (b) => measuredOverlap(core, { ...LINK_CHOICES.nvlink, bucketBytes: b }).o;
  assert.ok(nv(25 * 2 ** 20) > nv(400e6));
});

test("w3-overlap-fraction: the prompt's numbers are the core's; the answer from them passes; the slips fail", () => {
  for (const link of Object.keys(LINK_CHOICES)) {
    for (const bucket of BUCKETS) {
      const m = measuredOverlap(core, { ...LINK_CHOICES[link], bucketBytes: bucket });
      const written = PRICED[`${link} ${bucket}`];
      assert.deepEqual(written, [m.compute, m.comm, m.total].map((s) => Number((s * 1e3).toPrecision(4))), `${link} ${bucket}`);
    }
  }
  const seen = new Set();
  for (let s = 1; s <= 200; s++) {
    const p = overlapFraction.params(mulberry32(s));
    seen.add(`${p.link} ${p.bucket}`);
    const want = overlapFraction.answer(p, core), [C, M, T] = PRICED[`${p.link} ${p.bucket}`];
    assert.match(overlapFraction.prompt(p), new RegExp(`T = ${T} ms`));
    assert.ok(withinTolerance(1 - (T - C) / M, want, overlapFraction.tolerance), `from the prompt's rounded numbers (${s})`);
    assert.ok(!withinTolerance(overlapFraction.wrongAnswer(p, core), want, overlapFraction.tolerance), `the exposed share (${s})`);
    assert.ok(!withinTolerance((C + M - T) / C, want, overlapFraction.tolerance), `divided by C (${s})`);
  }
  assert.equal(seen.size, 12, "every link and bucket size is drawn");
});
