// pipe_replay.js — a learner's operation lists (web/programs/pipe_lists.js) replayed on a clock with fixed times per chunk:
// F takes forward, a B with a W of its own takes backwardInput, a W backwardWeight, a B without one (the full
// backward) backwardInput + backwardWeight; messages are free. F(mb, c) waits for F(mb, c − 1), B(mb, c) for
// B(mb, c + 1) (the last chunk's B follows its own F). What pipelineTimeline computes for the core's schedules,
// here for lists the core did not generate: a learner's, in Week 5's exercises and the lab's lab-1f1b. Shipped into
// Week 5's Workers as source text, where it finds a deadlock before a device waits forever. Pure, self-contained.
//   → { makespan, spans: the core's PipelineSpans and what each waited for, [{ device, kind, microBatch, chunk,
//       start, end, after }], stuck: null | sentence }
export function replaySchedules(lists, times = { forward: 1, backwardInput: 1, backwardWeight: 1 }) {
  const P = lists.length, C = Math.max(0, ...lists.flat().map((o) => o.chunk + 1));
  const split = lists.map((ops) => new Set(ops.filter((o) => o.op === "W").map((o) => `${o.mb}:${o.chunk}`)));
  const length = (d, o) => (o.op === "F" ? times.forward : o.op === "W" ? times.backwardWeight
    : times.backwardInput + (split[d].has(`${o.mb}:${o.chunk}`) ? 0 : times.backwardWeight));
  const finished = new Map(), free = new Array(P).fill(0), next = new Array(P).fill(0), spans = [];
  const needs = (o) => (o.op === "F" ? (o.chunk > 0 ? `F${o.mb}:${o.chunk - 1}` : null)
    : o.op === "B" ? (o.chunk < C - 1 ? `B${o.mb}:${o.chunk + 1}` : null) : null);
  for (let moved = true; moved;) {
    moved = false;
    for (let d = 0; d < P; d++) {
      for (; next[d] < lists[d].length; next[d]++, moved = true) {
        const o = lists[d][next[d]], after = needs(o);
        if (after && !finished.has(after)) break;
        const start = Math.max(free[d], after ? finished.get(after) : 0), end = start + length(d, o);
        free[d] = end;
        finished.set(`${o.op}${o.mb}:${o.chunk}`, end);
        const full = o.op === "B" && !split[d].has(`${o.mb}:${o.chunk}`);
        spans.push({ device: d, kind: full ? "BW" : o.op, microBatch: o.mb, chunk: o.chunk, start, end, after });
      }
    }
  }
  const blocked = lists.map((ops, d) => (next[d] < ops.length ? { d, o: ops[next[d]] } : null)).filter(Boolean);
  if (!blocked.length) return { makespan: Math.max(0, ...free), spans, stuck: null };
  const say = (o) => `${o.op}(${o.mb}, chunk ${o.chunk})`;
  const waits = blocked.map(({ d, o }) => {
    const [, kind, mb, chunk] = needs(o).match(/^(F|B)(\d+):(\d+)$/);
    return `device ${d} waits at ${say(o)} for ${kind}(${mb}, chunk ${chunk}) on device ${Number(chunk) % P}`;
  });
  return { makespan: Infinity, spans, stuck: `the schedules deadlock: ${waits.join("; ")} — and none of those ever runs.` };
}

// Per device, the most (micro-batch, chunk) activations held at once: from F until the full B, or until W when
// the backward is split (W still reads the chunk's inputs) — peak_chunk_activations in the core.
export function peakActivations(lists) {
  return lists.map((ops) => {
    const split = new Set(ops.filter((o) => o.op === "W").map((o) => `${o.mb}:${o.chunk}`));
    let live = 0, peak = 0;
    for (const o of ops) {
      if (o.op === "F") peak = Math.max(peak, ++live);
      else if (o.op === "W" || !split.has(`${o.mb}:${o.chunk}`)) live--;
    }
    return peak;
  });
}
