// dsml/step_time.h — the "iron law" of a distributed training step, and why synchronous steps wait
// for stragglers.
//
// A step computes for C seconds and communicates for M seconds. Without overlap it lasts C + M; with perfect
// overlap max(C, M); a fraction φ ∈ [0, 1] of the shorter one hidden behind the longer gives
//   T(φ) = C + M − φ·min(C, M)            (φ = 0: C + M;  φ = 1: max(C, M))
// Counted as the fraction o of the communication hidden (the seed course's partial overlap):
//   T(o) = C + (1 − o)·M,  0 ≤ o ≤ min(1, C/M) — no more communication hides than there is compute to hide it.
// Every step of synchronous training waits for all N workers. If each is independently slow with probability
// q in a step, the chance that at least one is (Dean & Barroso, "The tail at scale", CACM 2013) is
//   P_any(N) = 1 − (1 − q)^N   (≈ N·q when N·q ≪ 1; 1 − 0.99^100 ≈ 63%).
#pragma once

namespace dsml {

// Seconds. compute ≥ 0, communication ≥ 0, overlap ∈ [0, 1].
double step_time(double compute_s, double communication_s, double overlap);

// T(o) = C + (1 − o)·M. Throws naming the largest o, min(1, C/M), when o lies outside [0, min(1, C/M)].
double partial_overlap_step_time(double compute_s, double communication_s, double overlap_fraction);
// min(1, C/M): the largest overlap fraction a step of compute C and communication M allows (1 when M = 0).
double max_overlap_fraction(double compute_s, double communication_s);

// Probability that at least one of `workers` (≥ 1) is slow, each independently with probability q ∈ [0, 1].
double probability_any_slow(double q, double workers);

}  // namespace dsml
