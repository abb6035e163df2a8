// deadlock.js — the page's wait-for bookkeeping for a Worker cluster: who is blocked on what, how many
// messages are in flight on each (src → dst, tag), and whether any rank can still make progress.
//
// Every Worker reports to the page, in order, on its own channel:
//   sent(src→dst, tag)        BEFORE the data leaves the Worker,
//   received(src→dst, tag)    when a recv() consumes a message,
//   blocked(on, barrierGen, sends)   when its code is suspended on recv()/barrier() — or, in synchronous-send
//                             mode, on a send() whose message the receiver has not taken yet — and nothing
//                             else can wake it,
//   barrier entry, done.
// The page declares a deadlock the moment
//     every unfinished rank is blocked, and no blocked recv has a matching message in flight
//     (in flight = sent − received, as reported so far), and no barrier can complete.
// No timer is involved, and there are no false positives. The reports of different Workers may reach the page
// in any interleaving, so suppose the page sees rank r blocked (its latest report) but r has in fact already
// consumed a message m from rank s. Then s reported sent(m) before transmitting m. If the page has processed
// that report, m counts as in flight (r's "received" comes after its "blocked" on r's ordered channel, so it
// was not processed yet) → not a deadlock. If it has not, then s's latest state seen by the page predates
// sent(m): "running" (→ not a deadlock) or "blocked" although s had actually woken up earlier to send m — the
// same situation one step earlier in time, with s in place of r. A barrier is released by the page itself, so
// a rank the page sees in a barrier really is still in it. The chain moves strictly back in time, so it ends
// in one of the "not a deadlock" cases. (This relies on only messages, barrier releases and the rank's own
// timers waking a rank — see rank_worker.js.)
//
// When it is a deadlock we explain it the way the simulator does: a wait-for cycle,
//   "rank 0 waits for rank 1, rank 1 waits for rank 0"            cycle [0, 1]
// or, if there is none, a chain ending at a rank that has already returned,
//   "rank 2 waits for rank 1, rank 1 waits for rank 0, which has finished"   cycle []
// A rank in a barrier waits for every rank that has not reached it: "rank 0 waits in barrier for rank 1".
//
// Synchronous sends (MPI_Ssend; the clusters' sendMode "sync"): a send completes only when the receiver's
// recv() has taken the message. A rank blocked in such a send to d waits for d ("rank 0 waits in send for
// rank 1"); its message was reported sent, so it counts as in flight, and d's matching recv can take it. The
// receiver's "received" report is what completes the send, so it also clears the sender's wait on it (the
// sender wakes because of that very take; the argument above applies unchanged, with the take in place of the
// message). Two ranks that both `await send()` to each other before receiving wait for each other:
//   "rank 0 waits in send for rank 1, rank 1 waits in send for rank 0"          cycle [0, 1]

export class WaitForGraph {
  constructor(size) {
    this.size = size;
    this.state = Array.from({ length: size }, () => ({ kind: "running" }));  // running | blocked | done
    this.inFlight = new Map();   // "src>dst#tag" → { src, dst, tag, count: sent − received (as reported) }
    this.barrierGen = 0;         // generation of the barrier that has not been released yet
    this.arrived = new Set();    // ranks inside that barrier
  }

  sent(src, dst, tag) { this.#add(src, dst, tag, +1); }

  // A send() whose postMessage failed (the value could not be cloned): the message never left.
  unsent(src, dst, tag) { this.#add(src, dst, tag, -1); }

  received(src, dst, tag) {
    this.#add(src, dst, tag, -1);
    if (this.state[dst].kind !== "done") this.state[dst] = { kind: "running" };
    const sender = this.state[src];  // a synchronous send of src to dst with this tag is complete
    const i = sender.kind === "blocked" ? sender.sends.findIndex((w) => w.to === dst && sameTag(w.tag, tag)) : -1;
    if (i >= 0) {
      const sends = sender.sends.filter((_, k) => k !== i);
      const still = sends.length > 0 || sender.on.length > 0 || sender.barrierGen === this.barrierGen;
      this.state[src] = still ? { ...sender, sends } : { kind: "running" };
    }
  }

  // on: [{ from, tag }] — the recvs the rank is suspended on; barrierGen: the barrier it waits in, or null;
  // sends: [{ to, tag }] — the synchronous sends it is suspended on (none in buffered mode).
  blocked(rank, on, barrierGen, sends = []) { this.state[rank] = { kind: "blocked", on, barrierGen, sends }; }

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
      if (edges.some((e) => e.kind === "recv" && this.#count(e.to, r, e.tag) > 0)) return null;
    }
    const waits = live.map((r) => ({
      rank: r, on: this.state[r].on, sends: this.state[r].sends, barrier: this.state[r].barrierGen === this.barrierGen }));
    const cycle = this.#findCycle(live);
    if (cycle) {
      const text = cycle.map((step) => describe(step.rank, step.edge)).join(", ");
      return { cycle: cycle.map((step) => step.rank), waits, message: text + this.#tagHints(cycle) };
    }
    const chain = this.#chainToFinished(live[0]);
    const text = chain.map((step) => describe(step.rank, step.edge)).join(", ");
    return { cycle: [], waits, message: `${text}, which has finished${this.#tagHints(chain)}` };
  }

  // A common cause is a tag mismatch: the message is there, under another tag. Say so (as the simulator does).
  #tagHints(steps) {
    let hints = "";
    for (const { rank, edge } of steps) {
      if (edge.kind !== "recv") continue;
      const other = [...this.inFlight.values()].find(
        (m) => m.src === edge.to && m.dst === rank && m.count > 0 && m.tag !== edge.tag);
      if (other) {
        hints += `; rank ${rank} waits for tag ${JSON.stringify(edge.tag)} but holds an unreceived message` +
                 ` from rank ${edge.to} with tag ${JSON.stringify(other.tag)}`;
      }
    }
    return hints;
  }

  // Out-edges of rank r in the wait-for graph; null if r is not blocked. Recv edges first (by source), then
  // send edges (by destination), then one barrier edge per rank that has not arrived.
  #edges(r) {
    const s = this.state[r];
    if (s.kind !== "blocked") return null;
    const edges = [
      ...s.on.map((w) => ({ kind: "recv", to: w.from, tag: w.tag })).sort((a, b) => a.to - b.to),
      ...s.sends.map((w) => ({ kind: "send", to: w.to, tag: w.tag })).sort((a, b) => a.to - b.to),
    ];
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

  #count(src, dst, tag) { return this.inFlight.get(`${src}>${dst}#${JSON.stringify(tag)}`)?.count ?? 0; }

  #add(src, dst, tag, delta) {
    const key = `${src}>${dst}#${JSON.stringify(tag)}`;  // tags are integers or strings; 1 ≠ "1"
    const entry = this.inFlight.get(key) ?? this.inFlight.set(key, { src, dst, tag, count: 0 }).get(key);
    entry.count += delta;
  }
}

const sameTag = (a, b) => JSON.stringify(a) === JSON.stringify(b);  // 1 ≠ "1", as in the in-flight keys

function describe(rank, edge) {
  if (edge.kind === "barrier") return `rank ${rank} waits in barrier for rank ${edge.to}`;
  const tag = edge.tag === 0 ? "" : ` (tag ${JSON.stringify(edge.tag)})`;
  return `rank ${rank} waits${edge.kind === "send" ? " in send" : ""} for rank ${edge.to}${tag}`;
}
