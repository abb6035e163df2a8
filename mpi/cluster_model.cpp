// cluster_model.cpp — see cluster_model.h.
#include "cluster_model.h"

#include <limits>

#include "dsml/error.h"
#include "json_output.h"
#include "ping_pong.h"

namespace dsml::mpi {

std::vector<std::string> model_flag_names() { return {"alpha", "beta", "bandwidth", "gamma", "peer", "repeats"}; }

ModelChoice model_choice(const cli::Args& args, const World& world) {
  ModelChoice choice;
  const bool beta = args.has("beta") || args.has("bandwidth");
  if (args.has("beta") && args.has("bandwidth")) throw cli::UsageError("give --beta or --bandwidth, not both");
  if (args.has("alpha") != beta)
    throw cli::UsageError("--alpha and --beta (or --bandwidth) go together; without both, dsml-mpi measures them "
                          "by ping-pong");
  choice.given = args.has("alpha");
  if (choice.given) {
    const double b = args.has("beta") ? args.number("beta") : 1.0 / args.number("bandwidth");
    choice.model = CostModel{args.number("alpha"), b, args.number_or("gamma", 0.0)};
    validate(choice.model);
  }
  choice.gamma_given = args.has("gamma");
  choice.gamma = args.number_or("gamma", 0.0);
  require_non_negative("gamma (s per byte reduced)", choice.gamma);
  choice.peer = args.whole_or("peer", 1);
  choice.repeats = args.whole_or("repeats", 20);
  if (choice.repeats < 1) throw Error("--repeats must be >= 1, got " + std::to_string(choice.repeats));
  if (!choice.given && world.size < 2)
    throw Error("measuring alpha and beta needs 2 ranks or more (run with mpirun -np 2 or more), or give --alpha "
                "and --beta");
  if (!choice.given && (choice.peer < 1 || choice.peer >= world.size))
    throw Error("--peer must be a rank in [1, " + std::to_string(world.size) + "), got " + std::to_string(choice.peer));
  return choice;
}

ClusterModel cluster_model(const ModelChoice& choice, const World& world) {
  ClusterModel result;
  if (choice.given) {
    result.model = choice.model;
    result.source = "given";
    result.r_squared = std::numeric_limits<double>::quiet_NaN();
    result.alpha_fitted = choice.model.alpha;
    return result;
  }
  // On a loaded machine the noise can swamp the bandwidth term (a fit with β ≤ 0): measure again with twice the
  // repeats, up to three more times, before giving up (fitted_model then says why). Every rank sees the same
  // broadcast fit, so all of them take the same decision.
  int repeats = choice.repeats;
  PingPong pp = ping_pong(world, choice.peer, ping_pong_sizes(), repeats);
  for (int attempt = 1; attempt <= 3 && !(pp.fit.beta > 0); ++attempt) {
    repeats *= 2;
    pp = ping_pong(world, choice.peer, ping_pong_sizes(), repeats);
  }
  const double gamma = choice.gamma_given ? choice.gamma : measure_gamma(world);
  result.model = fitted_model(pp.fit, gamma);
  result.source = "ping-pong rank 0 <-> rank " + std::to_string(choice.peer);
  result.r_squared = pp.fit.r_squared;
  result.alpha_fitted = pp.fit.alpha;
  return result;
}

std::string model_json(const ClusterModel& m) {
  return cli::JsonObject()
      .add("alpha_s", m.model.alpha)
      .add("beta_s_per_byte", m.model.beta)
      .add("gamma_s_per_byte", m.model.gamma)
      .add_text("source", m.source)
      .add("r_squared", m.r_squared)
      .str();
}

}  // namespace dsml::mpi
