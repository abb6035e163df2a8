// checkpoint_simulation.cpp — runs of a checkpointed job under node failures (dsml/checkpointing.h).
//
// The state is the wall clock and every node's next failure instant (an exponential clock of mean m each; a
// replaced node starts a fresh clock). A segment of work + checkpoint succeeds if no clock runs out before it ends;
// otherwise its progress is lost at the first failure, the failure is detected by heartbeat, every node whose clock
// ran out meanwhile is replaced, and a restart of R follows — which the next failure may interrupt.
#include <algorithm>
#include <cmath>
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

}  // namespace

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
  // A run whose expected length is astronomically long (failures far more often than a segment) would not end.
  const double m = c.node_mtbf / c.nodes;
  if ((std::min(c.interval, c.work) + c.checkpoint) / m > 30 || c.restart / m > 30)
    throw Error("a segment (interval + checkpoint) or a restart lasts more than 30 fleet MTBFs (" + format_number(m) +
                " s): the run would practically never finish; checkpoint more often or use fewer nodes");
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
