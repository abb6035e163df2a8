// checkpoint_simulation.cpp — runs of a checkpointed job under node failures (dsml/checkpointing.h).
//
// The state is the wall clock and every node's next failure instant (an exponential clock of mean m each; a
// replaced node starts a fresh clock). A segment of work + checkpoint succeeds if no clock runs out before it ends;
// otherwise its progress is lost at the first failure, the failure is detected by heartbeat, every node whose clock
// ran out meanwhile is replaced, and a restart of R follows — which the next failure may interrupt.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>

#include "dsml/checkpointing.h"
#include "dsml/error.h"
#include "nn/gaussian.h"

namespace dsml {
namespace {

class Fleet {
 public:
  Fleet(int nodes, double node_mtbf, std::uint64_t seed) : mtbf_(node_mtbf), engine_(seed) {
    for (int i = 0; i < nodes; ++i) next_.push_back(draw(0.0));
  }
  // The earliest failure instant and its node.
  std::pair<double, std::size_t> first() const {
    const auto it = std::min_element(next_.begin(), next_.end());
    return {*it, static_cast<std::size_t>(it - next_.begin())};
  }
  // Replaces every node whose clock ran out by `now` (they are swapped out in the same recovery); returns how many.
  int replace_failed(double now) {
    int replaced = 0;
    for (double& t : next_)
      if (t <= now) t = draw(now), ++replaced;
    return replaced;
  }

 private:
  double draw(double from) {
    const double u = (static_cast<double>(engine_() >> 11) + 1.0) * 0x1.0p-53;  // (0, 1]
    return from - mtbf_ * std::log(u);
  }
  double mtbf_;
  std::mt19937_64 engine_;
  std::vector<double> next_;
};

CheckpointRun one_run(const CheckpointRunConfig& c, std::uint64_t seed) {
  Fleet fleet(c.nodes, c.node_mtbf, seed);
  CheckpointRun run;
  double now = 0.0, done = 0.0;
  // After a failure at `failed`: detect, replace, restart; a failure during the restart starts over.
  const auto recover = [&](double failed) {
    for (;;) {
      const double detected = std::max(failed, detection_time(failed, c.heartbeat_period, c.heartbeat_timeout));
      run.failures += fleet.replace_failed(detected);  // the failed node, and any that failed while we waited
      const double restarted = detected + c.restart;
      const double next = fleet.first().first;
      if (next >= restarted) {
        run.downtime += restarted - now;
        now = restarted;
        return;
      }
      run.downtime += next - now;
      now = failed = next;
    }
  };
  while (done < c.work) {
    const double segment = std::min(c.interval, c.work - done) + c.checkpoint;
    const double next = fleet.first().first;
    if (next >= now + segment) {
      now += segment;
      done += std::min(c.interval, c.work - done);
      ++run.checkpoints;
      continue;
    }
    run.lost_work += next - now;
    ++run.work_failures;
    now = next;
    recover(next);
  }
  run.wall = now;
  return run;
}

constexpr double kMaxSimulatedCheckpoints = 5e7;   // over all runs of one study
constexpr double kMaxSimulatedNodeSegments = 5e7;  // checkpoints × nodes over all runs: each looks at every node

// A number to a few significant digits, for a message: "84.4 s", "3500 s", "180000", "1.7e+18".
std::string rounded(double value, int digits = 3) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.*g", digits, value);
  const double shown = std::strtod(buffer, nullptr);
  // Whole numbers below a million without an exponent: 3.5e+03 → "3500".
  if (std::abs(shown) < 1e6 && shown == std::round(shown)) std::snprintf(buffer, sizeof buffer, "%.0f", shown);
  return buffer;
}
// An expected count of failures: "about 1.7e+18"; past the doubles (e^{L/M} overflows beyond L/M ≈ 709), "more than".
std::string about(double count) { return std::isfinite(count) ? "about " + rounded(count, 2) : "more than 1e+308"; }

}  // namespace

