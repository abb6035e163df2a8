// deadlock_verdict.js — a checker's own explanation of a deadlock, said as run_checks.js's unfinished() says
// every deadlock: the cluster's message, then where each blocked rank waits in the learner's code (linesText:
// " (rank 0 at line 6, ranks 1 and 2 at line 9)"), then `why` — what this exercise's learner most likely did.
import { esc } from "./params.js";
import { fail } from "./run_checks.js";
import { linesText } from "../cluster/rank_lines.js";

export function deadlockVerdict(run, why) {
  return fail(`Deadlock: ${esc(run.deadlock.message)}${linesText(run.deadlock.lines)}. ${why}`);
}
