// calcs.js — every number in the planner page's prose, computed by the core (calc.js fills <span data-calc="key">;
// tests/e2e/planner.test.mjs checks the HTML's text equals these). Scenarios:
//   EXAMPLE    GPT-3 175B on 64 nodes × 8 A100-80GB, t = 8, p = 8 (d = 8), b = 1, B = 1536, selective recomputation,
//              sequence parallelism, data parallelism overlapped, no ZeRO, FlashAttention-2, BF16 — the planner
//              widget's first state
//   ATTENTION  one layer's attention core of gpt3-175b at s = 2048, t = 8, b = 1 on an A100 (as Narayanan et al.
//              ran it), and of llama3-8b at s = LONG, t = 1, b = 1 on an H100
//   tables     core.plannerValidation: Narayanan et al. 2021 Table 1 and llm-foundry's H100 and A100 tables; each
//              table's worst row, and the rows MISSES names (found by the start of their label)
import { formatBytes, formatCount, formatNumber, formatSeconds, formatSI } from "../../web/units.js";
import { TABLE1, attentionAt, plan, presets, settingsOf, signedPercent, table1Settings, tableOf } from "./planner_setup.js";

export const EXAMPLE = { model: "gpt3-175b", gpu: "a100-80gb", nodes: 64, t: 8, p: 8, v: 1, b: 1, B: 1536, zero: 0,
  sp: true, recompute: "selective", overlap: true, attention: "flash-attention-2", precision: "bf16" };
export const ATTENTION = { model: "gpt3-175b", gpu: "a100-80gb", s: 2048, t: 8, b: 1 };
export const LONG = { model: "llama3-8b", gpu: "h100-sxm", s: 65536, t: 1, b: 1 };
export const TABLES = { t1: TABLE1, h100: "llm-foundry-h100-bf16", a100: "llm-foundry-a100-80gb" };
// Rows the prose names: the longest H100 sequence, and an A100 row that checkpoints at a short sequence (its model,
// sequence, GPU and nodes, to price it again and read its hardware FLOPs).
export const MISSES = {
  "h100-long": { table: TABLES.h100, label: "mpt-7b, s 65536," },
  "a100-ckpt": { table: TABLES.a100, label: "mpt-13b, s 1024,", model: "mpt-13b", seq: 1024, gpu: "a100-80gb", nodes: 1 },
};

const gpu = (core, name) => presets(core).gpus.find((g) => g.name === name);
const percent = (x) => `${formatNumber(100 * x, { digits: 2 })}%`;
const example = (core, change = {}) => plan(core, { ...EXAMPLE, ...change });
const lastRow = (core) => presets(core).table1.length - 1;
const attention = (core, at, kernel) => attentionAt(core, { ...at, kernel });
const seconds = (r) => formatSeconds(r.forwardSeconds + r.backwardSeconds);

// Narayanan et al. 2021, eq. 3, written out here (not the core's copy): FLOPs per iteration with full recomputation.
function eq3(model, B) {
  const { sequence: s, layers: l, hidden: h, vocabulary: V } = model;
  return 96 * B * s * l * h * h * (1 + s / (6 * h) + V / (16 * l * h));
}

const worstRow = (t) => t.rows.reduce((a, b) => (Math.abs(b.relativeError) > Math.abs(a.relativeError) ? b : a));
const namedRow = (core, key) => tableOf(core, MISSES[key].table).rows.find((r) => r.label.startsWith(MISSES[key].label));
const rowCalcs = (prefix, row) => [[`${prefix}-row`, (core) => row(core).label],
  [`${prefix}-err`, (core) => signedPercent(row(core).relativeError)], [`${prefix}-term`, (core) => row(core).mainTerm]];

// Each table's mean and worst |error|, its number of rows and its worst row (label, signed error, largest term
// besides the matmuls): cal-<t1|h100|a100>-<mean|worst|rows>, cal-<…>-worst-<row|err|term>; the named rows alike.
const tableCalcs = Object.fromEntries([
  ...Object.entries(TABLES).flatMap(([key, id]) => [
    [`cal-${key}-mean`, (core) => percent(tableOf(core, id).meanAbsError)],
    [`cal-${key}-worst`, (core) => percent(tableOf(core, id).worstAbsError)],
    [`cal-${key}-rows`, (core) => formatCount(tableOf(core, id).rows.length)],
    ...rowCalcs(`cal-${key}-worst`, (core) => worstRow(tableOf(core, id))),
  ]),
  ...Object.keys(MISSES).flatMap((key) => rowCalcs(`cal-${key}`, (core) => namedRow(core, key))),
]);

// The checkpointing A100 row: its published MFU, the hardware FLOP/s per GPU that MFU means once the rerun forward
// is counted (the planner's hardware/model FLOPs for the row), and the planner's matmul rate ρ·R on an A100.
function implied(core) {
  const row = namedRow(core, "a100-ckpt");
  const r = plan(core, settingsOf(MISSES["a100-ckpt"], row.layout));
  return row.published * (r.hardwareFlops / r.modelFlops) * gpu(core, MISSES["a100-ckpt"].gpu).peakFlops;
}

export const CALCS = {
  "a100-peak": (core) => formatSI(gpu(core, "a100-80gb").peakFlops, "FLOP/s"),
  "a100-hbm": (core) => formatSI(gpu(core, "a100-80gb").hbmBandwidth, "B/s"),
  "a100-matmul": (core) => formatSI(gpu(core, "a100-80gb").kernels.matmulFlops, "FLOP/s"),
  "a100-hbm-measured": (core) => formatSI(gpu(core, "a100-80gb").kernels.hbmBandwidth, "B/s"),
  "matmul-in-step": (core) => String(gpu(core, "a100-80gb").matmulInStep),
  "t1-flops": (core) => formatNumber(plan(core, table1Settings(core, lastRow(core))).hardwareFlops),
  "t1-eq3": (core) => formatNumber(eq3(presets(core).models.find((m) => m.name === presets(core).table1.at(-1).model),
    presets(core).table1.at(-1).globalBatch)),
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
  "ex-unfused-none-memory": (core) => formatBytes(example(core, { recompute: "none", attention: "unfused" }).memory.total),
  "att-ex-unfused-time": (core) => seconds(attention(core, ATTENTION, "unfused")),
  "att-ex-fused-time": (core) => seconds(attention(core, ATTENTION, "flash-attention-2")),
  "att-ex-unfused-kept": (core) => formatBytes(attention(core, ATTENTION, "unfused").activationBytes),
  "att-ex-fused-kept": (core) => formatBytes(attention(core, ATTENTION, "flash-attention-2").activationBytes),
  "att-long-s": () => formatCount(LONG.s),
  "att-long-unfused-kept": (core) => formatBytes(attention(core, LONG, "unfused").activationBytes),
  "att-long-fused-kept": (core) => formatBytes(attention(core, LONG, "flash-attention-2").activationBytes),
  ...tableCalcs,
  "cal-a100-ckpt-published": (core) => percent(namedRow(core, "a100-ckpt").published),
  "cal-a100-ckpt-implied": (core) => formatSI(implied(core), "FLOP/s"),
  "cal-a100-rho-rate": (core) => formatSI(gpu(core, "a100-80gb").matmulInStep * gpu(core, "a100-80gb").kernels.matmulFlops,
    "FLOP/s"),
};
