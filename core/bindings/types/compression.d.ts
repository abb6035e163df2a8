// types/compression.d.ts — Week 6: gradient compression (core/include/dsml/compression.h, compressed_training.h).
// Part of the wasm core's API (../dsml.d.ts, which states the conventions every function follows): the types
// of this domain, and its functions, added to DsmlCore by module augmentation.

import type { ModelConfig } from "./training";

export type CompressorName = "none" | "top-k" | "random-k" | "int8" | "qsgd" | "sign" | "powersgd";
/** ratio: fraction k/n kept by top-k and random-k (default 0.01); levels: QSGD's s (16); rank: PowerSGD's r (1). */
export interface CompressorOptions { compressor: CompressorName; ratio?: number; levels?: number; rank?: number }
export interface CompressGradientRequest extends CompressorOptions {
  values: number[] | Float64Array; seed?: number; rows?: number; cols?: number;
}
export interface CompressionWireRequest extends CompressorOptions {
  model: ModelConfig; workers: number; network?: { alpha: number; beta: number; gamma?: number };
}
export interface TrainCompressedRequest extends CompressorOptions {
  model: ModelConfig; workers: number; errorFeedback?: boolean; batch?: number; steps?: number; lr?: number;
  seed?: number; evalBatch?: number;
}

// The results, as their field tables (core/include/dsml/compression_fields.h) give them;
// tests/core/test_result_fields.cpp checks this block against the tables.
// <compression_fields>
/** The collectives one compressed data-parallel step launches and what one worker sends with the ring algorithms
 *  (compression_wire). */
export interface CompressionWire {
  /** one call per phase */
  collectives: CompressedCall[];
  /** one worker's compressed message for the whole model [bytes] */
  payloadBytes: number;
  /** what one worker sends a step [bytes] */
  bytesPerStep: number;
  /** the same for the fp32 gradient's ring all-reduce [bytes] */
  uncompressedBytesPerStep: number;
  /** whether compressed messages sum in the compressed form (an all-reduce carries them), or must be gathered */
  composesWithAllReduce: boolean;
}
/** One collective a compressed step launches (compressed_collectives). */
export interface CompressedCall {
  /** the collective */
  collective: "all-reduce" | "all-gather";
  /** what it carries: the reduced or gathered total [bytes] */
  bytes: number;
}
/** Those calls priced by the ring closed forms on a network (compression_seconds). */
export interface CompressionSeconds {
  /** the compressed step's communication [s] */
  commSeconds: number;
  /** the fp32 gradient's ring all-reduce [s] */
  uncompressedCommSeconds: number;
}
/** Data-parallel SGD on the teacher task with each worker's gradient compressed (train_compressed). */
export interface TrainCompressedResult {
  /** what carries it */
  collectives: CompressedCall[];
  /** one worker's compressed message a step [bytes] */
  payloadBytes: number;
  /** what one worker sends a step [bytes] */
  bytesPerStep: number;
  /** the same for the fp32 gradient's ring all-reduce [bytes] */
  uncompressedBytesPerStep: number;
  /** √(Σ_w ‖e_w‖²) at the end (0 without error feedback) */
  finalErrorNorm: number;
  /** held-out loss before step 1, then after every step */
  losses: Float64Array;
  /** what one worker has sent by then (the first 0) [bytes] */
  cumulativeBytes: Float64Array;
}
// </compression_fields>

declare module "../dsml" {
  interface DsmlCore {
    /** One worker's tensor through one compressor: the decompressed values and its bytes on the wire (compression.h).
     *  PowerSGD treats values as the row-major (rows × cols) matrix, one step from a seeded Q. @throws on a bad field. */
    compressGradient(request: CompressGradientRequest): { values: Float64Array; bytes: number };
    /** The collectives a compressed data-parallel step launches and what one worker sends (ring algorithms);
     *  with network, their closed-form time. @throws on a bad field. */
    compressionWire(request: CompressionWireRequest): CompressionWire & Partial<CompressionSeconds>;
    /** Data-parallel SGD on the teacher task with each worker's gradient compressed (± error feedback): the held-out
     *  loss and the cumulative bytes one worker sent, before and after every step. @throws on a bad field. */
    trainCompressed(request: TrainCompressedRequest): TrainCompressedResult;
    /** min(n/s², √n/s): QSGD's bound on E‖Q(v) − v‖²/‖v‖². @throws unless n, s are whole numbers >= 1. */
    qsgdVarianceBound(n: number, levels: number): number;
  }
}
