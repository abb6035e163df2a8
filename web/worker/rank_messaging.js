// rank_messaging.js — one run's point-to-point messages and barriers, inside a rank's Worker.
//
//   send(to, data, { tag, move })  copies data (or moves it) onto the port to rank `to`. Buffered mode: returns
//                                  a resolved promise at once. Sync mode (MPI_Ssend): the promise resolves when
//                                  the receiver's recv() has taken the message (it answers with an ack), so
//                                  `await ctx.send(…)` before the matching recv deadlocks as it would in MPI.
//   recv(from, { tag })            a promise of the next message from `from` with `tag` (per pair and tag, in
//                                  the order sent).
//   recvAny({ tag })               a promise of { from, data }: the message with `tag` that arrived first, from
//                                  whichever rank (MPI_ANY_SOURCE); per-sender order still holds. A message goes
//                                  to the oldest waiting recv()/recvAny() it matches, as MPI matches posted receives.
//   probe(from?, { tag })          a promise of { from, tag, bytes } of the oldest message from `from` (no source:
//                                  any) with `tag` that has arrived and no recv() has taken, or null (MPI_Iprobe).
//                                  Never waits for a message: it answers after one turn of the event loop, so
//                                  messages already on their way are let in and a loop of probes cannot freeze
//                                  the Worker; the message stays for a recv() to take.
//   barrier()                      the page counts arrivals and releases everyone (cluster_run.js).
// Every call a rank can block in keeps its call site (waiter.site: an Error, whose stack is read only if the rank
// is reported blocked there): the deadlock and watchdog verdicts name the learner's line (rank_blocking.js).
// Delivery fuzzing (a seed): every message that arrives is held for a seeded random delay before recv() may
// take it, keeping per-sender order, so ranks see other interleavings of different senders' messages.
import { mulberry32 } from "../exercise/random.js";
import { checkRank, checkTag, probeArgs } from "./message_args.js";
import { messageBytes, preparePayload, scratchArrays } from "./message_size.js";

const FUZZ_MAX_MS = 2;  // the longest a fuzzed message is held

const boxKey = (src, tag) => `${src}#${typeof tag === "string" ? "s" : "n"}${tag}`;  // tag 1 ≠ tag "1"; src "any": recvAny
const queue = (map, key) => map.get(key) ?? map.set(key, []).get(key);

export class RankMessaging {
  #mailbox = new Map();  // boxKey → messages arrived, not yet received
  #waiters = new Map();  // boxKey → recv waiters, oldest first
  #acks = new Map();     // id → sync-send waiter
  #held = new Map();     // src → { queue: [messages], timer } (fuzzing)
  #nextId = 0;
  #posted = 0;    // recv waiters numbered in the order they were posted
  #arrived = 0;   // messages numbered in the order they arrived
  #barrier = null;
  #barrierGen = 0;
  #turn = null;    // a MessageChannel to itself: probe() answers after one turn of the event loop
  #probes = [];    // probe() answers waiting for that turn
  #cleared = false;

  // r: { id, rank, size, ports, sendMode, fuzzSeed, watch, spans, reporter, timers, live(what) }.
  constructor(r) {
    Object.assign(this, r);
    this.rng = r.fuzzSeed == null ? null : mulberry32((r.fuzzSeed ^ Math.imul(r.rank + 1, 0x9e3779b1)) >>> 0);
    this.scratch = scratchArrays();  // chunks are copied here and cloned by postMessage: no allocation per send
  }

  send(to, data, { tag = 0, move = false } = {}) {
    this.live("send");
    checkRank(to, this.size, "send");
    checkTag(tag, "send");
    const start = this.spans.now();
    const bytes = messageBytes(data);
    const { payload, transfer } = preparePayload(data, move, this.scratch);
    const id = this.#nextId++;
    const sync = this.sendMode === "sync";
    try {
      this.ports[to].postMessage({ run: this.id, id, tag, bytes, sync, data: payload }, transfer);
    } catch (err) {
      throw new TypeError(`send: this value cannot be sent to another Worker (${err.message})`);
    }
    this.reporter.sent(to, tag, id, bytes, start);
    this.spans.send(to, bytes, start, this.spans.now());
    if (!sync) return Promise.resolve();
    const waiter = { kind: "send", to, tag, id, from: to, site: new Error() };
    this.#acks.set(id, waiter);
    return this.#pending(waiter);
  }

