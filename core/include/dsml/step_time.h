// dsml/step_time.h — the "iron law" of a distributed training step, and why synchronous steps wait
// for stragglers.
//
// A step computes for C seconds and communicates for M seconds. Without overlap it lasts C + M; with perfect
// overlap max(C, M); a fraction φ ∈ [0, 1] of the shorter one hidden behind the longer gives
//   T(φ) = C + M − φ·min(C, M)            (φ = 0: C + M;  φ = 1: max(C, M))
// Every step of synchronous training waits for all N workers. If each is independently slow with probability
// q in a step, the chance that at least one is (Dean & Barroso, "The tail at scale", CACM 2013) is
//   P_any(N) = 1 − (1 − q)^N   (≈ N·q when N·q ≪ 1; 1 − 0.99^100 ≈ 63%).
#pragma once

namespace dsml {

// Seconds. compute ≥ 0, communication ≥ 0, overlap ∈ [0, 1].
double step_time(double compute_s, double communication_s, double overlap);

// Probability that at least one of `workers` (≥ 1) is slow, each independently with probability q ∈ [0, 1].
double probability_any_slow(double q, double workers);

}  // namespace dsml
