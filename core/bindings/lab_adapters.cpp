// lab_adapters.cpp — see lab_adapters.h. Every product is a kernel of dsml/block_kernels.h instantiated for
// double, on column-major Eigen matrices — exactly what mlp_forward / mlp_backward run — so a lab step built from
// these calls reproduces the single-device reference step to rounding.
#include "lab_adapters.h"

#include <cstdint>
#include <vector>

#include "convert.h"
#include "dsml/block_kernels.h"
#include "dsml/error.h"
#include "dsml/mlp.h"
#include "dsml/optimizer.h"
#include "dsml/teacher_task.h"
#include "lab_convert.h"
#include "lab_reference.h"
#include "training_convert.h"

namespace dsml::bindings {

namespace {

bool is_object(const val& v) { return v.typeOf().as<std::string>() == "object" && !v.isNull(); }

Activation activation_arg(const std::string& name, const std::string& fn) {
  try {
    return parse_activation(name);
  } catch (const Error& e) {
    throw Error(fn + ": " + e.what());
  }
}

// The model width D and the batch rows B of a kernel call.
struct Dims {
  Eigen::Index rows;
  Eigen::Index width;
};

Dims dims(double rows, double width, const std::string& fn) {
  return {positive_count(rows, fn, "rows"), positive_count(width, fn, "width")};
}

// An optimizer request: training_convert's fields plus epsilon (Adam's denominator guard).
OptimizerConfig lab_optimizer_config(const val& optimizer, const std::string& fn) {
  if (!is_object(optimizer)) throw Error(fn + ": optimizer must be an object like {kind: \"adam\", lr: 0.01}");
  OptimizerConfig c = to_optimizer_config(optimizer, fn);
  c.epsilon = number_field_or(optimizer, "epsilon", c.epsilon, fn + ": optimizer");
  validate(c);
  return c;
}

// Steps, rows and model size a browser tab can train in a moment (trainCompare's limits).
void check_run_size(const MlpConfig& model, int batch, int steps, const std::string& fn) {
  if (steps > 10000) throw Error(fn + ": steps must be at most 10000");
  if (static_cast<double>(batch) * model.width > 1e7) throw Error(fn + ": batch·width must be at most 1e7");
}

val params_to_val(const MlpParams& params) {
  val out = val::array();
  for (const Eigen::MatrixXd* w : parameter_tensors(params)) out.call<void>("push", to_row_major(*w));
  return out;
}

}  // namespace

val block_in_forward(const val& x, const val& w_in, double rows, double width, const std::string& activation) {
  const std::string fn = "blockInForward";
  const Activation act = activation_arg(activation, fn);
  const Dims d = dims(rows, width, fn);
  const Eigen::Index fl = slice_width(w_in, d.width, fn, "wIn", "Fl × width");
  const Eigen::MatrixXd xm = matrix_from(x, d.rows, d.width, fn, "x", "rows · width");
  const Eigen::MatrixXd w = matrix_from(w_in, fl, d.width, fn, "wIn", "Fl · width");

  const Eigen::MatrixXd pre = pre_activation(xm, w);  // (rows, Fl)
  val out = val::object();
  out.set("pre", to_row_major(pre));
  out.set("act", to_row_major(activate(act, pre)));
  return out;
}

val lab_activate(const val& pre, const std::string& activation) {
  const std::string fn = "activate";
  const Activation act = activation_arg(activation, fn);
  return to_row_major(activate(act, column_from(pre, fn, "pre")));
}

val block_out_forward(const val& a, const val& w_out, double rows, double width) {
  const std::string fn = "blockOutForward";
  const Dims d = dims(rows, width, fn);
  const Eigen::Index fl = slice_width(w_out, d.width, fn, "wOut", "width × Fl");
  const Eigen::MatrixXd am = matrix_from(a, d.rows, fl, fn, "a", "rows · Fl");
  const Eigen::MatrixXd w = matrix_from(w_out, d.width, fl, fn, "wOut", "width · Fl");
  return to_row_major(dsml::block_out_forward(am, w));  // (rows, D)
}

val block_out_backward(const val& dy, const val& a, const val& w_out, double rows, double width) {
  const std::string fn = "blockOutBackward";
  const Dims d = dims(rows, width, fn);
  const Eigen::Index fl = slice_width(w_out, d.width, fn, "wOut", "width × Fl");
  const Eigen::MatrixXd dym = matrix_from(dy, d.rows, d.width, fn, "dy", "rows · width");
  const Eigen::MatrixXd am = matrix_from(a, d.rows, fl, fn, "a", "rows · Fl");
  const Eigen::MatrixXd w = matrix_from(w_out, d.width, fl, fn, "wOut", "width · Fl");

  const BlockOutGradients<double> g = dsml::block_out_backward(dym, am, w);
  val out = val::object();
  out.set("dWOut", to_row_major(g.d_w_out));  // (D, Fl)
  out.set("dA", to_row_major(g.d_a));         // (rows, Fl)
  return out;
}

val block_in_backward(const val& d_a, const val& pre, const val& x, const val& w_in, double rows, double width,
                      const std::string& activation) {
  const std::string fn = "blockInBackward";
  const Activation act = activation_arg(activation, fn);
  const Dims d = dims(rows, width, fn);
  const Eigen::Index fl = slice_width(w_in, d.width, fn, "wIn", "Fl × width");
  const Eigen::MatrixXd dam = matrix_from(d_a, d.rows, fl, fn, "dA", "rows · Fl");
  const Eigen::MatrixXd h = matrix_from(pre, d.rows, fl, fn, "pre", "rows · Fl");
  const Eigen::MatrixXd xm = matrix_from(x, d.rows, d.width, fn, "x", "rows · width");
  const Eigen::MatrixXd w = matrix_from(w_in, fl, d.width, fn, "wIn", "Fl · width");

  const BlockInGradients<double> g = dsml::block_in_backward(act, dam, h, xm, w);
  val out = val::object();
  out.set("dWIn", to_row_major(g.d_w_in));  // (Fl, D)
  out.set("dX", to_row_major(g.d_x));       // (rows, D)
  return out;
}

val lab_mse_loss(const val& y, const val& t) {
  const std::string fn = "mseLoss";
  const Eigen::MatrixXd ym = column_from(y, fn, "y");
  if (ym.size() == 0) throw Error(fn + ": y is empty");
  const Eigen::MatrixXd tm = matrix_from(t, ym.rows(), 1, fn, "t", "y.length");
  val out = val::object();
  out.set("loss", mse_loss(ym, tm));
  out.set("grad", to_row_major(mse_loss_gradient(ym, tm)));
  return out;
}

val mlp_init(const val& request) {
  const std::string fn = "mlpInit";
  if (!is_object(request)) throw Error(fn + ": expected an object {layers, width, hidden, seed}");
  const MlpConfig model = to_mlp_config(request, fn);
  const auto seed = static_cast<std::uint64_t>(whole_number_field(request, "seed", 0, 0, fn));
  return params_to_val(init_mlp(model, seed));
}

val teacher_batch(const val& request) {
  const std::string fn = "teacherBatch";
  if (!is_object(request)) throw Error(fn + ": expected an object {model, seed, step, batch}");
  const MlpConfig model = to_mlp_config(object_field(request, "model", fn), fn);
  const auto seed = static_cast<std::uint64_t>(whole_number_field(request, "seed", 0, 0, fn));
  const auto step = static_cast<std::uint64_t>(whole_number_field(request, "step", 0, 0, fn));
  const int batch = static_cast<int>(whole_number_field(request, "batch", -1, 1, fn));
  if (batch < 0) throw Error(fn + ": batch is required");
  check_run_size(model, batch, 1, fn);
  const Batch b = TeacherTask(model, seed).make_batch(step, batch);
  val out = val::object();
  out.set("inputs", to_row_major(b.inputs));    // (batch, D)
  out.set("targets", to_row_major(b.targets));  // (batch, D)
  return out;
}

val optimizer_step(const val& options, double t, const val& w, const val& g, const val& m, const val& v) {
  const std::string fn = "optimizerStep";
  const OptimizerConfig c = lab_optimizer_config(options, fn);
  if (c.kind != OptimizerKind::sgd && c.kind != OptimizerKind::momentum && c.kind != OptimizerKind::adam)
    throw Error(fn + ": kind must be sgd, momentum or adam (LARS and LAMB need norms of whole tensors), got \"" +
                optimizer_name(c.kind) + "\"");
  const std::int64_t step = positive_count(t, fn, "t");
  Eigen::MatrixXd wm = column_from(w, fn, "w");
  const Eigen::Index n = wm.rows();
  const Eigen::MatrixXd gm = matrix_from(g, n, 1, fn, "g", "w.length");
  // Empty state = the zeros an optimizer starts from.
  auto state = [&](const val& s, const char* name) {
    return array_length(s, fn, name) == 0 ? Eigen::MatrixXd(Eigen::MatrixXd::Zero(n, 1))
                                          : matrix_from(s, n, 1, fn, name, "w.length (or 0)");
  };
  const double lr = warmup_lr(c.lr, step - 1, c.warmup_steps);  // as Optimizer::current_lr before step t

  val out = val::object();
  switch (c.kind) {
    case OptimizerKind::sgd:
      sgd_update(c, lr, wm, gm);
      out.set("m", to_row_major(column_from(m, fn, "m")));  // unused by SGD: handed back as a copy
      out.set("v", to_row_major(column_from(v, fn, "v")));
      break;
    case OptimizerKind::momentum: {
      Eigen::MatrixXd mm = state(m, "m");
      momentum_update(c, lr, wm, gm, mm);
      out.set("m", to_row_major(mm));
      out.set("v", to_row_major(column_from(v, fn, "v")));  // unused by momentum
      break;
    }
    default: {  // adam
      Eigen::MatrixXd mm = state(m, "m");
      Eigen::MatrixXd vm = state(v, "v");
      adam_update(c, lr, step, wm, gm, mm, vm);
      out.set("m", to_row_major(mm));
      out.set("v", to_row_major(vm));
      break;
    }
  }
  out.set("w", to_row_major(wm));
  return out;
}

val train_single(const val& request) {
  const std::string fn = "trainSingle";
  if (!is_object(request)) throw Error(fn + ": expected an object {model, optimizer, batch, steps, seed}");
  const MlpConfig model = to_mlp_config(object_field(request, "model", fn), fn);
  const OptimizerConfig optimizer = lab_optimizer_config(object_field(request, "optimizer", fn), fn);
  const int batch = static_cast<int>(whole_number_field(request, "batch", -1, 1, fn));
  const int steps = static_cast<int>(whole_number_field(request, "steps", -1, 1, fn));
  if (batch < 0 || steps < 0) throw Error(fn + ": batch and steps are required");
  check_run_size(model, batch, steps, fn);
  const auto seed = static_cast<std::uint64_t>(whole_number_field(request, "seed", 0, 0, fn));

  const SingleDeviceRun run =
      single_device_run(model, optimizer, init_mlp(model, seed + 1), teacher_batches(model, seed, steps, batch));
  val out = val::object();
  out.set("losses", to_float64_array(run.losses));
  out.set("params", params_to_val(run.params));
  return out;
}

}  // namespace dsml::bindings
