// grade_worker.mjs — a worker thread of the grader (scripts/grade.mjs): judges one learner's code for one code
// exercise per message, as the page's Check does (web/exercise/judge_local.js: the plan of GRADE_ATTEMPT for the
// learner's seed, on the judge cluster, under each exercise's own run time-out). The grader runs learners' code here,
// not in its own thread, so that code which never yields or exhausts memory costs this thread, which the grader
// ends and replaces, and never the gradebook.
//   in:  { key, id, code, seed }      out: { key, pass, message }   (message as HTML, as the page shows it)
import { parentPort, workerData } from "node:worker_threads";
import { createRequire } from "node:module";
import { EXERCISES } from "../tests/exercises/course.mjs";
import { judgeCheck } from "../web/exercise/judge_local.js";
import { describeEntry } from "../web/exercise/judge_plan.js";
import { plural } from "../web/units.js";

const core = await createRequire(import.meta.url)("../tests/wasm/load_core.cjs")();
const byId = new Map(EXERCISES.map((e) => [e.id, e]));

parentPort.on("message", async ({ key, id, code, seed }) => {
  try {
    const result = await judgeCheck(byId.get(id), code, { seed, attempt: workerData.attempt, core });
    parentPort.postMessage({ key, pass: result.pass, message: result.pass
      ? `All ${plural(result.runs, "run")} of the Check passed.`
      : describeEntry(result.failed, result.entries - 1, result.runs) + result.message });
  } catch (err) {
    parentPort.postMessage({ key, pass: false, message: `The grader could not judge this code: ${err.message}` });
  }
});
