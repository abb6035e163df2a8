// w4-ssp-absorb (lessons/week4/exercises/ssp_absorb.js) against the simulator, beyond the rules every exercise keeps
// (exercise_rules.test.mjs: oracle, wrongAnswer, tolerance; answer_check.test.mjs: the slips). The saving the answer
// promises is what SSP delivers: BSP's seconds per clock minus SSP(s = I)'s over 3000 simulated clocks of the drawn
// workers lands within 6% of it; the same list as fixed speeds saves nothing, which is the exercise's wrong answer's
// world; and every slip is told its own explanation without the answer.
//   node --test tests/exercises/week4_ssp_absorb.test.mjs
import test from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";

import { sspAbsorb } from "../../lessons/week4/exercises/ssp_absorb.js";
import { judgeAnswer } from "../../web/exercise/answer_check.js";
import { mulberry32 } from "../../web/exercise/random.js";

const core = await createRequire(import.meta.url)("../wasm/load_core.cjs")();
const free = { alpha: 0, beta: 1e-30 };
const perClock = (p, speed, regime, staleness, clocks) => core.simulateParamServer({ regime, staleness, workers: p.workers,
  iterations: clocks, parameters: 8, speed, network: free }).makespan / clocks;
const draws = Array.from({ length: 6 }, (_, seed) => sspAbsorb.params(mulberry32(seed + 1)));

test("w4-ssp-absorb: the simulated saving of a large bound over BSP is the answer, within 6% over 3000 clocks", () => {
  for (const p of draws) {
    const speed = { distribution: "per-round", base: p.base, roundSpeeds: p.list, seed: 7 };
    const saved = perClock(p, speed, "bsp", undefined, 3000) - perClock(p, speed, "ssp", 3000, 3000);
    const answer = sspAbsorb.answer(p, core);
    assert.ok(Math.abs(saved - answer) < 0.06 * answer, `${JSON.stringify(p)}: simulated ${saved}, answer ${answer}`);
  }
});

test("w4-ssp-absorb: with the list as fixed speeds no bound saves anything (the wrong answer's world)", () => {
  const p = { list: [1, 1, 1, 1, 3, 5], workers: 6, base: 0.1 };
  const fixed = { distribution: "fixed", base: p.base, multipliers: p.list };
  assert.ok(Math.abs(perClock(p, fixed, "bsp", undefined, 40) - perClock(p, fixed, "ssp", 40, 40)) < 1e-12);
  assert.equal(core.sspClockLimits(fixed, 6).absorbableSeconds, 0);
  assert.ok(sspAbsorb.wrongAnswer(p) > 1.3 * sspAbsorb.answer(p, core), "the slowest-always answer overstates it");
});

test("w4-ssp-absorb: each slip is told its mistake, and the message gives away neither the answer nor the slip", () => {
  for (const p of draws) {
    const answer = sspAbsorb.answer(p, core), given = { params: p, core };
    assert.equal(judgeAnswer(`${answer} s`, answer, sspAbsorb, given).pass, true);
    for (const slip of sspAbsorb.slips) {
      const value = slip.value(p, core);
      const r = judgeAnswer(`${value} s`, answer, sspAbsorb, given);
      assert.equal(r.pass, false, slip.name);
      assert.ok(r.message.includes(slip.explain), `${slip.name}: ${r.message}`);
      for (const x of [answer, value]) assert.ok(!r.message.includes(x.toPrecision(3)), `${slip.name} shows ${x}`);
    }
  }
});
