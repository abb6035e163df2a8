// exercises.js — the lab's exercises as data (format: web/README.md). Each has the learner
// write one piece of the lab's trainer (lessons/lab/programs/), which then trains on the Workers and must equal
// single-device training (exercises/lab_checks.js):
//   exercises/dp_sync.js        data parallelism: average the gradients with one bucketed all-reduce
//   exercises/fsdp_gather.js    FSDP: gather a block's weights from the shards, point to point
//   exercises/tp_fg.js          tensor parallelism: place Megatron's f and g
//   exercises/one_f_one_b.js    pipeline parallelism: a 1F1B schedule generator
import { dpSync } from "./exercises/dp_sync.js";
import { fsdpGather } from "./exercises/fsdp_gather.js";
import { tpFg } from "./exercises/tp_fg.js";
import { oneFOneBSchedule } from "./exercises/one_f_one_b.js";
import { formatBytes } from "../../web/units.js";

// Each rank returns the trainer's report (its coordinates, shards, memory, timeline); its output pane shows a
// summary instead of that raw object.
export function labResultText({ coord, shards, memory }) {
  const values = shards.reduce((n, s) => n + s.data.length, 0);
  return `d${coord.d} t${coord.t} p${coord.p}: holds ${shards.length} tensor${shards.length === 1 ? "" : "s"} ` +
    `(${values} values, ${formatBytes(8 * values)}), peak activations ${formatBytes(memory.activations)}`;
}

export default [
  dpSync,             // lab-dp-sync
  fsdpGather,         // lab-fsdp-gather
  tpFg,               // lab-tp-fg
  oneFOneBSchedule,   // lab-1f1b
].map((exercise) => ({ ...exercise, summarizeResult: labResultText }));
