// lab_adapters.cpp — see lab_adapters.h. Every product is a kernel of dsml/block_kernels.h instantiated for
// double, on column-major Eigen matrices — exactly what mlp_forward / mlp_backward run — so a lab step built from
// these calls reproduces the single-device reference step to rounding. Each kernel is one call into
// dsml/block_rows.h between the conversions (lab_convert.h), which keeps a call's cost at a few microseconds.
#include "lab_adapters.h"

#include <cstdint>
#include <vector>

#include "dsml/block_rows.h"
#include "dsml/error.h"
#include "dsml/mlp.h"
#include "dsml/optimizer.h"
#include "dsml/single_device.h"
#include "dsml/teacher_task.h"
#include "dsml/zero.h"
#include "fields.h"
#include "js_object.h"
#include "lab_convert.h"
#include "training_convert.h"

namespace dsml::bindings {

namespace {

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
  const row_major::BlockShape s{d.rows, d.width, slice_width(w_in, d.width, fn, "wIn", "Fl × width")};
  const Values xv = values_from(x, s.rows, s.width, fn, "x", "rows · width");
  const Values w = values_from(w_in, s.slice, s.width, fn, "wIn", "Fl · width");

  Values pre(s.rows * s.slice), a(s.rows * s.slice);  // (rows, Fl)
  row_major::block_in_forward(act, s, xv.data(), w.data(), pre.data(), a.data());
  return object_of({{"pre", float64_array(pre)}, {"act", float64_array(a)}});
}

val lab_activate(const val& pre, const std::string& activation) {
  const std::string fn = "activate";
  const Activation act = activation_arg(activation, fn);
  const Values h = values_from(pre, fn, "pre");
  Values out(h.size());
  row_major::activate(act, h.data(), static_cast<Eigen::Index>(h.size()), out.data());
  return float64_array(out);
}

val block_out_forward(const val& a, const val& w_out, double rows, double width) {
  const std::string fn = "blockOutForward";
  const Dims d = dims(rows, width, fn);
  const row_major::BlockShape s{d.rows, d.width, slice_width(w_out, d.width, fn, "wOut", "width × Fl")};
  const Values av = values_from(a, s.rows, s.slice, fn, "a", "rows · Fl");
  const Values w = values_from(w_out, s.width, s.slice, fn, "wOut", "width · Fl");

  Values y(s.rows * s.width);  // (rows, D)
  row_major::block_out_forward(s, av.data(), w.data(), y.data());
  return float64_array(y);
}

namespace {

// One backward kernel's results (row-major), for both the returning and the writing-into entry points.
struct Gradients {
  Values weight;  // dWOut (D, Fl) or dWIn (Fl, D)
  Values input;   // dA (rows, Fl) or dX (rows, D)
};

Gradients out_backward(const val& dy, const val& a, const val& w_out, double rows, double width, const std::string& fn) {
  const Dims d = dims(rows, width, fn);
  const row_major::BlockShape s{d.rows, d.width, slice_width(w_out, d.width, fn, "wOut", "width × Fl")};
  const Values dyv = values_from(dy, s.rows, s.width, fn, "dy", "rows · width");
  const Values av = values_from(a, s.rows, s.slice, fn, "a", "rows · Fl");
  const Values w = values_from(w_out, s.width, s.slice, fn, "wOut", "width · Fl");
  Gradients g{Values(s.width * s.slice), Values(s.rows * s.slice)};
  row_major::block_out_backward(s, dyv.data(), av.data(), w.data(), g.weight.data(), g.input.data());
  return g;
}

Gradients in_backward(const val& d_a, const val& pre, const val& x, const val& w_in, double rows, double width,
                      const std::string& activation, const std::string& fn) {
  const Activation act = activation_arg(activation, fn);
  const Dims d = dims(rows, width, fn);
  const row_major::BlockShape s{d.rows, d.width, slice_width(w_in, d.width, fn, "wIn", "Fl × width")};
  const Values dav = values_from(d_a, s.rows, s.slice, fn, "dA", "rows · Fl");
  const Values h = values_from(pre, s.rows, s.slice, fn, "pre", "rows · Fl");
  const Values xv = values_from(x, s.rows, s.width, fn, "x", "rows · width");
  const Values w = values_from(w_in, s.slice, s.width, fn, "wIn", "Fl · width");
  Gradients g{Values(s.slice * s.width), Values(s.rows * s.width)};
  row_major::block_in_backward(act, s, dav.data(), h.data(), xv.data(), w.data(), g.weight.data(), g.input.data());
  return g;
}

}  // namespace

val block_out_backward(const val& dy, const val& a, const val& w_out, double rows, double width) {
  const Gradients g = out_backward(dy, a, w_out, rows, width, "blockOutBackward");
  val out = val::object();
  out.set("dWOut", float64_array(g.weight));  // (D, Fl)
  out.set("dA", float64_array(g.input));      // (rows, Fl)
  return out;
}

void block_out_backward_into(const val& dy, const val& a, const val& w_out, double rows, double width,
                             const val& d_w_out, const val& d_a) {
  const std::string fn = "blockOutBackwardInto";
  const Gradients g = out_backward(dy, a, w_out, rows, width, fn);
  write_values(d_w_out, g.weight, fn, "dWOut", "width · Fl");
  write_values(d_a, g.input, fn, "dA", "rows · Fl");
}

val block_in_backward(const val& d_a, const val& pre, const val& x, const val& w_in, double rows, double width,
                      const std::string& activation) {
  const Gradients g = in_backward(d_a, pre, x, w_in, rows, width, activation, "blockInBackward");
  val out = val::object();
  out.set("dWIn", float64_array(g.weight));  // (Fl, D)
  out.set("dX", float64_array(g.input));     // (rows, D)
  return out;
}

void block_in_backward_into(const val& d_a, const val& pre, const val& x, const val& w_in, double rows, double width,
                            const std::string& activation, const val& d_w_in, const val& d_x) {
  const std::string fn = "blockInBackwardInto";
  const Gradients g = in_backward(d_a, pre, x, w_in, rows, width, activation, fn);
  write_values(d_w_in, g.weight, fn, "dWIn", "Fl · width");
  write_values(d_x, g.input, fn, "dX", "rows · width");
}

val lab_mse_loss(const val& y, const val& t) {
  const std::string fn = "mseLoss";
  const Values yv = values_from(y, fn, "y");
  if (yv.empty()) throw Error(fn + ": y is empty");
  const auto n = static_cast<Eigen::Index>(yv.size());
  const Values tv = values_from(t, n, 1, fn, "t", "y.length");
  Values grad(yv.size());
  const double loss = row_major::mse_loss(yv.data(), tv.data(), n, grad.data());
  return object_of({{"loss", loss}, {"grad", float64_array(grad)}});
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
  const Batch b = teacher_batch(model, seed, step, batch);
  val out = val::object();
  out.set("inputs", to_row_major(b.inputs));    // (batch, D)
  out.set("targets", to_row_major(b.targets));  // (batch, D)
  return out;
}

namespace {

// w, and the optimizer's state after step t (update_shard: the update every ZeRO rank applies to its shard); the
// state's rules (empty or one value per element of w; in place, full length) are check_shard_state's.
struct Updated {
  Buffer w;
  ShardMoments moments;
};

Updated updated(const val& options, double t, const val& w, const val& g, const val& m, const val& v, bool in_place,
                const std::string& fn) {
  if (!is_object(options)) throw Error(fn + ": optimizer must be an object like {kind: \"adam\", lr: 0.01}");
  const OptimizerConfig c = to_optimizer_config(options, fn);
  const std::int64_t step = whole_value(t, fn + ": t", 1);
  Updated u{values_from(w, fn, "w"), {}};
  const Buffer grads = values_from(g, static_cast<Eigen::Index>(u.w.size()), 1, fn, "g", "w.length");
  const Values first = values_from(m, fn, "m"), second = values_from(v, fn, "v");
  in_context(fn, [&] { check_shard_state(c.kind, u.w.size(), first.size(), second.size(), in_place); });
  const auto column = [](const Values& values) -> Eigen::MatrixXd {
    return Eigen::Map<const Eigen::MatrixXd>(values.data(), static_cast<Eigen::Index>(values.size()), 1);
  };
  u.moments = {column(first), column(second)};
  in_context(fn, [&] { update_shard(c, step, u.w, grads, u.moments); });
  return u;
}

Values values_of(const Eigen::MatrixXd& column) { return {column.data(), column.data() + column.size()}; }

}  // namespace

val optimizer_step(const val& options, double t, const val& w, const val& g, const val& m, const val& v) {
  const Updated u = updated(options, t, w, g, m, v, false, "optimizerStep");
  val out = val::object();
  out.set("w", float64_array(u.w));
  // (n, 1) columns, so their storage is the row-major order; unused state (m for SGD, v for SGD and momentum)
  // comes back as given.
  out.set("m", float64_array(u.moments.first.data(), static_cast<std::size_t>(u.moments.first.size())));
  out.set("v", float64_array(u.moments.second.data(), static_cast<std::size_t>(u.moments.second.size())));
  return out;
}

void optimizer_step_in_place(const val& options, double t, const val& w, const val& g, const val& m, const val& v) {
  const std::string fn = "optimizerStepInPlace";
  const Updated u = updated(options, t, w, g, m, v, true, fn);
  const OptimizerKind kind = to_optimizer_config(options, fn).kind;
  if (uses_first_moment(kind)) write_values(m, values_of(u.moments.first), fn, "m", "w.length");
  if (uses_second_moment(kind)) write_values(v, values_of(u.moments.second), fn, "v", "w.length");
  write_values(w, u.w, fn, "w", "w.length");
}

val train_single(const val& request) {
  const std::string fn = "trainSingle";
  require_object(request, fn, "{model, optimizer, batch, steps, seed}");
  const TrainingRequest t = to_training_request(request, fn);
  const SingleDeviceRun run = teacher_task_run(t.model, t.optimizer, t.seed, t.steps, t.batch);
  return object_of({{"losses", to_float64_array(run.losses)}, {"params", params_to_val(run.params)}});
}

}  // namespace dsml::bindings
