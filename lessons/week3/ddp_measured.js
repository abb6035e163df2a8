// ddp_measured.js — what the ddp-workers widget says beside its measurement: section 3 teaches that
// bucketing with overlap wins on GPUs, while on the learner's Workers flat often measures fastest. A measurement that
// disagrees with the lesson is explained where it is shown: why Workers on a few cores differ from GPUs, and what the
// model (core.stepCost, calcs.priceDdps: the worked example, the 8 GPUs of a node on NVLink) predicts beside it.
import { formatSeconds } from "../../web/units.js";

// priced: priceDdps(core) (seconds per step); best: the measured fastest ("naive" | "flat" | "bucketed");
// workers, cores: P and navigator.hardwareConcurrency (null when the browser does not say).
export function measuredAgainstModel({ best, workers, cores, priced }) {
  const model = `The model prices the worked example on GPUs at flat ${formatSeconds(priced.flat.total)} and bucketed ` +
    `with overlap ${formatSeconds(priced.bucketed.total)} a step (the next widget), because a GPU's all-reduce runs on ` +
    "the network while the GPU keeps computing backward.";
  const here = `Here ${workers} Workers share ${cores ? `${cores} cores` : "your machine's cores"}: an all-reduce is ` +
    "Workers copying and adding, which takes the same cores backward needs, and every message costs a thread hand-off " +
    "of tens of microseconds — so overlap hides little and more all-reduces cost more.";
  const verdict = best === "bucketed"
    ? "Bucketed measured fastest here too, but by less than the model predicts for GPUs."
    : "That is why bucketing does not win on this machine, though it does on GPUs.";
  return `${verdict} ${model} ${here}`;
}
