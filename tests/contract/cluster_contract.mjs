// cluster_contract.mjs — the cluster API's contract as data: what every cluster that runs learners' programs
// (the Worker cluster web/cluster/cluster.js, the judge cluster web/cluster/local_cluster.js) must do, in the same
// RunResult and with the same words. Each case: { name, size, code (the learner's program), options (run options,
// plus stopAfterMs), during / then (more runs, tests/contract/run_case.mjs), check(got) }. Every expectation is
// a hand count or a closed form, never read from a cluster. Runners: tests/web/cluster_contract.test.mjs (judge,
// Node) and tests/e2e/cluster.test.mjs (Workers, Chromium).
// What only one cluster does stays in that cluster's own tests: exact virtual time, replay of a seed, and
// WaitForGraph's "suspended on a promise" in tests/web/local_cluster.test.mjs; wall-clock timing, a page that stays
// responsive, Workers kept or replaced after a failed run, syntax-error columns and ctx.core in the e2e file.
import { DEADLOCK_CASES } from "./deadlock_contract.mjs";
import { ERROR_CASES } from "./errors_contract.mjs";
import { MESSAGE_CASES } from "./messages_contract.mjs";
import { RUN_CASES } from "./run_contract.mjs";

export { assertSpansTile, RUN_RESULT_KEYS } from "./checks.mjs";
export { ANY_SERVER, PROBE, RING_SUM } from "./programs.mjs";

export const CONTRACT = [...MESSAGE_CASES, ...DEADLOCK_CASES, ...ERROR_CASES, ...RUN_CASES];
