// The row-major kernels (dsml/block_rows.h, what the lab's wasm bindings call) against the column-major kernels of
// dsml/block_kernels.h on the same numbers: equal bit for bit, output by output, on a tensor-parallel slice's
// shapes (rows ≠ width ≠ slice, so a swapped dimension cannot pass).
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "dsml/block_kernels.h"
#include "dsml/block_rows.h"
#include "dsml/mlp.h"

namespace {

using RowMajor = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// A deterministic (r, c) matrix with entries of both signs and varied magnitudes.
Eigen::MatrixXd filled(Eigen::Index r, Eigen::Index c, double seed) {
  Eigen::MatrixXd m(r, c);
  for (Eigen::Index i = 0; i < r; ++i)
    for (Eigen::Index j = 0; j < c; ++j) m(i, j) = std::sin(seed + 1.3 * static_cast<double>(i) + 0.7 * static_cast<double>(j));
  return m;
}

std::vector<double> rows_of(const Eigen::MatrixXd& m) {
  const RowMajor r = m;
  return {r.data(), r.data() + r.size()};
}

void expect_identical(const std::vector<double>& got, const Eigen::MatrixXd& want, const char* what) {
  const std::vector<double> w = rows_of(want);
  ASSERT_EQ(got.size(), w.size()) << what;
  for (std::size_t i = 0; i < w.size(); ++i) ASSERT_EQ(got[i], w[i]) << what << " entry " << i;
}

TEST(BlockRows, EveryKernelEqualsTheColumnMajorKernelBitForBit) {
  const dsml::row_major::BlockShape s{3, 5, 7};  // rows, D, Fl
  const auto act_fn = dsml::Activation::gelu;
  const Eigen::MatrixXd x = filled(3, 5, 0.1), w_in = filled(7, 5, 0.2), w_out = filled(5, 7, 0.3);
  const Eigen::MatrixXd dy = filled(3, 5, 0.4);

  const Eigen::MatrixXd pre = dsml::pre_activation(x, w_in);
  const Eigen::MatrixXd act = dsml::activate<double>(act_fn, pre);
  std::vector<double> pre_r(21), act_r(21);
  dsml::row_major::block_in_forward(act_fn, s, rows_of(x).data(), rows_of(w_in).data(), pre_r.data(), act_r.data());
  expect_identical(pre_r, pre, "pre");
  expect_identical(act_r, act, "act");

  std::vector<double> y_r(15);
  dsml::row_major::block_out_forward(s, act_r.data(), rows_of(w_out).data(), y_r.data());
  expect_identical(y_r, dsml::block_out_forward(act, w_out), "y");

  const auto out_g = dsml::block_out_backward(dy, act, w_out);
  std::vector<double> dw_out_r(35), da_r(21);
  dsml::row_major::block_out_backward(s, rows_of(dy).data(), act_r.data(), rows_of(w_out).data(), dw_out_r.data(),
                                      da_r.data());
  expect_identical(dw_out_r, out_g.d_w_out, "dW_out");
  expect_identical(da_r, out_g.d_a, "dA");

  const auto in_g = dsml::block_in_backward(act_fn, out_g.d_a, pre, x, w_in);
  std::vector<double> dw_in_r(35), dx_r(15);
  dsml::row_major::block_in_backward(act_fn, s, da_r.data(), pre_r.data(), rows_of(x).data(), rows_of(w_in).data(),
                                     dw_in_r.data(), dx_r.data());
  expect_identical(dw_in_r, in_g.d_w_in, "dW_in");
  expect_identical(dx_r, in_g.d_x, "dX");
}

// The backward cut in two (zero-bubble pipelines): B then W gives the full backward's dX, dW_out and dW_in bit for
// bit, column-major and row-major alike.
TEST(BlockRows, BackwardInputThenWeightEqualsTheFullBackwardBitForBit) {
  const dsml::row_major::BlockShape s{3, 5, 7};  // rows, D, Fl
  const auto act_fn = dsml::Activation::tanh;
  const Eigen::MatrixXd x = filled(3, 5, 1.1), w_in = filled(7, 5, 1.2), w_out = filled(5, 7, 1.3), dy = filled(3, 5, 1.4);
  const Eigen::MatrixXd pre = dsml::pre_activation(x, w_in), act = dsml::activate<double>(act_fn, pre);
  const auto out_g = dsml::block_out_backward(dy, act, w_out);
  const auto in_g = dsml::block_in_backward(act_fn, out_g.d_a, pre, x, w_in);

  const auto b = dsml::block_backward_input(act_fn, dy, pre, w_in, w_out);
  const auto w = dsml::block_backward_weight(dy, act, b.d_pre, x);
  expect_identical(rows_of(b.d_x), in_g.d_x, "B: dX");
  expect_identical(rows_of(w.d_w_out), out_g.d_w_out, "W: dW_out");
  expect_identical(rows_of(w.d_w_in), in_g.d_w_in, "W: dW_in");

  std::vector<double> dh_r(21), dx_r(15), dw_out_r(35), dw_in_r(35);
  dsml::row_major::block_backward_input(act_fn, s, rows_of(dy).data(), rows_of(pre).data(), rows_of(w_in).data(),
                                        rows_of(w_out).data(), dh_r.data(), dx_r.data());
  expect_identical(dh_r, b.d_pre, "row-major B: dH");
  expect_identical(dx_r, in_g.d_x, "row-major B: dX");
  dsml::row_major::block_backward_weight(s, rows_of(dy).data(), rows_of(act).data(), dh_r.data(), rows_of(x).data(),
                                         dw_out_r.data(), dw_in_r.data());
  expect_identical(dw_out_r, out_g.d_w_out, "row-major W: dW_out");
  expect_identical(dw_in_r, in_g.d_w_in, "row-major W: dW_in");
}

TEST(BlockRows, ActivateAndLossTakeTheirValuesAsOneColumn) {
  const Eigen::MatrixXd y = filled(12, 1, 0.5), t = filled(12, 1, 0.9);
  std::vector<double> act(12), grad(12);
  dsml::row_major::activate(dsml::Activation::tanh, rows_of(y).data(), 12, act.data());
  expect_identical(act, dsml::activate<double>(dsml::Activation::tanh, y), "tanh");
  const double loss = dsml::row_major::mse_loss(rows_of(y).data(), rows_of(t).data(), 12, grad.data());
  EXPECT_EQ(loss, dsml::mse_loss(y, t));
  expect_identical(grad, dsml::mse_loss_gradient(y, t), "grad");
}

}  // namespace
