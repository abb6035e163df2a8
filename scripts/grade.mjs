// grade.mjs — grading a class without a server. Each learner exports a submission from the course index
// (web/exercise/submission.js: their code, answers, attempts and seed, their name, the site's version); the lecturer
// puts the files in one folder and runs
//   node scripts/grade.mjs <folder> [--out gradebook.csv] [--jobs N] [--only w3-,lab-]
// Every exercise of the course (tests/exercises/course.mjs) is judged afresh for every learner, with the checkers the
// page uses and the learner's own seed: numeric, predict and choice answers in this thread (judge_record.js), code on
// the judge cluster in worker threads (grade_worker.mjs), under each exercise's run time-out, a deadlock or a run out
// of time being a failed row with the checker's message. What a file says about itself (solved, a verdict) is never
// believed. The CSV has one row per learner and exercise, plus rows about files (gradebook.mjs). --only keeps the
// exercises whose ids start with one of the prefixes; --jobs is how many code Checks run at once (default: the cores).
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { basename, join, resolve } from "node:path";
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import { EXERCISES } from "../tests/exercises/course.mjs";
import { FILE_ROW, fileRow, submissionRows, toCSV } from "./gradebook.mjs";
import { CodeJudges } from "./code_judges.mjs";
import { plural } from "../web/units.js";

export const GRADE_ATTEMPT = 1;   // the Check judged: the cases a learner's first Check draws for their seed

export async function grade(folder, { only = null, jobs = availableParallelism() } = {}) {
  const exercises = only ? EXERCISES.filter((e) => only.some((prefix) => e.id.startsWith(prefix))) : EXERCISES;
  if (!exercises.length) throw new Error(`no exercise id starts with ${only.join(" or ")}`);
  const core = await createRequire(import.meta.url)("../tests/wasm/load_core.cjs")();
  const files = readdirSync(folder).filter((f) => f.toLowerCase().endsWith(".json") && statSync(join(folder, f)).isFile()).sort();
  const judges = new CodeJudges({ jobs, attempt: GRADE_ATTEMPT });
  try {
    const graded = await Promise.all(files.map(async (file) => {
      let text;
      try {
        text = readFileSync(join(folder, file), "utf8");
      } catch (err) {
        return { rows: [fileRow(file, file.replace(/\.json$/i, ""), `Unreadable: ${err.message}.`)], seed: null };
      }
      return submissionRows(file, text, { exercises, courseIds: EXERCISES.map((e) => e.id), core,
        judgeCode: (e, code, seed) => judges.judge(e, code, seed) });
    }));
    return { rows: graded.flatMap((g, i) => [...g.rows, ...sameSeed(graded, i, files)]), files, exercises };
  } finally {
    await judges.close();
  }
}

// Seeds are drawn at random from 2^31 − 1: two files with one seed hold one learner's progress.
function sameSeed(graded, i, files) {
  const { seed, student } = graded[i];
  if (seed === null || seed === undefined) return [];
  const others = files.filter((_, j) => j !== i && graded[j].seed === seed);
  return others.length ? [fileRow(files[i], student, `The same seed (${seed}) as ${others.join(", ")}: `
    + "one learner's progress handed in more than once?")] : [];
}

function parseArgs(argv) {
  const args = { folder: null, out: "gradebook.csv", jobs: availableParallelism(), only: null };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--out") args.out = argv[++i];
    else if (a === "--jobs") args.jobs = Number(argv[++i]);
    else if (a === "--only") args.only = argv[++i]?.split(",").filter(Boolean);
    else if (!a.startsWith("--") && args.folder === null) args.folder = a;
    else throw new Error(`unknown argument ${a}`);
  }
  if (!args.folder) throw new Error("which folder? name the folder of submissions");
  if (!args.out) throw new Error("--out needs a file name");
  if (!(Number.isInteger(args.jobs) && args.jobs > 0)) throw new Error("--jobs needs a whole number ≥ 1");
  if (args.only && !args.only.length) throw new Error("--only needs id prefixes, comma-separated (w3-,lab-)");
  return args;
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  let args;
  try {
    args = parseArgs(process.argv.slice(2));
  } catch (err) {
    console.error(`grade.mjs: ${err.message}\nusage: node scripts/grade.mjs <folder of submissions> [--out gradebook.csv] `
      + "[--jobs N] [--only w3-,lab-]");
    process.exit(2);
  }
  const started = Date.now();
  const folder = resolve(args.folder);
  if (!existsSync(folder) || !statSync(folder).isDirectory()) {
    console.error(`grade.mjs: ${args.folder} is not a folder (put the learners' .json files in one folder)`);
    process.exit(2);
  }
  const { rows, files, exercises } = await grade(folder, args);
  if (!files.length) console.error(`grade.mjs: no .json files in ${args.folder}`);
  writeFileSync(args.out, toCSV(rows));
  const learners = new Map();
  for (const r of rows.filter((r) => r.exercise !== FILE_ROW)) learners.set(r.student, (learners.get(r.student) ?? 0) + (r.passed === "yes"));
  for (const [student, passed] of learners) console.log(`${student}: ${passed} of ${exercises.length} passed`);
  const fileNotes = rows.filter((r) => r.exercise === FILE_ROW).length;
  console.log(`${plural(files.length, "file")}, ${plural(exercises.length, "exercise")} each, ${plural(fileNotes, "row")} about files; `
    + `gradebook written to ${basename(args.out)} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}
