// calcs.js — every number in the planner page's prose, computed by the core (calc.js fills <span data-calc="key">;
// tests/e2e/planner.test.mjs checks the HTML's text equals these). Scenarios:
//   EXAMPLE  GPT-3 175B on 64 nodes × 8 A100-80GB, t = 8, p = 8 (d = 8), b = 1, B = 1536, selective recomputation,
//            sequence parallelism, data parallelism overlapped, no ZeRO — the planner widget's first state
//   Table 1  Narayanan et al. 2021's ten rows, each on its published layout (planner_setup.js publishedSettings)
import { formatBytes, formatCount, formatNumber, formatSeconds, formatSI } from "../../web/units.js";
import { plan, presets, publishedSettings, table1Errors } from "./planner_setup.js";

export const EXAMPLE = { model: "gpt3-175b", gpu: "a100-80gb", nodes: 64, t: 8, p: 8, v: 1, b: 1, B: 1536, zero: 0,
  sp: true, recompute: "selective", overlap: true };

const gpu = (core, name) => presets(core).gpus.find((g) => g.name === name);
const percent = (x) => `${formatNumber(100 * x, { digits: 2 })}%`;
const example = (core, change = {}) => plan(core, { ...EXAMPLE, ...change });
const lastRow = (core) => presets(core).table1.at(-1);
const rowNamed = (core, model) => presets(core).table1.find((r) => r.model === model);
const rowPlan = (core, model) => plan(core, publishedSettings(rowNamed(core, model)));
// A Table 1 row's relative error, signed, as the Table 1 widget writes it.
function rowError(core, model) {
  const e = table1Errors(core).errors[presets(core).table1.indexOf(rowNamed(core, model))];
  return `${e >= 0 ? "+" : "−"}${formatNumber(Math.abs(100 * e), { digits: 2 })}%`;
}
const share = (r, part) => percent(r.time[part] / r.time.total);

// Narayanan et al. 2021, eq. 3, written out here (not the core's copy): FLOPs per iteration with full recomputation.
function eq3(model, B) {
  const { sequence: s, layers: l, hidden: h, vocabulary: V } = model;
  return 96 * B * s * l * h * h * (1 + s / (6 * h) + V / (16 * l * h));
}

export const CALCS = {
  "a100-peak": (core) => formatSI(gpu(core, "a100-80gb").peakFlops, "FLOP/s"),
  "a100-hbm": (core) => formatSI(gpu(core, "a100-80gb").hbmBandwidth, "B/s"),
  "h100-peak": (core) => formatSI(gpu(core, "h100-sxm").peakFlops, "FLOP/s"),
  "eta-gemm": (core) => String(gpu(core, "a100-80gb").gemmEfficiency),
  "eta-hbm": (core) => String(gpu(core, "a100-80gb").hbmEfficiency),
  "t1-first-pct": (core) => percent(presets(core).table1[0].tflopsPerGpu / gpu(core, "a100-80gb").peakFlops * 1e12),
  "t1-last-pct": (core) => percent(lastRow(core).tflopsPerGpu / gpu(core, "a100-80gb").peakFlops * 1e12),
  "t1-mean": (core) => percent(table1Errors(core).mean),
  "t1-worst": (core) => percent(table1Errors(core).worst),
  "t1-err-gpt-39.1b": (core) => rowError(core, "gpt-39.1b"),
  "t1-err-gpt-76.1b": (core) => rowError(core, "gpt-76.1b"),
  "t1-err-gpt-529.6b": (core) => rowError(core, "gpt-529.6b"),
  "t1-err-gpt-1t": (core) => rowError(core, "gpt-1t"),
  "t1-first-d": (core) => String(plan(core, publishedSettings(presets(core).table1[0])).layout.d),
  "t1-pipeline-gpt-76.1b": (core) => share(rowPlan(core, "gpt-76.1b"), "pipeline"),
  "t1-bubble-gpt-1t": (core) => share(rowPlan(core, "gpt-1t"), "bubble"),
  "t1-flops": (core) => formatNumber(plan(core, publishedSettings(lastRow(core))).hardwareFlops),
  "t1-eq3": (core) => formatNumber(eq3(presets(core).models.find((m) => m.name === lastRow(core).model),
    lastRow(core).globalBatch)),
  "ex-d": (core) => String(example(core).layout.d),
  "ex-m": (core) => formatCount(example(core).microBatches),
  "ex-step": (core) => formatSeconds(example(core).time.total),
  "ex-compute": (core) => formatSeconds(example(core).time.compute),
  "ex-bubble": (core) => formatSeconds(example(core).time.bubble),
  "ex-tensor": (core) => formatSeconds(example(core).time.tensor),
  "ex-mfu": (core) => `${formatNumber(100 * example(core).mfu)}%`,   // as the planner widget writes it
  "ex-hfu": (core) => `${formatNumber(100 * example(core).hfu)}%`,
  "ex-memory": (core) => formatBytes(example(core).memory.total),
  "ex-activations": (core) => formatBytes(example(core).memory.activations),
  "ex-none-memory": (core) => formatBytes(example(core, { recompute: "none" }).memory.total),
};
