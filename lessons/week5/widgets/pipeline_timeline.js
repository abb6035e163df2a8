// pipeline_timeline.js — widget "pipeline-timeline" (sections #pipelines … #zero-bubble): one schedule generated, checked and timed by
// core.pipelineTimeline — GPipe, 1F1B, interleaved 1F1B (v chunks per device) or ZB-H1 — drawn device by device, with
// its bubble both ways, peak activations and messages; "Train" runs core.pipelineTrain for the schedule shown
// (P·v blocks of the MLP, 5 Adam steps) beside one device.
import { button, controlRow, readout, select, slider } from "../../../web/ui/controls.js";
import { formatCount, formatNumber, formatPercent } from "../../../web/units.js";
import { EXAMPLE_PIPE, SCHEDULES, SCHEDULE_NAMES, TRAIN, trainSchedule } from "../pipeline_setup.js";
import { renderPipeline } from "./pipeline_svg.js";

const pct = (x) => formatPercent(x, { decimals: 1 });

export function mountPipelineTimeline(figure, core) {
  const schedule = select({ label: "Schedule", value: "1f1b", options: SCHEDULES.map((s) => [s, SCHEDULE_NAMES[s]]), onChange: draw });
  const devices = select({ label: "Devices P", value: String(EXAMPLE_PIPE.devices), options: [2, 4, 8].map((p) => [String(p), String(p)]), onChange: draw });
  const groups = slider({ label: "Micro-batches m", min: 1, max: 8, step: 1, value: EXAMPLE_PIPE.microBatches / EXAMPLE_PIPE.devices,
    format: (k) => String(Math.round(k) * Number(devices.value)), onInput: draw });
  const chunks = select({ label: "Chunks v", value: String(EXAMPLE_PIPE.chunksPerDevice), options: [2, 3, 4].map((v) => [String(v), String(v)]), onChange: draw });
  const train = button("Train beside one device", () => runTraining());
  controlRow(figure, schedule, devices, groups, chunks, train);
  const out = readout(figure);
  const drawing = document.createElement("div");
  out.after(drawing);
  const trained = readout(figure, "widget-readout widget-train");
  drawing.after(trained);

  const current = () => {
    const P = Number(devices.value), s = schedule.value;
    return { schedule: s, devices: P, microBatches: Math.round(groups.value) * P,
      chunksPerDevice: s === "interleaved" ? Number(chunks.value) : 1 };
  };
  function draw() {
    groups.value = groups.value;   // refresh the m label after a change of P
    chunks.el.querySelector("select").disabled = schedule.value !== "interleaved";   // v is interleaving's alone
    const req = current(), r = core.pipelineTimeline(req);
    renderPipeline(drawing, r, { title: `${SCHEDULE_NAMES[req.schedule]}, P = ${req.devices}, m = ${req.microBatches}` +
      (req.chunksPerDevice > 1 ? `, v = ${req.chunksPerDevice}` : "") });
    // The core times every box in units of one chunk's forward; with v chunks a chunk is 1/v of a stage, so the
    // prose (which counts in a stage's forward) gives the interleaved step v times smaller — say which unit this is.
    const unit = req.chunksPerDevice > 1 ? `one chunk's forward, 1/${req.chunksPerDevice} of a stage's` : "one stage's forward";
    out.innerHTML = `Step <strong>${formatNumber(r.makespan)}</strong> against an ideal of ${formatNumber(r.ideal)} ` +
      `(time unit: ${unit}): idle ` +
      `<strong>${pct(r.bubbleFraction)}</strong> of the step, <strong>${pct(r.bubbleOverIdeal)}</strong> over the ideal. ` +
      `Peak activations per device: ${r.peakActivations.join(", ")} chunk${r.chunksPerDevice > 1 ? "s (each 1/v of a stage)" : "s"}; ` +
      `${formatCount(r.messages)} point-to-point messages per step.`;
    trained.textContent = "";
  }
  function runTraining() {
    const req = current();
    const r = trainSchedule(core, req.schedule, req);
    const last = r.losses.length - 1;
    trained.textContent = `${SCHEDULE_NAMES[req.schedule]} trained the MLP (${req.devices * (req.chunksPerDevice)} blocks, ` +
      `${TRAIN.steps} Adam steps) beside one device: loss ${formatNumber(r.losses[last], { digits: 4 })} against ` +
      `${formatNumber(r.singleLosses[last], { digits: 4 })}; parameters within ${formatNumber(r.maxRelativeDifference, { digits: 2 })} ` +
      `(relative); at most ${Math.max(...r.peakInFlight)} micro-batches in flight on a device; ${formatCount(r.messages)} messages per step.`;
  }
  draw();
}
