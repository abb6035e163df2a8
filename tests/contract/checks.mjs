// checks.mjs — the assertions the contract's cases (cluster_contract.mjs) share: a run that ended ok, a deadlock
// and its message, an error at a place, a misuse rejection in either cluster's words, spans that tile.
import assert from "node:assert/strict";

// Keys of the RunResult on both clusters (web/README.md, "The Worker cluster"); the judge adds clock.
export const RUN_RESULT_KEYS = ["deadlock", "elapsedMs", "error", "failed", "logs", "progress", "results", "spans",
  "status", "stopped", "timeout", "trace"];

export const ok = (got) => assert.equal(got.status, "ok", JSON.stringify(got.rejected ?? got.error ?? got.deadlock ?? got.timeout));
export const deadlock = (got, message) => {
  assert.equal(got.status, "deadlock", JSON.stringify(got.error ?? got.timeout));
  assert.equal(got.deadlock.message, message);
};
export const failsWith = (got, error) => {
  assert.equal(got.status, "error");
  assert.deepEqual({ ...got.error, syntax: undefined }, { ...error, syntax: undefined });
};
export const misuse = (got, words) => assert.match(got.rejected ?? "accepted", new RegExp(`^(Local)?Cluster\\.run: ${words}`));

// Spans of each rank tile its time: kinds compute | send | wait, none overlapping.
export function assertSpansTile(spans, size) {
  for (let r = 0; r < size; r++) {
    const mine = spans.filter((s) => s.rank === r).sort((a, b) => a.start - b.start);
    assert.ok(mine.length > 0, `rank ${r} has spans`);
    for (const s of mine) {
      assert.ok(["compute", "send", "wait"].includes(s.kind), s.kind);
      assert.ok(s.end >= s.start && s.start >= 0, `span ${JSON.stringify(s)}`);
    }
    for (let i = 1; i < mine.length; i++) {
      assert.ok(mine[i].start >= mine[i - 1].end - 1e-9, `rank ${r}: ${JSON.stringify(mine[i - 1])} overlaps ${JSON.stringify(mine[i])}`);
    }
  }
}
