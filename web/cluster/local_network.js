// local_network.js — the judge cluster's network (local_run.js): messages in flight on each ordered pair of
// ranks, oldest first (per-pair FIFO, as MPI guarantees), messages that have arrived and wait for a recv(), and
// recv() calls that wait for a message. Matching is by source and tag, in order; which pair delivers next is
// the scheduler's choice. A recvAny() waits under source "any" and takes, of the messages with its tag that have
// arrived, the first to arrive; an arriving message goes to the older of the recv()/recvAny() waiting for it.
const boxKey = (dst, src, tag) => `${dst}|${src}#${JSON.stringify(tag)}`;  // tags are integers or strings; 1 ≠ "1"
const queue = (map, key) => map.get(key) ?? map.set(key, []).get(key);

export class LocalNetwork {
  #pairs = new Map();     // "src>dst" → messages in flight, oldest first
  #mailbox = new Map();   // "dst|src#tag" → arrived messages no recv() has taken yet
  #waiting = new Map();   // "dst|src#tag" → recv() waiters, oldest first (src "any": recvAny() waiters)
  #arrived = 0;           // messages numbered in the order they arrived
  #posted = 0;            // waiters numbered in the order they were posted

  // A message ({ src, dst, tag, … }) leaves its sender.
  post(message) { queue(this.#pairs, `${message.src}>${message.dst}`).push(message); }

  // The pairs that have a message in flight: each one's oldest message is the one that may arrive next.
  heads() { return [...this.#pairs.values()].filter((q) => q.length); }

  // The oldest message of `pair` (an entry of heads()) arrives; → the recv waiter it matches, or null (it waits
  // in the mailbox).
  arrive(pair) {
    const message = pair.shift();
    message.arrival = ++this.#arrived;
    const key = boxKey(message.dst, message.src, message.tag);
    const mine = this.#waiting.get(key);
    const any = this.#waiting.get(boxKey(message.dst, "any", message.tag));
    const waiters = !any?.length ? mine : !mine?.length ? any : mine[0].order < any[0].order ? mine : any;
    const waiter = waiters?.shift() ?? null;
    if (!waiter) queue(this.#mailbox, key).push(message);
    return { message, waiter };
  }

  // Rank dst calls recv(from, tag) (from "any": recvAny(tag)) of a world of `size` ranks: → the arrived message
  // it matches, or null (the waiter waits for one).
  match(dst, from, tag, waiter, size) {
    waiter.order = ++this.#posted;
    const box = from === "any" ? this.#firstArrived(dst, tag, size) : this.#mailbox.get(boxKey(dst, from, tag));
    const message = box?.shift() ?? null;
    if (!message) queue(this.#waiting, boxKey(dst, from, tag)).push(waiter);
    return message;
  }

  // probe(): the oldest arrived message of dst that matches (from "any": the first to arrive over every source)
  // and that no recv() has taken — it stays where it is; or null.
  peek(dst, from, tag, size) {
    const box = from === "any" ? this.#firstArrived(dst, tag, size) : this.#mailbox.get(boxKey(dst, from, tag));
    return box?.[0] ?? null;
  }

  // The mailbox of dst whose oldest message with `tag` arrived first, over every source; or null.
  #firstArrived(dst, tag, size) {
    let first = null;
    for (let src = 0; src < size; src++) {
      const box = this.#mailbox.get(boxKey(dst, src, tag));
      if (box?.length && (!first || box[0].arrival < first[0].arrival)) first = box;
    }
    return first;
  }
}
