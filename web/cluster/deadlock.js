// deadlock.js — the page's wait-for bookkeeping for a Worker cluster: who is blocked on what, how many
// messages are in flight on each (src → dst, tag), and whether any rank can still make progress.
//
// Each Worker reports to the page, in order, on its own channel (rank_reports.js): batches of records — every
// message it sent (src→dst, tag, id) and every message its recv() took — each batch with the rank's state at
// the moment the batch was posted: running, blocked (suspended on recv/send/barrier calls and nothing else can
// wake it: rank_blocking.js), or done. Records are batched, so a report may be late, but it is never wrong
// about the moment it describes. The page declares a deadlock the moment
//     every unfinished rank's latest report says blocked, no blocked recv has a matching message in flight
//     (in flight = sent as reported by the sender − received as reported by the receiver), no blocked sync send
//     has had its message taken, and no barrier can complete.
// No timer is involved, and there are no false positives. Suppose the page declares a deadlock but some rank x
// is in fact not stuck: x's latest report (blocked on waits W, at time T_x) is stale, and after T_x x consumed a
// message m matching W, sent by s at time t_m. If s's latest report is later than t_m, the page counts m as sent
// but (by T_x) not received: in flight on one of x's blocked recvs → not a deadlock, contradiction. So s's latest
// report is earlier than t_m, and it says blocked: s too woke after its report, by a message consumed before
// t_m. (A sync send is the same with the roles swapped: its sender wakes when the receiver reports taking the
// message. A barrier is released by the page itself, so a rank the page sees in a barrier really is still in
// it.) Each step moves strictly back in time through finitely many events, so the chain ends in the first
// case: a contradiction. (This relies on only messages, barrier releases and the rank's own timers waking a
// rank — see rank_worker.js.) A real deadlock is always found: its ranks' final reports describe it exactly.
//
// When it is a deadlock we explain it the way the simulator does: a wait-for cycle,
//   "rank 0 waits for rank 1, rank 1 waits for rank 0"            cycle [0, 1]
// or, if there is none, a chain ending at a rank that has already returned,
//   "rank 2 waits for rank 1, rank 1 waits for rank 0, which has finished"   cycle []
// A rank in a barrier waits for every rank that has not reached it: "rank 0 waits in barrier for rank 1"; a rank
// in a synchronous send waits for the receiver: "rank 0 waits in send for rank 1".
// A rank in a recvAny() (from "any") waits for every other rank, any of which could send to it; it can go on if
// a message with its tag is in flight to it from anyone: "rank 0 waits for a message from any rank".

export class WaitForGraph {
  #pairs;
  #taken;

  constructor(size) {
    this.size = size;
    this.state = Array.from({ length: size }, () => ({ kind: "running" }));  // running | blocked | done
    // Per pair, the messages in flight: #pairs[src * size + dst] is a Map tag → count (sent − received, as reported;
    // a Map keeps tag 1 and tag "1" apart). Counted per message, so kept cheap: no key strings, and a tag whose
    // count is back to 0 is dropped (the lab's tags name their step, so they would otherwise pile up).
    this.#pairs = Array.from({ length: size * size }, () => new Map());
    this.#taken = Array.from({ length: size }, () => new Set());  // per sender, ids of messages a receiver took
    this.barrierGen = 0;         // generation of the barrier that has not been released yet
    this.arrived = new Set();    // ranks inside that barrier
  }

