// message_args.js — the checks every send/recv/recvAny makes of its arguments, with the message the learner reads.
// One place for both clusters: the Workers (rank_messaging.js) and the judge's in-thread run (cluster/local_run.js).

export function checkRank(peer, size, what) {
  if (!Number.isInteger(peer) || peer < 0 || peer >= size) {
    throw new RangeError(`${what}: there is no rank ${JSON.stringify(peer)} (ranks are 0 … ${size - 1})`);
  }
}

export function checkTag(tag, what) {
  if (!Number.isInteger(tag) && typeof tag !== "string") {
    throw new TypeError(`${what}: tag must be an integer or a string (got ${JSON.stringify(tag)})`);
  }
}
