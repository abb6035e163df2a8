// megatron_program.js — Week 5's tensor-parallel block forward as the program every Worker runs: a stack of the
// course's MLP blocks, every rank holding the whole weights and the whole input x (rows × D), each block computed
// by the learner's `blockForward` over a tensor-parallel group of t ranks. The group's collectives are the lab's
// rings (web/programs/comm_group.js: every message tagged "<kind>:tp|<block>|<call>", so the trace shows what each block sent).
// The functions below are real module functions; their text, joined after the learner's, is the program.
import { makeActivity, makeGroup } from "../../../web/programs/comm_group.js";
import * as ring from "../../../web/programs/ring.js";

// The core's kernels with the rows and the activation bound in, and the slicing helpers a split needs. Matrices
// are row-major Float64Arrays: W_in (F × D), W_out (D × F).
export function megatronKernels(core, rows, D, activation) {
  const copyRows = (m, cols, begin, end) => m.slice(begin * cols, end * cols);
  const copyColumns = (m, cols, begin, end) => {
    const n = m.length / cols, w = end - begin, out = new Float64Array(n * w);
    for (let i = 0; i < n; i++) out.set(m.subarray(i * cols + begin, i * cols + end), i * w);
    return out;
  };
  return {
    rows, width: D,
    // (rows × Fl) pre and act = act(x·wInᵀ) for wIn (Fl × D).
    blockInForward: (x, wIn) => core.blockInForward(x, wIn, rows, D, activation),
    // (rows × width) = a·wOutᵀ for a (rows × Fl), wOut (width × Fl); width defaults to D.
    blockOutForward: (a, wOut, width = D) => core.blockOutForward(a, wOut, rows, width),
    // Rows [begin, end) of a matrix with `cols` columns; its columns [begin, end) — copies.
    rowsOf: copyRows,
    columnsOf: copyColumns,
    // t blocks of (rows × c), one after the other (what an all-gather returns), side by side: (rows × t·c).
    sideBySide(stacked, parts) {
      const c = stacked.length / (rows * parts), out = new Float64Array(stacked.length);
      for (let p = 0; p < parts; p++) {
        for (let i = 0; i < rows; i++) out.set(stacked.subarray((p * rows + i) * c, (p * rows + i + 1) * c), i * (parts * c) + p * c);
      }
      return out;
    },
  };
}

export async function main(ctx) {
  const { model, rows, seed } = ctx.input;
  if (!ctx.core) throw new Error("this exercise needs the wasm core in every Worker (ctx.core is null)");
  // The same weights and x on every rank: the student trainSingle starts from (seed + 1) and its first batch.
  const weights = ctx.core.mlpInit({ ...model, seed: seed + 1 }), x = ctx.core.teacherBatch({ model, seed, batch: rows }).inputs;
  const D = model.width, F = model.hidden;
  const activity = makeActivity(ctx);
  const tp = makeGroup(ctx, "tp", Array.from({ length: ctx.size }, (_, r) => r), activity);
  const k = megatronKernels(ctx.core, rows, D, model.activation);
  let h = Float64Array.from(x);
  for (let b = 0; b < model.layers; b++) {
    tp.step = b;   // the trace's tags say which block a message belongs to
    const y = await blockForward(h, { wIn: weights[2 * b], wOut: weights[2 * b + 1], D, F }, tp, k);
    if (!(y instanceof Float64Array) || y.length !== rows * D) {
      throw new Error(`blockForward must return the block's output, a Float64Array of rows × D = ${rows * D} values ` +
        `(got ${y?.length ?? typeof y} in block ${b})`);
    }
    h = y;
  }
  return { y: h };
}

export function megatronProgram(learnerCode) {
  return [learnerCode, ...Object.values(ring), makeActivity, makeGroup, megatronKernels, main].map(String).join("\n\n") + "\n";
}

// Every rank gets the same input, the case's configuration; it draws the weights and x itself.
export const megatronInputs = (config) => Array.from({ length: config.ranks }, () => config);

// One device: the same blocks with the whole matrices, y = x + act(x·W_inᵀ)·W_outᵀ.
export function singleDeviceForward(core, { model, rows, seed }) {
  const weights = core.mlpInit({ ...model, seed: seed + 1 });
  let h = core.teacherBatch({ model, seed, batch: rows }).inputs;
  for (let b = 0; b < model.layers; b++) {
    const { act } = core.blockInForward(h, weights[2 * b], rows, model.width, model.activation);
    const y = core.blockOutForward(act, weights[2 * b + 1], rows, model.width);
    for (let i = 0; i < y.length; i++) y[i] += h[i];
    h = y;
  }
  return h;
}
