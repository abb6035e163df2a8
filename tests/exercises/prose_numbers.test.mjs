// prose_numbers.test.mjs — every lesson page's prose numbers are the core's: each <span data-calc="key">text</span>
// of lessons/<slug>/index.html (the text print and readers without JavaScript see) is what its calcs.js computes
// with the wasm core, and every calc is used in the prose. (The page recomputes the same calcs when it loads;
// `node scripts/refresh_calcs.mjs <slug>` rewrites the texts as the core computes them.)
//   node --test tests/exercises/prose_numbers.test.mjs
import test from "node:test";
import { createRequire } from "node:module";
import { WEEKS } from "../../web/lesson/course.js";
import { assertProseMatchesCalcs } from "./prose_calcs.mjs";

const core = await createRequire(import.meta.url)("../wasm/load_core.cjs")();

for (const week of WEEKS.filter((w) => w.available)) {
  test(`${week.slug}: every data-calc number of the prose is its calcs.js's, and every calc is in the prose`, async () => {
    const { CALCS } = await import(`../../lessons/${week.slug}/calcs.js`);
    // (the planner's calcs are made per calibration table, mean, worst and rows alike; its prose quotes some of them)
    assertProseMatchesCalcs(week.slug, CALCS, core, { everyCalcUsed: week.slug !== "planner" });
  });
}
