// judge_seeds.mjs — one code exercise judged for many learners, as their first Check judges it (judge_local.js):
// a lecturer's check that an exercise (a new one, or a changed checker) holds for every size it draws, not only for
// the one learner CI is.
//   node scripts/judge_seeds.mjs ID                  the learners who between them meet every size drawn
//                                                    (web/exercise/learner_seeds.js), the reference solution
//   node scripts/judge_seeds.mjs ID --seeds 50       the first 50 candidate learners instead
//   node scripts/judge_seeds.mjs ID --code file.js   a program of your own instead of the reference
// Prints a line per learner (seed, the sizes drawn, passed or the failing run and the checker's message) and exits 1
// if the reference failed for any learner (or, with --code, 0 whatever the verdicts: it reports them).
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { EXERCISES } from "../tests/exercises/course.mjs";
import { LEARNER_SEED } from "../tests/exercises/judge.mjs";
import { judgeCheck, planOf } from "../web/exercise/judge_local.js";
import { candidateSeed, coveringSeeds } from "../web/exercise/learner_seeds.js";

function usage(problem) {
  console.error(`judge_seeds: ${problem}\nusage: node scripts/judge_seeds.mjs ID [--seeds N] [--code file.js]`);
  process.exit(2);
}

const [id, ...rest] = process.argv.slice(2);
if (!id || id.startsWith("--")) usage("name a code exercise");
let count = null, codeFile = null;
for (let i = 0; i < rest.length; i += 2) {
  if (rest[i] === "--seeds") count = Number(rest[i + 1]);
  else if (rest[i] === "--code") codeFile = rest[i + 1];
  else usage(`unknown option ${rest[i]}`);
}
if (count !== null && !(Number.isInteger(count) && count >= 1)) usage("--seeds takes a whole number ≥ 1");
const exercise = EXERCISES.find((e) => e.id === id);
if (!exercise) usage(`no exercise "${id}" in the course (lessons/*/exercises.js)`);
if (exercise.kind !== "code") usage(`${id} is a ${exercise.kind} exercise; only code exercises are judged on runs`);
const code = codeFile ? readFileSync(codeFile, "utf8") : exercise.solution;

const core = await createRequire(import.meta.url)("../tests/wasm/load_core.cjs")();
const seeds = count === null
  ? coveringSeeds(exercise, { first: LEARNER_SEED }).map((c) => c.seed)
  : Array.from({ length: count }, (_, k) => candidateSeed(LEARNER_SEED, k));
console.log(`${id}: ${codeFile ?? "the reference solution"}, the first Check of ${seeds.length} learner(s)`);
let failed = 0;
for (const seed of seeds) {
  const sizes = [...new Set(planOf(exercise, seed, 1).map((entry) => entry.testCase.ranks))].sort((a, b) => a - b);
  const result = await judgeCheck(exercise, code, { seed, attempt: 1, core });
  failed += result.pass ? 0 : 1;
  const verdict = result.pass ? `passed all ${result.runs} runs`
    : `FAILED run ${result.entries} of ${result.runs} (p = ${result.failed.testCase.ranks}): ` +
      result.message.replace(/<[^>]+>/g, "").replace(/\s+/g, " ").slice(0, 300);
  console.log(`  seed ${String(seed).padStart(10)}  p = ${sizes.join(", ").padEnd(18)}  ${verdict}`);
}
console.log(`${seeds.length - failed} of ${seeds.length} learners passed`);
if (!codeFile && failed > 0) process.exit(1);
