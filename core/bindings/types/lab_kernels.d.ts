// types/lab_kernels.d.ts — the lab's kernels: one block's products, activations, the loss, the optimizer step, the
// teacher task and the MoE router, each one call on Float64Arrays (core/include/dsml/block_rows.h, mlp.h,
// optimizer.h, moe.h).
// Part of the wasm core's API (../dsml.d.ts, which states the conventions every function follows): the types
// of this domain, and its functions, added to DsmlCore by module augmentation.

import type { LabMoe } from "./model_parallel";
import type { ModelConfig, OptimizerConfig } from "./training";

export interface BlockInForwardResult {
  /** (rows × Fl) = x·wInᵀ */
  pre: Float64Array;
  /** (rows × Fl) = act(pre) */
  act: Float64Array;
}

export interface BlockOutBackwardResult {
  /** (D × Fl) = dyᵀ·a */
  dWOut: Float64Array;
  /** (rows × Fl) = dy·wOut */
  dA: Float64Array;
}

export interface BlockInBackwardResult {
  /** (Fl × D) = dHᵀ·x, dH = dA ⊙ act'(pre) */
  dWIn: Float64Array;
  /** (rows × D) = dH·wIn (no residual: the caller adds dy) */
  dX: Float64Array;
}

declare module "../dsml" {
  interface DsmlCore {
    /** A block's first product on a rank's slice: x (rows × D), wIn (Fl × D), Fl = wIn.length / D.
     *  @throws on lengths that do not fit rows, width, or an unknown activation. */
    blockInForward(x: Float64Array, wIn: Float64Array, rows: number, width: number,
                   activation: "relu" | "gelu" | "tanh"): BlockInForwardResult;
    /** (rows × D) = a·wOutᵀ for a (rows × Fl), wOut (D × Fl) (no residual: the caller adds x). @throws as
     *  blockInForward. */
    blockOutForward(a: Float64Array, wOut: Float64Array, rows: number, width: number): Float64Array;
    /** Gradients of blockOutForward given dy (rows × D). @throws as blockInForward. */
    blockOutBackward(dy: Float64Array, a: Float64Array, wOut: Float64Array, rows: number,
                     width: number): BlockOutBackwardResult;
    /** Gradients of blockInForward given dA (rows × Fl), the kept pre (rows × Fl) and x. @throws as
     *  blockInForward. */
    blockInBackward(dA: Float64Array, pre: Float64Array, x: Float64Array, wIn: Float64Array, rows: number,
                    width: number, activation: "relu" | "gelu" | "tanh"): BlockInBackwardResult;
    /** blockOutBackward writing into the caller's arrays dWOut (D × Fl) and dA (rows × Fl), which it reuses step
     *  after step (allocating a buffer costs a Web Worker more than the kernel). @throws as blockInForward, or
     *  when an output is not a Float64Array of its shape's length. */
    blockOutBackwardInto(dy: Float64Array, a: Float64Array, wOut: Float64Array, rows: number, width: number,
                         dWOut: Float64Array, dA: Float64Array): void;
    /** blockInBackward writing into dWIn (Fl × D) and dX (rows × D). @throws as blockOutBackwardInto. */
    blockInBackwardInto(dA: Float64Array, pre: Float64Array, x: Float64Array, wIn: Float64Array, rows: number,
                        width: number, activation: "relu" | "gelu" | "tanh", dWIn: Float64Array, dX: Float64Array): void;
    /** B of a zero-bubble pipeline (Qi et al. 2024): the input-gradient half of blockOutBackward + blockInBackward
     *  given dy (rows × D), the kept pre (rows × Fl), wIn (Fl × D) and wOut (D × Fl): dH (rows × Fl) =
     *  (dy·wOut) ⊙ act'(pre), kept for W, and dX (rows × D) = dH·wIn (no residual: the caller adds dy) — bit for bit
     *  the full backward's dX. @throws as blockInForward. */
    blockBackwardInput(dy: Float64Array, pre: Float64Array, wIn: Float64Array, wOut: Float64Array, rows: number,
                       width: number, activation: "relu" | "gelu" | "tanh"): { dH: Float64Array; dX: Float64Array };
    /** W, the weight-gradient half, from B's dy and dH and the forward's act (rows × Fl) and x (rows × D):
     *  dWOut (D × Fl) = dyᵀ·act, dWIn (Fl × D) = dHᵀ·x — bit for bit the full backward's. @throws as
     *  blockInForward. */
    blockBackwardWeight(dy: Float64Array, act: Float64Array, dH: Float64Array, x: Float64Array, rows: number,
                        width: number): { dWOut: Float64Array; dWIn: Float64Array };
    /** act(pre), elementwise. @throws on an unknown activation. */
    activate(pre: Float64Array, activation: "relu" | "gelu" | "tanh"): Float64Array;
    /** loss = Σ(y − t)²/n and grad = 2(y − t)/n, n = y.length. @throws on different lengths or an empty y. */
    mseLoss(y: Float64Array, t: Float64Array): { loss: number; grad: Float64Array };
    /** The initial parameters [w_in0 (F × D), w_out0 (D × F), w_in1, …] of init_mlp(model, seed).
     *  @throws on a bad model or one larger than layers·width·hidden = 1e8. */
    mlpInit(request: ModelConfig & { seed?: number }): Float64Array[];
    /** Step `step`'s batch of the teacher task: inputs and targets (batch × D). @throws on a bad model or
     *  batch. */
    teacherBatch(request: { model: ModelConfig; seed?: number; step?: number; batch: number }):
        { inputs: Float64Array; targets: Float64Array };
    /** One optimizer update of a tensor or any shard of one, at 1-based step t (the rate warmed up as the
     *  Optimizer would): the update each ZeRO rank applies to its shard. m and v may be empty (zeros); state a
     *  kind does not use comes back as given. @throws for LARS and LAMB (they need whole-tensor norms), t < 1, or
     *  lengths that differ from w's. */
    optimizerStep(optimizer: OptimizerConfig, t: number, w: Float64Array, g: Float64Array, m: Float64Array,
                  v: Float64Array): { w: Float64Array; m: Float64Array; v: Float64Array };
    /** optimizerStep written into w and into the state the kind uses (m unless SGD, v for Adam), which must have
     *  w's length (zeros before the first step); unused state is left alone. @throws as optimizerStep, or on
     *  state of another length. */
    optimizerStepInPlace(optimizer: OptimizerConfig, t: number, w: Float64Array, g: Float64Array, m: Float64Array,
                         v: Float64Array): void;
    /** trainCompare's single-device reference alone: the losses and final parameters (mlpInit's order).
     *  @throws as trainCompare. */
    trainSingle(request: { model: ModelConfig; optimizer: OptimizerConfig; batch: number; steps: number;
                           seed?: number }): { losses: Float64Array; params: Float64Array[] };
    /** The lab's MoE stack (core/include/dsml/moe_mlp.h): every `every`-th block (default 2) an MoE layer of
     *  `experts` experts of the model's width and hidden width. Its initial tensors, per block: dense W_in, W_out;
     *  MoE router (E × D), then each expert's W_in, W_out. @throws on a bad model or MoE config. */
    moeMlpInit(request: { model: ModelConfig; moe: LabMoe; seed?: number }): Float64Array[];
    /** trainSingle with the MoE stack (teacher as trainSingle's, student moeMlpInit(seed + 1)), the capacity cut per
     *  group of batch/groups consecutive rows (the lab's dp·m): losses, final tensors (moeMlpInit's order) and the
     *  last step's load per MoE block. @throws as moeMlpInit, or unless groups divides batch. */
    trainSingleMoe(request: { model: ModelConfig; moe: LabMoe; groups: number; optimizer: OptimizerConfig;
                              batch: number; steps: number; seed?: number }):
        { losses: Float64Array; params: Float64Array[];
          load: Array<{ block: number; wanted: number[]; kept: number[]; dropped: number }> };
    /** One token group's routing (moe_route): softmax of x·routerᵀ, top-k, capacity ⌈c·k·rows/E⌉. expert, gate and
     *  slot hold rows·topK values, token-major; slot −1 = dropped. @throws on shapes or a bad topK/capacity. */
    moeRoute(x: Float64Array, router: Float64Array, rows: number, width: number, topK: number, capacityFactor: number):
        { probs: Float64Array; expert: Float64Array; gate: Float64Array; slot: Float64Array; capacity: number };
    /** ∂loss/∂logits (rows × E) from the gate gradients dGate (rows·topK), through top-k gating and the softmax.
     *  @throws on shapes or an expert index out of range. */
    moeRouterBackward(probs: Float64Array, expert: Float64Array, dGate: Float64Array, rows: number, topK: number):
        Float64Array;
  }
}
