// lab_moe_adapters.cpp — see lab_moe_adapters.h.
#include "lab_moe_adapters.h"

#include <cstdint>
#include <string>
#include <vector>

#include "dsml/error.h"
#include "dsml/moe_mlp.h"
#include "fields.h"
#include "js_arrays.h"
#include "js_object.h"
#include "lab_convert.h"
#include "moe_convert.h"
#include "training_convert.h"

namespace dsml::bindings {

namespace {

val tensors_to_val(const MoeMlpParams& params) {
  val out = val::array();
  for (const Eigen::MatrixXd* w : parameter_tensors(params)) out.call<void>("push", to_row_major(*w));
  return out;
}

Eigen::MatrixXd row_major_matrix(const Values& v, Eigen::Index rows, Eigen::Index cols) {
  return Eigen::Map<const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>(v.data(), rows, cols);
}

int top_k_arg(double top_k, const std::string& fn) {
  if (top_k != 1 && top_k != 2) throw Error(fn + ": topK must be 1 or 2, got " + std::to_string(top_k));
  return static_cast<int>(top_k);
}

}  // namespace

val moe_mlp_init(const val& request) {
  const std::string fn = "moeMlpInit";
  require_object(request, fn, "{model, moe: {experts, topK, capacityFactor, every?}, seed}");
  const MoeMlpConfig c = to_moe_mlp_config(request, fn, false);
  check_run_size(c.mlp, 1, 1, fn);
  return tensors_to_val(init_moe_mlp(c, static_cast<std::uint64_t>(whole_field_or(request, "seed", 0, fn))));
}

val train_single_moe(const val& request) {
  const std::string fn = "trainSingleMoe";
  require_object(request, fn, "{model, moe: {experts, topK, capacityFactor, every?}, groups, optimizer, batch, steps, seed}");
  const MoeMlpRun run = train_moe(to_moe_training(request, fn, false), fn);
  return object_of({{"losses", float64_array(run.losses)}, {"params", tensors_to_val(run.params)},
                    {"load", to_val(run.last_load)}});
}

val moe_route(const val& x, const val& router, double rows, double width, double top_k, double capacity_factor) {
  const std::string fn = "moeRoute";
  const Dims d = dims(rows, width, fn);
  MoeConfig c;
  c.width = static_cast<int>(d.width);
  c.experts = static_cast<int>(slice_width(router, d.width, fn, "router", "E × width"));
  c.top_k = top_k_arg(top_k, fn);
  c.capacity_factor = capacity_factor;
  const Eigen::MatrixXd xm = row_major_matrix(values_from(x, d.rows, d.width, fn, "x", "rows · width"), d.rows, d.width);
  const Eigen::MatrixXd wr =
      row_major_matrix(values_from(router, c.experts, d.width, fn, "router", "E · width"), c.experts, d.width);
  const MoeRouting r = in_context(fn, [&] { return dsml::moe_route(c, wr, xm); });
  const int k = c.top_k;
  Values expert, gate, slot;
  for (Eigen::Index t = 0; t < d.rows; ++t) {
    for (int j = 0; j < k; ++j) {
      expert.push_back(r.expert[t][j]);
      gate.push_back(r.gate[t][j]);
      slot.push_back(r.slot[t][j]);
    }
  }
  return object_of({{"probs", to_row_major(r.probs)}, {"expert", float64_array(expert)}, {"gate", float64_array(gate)},
                    {"slot", float64_array(slot)}, {"capacity", r.capacity}});
}

val moe_router_backward(const val& probs, const val& expert, const val& d_gate, double rows, double top_k) {
  const std::string fn = "moeRouterBackward";
  const int k = top_k_arg(top_k, fn);
  const Dims d = dims(rows, 1, fn);
  const Eigen::Index E = slice_width(probs, d.rows, fn, "probs", "rows × E");
  MoeRouting r;
  r.probs = row_major_matrix(values_from(probs, d.rows, E, fn, "probs", "rows · E"), d.rows, E);
  const Values e = values_from(expert, d.rows, k, fn, "expert", "rows · topK");
  const Values g = values_from(d_gate, d.rows, k, fn, "dGate", "rows · topK");
  std::vector<std::vector<double>> dg(static_cast<std::size_t>(d.rows), std::vector<double>(k));
  r.expert.assign(static_cast<std::size_t>(d.rows), std::vector<int>(k));
  for (Eigen::Index t = 0; t < d.rows; ++t) {
    for (int j = 0; j < k; ++j) {
      const double v = e[t * k + j];
      if (!(v >= 0 && v < static_cast<double>(E) && v == static_cast<int>(v)))
        throw Error(fn + ": expert[" + std::to_string(t * k + j) + "] must be an expert index 0 … " +
                    std::to_string(E - 1));
      r.expert[t][j] = static_cast<int>(v);
      dg[t][j] = g[t * k + j];
    }
  }
  return to_row_major(dsml::moe_router_backward(r, dg));
}

}  // namespace dsml::bindings
