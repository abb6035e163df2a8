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

// probe(from?, { tag }) and probe({ tag }): → { from, tag } with from a rank or "any" (MPI_ANY_SOURCE: no source
// given, undefined, or "any"). The answer is the same in both clusters: { from, tag, bytes } of the oldest message
// that has arrived and that no recv has taken yet, or null (MPI_Iprobe's flag and status; the message stays).
export function probeArgs(from, options, size) {
  if (from !== null && typeof from === "object" && options === undefined) { options = from; from = undefined; }
  const source = from === undefined || from === "any" ? "any" : from;
  if (source !== "any") checkRank(source, size, "probe");
  if (options !== undefined && (options === null || typeof options !== "object")) {
    throw new TypeError(`probe: the options must be an object such as { tag: 1 } (got ${JSON.stringify(options)})`);
  }
  const tag = options?.tag ?? 0;
  checkTag(tag, "probe");
  return { from: source, tag };
}
