// rank_spans.js — one rank's timeline as it runs: what it was doing between its communication calls.
//
// Span format (shared with the simulator; the timeline renders both):
//   { rank, kind: "compute" | "send" | "wait", start, end, peer, bytes }   start/end in SECONDS from run start.
// The spans of one rank tile its time without overlapping: a cursor marks where the open span began and every
// emitted span runs from the cursor to "now". The rank is
//   waiting  while its code is suspended on at least one unresolved recv()/barrier() — counted from the moment
//            the code awaits it (not when recv() was called: `const p = ctx.recv(1); work(); await p` overlaps
//            communication with computation, so work() is compute);
//   sending  for the duration of the send() call (copy + postMessage; it does not wait for the receiver);
//   computing otherwise.
// Clock: performance.timeOrigin + performance.now() in ms, common to all Workers of the page (browsers
// coarsen it to ~0.1 ms without cross-origin isolation, so sub-0.1 ms spans may collapse to zero length).
// On the wire (a rank's reports) the spans are flat numbers, SPAN_FIELDS per span — kind (an index into KINDS),
// start, end, peer (−1: none), bytes — since a busy rank closes a few spans per message and a report's structured
// clone of as many small objects costs both threads more than the numbers do; decodeSpans() rebuilds the objects.

export const clockMs = () => performance.timeOrigin + performance.now();

const KINDS = ["compute", "send", "wait"];
const SPAN_FIELDS = 5;

// The spans of `rank` from SpanRecorder.take()'s flat numbers, as objects (the format above).
export function decodeSpans(rank, flat, into = []) {
  for (let i = 0; i < flat.length; i += SPAN_FIELDS) {
    const peer = flat[i + 3];
    into.push({ rank, kind: KINDS[flat[i]], start: flat[i + 1], end: flat[i + 2], peer: peer < 0 ? null : peer, bytes: flat[i + 4] });
  }
  return into;
}

export class SpanRecorder {
  #spans = [];       // closed spans not yet handed to the page, flat (see above)
  #depth = 0;        // awaited, unresolved recv()/barrier() calls
  #peer = null;      // whom the current wait is for (the first awaited call)
  #bytes = 0;        // bytes received during the current wait

  constructor(rank, t0Ms) {
    this.rank = rank;
    this.t0Ms = t0Ms;          // run start on the common clock
    this.cursor = this.now();  // seconds; start of the open span
  }

  now() { return (clockMs() - this.t0Ms) / 1000; }

  // main() starts now: what happened before (loading the code, instantiating the core) is not on the timeline.
  restart() {
    this.#spans = [];
    this.#depth = 0;
    this.cursor = this.now();
  }

  get waiting() { return this.#depth > 0; }

  // The code now awaits a call that has not resolved: the open compute span ends here.
  beginWait(peer) {
    if (this.#depth++ > 0) return;
    this.#emit("compute", this.now());
    this.#peer = peer;
    this.#bytes = 0;
  }

  // An awaited call resolved (bytes: what it delivered). The wait ends when nothing awaited is left.
  endWait(bytes) {
    this.#bytes += bytes;
    if (--this.#depth > 0) return;
    this.#emit("wait", this.now(), this.#peer, this.#bytes);
  }

  // A send() call that ran from start to end (seconds). It may happen while another call is awaited
  // (e.g. inside Promise.all): the wait is then split around it.
  send(peer, bytes, start, end) {
    this.#emit(this.waiting ? "wait" : "compute", start, this.#peer, 0);
    this.#emit("send", end, peer, bytes, true);
  }

  // main() returned: close whatever is open.
  finish() { this.#emit(this.waiting ? "wait" : "compute", this.now(), this.#peer, this.#bytes); }

  // Spans closed since the last call, flat (each report to the page carries them; decodeSpans reads them).
  takeFlat() {
    const out = this.#spans;
    this.#spans = [];
    return out;
  }

  // The same as objects (the judge cluster, which has no wire to cross).
  take() { return decodeSpans(this.rank, this.takeFlat()); }

  // Zero-length compute/wait spans are dropped; a send is kept even when the clock did not advance.
  #emit(kind, end, peer = null, bytes = 0, keepEmpty = false) {
    if (kind === "compute") { peer = null; bytes = 0; }
    if (end > this.cursor || (keepEmpty && end >= this.cursor)) {
      this.#spans.push(KINDS.indexOf(kind), this.cursor, end, peer ?? -1, bytes);
    }
    this.cursor = Math.max(this.cursor, end);
  }
}
