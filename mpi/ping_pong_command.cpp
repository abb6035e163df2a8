// ping_pong_command.cpp — `dsml-mpi ping-pong`: α and β of this cluster, as Week 1's widget measures them in
// the browser, here between rank 0 and --peer (choose a peer on another node to measure the network rather than
// shared memory: with `--map-by node`, rank 1 is on the second host).
//
//   $ mpirun -np 2 dsml-mpi ping-pong
//   {"peer": 1, "repeats": 20, "points": [{"bytes": 8, "seconds": …}, …], "alpha_s": …, "beta_s_per_byte": …,
//    "bandwidth_Bps": …, "crossover_bytes": …, "r_squared": …, "gamma_s_per_byte": …}
#include <cmath>
#include <string>
#include <vector>

#include "args.h"
#include "commands.h"
#include "dsml/error.h"
#include "json_line.h"
#include "ping_pong.h"

namespace dsml::mpi {

Run prepare_ping_pong(int argc, char** argv, const World& world) {
  const cli::Args args("ping-pong", argc, argv, 2, {"peer", "repeats", "sizes"}, {}, "dsml-mpi");
  const int peer = args.whole_or("peer", 1);
  const int repeats = args.whole_or("repeats", 20);
  const std::vector<double> sizes = args.has("sizes") ? args.numbers("sizes") : ping_pong_sizes();
  if (world.size < 2) throw Error("ping-pong needs 2 ranks or more (mpirun -np 2 …), got " + std::to_string(world.size));
  if (peer < 1 || peer >= world.size)
    throw Error("--peer must be a rank in [1, " + std::to_string(world.size) + "), got " + std::to_string(peer));
  if (repeats < 1) throw Error("--repeats must be >= 1, got " + std::to_string(repeats));
  for (double n : sizes)
    if (!(n >= 0) || n > 1 << 30 || n != static_cast<double>(static_cast<long long>(n)))
      throw Error("every --sizes entry must be a whole number of bytes in [0, 2^30], got " + format_number(n));
  return [world, peer, repeats, sizes] {
    const PingPong pp = ping_pong(world, peer, sizes, repeats);
    const double gamma = measure_gamma(world);
    if (world.rank != 0) return 0;
    std::vector<std::string> points;
    for (const PingPongPoint& point : pp.points)
      points.push_back(cli::JsonObject().add("bytes", point.bytes).add("seconds", point.seconds).str());
    cli::JsonObject fit;
    fit.add("alpha_s", pp.fit.alpha)
        .add("beta_s_per_byte", pp.fit.beta)
        .add("bandwidth_Bps", pp.fit.beta > 0 ? 1 / pp.fit.beta : NAN)
        .add("crossover_bytes", pp.fit.beta > 0 ? pp.fit.alpha / pp.fit.beta : NAN)
        .add("r_squared", pp.fit.r_squared)
        .add("gamma_s_per_byte", gamma);
    const cli::JsonObject head = cli::JsonObject().add_text("mpi", library_version()).add("peer", peer)
                                     .add("repeats", repeats);
    std::string line = with_raw(head, "points", json_array(points));
    line.pop_back();
    line += ", " + fit.str().substr(1);
    print_line(line);
    return 0;
  };
}

}  // namespace dsml::mpi
