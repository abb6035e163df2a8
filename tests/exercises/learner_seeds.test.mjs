// learner_seeds.test.mjs — every code exercise judged for several learners, not CI's one: for learners who between
// them meet every cluster size the exercise draws (web/exercise/learner_seeds.js), the reference passes a whole
// first Check and every wrong program fails it with the message that names its mistake. CI's own learner
// (judging.test.mjs) meets only the sizes its seed draws.
import test from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";

import { EXERCISES } from "./course.mjs";
import { LEARNER_SEED } from "./judge.mjs";
import { judgeCheck } from "../../web/exercise/judge_local.js";
import { candidateSeed, coveringSeeds } from "../../web/exercise/learner_seeds.js";

const core = await createRequire(import.meta.url)("../wasm/load_core.cjs")();

test("the covering learners: CI's learner first, then learners who each add a size no earlier one met", () => {
  assert.equal(candidateSeed(LEARNER_SEED, 0), LEARNER_SEED);
  // A made-up exercise whose one case has p = 2 + (first draw mod 3): the sizes 2, 3 and 4, nothing else.
  const toy = { id: "toy", kind: "code", judge: { interleavings: 1, sync: false },
    cases: (rng) => [{ ranks: 2 + Math.floor(rng() * 3), inputs: [] }] };
  const chosen = coveringSeeds(toy, { first: LEARNER_SEED });
  assert.equal(chosen[0].seed, LEARNER_SEED);
  assert.deepEqual(chosen.flatMap((c) => c.sizes).sort(), [2, 3, 4]);
  assert.ok(chosen.every((c) => c.sizes.length === 1), "each learner adds one size (one case each)");
});

for (const e of EXERCISES.filter((x) => x.kind === "code")) {
  // CI's learner is judged in judging.test.mjs; here the others.
  const others = coveringSeeds(e, { first: LEARNER_SEED }).slice(1);
  if (others.length === 0) continue;
  const label = others.map((c) => `seed ${c.seed}: p = ${c.sizes.join(", ")}`).join("; ");
  test(`${e.id}: for learners meeting the sizes CI's does not (${label}), the reference passes and every wrong program fails`, async () => {
    for (const { seed } of others) {
      const right = await judgeCheck(e, e.solution, { seed, attempt: 1, core });
      assert.ok(right.pass, `${e.id}, learner seed ${seed}: the reference failed run ${right.entries} ` +
        `(p = ${right.failed?.testCase.ranks}): ${right.message}`);
      for (const w of e.wrongs) {
        const wrong = await judgeCheck(e, w.code, { seed, attempt: 1, core });
        assert.ok(!wrong.pass, `${e.id}, learner seed ${seed}: “${w.name}” passed all ${wrong.entries} runs`);
        assert.match(wrong.message, w.expect, `${e.id}, learner seed ${seed}: “${w.name}” was told ` +
          `“${wrong.message.replace(/<[^>]+>/g, "")}” (p = ${wrong.failed.testCase.ranks}), which does not match ${w.expect}`);
      }
    }
  });
}
