// local_network.js — the judge cluster's network (local_run.js): messages in flight on each ordered pair of
// ranks, oldest first (per-pair FIFO, as MPI guarantees), messages that have arrived and wait for a recv(), and
// recv() calls that wait for a message. Matching is by source and tag, in order; which pair delivers next is
// the scheduler's choice.
const boxKey = (dst, src, tag) => `${dst}|${src}#${JSON.stringify(tag)}`;  // tags are integers or strings; 1 ≠ "1"
const queue = (map, key) => map.get(key) ?? map.set(key, []).get(key);

export class LocalNetwork {
  #pairs = new Map();     // "src>dst" → messages in flight, oldest first
  #mailbox = new Map();   // "dst|src#tag" → arrived messages no recv() has taken yet
  #waiting = new Map();   // "dst|src#tag" → recv() waiters, oldest first

  // A message ({ src, dst, tag, … }) leaves its sender.
  post(message) { queue(this.#pairs, `${message.src}>${message.dst}`).push(message); }

  // The pairs that have a message in flight: each one's oldest message is the one that may arrive next.
  heads() { return [...this.#pairs.values()].filter((q) => q.length); }

  // The oldest message of `pair` (an entry of heads()) arrives; → the recv waiter it matches, or null (it waits
  // in the mailbox).
  arrive(pair) {
    const message = pair.shift();
    const key = boxKey(message.dst, message.src, message.tag);
    const waiter = this.#waiting.get(key)?.shift() ?? null;
    if (!waiter) queue(this.#mailbox, key).push(message);
    return { message, waiter };
  }

  // Rank dst calls recv(from, tag): → the arrived message it matches, or null (the waiter waits for one).
  match(dst, from, tag, waiter) {
    const key = boxKey(dst, from, tag);
    const message = this.#mailbox.get(key)?.shift() ?? null;
    if (!message) queue(this.#waiting, key).push(waiter);
    return message;
  }
}
