// compression_adapters.h — Week 6's gradient compression for JavaScript (dsml/compression.h,
// dsml/compressed_training.h). Same rules as adapters.h: convert, call the core, convert back. Their contract for
// JavaScript is core/bindings/dsml.d.ts.
#pragma once

#include <emscripten/val.h>

#include <string>

#include "dsml/compression.h"

namespace dsml::bindings {

using emscripten::val;

// {compressor, ratio?, levels?, rank?} of a request → CompressorConfig (validated; the shared reader).
CompressorConfig to_compressor(const val& request, const std::string& context);

// compressGradient({compressor, values, ratio?, levels?, seed?, rows?, cols?, rank?}) → {values, bytes}
//   one worker's tensor through one compressor (PowerSGD: the (rows, cols) matrix, row-major values)
val compress_gradient(const val& request);
// compressionWire({compressor, ratio?, levels?, rank?, model, workers, network?}) → {collectives, payloadBytes,
//   bytesPerStep, uncompressedBytesPerStep, composesWithAllReduce, commSeconds?, uncompressedCommSeconds?}
val compression_wire(const val& request);
// trainCompressed({compressor, …, errorFeedback?, model, workers, batch?, steps?, lr?, seed?, evalBatch?})
//   → {losses, cumulativeBytes, bytesPerStep, uncompressedBytesPerStep, payloadBytes, finalErrorNorm}
val train_compressed(const val& request);
// qsgdVarianceBound(n, s) = min(n/s², √n/s)
double qsgd_variance_bound(double n, double levels);

}  // namespace dsml::bindings
