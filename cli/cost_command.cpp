// cost_command.cpp — `dsml cost` (usage in main.cpp): one message under the α–β(–γ) model (dsml/cost_model.h),
// T(n) = α + β·n, the crossover n* = α/β where latency and bandwidth cost the same, and n/T(n).
//
//   $ dsml cost --alpha 1e-6 --beta 1e-11 --bytes 1000
//   {"message_time_s": 1.0099999999999999e-06, "crossover_bytes": 100000, "effective_bandwidth_Bps": 990099009.9009902}
#include <limits>

#include "args.h"
#include "dsml/cost_model.h"
#include "foundations_commands.h"
#include "json_output.h"
#include "network_flags.h"

namespace dsml::cli {

int cost(int argc, char** argv) {
  const Args args("cost", argc, argv, 2, {"alpha", "beta", "bandwidth", "gamma", "bytes"});
  const CostModel model = model_from(args);
  const double bytes = args.number("bytes");
  const double time = message_time(model, bytes);  // validates bytes ≥ 0
  // n/T(n) is undefined for an empty message: JSON null.
  const double bandwidth =
      bytes > 0.0 ? effective_bandwidth(model, bytes) : std::numeric_limits<double>::quiet_NaN();
  print(JsonObject()
            .add("message_time_s", time)
            .add("crossover_bytes", crossover_size(model))
            .add("effective_bandwidth_Bps", bandwidth));
  return 0;
}

}  // namespace dsml::cli