  sent(src, dst, tag) { this.#add(src, dst, tag, +1); }

  // A send() whose postMessage failed (the value could not be cloned): the message never left.
  unsent(src, dst, tag) { this.#add(src, dst, tag, -1); }

  received(src, dst, tag) {
    this.#add(src, dst, tag, -1);
    if (this.state[dst].kind !== "done") this.state[dst] = { kind: "running" };
  }

  // A record of a batched report: the receiver took message `id` of src (its state comes with the report).
  receivedId(src, dst, tag, id) {
    this.#add(src, dst, tag, -1);
    this.#taken[src].add(id);   // sync sends wait on it
  }

  // A batched report's state: { kind: "running" } | { kind: "blocked", on, barrierGen } | { kind: "done" }.
  setState(rank, state) {
    if (this.state[rank].kind === "done") return;
    if (state.kind === "blocked") this.blocked(rank, state.on, state.barrierGen);
    else this.state[rank] = { kind: state.kind };
  }

  // on: [{ kind: "recv", from, tag } | { kind: "send", to, tag, id }] — the calls the rank is suspended on
  // (an entry without a kind is a recv); barrierGen: the barrier it waits in, or null.
  blocked(rank, on, barrierGen) { this.state[rank] = { kind: "blocked", on, barrierGen }; }

  running(rank) { if (this.state[rank].kind !== "done") this.state[rank] = { kind: "running" }; }

  done(rank) { this.state[rank] = { kind: "done" }; }

  // Returns true when this arrival completes the barrier; the caller then releases everyone.
  enterBarrier(rank) {
    this.arrived.add(rank);
    if (this.arrived.size < this.size) return false;
    this.arrived.clear();
    this.barrierGen += 1;
    for (let r = 0; r < this.size; r++) this.running(r);  // every rank was in it; all wake up
    return true;
  }

  // null while some rank can still make progress; otherwise { cycle, message, waits }.
  deadlock() {
    const live = this.state.map((s, r) => r).filter((r) => this.state[r].kind !== "done");
    if (live.length === 0) return null;
    for (const r of live) {
      const edges = this.#edges(r);
      if (edges === null || edges.length === 0) return null;          // running, or not really blocked
      if (this.state[r].on.some((w) => w.kind !== "send" && this.#coming(w.from, r, w.tag))) return null;
      if (edges.some((e) => e.kind === "send" && this.#taken[r].has(e.id))) return null;
    }
    const waits = live.map((r) => ({
      rank: r, on: this.state[r].on, barrier: this.state[r].barrierGen === this.barrierGen }));
    const cycle = this.#findCycle(live);
    if (cycle) {
      const text = cycle.map((step) => describe(step.rank, step.edge)).join(", ");
      return { cycle: cycle.map((step) => step.rank), waits, message: text + this.#tagHints(cycle) };
    }
    const chain = this.#chainToFinished(live[0]);
    const text = chain.map((step) => describe(step.rank, step.edge)).join(", ");
    const last = chain[chain.length - 1];
    const others = this.state.filter((_, q) => q !== last.rank);
    const end = !last.edge.any ? ", which has finished"
      : others.every((st) => st.kind === "done") ? ", and every other rank has finished"
      : `; rank ${last.edge.to} has finished and the others are waiting too`;
    return { cycle: [], waits, message: `${text}${end}${this.#tagHints(chain)}` };
  }

  // A common cause is a tag mismatch: the message is there, under another tag. Say so (as the simulator does).
  #tagHints(steps) {
    let hints = "";
    for (const { rank, edge } of steps) {
      if (edge.kind !== "recv") continue;
      const other = this.#inFlightTo(rank).find((m) => (edge.any || m.src === edge.to) && m.tag !== edge.tag);
      if (other) {
        hints += `; rank ${rank} waits for tag ${JSON.stringify(edge.tag)} but holds an unreceived message` +
                 ` from rank ${other.src} with tag ${JSON.stringify(other.tag)}`;
      }
    }
    return hints;
  }

  // Out-edges of rank r in the wait-for graph; null if r is not blocked. Recv edges first (by source),
  // then one barrier edge per rank that has not arrived.
  #edges(r) {
    const s = this.state[r];
    if (s.kind !== "blocked") return null;
    const edges = s.on.flatMap((w) => (w.kind === "send" ? [{ kind: "send", to: w.to, tag: w.tag, id: w.id }]
      : w.from !== "any" ? [{ kind: "recv", to: w.from, tag: w.tag }]
      : this.state.map((_, q) => ({ kind: "recv", to: q, tag: w.tag, any: true })).filter((e) => e.to !== r)))
      .sort((a, b) => a.to - b.to);
    if (s.barrierGen === this.barrierGen) {
      for (let q = 0; q < this.size; q++) if (!this.arrived.has(q)) edges.push({ kind: "barrier", to: q });
    }
    return edges;
  }

  // A cycle as [{ rank, edge }] (edge leads to the next rank), rotated to start at its smallest rank.
  #findCycle(live) {
    const onStack = new Map();  // rank → index in path
    const finished = new Set();
    const path = [];
    const visit = (r) => {
      onStack.set(r, path.length);
      for (const edge of this.#edges(r) ?? []) {
        path.push({ rank: r, edge });
        if (onStack.has(edge.to)) return path.slice(onStack.get(edge.to));
        if (!finished.has(edge.to) && this.state[edge.to].kind === "blocked") {
          const found = visit(edge.to);
          if (found) return found;
        }
        path.pop();
      }
      onStack.delete(r);
      finished.add(r);
      return null;
    };
    for (const r of live) {
      if (finished.has(r)) continue;
      const cycle = visit(r);
      if (cycle) {
        const start = cycle.reduce((best, step, i) => (step.rank < cycle[best].rank ? i : best), 0);
        return [...cycle.slice(start), ...cycle.slice(0, start)];
      }
    }
    return null;
  }

  // With no cycle every path of waits ends at a finished rank; follow the first edge from `r` to one.
  #chainToFinished(r) {
    const chain = [];
    for (;;) {
      const edges = this.#edges(r);
      const edge = edges.find((e) => this.state[e.to].kind === "done") ?? edges[0];
      chain.push({ rank: r, edge });
      if (this.state[edge.to].kind === "done") return chain;
      r = edge.to;
    }
  }

  // Is a message with `tag` in flight from src (or, src "any", from anyone) to dst?
  #coming(src, dst, tag) {
    if (src !== "any") return (this.#pairs[src * this.size + dst].get(tag) ?? 0) > 0;
    return this.#inFlightTo(dst).some((m) => m.tag === tag);
  }

  // [{ src, dst, tag, count }] of the messages in flight to dst, by sender.
  #inFlightTo(dst) {
    const found = [];
    for (let src = 0; src < this.size; src++) {
      for (const [tag, count] of this.#pairs[src * this.size + dst]) if (count > 0) found.push({ src, dst, tag, count });
    }
    return found;
  }

  #add(src, dst, tag, delta) {
    const pair = this.#pairs[src * this.size + dst];
    const count = (pair.get(tag) ?? 0) + delta;
    if (count === 0) pair.delete(tag);
    else pair.set(tag, count);
  }
}

function describe(rank, edge) {
  if (edge.kind === "barrier") return `rank ${rank} waits in barrier for rank ${edge.to}`;
  const tag = edge.tag === 0 ? "" : ` (tag ${JSON.stringify(edge.tag)})`;
  if (edge.kind === "send") return `rank ${rank} waits in send for rank ${edge.to}${tag}`;
  if (edge.any) return `rank ${rank} waits for a message from any rank${tag}`;
  if (edge.to === rank) return `rank ${rank} waits for a message from itself${tag}`;   // a recv(from) with from = own rank
  return `rank ${rank} waits for rank ${edge.to}${tag}`;
}
