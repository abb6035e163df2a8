// scenarios.cpp — Week 1's small programs, written as one Program (list of steps) per rank.
//
// Each comment gives the schedule that produces the closed form stated in scenarios.h, with T = α + β·n.
#include "dsml/scenarios.h"

#include <string>

#include "dsml/error.h"

namespace dsml {

namespace {

constexpr int kMaxRanks = 1 << 20;
constexpr int kMaxRepeats = 10'000'000;  // rounds, laps
constexpr double kMaxSteps = 1e8;        // a larger run would take minutes and gigabytes

void require_count(const char* name, int value, int at_least, int at_most) {
  if (value >= at_least && value <= at_most) return;
  throw Error(std::string(name) + " must be a whole number from " + std::to_string(at_least) + " to " +
              std::to_string(at_most) + ", got " + std::to_string(value));
}

void require_steps(double steps) {
  if (steps > kMaxSteps)
    throw Error("this scenario would have " + format_number(steps) + " steps; the simulator accepts up to 1e8");
}

}  // namespace

std::vector<Program> ping_pong(int rounds, double bytes) {
  // Each round: 0 → 1, then 1 → 0. Nothing overlaps, so 2·rounds·T.
  require_count("rounds", rounds, 1, kMaxRepeats);
  require_non_negative("bytes", bytes);
  std::vector<Program> programs(2);
  for (int i = 0; i < rounds; ++i) {
    programs[0].push_back(Step::send(1, bytes));
    programs[0].push_back(Step::recv(1));
    programs[1].push_back(Step::recv(0));
    programs[1].push_back(Step::send(0, bytes));
  }
  return programs;
}

std::vector<Program> token_ring(int ranks, double bytes, int laps) {
  // One token: rank r waits for it from r − 1 and passes it to r + 1. One hop at a time: laps·p·T.
  require_count("ranks", ranks, 2, kMaxRanks);
  require_count("laps", laps, 1, kMaxRepeats);
  require_non_negative("bytes", bytes);
  require_steps(2.0 * ranks * laps);
  std::vector<Program> programs(static_cast<std::size_t>(ranks));
  for (int lap = 0; lap < laps; ++lap) {
    programs[0].push_back(Step::send(1, bytes));
    programs[0].push_back(Step::recv(ranks - 1));
    for (int r = 1; r < ranks; ++r) {
      programs[r].push_back(Step::recv(r - 1));
      programs[r].push_back(Step::send((r + 1) % ranks, bytes));
    }
  }
  return programs;
}

std::vector<Program> linear_broadcast(int ranks, double bytes) {
  // The root's uplink sends one message at a time: (p − 1)·T. (A tree does it in ⌈log₂ p⌉·T — Week 2.)
  require_count("ranks", ranks, 1, kMaxRanks);
  require_non_negative("bytes", bytes);
  std::vector<Program> programs(static_cast<std::size_t>(ranks));
  for (int r = 1; r < ranks; ++r) {
    programs[0].push_back(Step::send(r, bytes));
    programs[r].push_back(Step::recv(0));
  }
  return programs;
}

std::vector<Program> gather_to_root(int ranks, double bytes) {
  // All p − 1 sends are posted at t = 0, but the root's downlink takes one at a time, in posting order
  // (rank 1 first), so the root receives in rank order at T, 2T, …: (p − 1)·T.
  require_count("ranks", ranks, 1, kMaxRanks);
  require_non_negative("bytes", bytes);
  std::vector<Program> programs(static_cast<std::size_t>(ranks));
  for (int r = 1; r < ranks; ++r) {
    programs[r].push_back(Step::send(0, bytes));
    programs[0].push_back(Step::recv(r));
  }
  return programs;
}

std::vector<Program> compute_then_exchange(int ranks, double bytes, double compute_seconds) {
  // A BSP superstep (Valiant 1990): compute, then a shift. Every downlink gets exactly one message, so
  // all p transfers run in parallel: compute_s + T.
  require_count("ranks", ranks, 2, kMaxRanks);
  require_non_negative("bytes", bytes);
  require_non_negative("compute seconds", compute_seconds);
  std::vector<Program> programs(static_cast<std::size_t>(ranks));
  for (int r = 0; r < ranks; ++r) {
    programs[r].push_back(Step::compute(compute_seconds));
    programs[r].push_back(Step::send((r + 1) % ranks, bytes));
    programs[r].push_back(Step::recv((r + ranks - 1) % ranks));
  }
  return programs;
}

std::vector<std::string> scenario_names() {
  return {"ping-pong", "token-ring", "linear-broadcast", "gather-to-root", "compute-then-exchange"};
}

std::vector<Program> make_scenario(const std::string& name, const ScenarioOptions& options) {
  if (name == "ping-pong") {
    if (options.ranks != 2)
      throw Error("ping-pong runs on exactly 2 ranks, got ranks = " + std::to_string(options.ranks));
    return ping_pong(options.rounds, options.bytes);
  }
  if (name == "token-ring") return token_ring(options.ranks, options.bytes, options.laps);
  if (name == "linear-broadcast") return linear_broadcast(options.ranks, options.bytes);
  if (name == "gather-to-root") return gather_to_root(options.ranks, options.bytes);
  if (name == "compute-then-exchange")
    return compute_then_exchange(options.ranks, options.bytes, options.compute_seconds);
  std::string valid;
  for (const std::string& known : scenario_names()) valid += (valid.empty() ? "" : ", ") + known;
  throw Error("unknown scenario \"" + name + "\"; expected one of " + valid);
}

SimResult simulate_scenario(const std::string& name, const ScenarioOptions& options, const CostModel& link,
                            const SimOptions& sim) {
  const std::vector<Program> programs = make_scenario(name, options);
  return simulate(Topology::fully_connected(static_cast<int>(programs.size()), link), programs, sim);
}

}  // namespace dsml
