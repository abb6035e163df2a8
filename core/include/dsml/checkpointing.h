// dsml/checkpointing.h — how often to checkpoint a long run that fails: closed forms and a failure simulation that
// checks them.
//
// A run needs W seconds of work. Every τ seconds of work it writes a checkpoint, which takes δ (= C) seconds. Failures
// arrive as a Poisson process with mean time between failures M (the fleet's: N nodes of MTBF m fail as one process
// of MTBF m/N — the minimum of N exponential clocks is exponential with N times the rate). A failure loses the work
// since the last checkpoint; the failure is noticed after a detection delay D (heartbeat timeout), then a restart
// takes R seconds (reload the checkpoint, rebuild the communicators) and may itself be hit by a failure.
//
//   first order (Young 1974):   overhead(τ) ≈ δ/τ + τ/(2M)     (checkpoint time, plus half an interval lost per
//                                                                failure), minimised at τ* = √(2δM)
//   Daly 2006 (higher order):   τ* = √(2δM)·[1 + ⅓·√(δ/(2M)) + (1/9)·(δ/(2M))] − δ   for δ < 2M,   τ* = M otherwise
//                               (checked against the values his Figs. 3–5 state: M = 24 h, 6 h, 15 min with δ = 5 min
//                               give 117, 57 and 9.1 min)
//   expected wall time (Daly's complete model, extended by the detection delay D):
//       T(τ) = (W/τ)·(M + D)·e^{R/M}·(e^{(τ+δ)/M} − 1)
//     Derivation, per segment of L = τ + δ: it is hit by a failure e^{L/M} − 1 times on average, each costing the
//     lost time (mean M − L/(e^{L/M} − 1)) and a downtime; a downtime is attempts of D + min(X, R) until a restart
//     survives, e^{R/M} attempts on average: e^{R/M}·D + M(e^{R/M} − 1). Summed: (e^{L/M} − 1)·(M + D)·e^{R/M}.
//     D = 0 is Daly's T_w exactly. With no checkpoints at all the run is one segment: τ = W, δ = 0.
//   Detection by heartbeat (period h, timeout T): the node's last heartbeat was at h·⌊f/h⌋; the monitor, checking
//     every h, declares it dead at h·⌊f/h⌋ + h·⌈T/h⌉, so D ∈ (h·⌈T/h⌉ − h, h·⌈T/h⌉], mean h·⌈T/h⌉ − h/2 (h = 0: D = T).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace dsml {

// --- closed forms (checkpoint_closed_forms.cpp); every argument in seconds, > 0 unless said ----------------------
double first_order_overhead(double interval, double checkpoint, double mtbf);  // δ/τ + τ/(2M)
double young_interval(double checkpoint, double mtbf);                        // √(2δM)
double daly_interval(double checkpoint, double mtbf);                         // Daly's τ*
// T(τ) above; restart, detection ≥ 0; checkpoint ≥ 0.
double expected_wall_time(double work, double interval, double checkpoint, double restart, double mtbf,
                          double detection = 0.0);
// The τ minimising expected_wall_time, by golden-section search on (0, work] (T is unimodal in τ).
double optimal_interval(double work, double checkpoint, double restart, double mtbf, double detection = 0.0);
// T(τ)/M: the failures a run is expected to see. The fleet fails as a Poisson process of rate 1/M while the run lasts
// (a replaced node starts a fresh clock), so E[failures] = E[wall]/M (Wald's identity) — up to the detection delays,
// during which the failed node cannot fail again. It grows like e^{(τ+δ)/M}: every segment is retried until one
// attempt outlives it.
double expected_failures(double work, double interval, double checkpoint, double restart, double mtbf,
                         double detection = 0.0);
// M − L/(e^{L/M} − 1): the mean work lost by a failure that hits a segment of length L.
double expected_lost_work(double segment, double mtbf);
double fleet_mtbf(double node_mtbf, int nodes);                               // m/N; nodes ≥ 1
double mean_detection_delay(double heartbeat_period, double timeout);         // h·⌈T/h⌉ − h/2; h ≥ 0, T ≥ 0
double detection_time(double failure_time, double heartbeat_period, double timeout);  // the exact instant

// --- the simulation (checkpoint_simulation.cpp) ------------------------------------------------------------------
struct CheckpointRunConfig {
  double work = 3600.0;         // W, s of computation the run needs
  double interval = 600.0;      // τ, s of work between checkpoints (a last partial segment is checkpointed too)
  double checkpoint = 60.0;     // δ = C
  double restart = 0.0;         // R
  int nodes = 1;                // N, each with its own exponential clock
  double node_mtbf = 36000.0;   // m; the fleet's M = m/N
  double heartbeat_period = 0.0;  // h (0: detection takes exactly the timeout)
  double heartbeat_timeout = 0.0; // T
  int runs = 1000;              // independent runs (seeds seed, seed + 1, …)
  std::uint64_t seed = 0;
};
void validate(const CheckpointRunConfig& config);  // throws Error naming the field

// The most failures a simulated run may be expected to see (expected_failures). Each costs a pass over the nodes; a
// run expected to see more would take minutes to hours to simulate (one segment of 42 fleet MTBFs: ~10^18 failures),
// and is refused with its numbers instead.
constexpr double kMaxExpectedFailures = 1e5;
// Throws Error if a run with this config is expected to fail more than kMaxExpectedFailures times, naming the
// interval, the fleet MTBF, the expected count and Daly's best interval. validate calls it; a caller whose interval
// is counted in other units passes `in_units` (s of work → "5000 steps") and the name of its nodes ("GPUs").
void require_finishable(const CheckpointRunConfig& config,
                        const std::function<std::string(double)>& in_units = nullptr,
                        const std::string& nodes = "nodes");

struct CheckpointRun {
  double wall = 0.0;         // s until the work is done
  int failures = 0;          // every failure, during work, checkpoint, detection or restart
  int work_failures = 0;     // those that hit work or a checkpoint (and so lost progress)
  double lost_work = 0.0;    // s of progress (work and checkpoint writing) thrown away
  double downtime = 0.0;     // s spent detecting and restarting
  int checkpoints = 0;       // segments completed, each ending in a checkpoint kept
};

struct CheckpointStudy {
  std::vector<CheckpointRun> runs;
  double mean_wall = 0.0;
  double ci95 = 0.0;             // 1.96·s/√n, the half-width of the mean's 95% confidence interval
  double mean_failures = 0.0;
  double lost_work_per_failure = 0.0;  // Σ lost / Σ work_failures (expected_lost_work(τ + δ, M) in theory)
  double mean_time_between_failures = 0.0;  // Σ wall / Σ failures — the fleet's MTBF as the run saw it
  double expected_wall = 0.0;    // expected_wall_time with M = m/N and D = mean_detection_delay (exact when τ
                                 // divides W: the simulation checkpoints a last partial segment in full)
};

// Each run: segments of min(τ, what is left) work + δ; on a failure the segment's progress is lost, the failure is
// detected (detection_time), the failed node is replaced (a fresh clock; nodes whose clock runs out while the job is
// down are replaced in the same recovery), and a restart of R follows, until one survives.
CheckpointStudy simulate_checkpointing(const CheckpointRunConfig& config);

}  // namespace dsml
