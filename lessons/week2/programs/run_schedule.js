// run_schedule.js — the program that executes a core-generated schedule on the Worker cluster.
// Every rank gets its own step list; slots are Float32Arrays, so each message's bytes equal the schedule's.
export const RUN_SCHEDULE = `async function main(ctx) {
  // ctx.input = { steps, slotElements, slots }: this rank's steps, elements per slot, initial slot data (or null)
  const { steps, slotElements } = ctx.input;
  const slots = ctx.input.slots.map((s, i) => s ?? new Float32Array(slotElements[i]));
  for (const step of steps) {
    if (step.op === "send") {
      const payload = new Float32Array(step.slots.reduce((n, s) => n + slotElements[s], 0));
      let offset = 0;
      for (const s of step.slots) { payload.set(slots[s], offset); offset += slotElements[s]; }
      ctx.send(step.peer, payload, { move: true });
    } else {
      const payload = await ctx.recv(step.peer);
      let offset = 0;
      for (const s of step.slots) {
        const part = payload.subarray(offset, offset + slotElements[s]);
        if (step.op === "recv-reduce") for (let i = 0; i < part.length; i++) slots[s][i] += part[i];
        else slots[s] = part.slice();
        offset += slotElements[s];
      }
    }
  }
  return slots;
}`;

// Initial data: rank r, slot s, element i holds a small integer (exact in float32 when summed).
export const initialValue = (rank, slot, i) => (rank + 1) * 100 + ((slot * 7 + i) % 50);

// Inputs for every rank and, per rank, the slots the collective promises with their expected contents.
export function scheduleInputs(schedule, holdings) {
  const slotElements = schedule.slotBytes.map((b) => Math.round(b / 4));
  const inputs = holdings.map((slots, rank) => ({
    steps: schedule.steps[rank], slotElements,
    slots: slots.map((owners, s) => (owners.length
      ? Float32Array.from({ length: slotElements[s] }, (_, i) => initialValue(rank, s, i)) : null)),
  }));
  return { inputs, slotElements };
}
