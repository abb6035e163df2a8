// deadlock.test.mjs — WaitForGraph (web/cluster/deadlock.js) with synchronous sends, in Node: a rank
// blocked in a send waits for the receiver, its message counts as in flight, a take reported by the receiver
// completes the send, and a cycle of sends is reported the way recv cycles are. (Its recv and barrier behaviour
// is also tested in tests/e2e/cluster.test.mjs, next to the Worker cluster that feeds it.)
//   node --test tests/web/deadlock.test.mjs
import { test } from "node:test";
import assert from "node:assert/strict";
import { WaitForGraph } from "../../web/cluster/deadlock.js";

const send = (to, tag, id) => ({ kind: "send", to, tag, id });

test("two ranks that both await a synchronous send to each other: a cycle of send waits", () => {
  const g = new WaitForGraph(2);
  g.sent(0, 1, 0);
  g.blocked(0, [send(1, 0, 0)], null);
  assert.equal(g.deadlock(), null, "rank 1 is still running");
  g.sent(1, 0, 0);
  g.blocked(1, [send(0, 0, 0)], null);
  const d = g.deadlock();
  assert.deepEqual(d.cycle, [0, 1]);
  assert.equal(d.message, "rank 0 waits in send for rank 1, rank 1 waits in send for rank 0");
});

test("a send wait is no deadlock while the receiver's matching recv can take the message in flight", () => {
  const g = new WaitForGraph(2);
  g.sent(0, 1, 7);
  g.blocked(0, [send(1, 7, 3)], null);
  g.blocked(1, [{ kind: "recv", from: 0, tag: 7 }], null);
  assert.equal(g.deadlock(), null);
});

test("a take the receiver reported completes the send, even while the sender's last report says it waits", () => {
  const g = new WaitForGraph(2);
  g.sent(0, 1, 0);
  g.blocked(0, [send(1, 0, 4)], null);
  g.receivedId(0, 1, 0, 4);                          // rank 1 took message 4 of rank 0 …
  g.blocked(1, [{ kind: "recv", from: 0, tag: 0 }], null);   // … and now waits for the next one
  assert.equal(g.deadlock(), null, "rank 0 has been released: its next report will say so");
  g.blocked(0, [send(1, 0, 5)], null);               // it was: it sent message 5 and waits for that one
  g.sent(0, 1, 0);
  assert.equal(g.deadlock(), null, "message 5 is in flight for rank 1's recv");
});

test("a ring of synchronous sends, with tags, is reported from its smallest rank", () => {
  const g = new WaitForGraph(3);
  for (const [src, dst] of [[1, 2], [2, 0], [0, 1]]) {
    g.sent(src, dst, 3);
    g.blocked(src, [send(dst, 3, 0)], null);
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
  g.blocked(0, [send(1, 0, 0)], null);
  const d = g.deadlock();
  assert.deepEqual(d.cycle, []);
  assert.equal(d.message, "rank 0 waits in send for rank 1, which has finished");
});

test("mixed: a recv wait on one side, a send wait with another tag on the other", () => {
  const g = new WaitForGraph(2);
  g.sent(1, 0, "x");
  g.blocked(1, [send(0, "x", 0)], null);              // rank 1 sends with tag "x" …
  g.blocked(0, [{ kind: "recv", from: 1, tag: "y" }], null);   // … rank 0 waits for tag "y"
  const d = g.deadlock();
  assert.deepEqual(d.cycle, [0, 1]);
  assert.equal(d.message, 'rank 0 waits for rank 1 (tag "y"), rank 1 waits in send for rank 0 (tag "x"); ' +
    'rank 0 waits for tag "y" but holds an unreceived message from rank 1 with tag "x"');
});

test("a recvAny wait (from \"any\") is no deadlock while any rank's message with its tag is in flight to it", () => {
  const g = new WaitForGraph(3);
  g.sent(2, 0, "push");
  g.blocked(0, [{ kind: "recv", from: "any", tag: "push" }], null);
  g.blocked(1, [{ kind: "recv", from: 0, tag: 0 }], null);
  g.done(2);
  assert.equal(g.deadlock(), null, "rank 2's push can still wake rank 0");
  g.receivedId(2, 0, "push", 0);
  const d = g.deadlock();
  assert.deepEqual(d.cycle, [0, 1]);
  assert.equal(d.message, "rank 0 waits for a message from any rank (tag \"push\"), rank 1 waits for rank 0");
});

test("a rank that waits to receive from itself is told so, not as a wait for another rank", () => {
  const g = new WaitForGraph(3);
  g.blocked(0, [{ kind: "recv", from: 2, tag: 0 }], null);
  g.blocked(1, [{ kind: "recv", from: 1, tag: "push" }], null);
  g.blocked(2, [{ kind: "recv", from: 1, tag: 0 }], null);
  const d = g.deadlock();
  assert.deepEqual(d.cycle, [1]);
  assert.equal(d.message, 'rank 1 waits for a message from itself (tag "push")');
});
