// split_backward_adapters.cpp — see split_backward_adapters.h.
#include "split_backward_adapters.h"

#include "dsml/block_rows.h"
#include "lab_convert.h"

namespace dsml::bindings {

val block_backward_input(const val& dy, const val& pre, const val& w_in, const val& w_out, double rows, double width,
                         const std::string& activation) {
  const std::string fn = "blockBackwardInput";
  const Activation act = activation_arg(activation, fn);
  const Dims d = dims(rows, width, fn);
  const row_major::BlockShape s{d.rows, d.width, slice_width(w_in, d.width, fn, "wIn", "Fl × width")};
  const Values dyv = values_from(dy, s.rows, s.width, fn, "dy", "rows · width");
  const Values h = values_from(pre, s.rows, s.slice, fn, "pre", "rows · Fl");
  const Values wi = values_from(w_in, s.slice, s.width, fn, "wIn", "Fl · width");
  const Values wo = values_from(w_out, s.width, s.slice, fn, "wOut", "width · Fl");
  Values dh(s.rows * s.slice), dx(s.rows * s.width);
  row_major::block_backward_input(act, s, dyv.data(), h.data(), wi.data(), wo.data(), dh.data(), dx.data());
  val out = val::object();
  out.set("dH", float64_array(dh));  // (rows, Fl)
  out.set("dX", float64_array(dx));  // (rows, D)
  return out;
}

val block_backward_weight(const val& dy, const val& act, const val& d_h, const val& x, double rows, double width) {
  const std::string fn = "blockBackwardWeight";
  const Dims d = dims(rows, width, fn);
  const row_major::BlockShape s{d.rows, d.width, slice_width(act, d.rows, fn, "act", "rows × Fl")};
  const Values dyv = values_from(dy, s.rows, s.width, fn, "dy", "rows · width");
  const Values a = values_from(act, s.rows, s.slice, fn, "act", "rows · Fl");
  const Values dh = values_from(d_h, s.rows, s.slice, fn, "dH", "rows · Fl");
  const Values xv = values_from(x, s.rows, s.width, fn, "x", "rows · width");
  Values dw_out(s.width * s.slice), dw_in(s.slice * s.width);
  row_major::block_backward_weight(s, dyv.data(), a.data(), dh.data(), xv.data(), dw_out.data(), dw_in.data());
  val out = val::object();
  out.set("dWOut", float64_array(dw_out));  // (D, Fl)
  out.set("dWIn", float64_array(dw_in));    // (Fl, D)
  return out;
}

}  // namespace dsml::bindings
