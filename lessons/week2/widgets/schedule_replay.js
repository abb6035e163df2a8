// schedule_replay.js — what each rank holds after each message of a collective schedule, for the animation.
//
// The simulator says when every message starts and arrives; the schedule says which slots it carries and
// whether the receiver copies or reduces them. Matching the k-th message from s to d with s's k-th send to d
// and d's k-th receive from s (messages between one pair are FIFO), we replay the data symbolically: a slot
// holds the set of ranks whose contribution it contains. A reduce into a slot that already holds one of the
// incoming contributions is a double count, flagged.

const REDUCING = new Set(["reduce", "all-reduce", "reduce-scatter"]);

// Initial holdings per the collective's semantics: holdings[rank][slot] = sorted array of contributing ranks.
export function initialHoldings(schedule) {
  const { collective, ranks, root, owner, slotBytes } = schedule;
  const slots = slotBytes.length;
  return Array.from({ length: ranks }, (_, r) => Array.from({ length: slots }, (_, s) => {
    if (REDUCING.has(collective)) return [r];
    if (collective === "broadcast") return r === root ? [root] : [];
    if (collective === "all-gather") return owner[s] === r ? [r] : [];
    if (collective === "all-to-all") return Math.floor(s / ranks) === r ? [r] : [];
    return [];
  }));
}

// Frames: [{ time, holdings, changed: [[rank, slot]...], doubleCounted: [[rank, slot]...] }], first at t = 0.
export function replaySchedule(schedule, messages) {
  const holdings = initialHoldings(schedule);
  const sendSteps = new Map(), recvSteps = new Map();  // "s>d" → queue of steps
  schedule.steps.forEach((steps, rank) => steps.forEach((step) => {
    const key = step.op === "send" ? `${rank}>${step.peer}` : `${step.peer}>${rank}`;
    const map = step.op === "send" ? sendSteps : recvSteps;
    if (!map.has(key)) map.set(key, []);
    map.get(key).push(step);
  }));
  const events = [];
  for (const m of messages) {
    const key = `${m.src}>${m.dst}`;
    const send = sendSteps.get(key)?.shift(), recv = recvSteps.get(key)?.shift();
    if (!send || !recv) continue;
    const msg = { send, recv, src: m.src, dst: m.dst, payload: null };
    events.push({ time: m.started, arrive: false, msg }, { time: m.arrived, arrive: true, msg });
  }
  events.sort((a, b) => a.time - b.time || Number(b.arrive) - Number(a.arrive));
  const frames = [{ time: 0, holdings: structuredClone(holdings), changed: [], doubleCounted: [] }];
  let frame = null;
  for (const e of events) {
    if (!e.arrive) { e.msg.payload = e.msg.send.slots.map((s) => holdings[e.msg.src][s]); continue; }
    if (!frame || frame.time !== e.time) {
      if (frame) frames.push({ ...frame, holdings: structuredClone(holdings) });
      frame = { time: e.time, changed: [], doubleCounted: [] };
    }
    e.msg.recv.slots.forEach((slot, i) => {
      const incoming = e.msg.payload[i] ?? [];
      const mine = holdings[e.msg.dst][slot];
      if (e.msg.recv.op === "recv-reduce") {
        if (incoming.some((r) => mine.includes(r))) frame.doubleCounted.push([e.msg.dst, slot]);
        holdings[e.msg.dst][slot] = [...new Set([...mine, ...incoming])].sort((a, b) => a - b);
      } else {
        holdings[e.msg.dst][slot] = [...incoming];
      }
      frame.changed.push([e.msg.dst, slot]);
    });
  }
  if (frame) frames.push({ ...frame, holdings: structuredClone(holdings) });
  return frames;
}

// "0–3" for a run of ranks, "0,2,5" otherwise, "·" for nothing.
export function describeHolding(ranks) {
  if (!ranks.length) return "·";
  const contiguous = ranks.every((r, i) => i === 0 || r === ranks[i - 1] + 1);
  if (contiguous && ranks.length > 2) return `${ranks[0]}–${ranks.at(-1)}`;
  return ranks.join(",");
}
