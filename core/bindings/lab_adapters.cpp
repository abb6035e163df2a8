// lab_adapters.cpp — see lab_adapters.h. Every product is a kernel of dsml/block_kernels.h instantiated for
// double, on column-major Eigen matrices — exactly what mlp_forward / mlp_backward run — so a lab step built from
// these calls reproduces the single-device reference step to rounding.
#include "lab_adapters.h"

#include <cstdint>
#include <vector>

#include "dsml/block_kernels.h"
#include "dsml/error.h"
#include "dsml/mlp.h"
#include "dsml/optimizer.h"
#include "dsml/single_device.h"
#include "dsml/teacher_task.h"
#include "dsml/zero.h"
#include "fields.h"
#include "lab_convert.h"
#include "training_convert.h"

namespace dsml::bindings {

namespace {

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
  return {static_cast<Eigen::Index>(whole_value(rows, fn + ": rows", 1, 1000000000)),
          static_cast<Eigen::Index>(whole_value(width, fn + ": width", 1, 1000000000))};
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
  require_object(request, fn, "{layers, width, hidden, seed}");
  const MlpConfig model = to_mlp_config(request, fn);
  check_run_size(model, 1, 1, fn);
  const auto seed = static_cast<std::uint64_t>(whole_field_or(request, "seed", 0, fn));
  return params_to_val(init_mlp(model, seed));
}

val teacher_batch(const val& request) {
  const std::string fn = "teacherBatch";
  require_object(request, fn, "{model, seed, step, batch}");
  const MlpConfig model = to_mlp_config(object_field(request, "model", fn), fn);
  const auto seed = static_cast<std::uint64_t>(whole_field_or(request, "seed", 0, fn));
  const auto step = static_cast<std::uint64_t>(whole_field_or(request, "step", 0, fn));
  const int batch = static_cast<int>(whole_field(request, "batch", fn, 1, 1 << 30));
  check_run_size(model, batch, 1, fn);
  const Batch b = TeacherTask(model, seed).make_batch(step, batch);
  val out = val::object();
  out.set("inputs", to_row_major(b.inputs));    // (batch, D)
  out.set("targets", to_row_major(b.targets));  // (batch, D)
  return out;
}

val optimizer_step(const val& options, double t, const val& w, const val& g, const val& m, const val& v) {
  const std::string fn = "optimizerStep";
  if (!is_object(options)) throw Error(fn + ": optimizer must be an object like {kind: \"adam\", lr: 0.01}");
  const OptimizerConfig c = to_optimizer_config(options, fn);
  const std::int64_t step = whole_value(t, fn + ": t", 1);
  const Eigen::MatrixXd wm = column_from(w, fn, "w");
  const Eigen::Index n = wm.rows();
  // Empty state = the zeros an optimizer starts from; otherwise one value per element of w.
  auto state = [&](const val& s, const char* name) {
    return array_length(s, fn, name) == 0 ? Eigen::MatrixXd() : matrix_from(s, n, 1, fn, name, "w.length (or 0)");
  };
  Buffer params(wm.data(), wm.data() + n);
  const Eigen::MatrixXd gm = matrix_from(g, n, 1, fn, "g", "w.length");
  ShardMoments moments{c.kind == OptimizerKind::sgd ? column_from(m, fn, "m") : state(m, "m"),
                       c.kind == OptimizerKind::adam ? state(v, "v") : column_from(v, fn, "v")};
  try {
    update_shard(c, step, params, Buffer(gm.data(), gm.data() + n), moments);  // the same update ZeRO's shards take
  } catch (const Error& e) {
    throw Error(fn + ": " + e.what());
  }
  val out = val::object();
  out.set("w", to_float64_array(params));
  out.set("m", to_row_major(moments.first));  // unused state (m for SGD, v for SGD and momentum) comes back as given
  out.set("v", to_row_major(moments.second));
  return out;
}

val train_single(const val& request) {
  const std::string fn = "trainSingle";
  require_object(request, fn, "{model, optimizer, batch, steps, seed}");
  const MlpConfig model = to_mlp_config(object_field(request, "model", fn), fn);
  const OptimizerConfig optimizer = to_optimizer_config(object_field(request, "optimizer", fn), fn);
  const int batch = static_cast<int>(whole_field(request, "batch", fn, 1, 1 << 30));
  const int steps = static_cast<int>(whole_field(request, "steps", fn, 1, 1 << 30));
  check_run_size(model, batch, steps, fn);
  const auto seed = static_cast<std::uint64_t>(whole_field_or(request, "seed", 0, fn));

  const SingleDeviceRun run =
      single_device_run(model, optimizer, init_mlp(model, seed + 1), teacher_batches(model, seed, steps, batch));
  val out = val::object();
  out.set("losses", to_float64_array(run.losses));
  out.set("params", params_to_val(run.params));
  return out;
}

}  // namespace dsml::bindings
