// block_rows.cpp — see dsml/block_rows.h. Row-major in, the column-major kernels of dsml/block_kernels.h,
// row-major out: the products see exactly the matrices the lab's kernels have always built, so every result is
// bit for bit what it was when the bindings did these copies themselves.
#include "dsml/block_rows.h"

#include "dsml/block_kernels.h"

namespace dsml::row_major {

namespace {

using RowMajor = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

Eigen::MatrixXd from_rows(const double* data, Eigen::Index rows, Eigen::Index cols) {
  return Eigen::Map<const RowMajor>(data, rows, cols);  // → column-major
}

void to_rows(const Eigen::MatrixXd& m, double* out) { Eigen::Map<RowMajor>(out, m.rows(), m.cols()) = m; }

}  // namespace

void block_in_forward(Activation activation, const BlockShape& s, const double* x, const double* w_in, double* pre,
                      double* act) {
  const Eigen::MatrixXd h = pre_activation<double>(from_rows(x, s.rows, s.width), from_rows(w_in, s.slice, s.width));
  to_rows(h, pre);
  to_rows(dsml::activate<double>(activation, h), act);
}

void block_out_forward(const BlockShape& s, const double* act, const double* w_out, double* y) {
  to_rows(dsml::block_out_forward<double>(from_rows(act, s.rows, s.slice), from_rows(w_out, s.width, s.slice)), y);
}

void block_out_backward(const BlockShape& s, const double* dy, const double* act, const double* w_out, double* dw_out,
                        double* da) {
  const BlockOutGradients<double> g = dsml::block_out_backward<double>(
      from_rows(dy, s.rows, s.width), from_rows(act, s.rows, s.slice), from_rows(w_out, s.width, s.slice));
  to_rows(g.d_w_out, dw_out);
  to_rows(g.d_a, da);
}

void block_in_backward(Activation activation, const BlockShape& s, const double* da, const double* pre,
                       const double* x, const double* w_in, double* dw_in, double* dx) {
  const BlockInGradients<double> g = dsml::block_in_backward<double>(
      activation, from_rows(da, s.rows, s.slice), from_rows(pre, s.rows, s.slice), from_rows(x, s.rows, s.width),
      from_rows(w_in, s.slice, s.width));
  to_rows(g.d_w_in, dw_in);
  to_rows(g.d_x, dx);
}

void block_backward_input(Activation activation, const BlockShape& s, const double* dy, const double* pre,
                          const double* w_in, const double* w_out, double* dh, double* dx) {
  const BlockInputGradients<double> g = dsml::block_backward_input<double>(
      activation, from_rows(dy, s.rows, s.width), from_rows(pre, s.rows, s.slice), from_rows(w_in, s.slice, s.width),
      from_rows(w_out, s.width, s.slice));
  to_rows(g.d_pre, dh);
  to_rows(g.d_x, dx);
}

void block_backward_weight(const BlockShape& s, const double* dy, const double* act, const double* dh,
                           const double* x, double* dw_out, double* dw_in) {
  const BlockWeightGradients<double> g = dsml::block_backward_weight<double>(
      from_rows(dy, s.rows, s.width), from_rows(act, s.rows, s.slice), from_rows(dh, s.rows, s.slice),
      from_rows(x, s.rows, s.width));
  to_rows(g.d_w_out, dw_out);
  to_rows(g.d_w_in, dw_in);
}

void activate(Activation activation, const double* pre, Eigen::Index n, double* out) {
  to_rows(dsml::activate<double>(activation, from_rows(pre, n, 1)), out);
}

double mse_loss(const double* y, const double* t, Eigen::Index n, double* grad) {
  const Eigen::MatrixXd ym = from_rows(y, n, 1), tm = from_rows(t, n, 1);
  to_rows(mse_loss_gradient(ym, tm), grad);
  return dsml::mse_loss(ym, tm);
}

}  // namespace dsml::row_major
