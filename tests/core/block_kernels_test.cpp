// The block kernels (dsml/block_kernels.h) against the model they are cut from: composed block by block they
// give mlp_forward / mlp_backward (with and without the residual); cut Megatron-style into two tensor-parallel
// slices, the partial sums add up to the full block; and the float instantiation the benchmark uses agrees
// with double to float precision.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "dsml/block_kernels.h"
#include "dsml/mlp.h"
#include "dsml/teacher_task.h"

namespace {

using dsml::Activation;
using dsml::BlockMatrix;

// ‖a − b‖ / max(‖a‖, ‖b‖): the whole tensor at once, so one tiny entry cannot dominate.
template <typename A, typename B>
double relative_error(const A& a, const B& b) {
  const double scale = std::max({static_cast<double>(a.norm()), static_cast<double>(b.norm()), 1e-300});
  return static_cast<double>((a - b).norm()) / scale;
}

dsml::MlpConfig small_model(bool residual, Activation activation) {
  return dsml::MlpConfig{3, 5, 8, activation, residual};
}

struct Case {
  bool residual;
  Activation activation;
};

class BlockKernelsCompose : public ::testing::TestWithParam<Case> {};

// The reference's forward and backward, spelled out with the kernels as the lab trainer does it in JS.
TEST_P(BlockKernelsCompose, EqualMlpForwardAndBackward) {
  const dsml::MlpConfig c = small_model(GetParam().residual, GetParam().activation);
  const dsml::MlpParams params = dsml::init_mlp(c, 3);
  const dsml::Batch batch = dsml::TeacherTask(c, 2).make_batch(0, 7);

  // forward: x_{l+1} = [x_l +] act(x_l · W_inᵀ) · W_outᵀ
  std::vector<Eigen::MatrixXd> xs, pres, acts;
  Eigen::MatrixXd x = batch.inputs;  // (B, D)
  for (const dsml::MlpBlock& block : params.blocks) {
    Eigen::MatrixXd pre = dsml::pre_activation(x, block.w_in);               // (B, F)
    Eigen::MatrixXd act = dsml::activate<double>(c.activation, pre);         // (B, F)
    const Eigen::MatrixXd y = dsml::block_out_forward(act, block.w_out);     // (B, D)
    xs.push_back(x);
    pres.push_back(std::move(pre));
    acts.push_back(std::move(act));
    x = c.residual ? Eigen::MatrixXd(x + y) : y;
  }
  const dsml::MlpForward forward = dsml::mlp_forward(c, params, batch.inputs);
  // Same functions on the same matrices: equal to rounding (in practice bit for bit).
  EXPECT_LE(relative_error(x, forward.output), 1e-15);
  EXPECT_LE(relative_error(x, dsml::mlp_predict(c, params, batch.inputs)), 1e-15);

  // backward, last block first; the residual adds dY to dx.
  const Eigen::MatrixXd d_output = dsml::mse_loss_gradient(forward.output, batch.targets);
  const dsml::MlpGradients ref = dsml::mlp_backward(c, params, forward, d_output);
  Eigen::MatrixXd dy = d_output;
  for (std::size_t l = params.blocks.size(); l-- > 0;) {
    const dsml::MlpBlock& block = params.blocks[l];
    const auto out = dsml::block_out_backward(dy, acts[l], block.w_out);
    const auto in = dsml::block_in_backward(c.activation, out.d_a, pres[l], xs[l], block.w_in);
    EXPECT_LE(relative_error(out.d_w_out, ref.params.blocks[l].w_out), 1e-15) << "block " << l;
    EXPECT_LE(relative_error(in.d_w_in, ref.params.blocks[l].w_in), 1e-15) << "block " << l;
    dy = c.residual ? Eigen::MatrixXd(in.d_x + dy) : in.d_x;
  }
  EXPECT_LE(relative_error(dy, ref.d_input), 1e-15);
}

INSTANTIATE_TEST_SUITE_P(ResidualAndActivations, BlockKernelsCompose,
                         ::testing::Values(Case{true, Activation::gelu}, Case{false, Activation::gelu},
                                           Case{true, Activation::relu}, Case{false, Activation::tanh}),
                         [](const ::testing::TestParamInfo<Case>& info) {
                           return std::string(dsml::activation_name(info.param.activation)) +
                                  (info.param.residual ? "_residual" : "_plain");
                         });

// Megatron-LM's MLP split (Shoeybi et al. 2019): rank t holds rows [t·F/2, (t+1)·F/2) of W_in and the same
// columns of W_out. Forward needs no communication until Y, whose partial sums an all-reduce adds; backward
// gives each rank its slice of dW_in / dW_out, and dx again as partial sums.
TEST(BlockKernels, TensorParallelSlicesSumToTheFullBlock) {
  const dsml::MlpConfig c = small_model(true, Activation::gelu);
  const dsml::MlpBlock block = dsml::init_mlp(c, 5).blocks[0];
  const dsml::Batch batch = dsml::TeacherTask(c, 6).make_batch(1, 4);
  const Eigen::MatrixXd& x = batch.inputs;  // (B, D)
  const Eigen::MatrixXd dy = batch.targets;  // any (B, D) upstream gradient

  const Eigen::MatrixXd pre = dsml::pre_activation(x, block.w_in);
  const Eigen::MatrixXd act = dsml::activate<double>(c.activation, pre);
  const Eigen::MatrixXd y = dsml::block_out_forward(act, block.w_out);
  const auto out = dsml::block_out_backward(dy, act, block.w_out);
  const auto in = dsml::block_in_backward(c.activation, out.d_a, pre, x, block.w_in);

  const int tp = 2;
  const Eigen::Index fl = c.hidden / tp;
  Eigen::MatrixXd y_sum = Eigen::MatrixXd::Zero(y.rows(), y.cols());
  Eigen::MatrixXd dx_sum = Eigen::MatrixXd::Zero(x.rows(), x.cols());
  for (int t = 0; t < tp; ++t) {
    const Eigen::MatrixXd w_in = block.w_in.middleRows(t * fl, fl);    // (Fl, D)
    const Eigen::MatrixXd w_out = block.w_out.middleCols(t * fl, fl);  // (D, Fl)
    const Eigen::MatrixXd pre_t = dsml::pre_activation(x, w_in);       // (B, Fl)
    const Eigen::MatrixXd act_t = dsml::activate<double>(c.activation, pre_t);
    y_sum += dsml::block_out_forward(act_t, w_out);                    // partial sum of Y
    const auto out_t = dsml::block_out_backward(dy, act_t, w_out);
    const auto in_t = dsml::block_in_backward(c.activation, out_t.d_a, pre_t, x, w_in);
    EXPECT_LE(relative_error(out_t.d_w_out, out.d_w_out.middleCols(t * fl, fl)), 1e-14) << "rank " << t;
    EXPECT_LE(relative_error(in_t.d_w_in, in.d_w_in.middleRows(t * fl, fl)), 1e-14) << "rank " << t;
    dx_sum += in_t.d_x;                                                // partial sum of dx
  }
  EXPECT_LE(relative_error(y_sum, y), 1e-14);
  EXPECT_LE(relative_error(dx_sum, in.d_x), 1e-14);
}

// The benchmark runs the kernels in float: the same formulas, rounded at ~6e-8 per operation.
TEST(BlockKernels, FloatAgreesWithDouble) {
  for (const Activation activation : {Activation::relu, Activation::gelu, Activation::tanh}) {
    const dsml::MlpConfig c = small_model(true, activation);
    const dsml::MlpBlock block = dsml::init_mlp(c, 8).blocks[0];
    const dsml::Batch batch = dsml::TeacherTask(c, 9).make_batch(0, 6);
    const Eigen::MatrixXd& x = batch.inputs;
    const Eigen::MatrixXd& dy = batch.targets;
    const Eigen::MatrixXf xf = x.cast<float>(), dyf = dy.cast<float>();
    const Eigen::MatrixXf w_in_f = block.w_in.cast<float>(), w_out_f = block.w_out.cast<float>();

    const Eigen::MatrixXd pre = dsml::pre_activation(x, block.w_in);
    const Eigen::MatrixXd act = dsml::activate<double>(activation, pre);
    const auto out = dsml::block_out_backward(dy, act, block.w_out);
    const auto in = dsml::block_in_backward(activation, out.d_a, pre, x, block.w_in);

    const BlockMatrix<float> pre_f = dsml::pre_activation(xf, w_in_f);
    const BlockMatrix<float> act_f = dsml::activate(activation, pre_f);  // deduces float
    const BlockMatrix<float> y_f = dsml::block_out_forward(act_f, w_out_f);
    const dsml::BlockOutGradients<float> out_f = dsml::block_out_backward(dyf, act_f, w_out_f);
    const dsml::BlockInGradients<float> in_f = dsml::block_in_backward(activation, out_f.d_a, pre_f, xf, w_in_f);

    const char* name = dsml::activation_name(activation);
    EXPECT_LE(relative_error(y_f.cast<double>(), dsml::block_out_forward(act, block.w_out)), 1e-5) << name;
    EXPECT_LE(relative_error(out_f.d_w_out.cast<double>(), out.d_w_out), 1e-5) << name;
    EXPECT_LE(relative_error(in_f.d_w_in.cast<double>(), in.d_w_in), 1e-5) << name;
    EXPECT_LE(relative_error(in_f.d_x.cast<double>(), in.d_x), 1e-5) << name;
    EXPECT_LE(relative_error(dsml::activate_derivative(activation, pre_f).cast<double>(),
                             dsml::activate_derivative(activation, pre)), 1e-5) << name;
  }
}

}  // namespace