void require_finishable(const CheckpointRunConfig& c, const std::function<std::string(double)>& in_units,
                        const std::string& nodes) {
  const auto interval_text = [&](double seconds) {
    const std::string work = rounded(seconds) + " s of work";
    return in_units ? in_units(seconds) + " (" + work + ")" : work;
  };
  const double m = fleet_mtbf(c.node_mtbf, c.nodes), d = mean_detection_delay(c.heartbeat_period, c.heartbeat_timeout);
  const double tau = std::min(c.interval, c.work);
  const double failures = expected_failures(c.work, tau, c.checkpoint, c.restart, m, d);
  if (failures <= kMaxExpectedFailures) return;
  const double best = optimal_interval(c.work, c.checkpoint, c.restart, m, d);
  const double at_best = expected_failures(c.work, best, c.checkpoint, c.restart, m, d);
  std::string why = "with a checkpoint every " + interval_text(tau) + ", " + rounded(c.checkpoint) +
                    " s to write one, a restart of " + rounded(c.restart) + " s and a fleet MTBF of " + rounded(m) +
                    " s (" + rounded(c.node_mtbf) + " s / " + std::to_string(c.nodes) + " " + nodes +
                    "), the run would be expected to fail " + about(failures) +
                    " times (Daly's expected wall time over the fleet MTBF): it would practically never finish, and "
                    "is not simulated beyond " + rounded(kMaxExpectedFailures, 2) + " expected failures; ";
  if (at_best <= kMaxExpectedFailures)
    why += "checkpoint more often — every " + interval_text(best) + ", Daly's best interval, expects " +
           about(at_best) + " failures — or use fewer " + nodes;
  else
    why += "even Daly's best interval (every " + interval_text(best) + ") expects " + about(at_best) +
           ": use fewer " + nodes + ", more reliable ones or a shorter restart";
  throw Error(why);
}

void validate(const CheckpointRunConfig& c) {
  require_positive("work (s)", c.work);
  require_positive("interval (s of work between checkpoints)", c.interval);
  require_non_negative("checkpoint (s to write one)", c.checkpoint);
  require_non_negative("restart (s)", c.restart);
  require_positive("node_mtbf (s)", c.node_mtbf);
  require_non_negative("heartbeat_period (s)", c.heartbeat_period);
  require_non_negative("heartbeat_timeout (s)", c.heartbeat_timeout);
  if (c.nodes < 1 || c.nodes > 1000000) throw Error("nodes must be between 1 and 1000000, got " + std::to_string(c.nodes));
  if (c.runs < 1 || c.runs > 1000000) throw Error("runs must be between 1 and 1000000, got " + std::to_string(c.runs));
  // Every checkpoint is one step of the simulation: a tiny interval over a long job is refused at once, not simulated
  // for minutes (8.64e6 checkpoints take 34 ms natively; 5e7 about 0.2 s, a few times that in wasm).
  const double per_run = std::ceil(c.work / c.interval);
  if (per_run * c.runs > kMaxSimulatedCheckpoints) {
    throw Error("a checkpoint every " + rounded(c.interval) + " s over " + rounded(c.work) + " s of work is " +
                rounded(per_run) + " checkpoints a run, × " + std::to_string(c.runs) + (c.runs == 1 ? " run" : " runs") + ": more than the " +
                rounded(kMaxSimulatedCheckpoints) + " this simulation takes; use a longer interval or fewer runs");
  }
  require_finishable(c);
  // Each segment looks at every node's clock: the work is checkpoints × nodes (5e7 ≈ a second in a browser tab).
  if (per_run * c.runs * c.nodes > kMaxSimulatedNodeSegments) {
    throw Error(rounded(per_run) + " checkpoints a run × " + std::to_string(c.runs) + (c.runs == 1 ? " run" : " runs") +
                " × " + std::to_string(c.nodes) + (c.nodes == 1 ? " node" : " nodes") + " (each segment looks at every " +
                "node's clock) is more than the " + rounded(kMaxSimulatedNodeSegments) +
                " this simulation takes; use a longer interval, fewer runs or fewer nodes");
  }
}

CheckpointStudy simulate_checkpointing(const CheckpointRunConfig& c) {
  validate(c);
  CheckpointStudy s;
  double sum = 0, squares = 0, failures = 0, lost = 0, hits = 0, wall = 0;
  for (int i = 0; i < c.runs; ++i) {
    const CheckpointRun r = one_run(c, nn_detail::mix_seed(c.seed, static_cast<std::uint64_t>(i)));
    sum += r.wall;
    squares += r.wall * r.wall;
    failures += r.failures;
    lost += r.lost_work;
    wall += r.wall;
    s.runs.push_back(r);
  }
  for (const CheckpointRun& r : s.runs) hits += r.work_failures;
  const double n = c.runs;
  s.mean_wall = sum / n;
  const double variance = n > 1 ? std::max(0.0, (squares - sum * sum / n) / (n - 1)) : 0.0;
  s.ci95 = 1.96 * std::sqrt(variance / n);
  s.mean_failures = failures / n;
  s.mean_time_between_failures = failures > 0 ? wall / failures : 0.0;
  s.lost_work_per_failure = hits > 0 ? lost / hits : 0.0;
  s.expected_wall = expected_wall_time(c.work, c.interval, c.checkpoint, c.restart, fleet_mtbf(c.node_mtbf, c.nodes),
                                       mean_detection_delay(c.heartbeat_period, c.heartbeat_timeout));
  return s;
}

}  // namespace dsml