  recv(from, { tag = 0 } = {}) {
    this.live("recv");
    checkRank(from, this.size, "recv");
    checkTag(tag, "recv");
    const waiter = { kind: "recv", from, tag, order: ++this.#posted, site: new Error() };
    const promise = this.#pending(waiter);
    const box = this.#mailbox.get(boxKey(from, tag));
    if (box?.length) this.#consume(from, box.shift(), waiter);
    else queue(this.#waiters, boxKey(from, tag)).push(waiter);
    return promise;
  }

  recvAny({ tag = 0 } = {}) {
    this.live("recvAny");
    checkTag(tag, "recvAny");
    const waiter = { kind: "recv", from: "any", tag, order: ++this.#posted, site: new Error() };
    const promise = this.#pending(waiter);
    let first = null;
    for (let src = 0; src < this.size; src++) {
      const head = this.#mailbox.get(boxKey(src, tag))?.[0];
      if (head && (!first || head.arrival < first.msg.arrival)) first = { src, msg: head };
    }
    if (first) this.#consume(first.src, this.#mailbox.get(boxKey(first.src, tag)).shift(), waiter);
    else queue(this.#waiters, boxKey("any", tag)).push(waiter);
    return promise;
  }

  // A probe() not yet answered: the rank is polling (its answer comes after one turn of the event loop).
  get probing() { return this.#probes.length > 0; }

  probe(from, options) {
    this.live("probe");
    const { from: source, tag } = probeArgs(from, options, this.size);
    const promise = new Promise((resolve) => this.#probes.push(() => resolve(this.#peek(source, tag))));
    if (!this.#turn) {
      this.#turn = new MessageChannel();
      this.#turn.port1.onmessage = () => { if (!this.#cleared) this.#probes.shift()?.(); };
    }
    this.#turn.port2.postMessage(null);
    return promise;
  }

  // The oldest arrived, untaken message that a recv(source, { tag }) (source "any": recvAny) would take next.
  #peek(source, tag) {
    let first = null;
    for (let src = 0; src < this.size; src++) {
      if (source !== "any" && src !== source) continue;
      const head = this.#mailbox.get(boxKey(src, tag))?.[0];
      if (head && (!first || head.arrival < first.msg.arrival)) first = { src, msg: head };
    }
    return first ? { from: first.src, tag: first.msg.tag, bytes: first.msg.bytes } : null;
  }

  barrier(post) {
    this.live("barrier");
    if (this.#barrier) throw new Error("barrier() was called again before the previous barrier() had resolved — await it");
    const waiter = { kind: "barrier", gen: this.#barrierGen, from: null, site: new Error() };
    this.#barrier = waiter;
    const promise = this.#pending(waiter);
    post(waiter.gen);
    return promise;
  }

  release(gen) {
    const waiter = this.#barrier;
    if (!waiter || waiter.gen !== gen) return;
    this.#barrier = null;
    this.#barrierGen += 1;
    waiter.settle(undefined, 0);
  }

  // A message of this run from rank `src` (already filtered by run id).
  arrive(src, msg) {
    if (msg.ack !== undefined) { this.#acks.get(msg.ack)?.settle(undefined, 0); this.#acks.delete(msg.ack); return; }
    if (!this.rng) { this.#deliver(src, msg); return; }
    const held = this.#held.get(src) ?? this.#held.set(src, { queue: [], timer: 0 }).get(src);
    held.queue.push(msg);
    if (!held.timer) this.#holdNext(src, held);
  }

  // The run ended: nothing pending may wake the learner's code any more.
  clear() {
    for (const held of this.#held.values()) this.timers.clearTimeout(held.timer);
    this.#held.clear(); this.#waiters.clear(); this.#mailbox.clear(); this.#acks.clear();
    this.#barrier = null;
    this.#probes = [];
    this.#cleared = true;
    this.#turn?.port1.close();
  }

  #holdNext(src, held) {
    held.timer = this.timers.setTimeout(() => {
      held.timer = 0;
      this.#deliver(src, held.queue.shift());
      if (held.queue.length) this.#holdNext(src, held);
    }, this.rng() * FUZZ_MAX_MS);
  }

  // The message goes to the older of the recv(src) and recvAny() waiting for it, else into the mailbox.
  #deliver(src, msg) {
    msg.arrival = ++this.#arrived;
    const mine = this.#waiters.get(boxKey(src, msg.tag));
    const any = this.#waiters.get(boxKey("any", msg.tag));
    const waiters = !any?.length ? mine : !mine?.length ? any : mine[0].order < any[0].order ? mine : any;
    if (waiters?.length) this.#consume(src, msg, waiters.shift());
    else queue(this.#mailbox, boxKey(src, msg.tag)).push(msg);
  }

  #consume(src, msg, waiter) {
    this.reporter.received(src, msg.tag, msg.id, this.spans.now());
    if (msg.sync) this.ports[src].postMessage({ run: this.id, ack: msg.id });
    waiter.settle(waiter.from === "any" ? { from: src, data: msg.data } : msg.data, msg.bytes);
  }

  #pending(waiter) {
    return this.watch.pending(waiter, {
      awaited: () => this.spans.beginWait(waiter.from === "any" ? null : waiter.from),
      settled: (bytes) => this.spans.endWait(bytes),
    });
  }
}
