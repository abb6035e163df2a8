// deadlock.test.mjs — WaitForGraph (lessons/web/cluster/deadlock.js) with synchronous sends, in Node: a rank
// blocked in a send waits for the receiver, its message counts as in flight, the receiver's take completes the
// send, and a cycle of sends is reported the way recv cycles are. (Its recv and barrier behaviour is also tested
// in tests/e2e/cluster.test.mjs, next to the Worker cluster that feeds it.)
//   node --test tests/web/deadlock.test.mjs
import { test } from "node:test";
import assert from "node:assert/strict";
import { WaitForGraph } from "../../lessons/web/cluster/deadlock.js";

test("two ranks that both await a synchronous send to each other: a cycle of send waits", () => {
  const g = new WaitForGraph(2);
  g.sent(0, 1, 0);
  g.blocked(0, [], null, [{ to: 1, tag: 0 }]);
  assert.equal(g.deadlock(), null, "rank 1 is still running");
  g.sent(1, 0, 0);
  g.blocked(1, [], null, [{ to: 0, tag: 0 }]);
  const d = g.deadlock();
  assert.deepEqual(d.cycle, [0, 1]);
  assert.equal(d.message, "rank 0 waits in send for rank 1, rank 1 waits in send for rank 0");
  assert.deepEqual(d.waits.map((w) => w.sends), [[{ to: 1, tag: 0 }], [{ to: 0, tag: 0 }]]);
});

test("a send wait is no deadlock while the receiver's matching recv can take the message in flight", () => {
  const g = new WaitForGraph(2);
  g.sent(0, 1, 7);
  g.blocked(0, [], null, [{ to: 1, tag: 7 }]);
  g.blocked(1, [{ from: 0, tag: 7 }], null);
  assert.equal(g.deadlock(), null);
  // The take completes the send: the sender runs again, and so does the receiver.
  g.received(0, 1, 7);
  assert.equal(g.state[0].kind, "running");
  assert.equal(g.state[1].kind, "running");
  assert.equal(g.deadlock(), null);
});

test("the take clears only the completed send; a rank still awaiting a recv stays blocked on it", () => {
  const g = new WaitForGraph(3);
  g.sent(0, 1, 0);
  g.sent(0, 2, 0);
  g.blocked(0, [{ from: 2, tag: 0 }], null, [{ to: 1, tag: 0 }, { to: 2, tag: 0 }]);   // Promise.all([send, send, recv])
  g.received(0, 1, 0);
  assert.deepEqual(g.state[0].sends, [{ to: 2, tag: 0 }]);
  assert.deepEqual(g.state[0].on, [{ from: 2, tag: 0 }]);
  g.received(0, 2, 0);
  assert.equal(g.state[0].kind, "blocked", "still waiting for its recv from rank 2");
  assert.deepEqual(g.state[0].sends, []);
  g.received(0, 2, "0");   // another tag: not the send it waits on (1 ≠ "1" as everywhere in the graph)
  assert.equal(g.state[0].kind, "blocked");
});

test("a ring of synchronous sends, with tags, is reported from its smallest rank", () => {
  const g = new WaitForGraph(3);
  for (const [src, dst] of [[1, 2], [2, 0], [0, 1]]) {
    g.sent(src, dst, 3);
    g.blocked(src, [], null, [{ to: dst, tag: 3 }]);
  }
  const d = g.deadlock();
  assert.deepEqual(d.cycle, [0, 1, 2]);
  assert.equal(d.message, "rank 0 waits in send for rank 1 (tag 3), rank 1 waits in send for rank 2 (tag 3), " +
    "rank 2 waits in send for rank 0 (tag 3)");
});

test("a send to a rank that has finished waits for ever, and says so", () => {
  const g = new WaitForGraph(2);
  g.done(1);
  g.sent(0, 1, 0);
  g.blocked(0, [], null, [{ to: 1, tag: 0 }]);
  const d = g.deadlock();
  assert.deepEqual(d.cycle, []);
  assert.equal(d.message, "rank 0 waits in send for rank 1, which has finished");
});

test("mixed: a recv wait on one side, a send wait on the other", () => {
  const g = new WaitForGraph(2);
  g.sent(1, 0, "x");
  g.blocked(1, [], null, [{ to: 0, tag: "x" }]);   // rank 1 sends with tag "x" …
  g.blocked(0, [{ from: 1, tag: "y" }], null);     // … rank 0 waits for tag "y"
  const d = g.deadlock();
  assert.deepEqual(d.cycle, [0, 1]);
  assert.equal(d.message, 'rank 0 waits for rank 1 (tag "y"), rank 1 waits in send for rank 0 (tag "x"); ' +
    'rank 0 waits for tag "y" but holds an unreceived message from rank 1 with tag "x"');
});

test("blocked() without sends keeps its old meaning (recv and barrier waits only)", () => {
  const g = new WaitForGraph(2);
  g.blocked(0, [{ from: 1, tag: 0 }], null);
  g.blocked(1, [{ from: 0, tag: 0 }], null);
  assert.deepEqual(g.state[0].sends, []);
  assert.equal(g.deadlock().message, "rank 0 waits for rank 1, rank 1 waits for rank 0");
});
