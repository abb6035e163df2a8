// The Worker cluster's trace keeps each rank's program order. A Worker's clock is coarse (0.1 ms
// in some browsers), so in a ring step "send k, then receive k" both records often carry the same time; ordered by
// time (receives first on a tie) the replay made every send wait for the message before it. The Worker's reporter
// numbers its records in the order the rank made them, and the page's ClusterRun hands the numbers on as
// sendOrder / recvOrder, which replayNote (web/exercise/collective_checks.js) replays instead of times.
import test from "node:test";
import assert from "node:assert/strict";

import { Reporter } from "../../web/worker/rank_reports.js";
import { ClusterRun } from "../../web/cluster/cluster_run.js";
import { clockMs } from "../../web/worker/rank_spans.js";
import { programOrderTrace } from "../../web/exercise/collective_checks.js";

// A reporter whose every flush goes straight to the page's ClusterRun.
function reporterFor(run, rank) {
  const spans = { takeFlat: () => [], cursor: 0 };
  const watch = { closed: false, mayBeBlocked: false, state: () => null };
  return new Reporter({ run: run.id, post: (msg) => run.report(rank, msg), watch, spans,
                        timers: { setTimeout: () => 1, clearTimeout: () => {} } });
}

test("a two-rank exchange whose records all tie in time keeps each rank's program order in the trace", async () => {
  const run = new ClusterRun({ id: 1, size: 2, t0: clockMs(), timeoutMs: Infinity, broadcast: () => {} });
  const [a, b] = [reporterFor(run, 0), reporterFor(run, 1)];
  const t = 0.0123;   // one tick of a coarse clock: every record below carries it
  // Two ring steps on 2 ranks: each rank sends its message of step k, then receives its neighbour's.
  for (let k = 0; k < 2; k++) {
    a.sent(1, 0, k, 8, t);
    b.sent(0, 0, k, 8, t);
    a.received(1, 0, k, t);
    b.received(0, 0, k, t);
  }
  a.flush("done", { state: { kind: "done" }, result: null });
  b.flush("done", { state: { kind: "done" }, result: null });
  const { status, trace } = await run.outcome;
  assert.equal(status, "ok");
  const of = (src, k) => trace.find((m) => m.src === src && m.sendOrder === 2 * k);
  for (const src of [0, 1]) {
    for (const k of [0, 1]) {
      const m = of(src, k);
      assert.ok(m, `rank ${src}'s send of step ${k} is the rank's record ${2 * k}`);
      assert.equal(m.recvOrder, 2 * k + 1, `rank ${m.dst} took step ${k}'s message right after its own send of step ${k}`);
      assert.equal(m.sendTime, t);
    }
  }
  // The replay's input: on every rank send k comes before receive k, although the clock cannot tell them apart.
  const rank0 = programOrderTrace(trace).flatMap((m) => [
    ...(m.src === 0 ? [{ at: m.sendTime, what: "send" }] : []), ...(m.dst === 0 ? [{ at: m.recvTime, what: "recv" }] : [])])
    .sort((x, y) => x.at - y.at).map((x) => x.what);
  assert.deepEqual(rank0, ["send", "recv", "send", "recv"]);
});
