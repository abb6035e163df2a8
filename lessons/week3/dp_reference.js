// dp_reference.js — the single-device run a data-parallel run on the Workers must equal (core.trainSingle on the
// same model, optimizer, global batch, steps and seed), for the widgets that compare with it (dp-curves, ddp-workers).
// It trains for about a second on a quiet laptop, so the widgets run it off the main thread through
// web/lesson/core_tasks.js — tasks.call("singleDevice", cfg) — and the page keeps scrolling meanwhile.
export function singleDevice(core, { model, optimizer, batch, steps, seed }) {
  return core.trainSingle({ model, optimizer, batch, steps, seed });
}
