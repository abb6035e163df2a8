// compression/compressed_aggregation.h — one tensor's compressed averaging across P workers, with the state it
// keeps between steps (error-feedback residuals, PowerSGD's warm-started Q). Engine-private; the protocol is
// described in dsml/compressed_training.h.
#pragma once

#include <Eigen/Core>
#include <cstdint>
#include <vector>

#include "dsml/compression.h"

namespace dsml::compression {

struct TensorState {
  std::vector<Eigen::MatrixXd> errors;  // e_w, one per worker (zeros until error feedback fills them)
  Eigen::MatrixXd q;                    // PowerSGD's Q (cols, r), empty for the other compressors
};

// Seeds the state of a (rows, cols) tensor for P workers.
TensorState initial_state(const CompressorConfig& config, Eigen::Index rows, Eigen::Index cols, int workers,
                          std::uint64_t seed, int tensor);

// The update u every worker applies from the workers' gradients `grads` (P matrices of one shape).
Eigen::MatrixXd aggregate(const CompressorConfig& config, bool error_feedback, const std::vector<Eigen::MatrixXd>& grads,
                          TensorState& state, std::uint64_t seed, std::uint64_t step, int tensor);

}  // namespace dsml::compression
