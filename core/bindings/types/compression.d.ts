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
export interface CompressionWire {
  collectives: { collective: "all-reduce" | "all-gather"; bytes: number }[];
  payloadBytes: number; bytesPerStep: number; uncompressedBytesPerStep: number; composesWithAllReduce: boolean;
  commSeconds?: number; uncompressedCommSeconds?: number;
}
export interface TrainCompressedRequest extends CompressorOptions {
  model: ModelConfig; workers: number; errorFeedback?: boolean; batch?: number; steps?: number; lr?: number;
  seed?: number; evalBatch?: number;
}
export interface TrainCompressedResult {
  losses: Float64Array; cumulativeBytes: Float64Array; bytesPerStep: number; uncompressedBytesPerStep: number;
  payloadBytes: number; collectives: { collective: "all-reduce" | "all-gather"; bytes: number }[];
  finalErrorNorm: number;
}

declare module "../dsml" {
  interface DsmlCore {
    /** One worker's tensor through one compressor: the decompressed values and its bytes on the wire (compression.h).
     *  PowerSGD treats values as the row-major (rows × cols) matrix, one step from a seeded Q. @throws on a bad field. */
    compressGradient(request: CompressGradientRequest): { values: Float64Array; bytes: number };
    /** The collectives a compressed data-parallel step launches and what one worker sends (ring algorithms);
     *  with network, their closed-form time. @throws on a bad field. */
    compressionWire(request: CompressionWireRequest): CompressionWire;
    /** Data-parallel SGD on the teacher task with each worker's gradient compressed (± error feedback): the held-out
     *  loss and the cumulative bytes one worker sent, before and after every step. @throws on a bad field. */
    trainCompressed(request: TrainCompressedRequest): TrainCompressedResult;
    /** min(n/s², √n/s): QSGD's bound on E‖Q(v) − v‖²/‖v‖². @throws unless n, s are whole numbers >= 1. */
    qsgdVarianceBound(n: number, levels: number): number;
  }
}
