// parallel/local_gradient.h — what one data-parallel rank computes on its own rows, before any communication.
#pragma once

#include "dsml/mlp.h"
#include "dsml/teacher_task.h"

namespace dsml::parallel {

struct LocalGradient {
  double loss = 0;  // mean loss over the rows
  MlpParams grads;  // ∂(mean loss)/∂W
  double activation_bytes = 0;  // the most forward kept for backward at once: one micro-batch's x and H per block
};

// Bytes (fp64) of what a forward pass kept for backward: every block's input x and pre-activation H.
double kept_bytes(const MlpForward& forward);

// Gradient accumulation (k = micro_batches): the rows split into k equal micro-batches, each run forward and
// backward on its own (only one micro-batch of activations alive at a time), gradients summed and divided by k.
// Equal micro-batches make the mean of the means the mean over all rows — the same gradient as one pass.
LocalGradient local_gradient(const MlpConfig& config, const MlpParams& params, const Batch& rows, int micro_batches);

}  // namespace dsml::parallel
