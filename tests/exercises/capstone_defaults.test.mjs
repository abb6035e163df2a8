// capstone_defaults.test.mjs — Week 6's capstone no longer turns error feedback on for every
// compressor. Its default per compressor (capstone_setup.EF_DEFAULT) must be the better of the two on the capstone's
// own job at the default settings: a finite final loss, no worse than the other choice (1% slack). Each run trains
// the 64-worker job for 1000 steps (≈ 10 s here), so only the compressors where the choice decides the run are tried:
// random-k (error feedback diverges: the old "on for all" fails here), SignSGD and top-k.
//   node --test tests/exercises/capstone_defaults.test.mjs
import test from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { DEFAULTS, EF_DEFAULT, jobRequest } from "../../lessons/week6/capstone_setup.js";

const core = await createRequire(import.meta.url)("../wasm/load_core.cjs")();
const finalLoss = (compressor, errorFeedback) =>
  core.simulateJob({ ...jobRequest({ ...DEFAULTS, compressor, errorFeedback }), failures: false }).losses.at(-1);

for (const compressor of ["random-k", "sign", "top-k"]) {
  test(`capstone ${compressor}: error feedback ${EF_DEFAULT[compressor] ? "on" : "off"} by default, the better of the two`, () => {
    const chosen = finalLoss(compressor, EF_DEFAULT[compressor]), other = finalLoss(compressor, !EF_DEFAULT[compressor]);
    assert.ok(Number.isFinite(chosen), `${compressor}: the default run diverges`);
    assert.ok(!(other < chosen / 1.01), `${compressor}: ${chosen} by default, ${other} with the other choice`);
  });
}

test("the page's default is the core's, for every compressor (the one `dsml capstone` starts from)", () => {
  for (const [compressor, on] of Object.entries(EF_DEFAULT))
    assert.equal(core.jobErrorFeedbackDefault({ compressor }), on, compressor);
});

test("the report's request carries the choice: none never feeds back; an explicit choice wins over the default", () => {
  assert.equal(jobRequest({ ...DEFAULTS, compressor: "none", errorFeedback: true }).errorFeedback, false);
  assert.equal(jobRequest({ ...DEFAULTS, compressor: "random-k", errorFeedback: undefined }).errorFeedback, false);
  assert.equal(jobRequest({ ...DEFAULTS, compressor: "random-k", errorFeedback: true }).errorFeedback, true);
});
