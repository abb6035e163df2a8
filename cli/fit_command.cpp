// fit_command.cpp — `dsml fit` (usage in main.cpp): α and β of T(n) = α + β·n fitted by least squares to measured
// (bytes, seconds) pairs (dsml/fit.h), the bandwidth 1/β and the fit's R².
//
//   $ dsml fit --bytes 0,1000,2000 --seconds 1e-6,2e-6,3e-6
#include <limits>

#include "args.h"
#include "dsml/fit.h"
#include "foundations_commands.h"
#include "json_output.h"
#include "network_flags.h"

namespace dsml::cli {

int fit(int argc, char** argv) {
  const Args args("fit", argc, argv, 2, {"bytes", "seconds"});
  const AlphaBetaFit result = fit_alpha_beta(args.numbers("bytes"), args.numbers("seconds"));
  print(JsonObject()
            .add("alpha_s", result.alpha)
            .add("beta_s_per_byte", result.beta)
            .add("bandwidth_Bps", result.beta > 0.0 ? 1.0 / result.beta : std::numeric_limits<double>::quiet_NaN())
            .add("r_squared", result.r_squared)
            .add("points", static_cast<double>(result.points)));
  return 0;
}

}  // namespace dsml::cli
