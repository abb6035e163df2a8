// mlp_params.cpp — the MLP's parameters as plain matrices: validation, seeded initialisation, flat views.
#include <cmath>
#include <string>

#include "dsml/error.h"
#include "dsml/mlp.h"
#include "nn/gaussian.h"

namespace dsml {

namespace {

std::string shape(Eigen::Index rows, Eigen::Index cols) {
  return std::to_string(rows) + " x " + std::to_string(cols);
}

void require_shape(const char* what, std::size_t block, const char* name, const Eigen::MatrixXd& m,
                   Eigen::Index rows, Eigen::Index cols) {
  if (m.rows() == rows && m.cols() == cols) return;
  throw Error(std::string(what) + ".blocks[" + std::to_string(block) + "]." + name + " must be " +
              shape(rows, cols) + ", got " + shape(m.rows(), m.cols()));
}

}  // namespace

bool operator==(const MlpConfig& a, const MlpConfig& b) {
  // The structured binding names every member, so it stops compiling when MlpConfig gains one until it is compared
  // here too.
  const auto& [layers, width, hidden, activation, residual] = a;
  return layers == b.layers && width == b.width && hidden == b.hidden && activation == b.activation &&
         residual == b.residual;
}

void validate(const MlpConfig& config) {
  if (config.layers < 1) throw Error("layers must be >= 1, got " + std::to_string(config.layers));
  if (config.width < 1) throw Error("width (D) must be >= 1, got " + std::to_string(config.width));
  if (config.hidden < 1) throw Error("hidden width (F) must be >= 1, got " + std::to_string(config.hidden));
}

void check_shapes(const MlpConfig& config, const MlpParams& params, const char* what) {
  validate(config);
  if (params.blocks.size() != static_cast<std::size_t>(config.layers))
    throw Error(std::string(what) + " must have " + std::to_string(config.layers) + " blocks, got " +
                std::to_string(params.blocks.size()));
  for (std::size_t l = 0; l < params.blocks.size(); ++l) {
    require_shape(what, l, "w_in", params.blocks[l].w_in, config.hidden, config.width);    // (F, D)
    require_shape(what, l, "w_out", params.blocks[l].w_out, config.width, config.hidden);  // (D, F)
  }
}

MlpParams init_mlp(const MlpConfig& config, std::uint64_t seed) {
  validate(config);
  nn_detail::Gaussian gaussian(seed);
  const double in_std = 1.0 / std::sqrt(static_cast<double>(config.width));    // N(0, 1/D)
  const double out_std = 1.0 / std::sqrt(static_cast<double>(config.hidden));  // N(0, 1/F)
  MlpParams params;
  params.blocks.reserve(static_cast<std::size_t>(config.layers));
  for (int l = 0; l < config.layers; ++l) {
    MlpBlock block;
    block.w_in = gaussian.matrix(config.hidden, config.width, in_std);
    block.w_out = gaussian.matrix(config.width, config.hidden, out_std);
    params.blocks.push_back(std::move(block));
  }
  return params;
}

MlpParams zeros_like(const MlpConfig& config) {
  validate(config);
  MlpParams params;
  for (int l = 0; l < config.layers; ++l)
    params.blocks.push_back({Eigen::MatrixXd::Zero(config.hidden, config.width),
                             Eigen::MatrixXd::Zero(config.width, config.hidden)});
  return params;
}

std::vector<Eigen::MatrixXd*> parameter_tensors(MlpParams& params) {
  std::vector<Eigen::MatrixXd*> tensors;
  for (MlpBlock& block : params.blocks) {
    tensors.push_back(&block.w_in);
    tensors.push_back(&block.w_out);
  }
  return tensors;
}

std::vector<const Eigen::MatrixXd*> parameter_tensors(const MlpParams& params) {
  std::vector<const Eigen::MatrixXd*> tensors;
  for (const MlpBlock& block : params.blocks) {
    tensors.push_back(&block.w_in);
    tensors.push_back(&block.w_out);
  }
  return tensors;
}

std::size_t parameter_count(const MlpConfig& config) {
  validate(config);
  return static_cast<std::size_t>(config.layers) * 2u * static_cast<std::size_t>(config.width) *
         static_cast<std::size_t>(config.hidden);
}

}  // namespace dsml
