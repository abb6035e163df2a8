// dsml/compression.h — gradient compression: what each worker sends instead of its full gradient, how many bytes
// that is on the wire, and which collective can carry it.
//
// Every operator takes one tensor flattened to a vector v (n values) and returns its decompressed value C(v), the
// vector the receivers reconstruct (so an update can use it directly):
//   top-k       keep the k largest |v_i|, zero the rest                         biased; ‖v − C(v)‖² ≤ (1 − k/n)‖v‖²
//   random-k    keep k coordinates drawn uniformly (a seed every worker shares), zero the rest; NOT rescaled by n/k,
//               so it is the contraction error feedback expects (Stich et al. 2018), biased towards 0
//   int8        linear 8-bit: scale = max|v_i|/127, q_i = round(v_i/scale) ∈ [−127, 127]; deterministic
//   qsgd        QSGD with s levels (Alistarh et al. 2017): C(v)_i = ‖v‖₂·sign(v_i)·ξ_i, ξ_i = l/s or (l+1)/s where
//               l = ⌊s|v_i|/‖v‖⌋, rounding up with probability s|v_i|/‖v‖ − l. Unbiased, E[C(v)] = v, and
//               E‖C(v) − v‖² ≤ min(n/s², √n/s)·‖v‖² (their Lemma 3.1)
//   sign        (‖v‖₁/n)·sign(v) — the scaled sign of EF-SignSGD (Karimireddy et al. 2019); several workers' signs
//               are combined by majority vote (Bernstein et al. 2018, compressed_aggregation.cpp)
//   powersgd    rank r (Vogels et al. 2019), on the tensor as the matrix it is (powersgd.cpp)
//
// Bytes on the wire for one worker's message of an n-value tensor (values in `element_bytes`, default fp32 — the
// uncompressed baseline is n·4; indices in `index_bytes`, default int32):
//   none n·e   top-k k·(e + i)   random-k k·e (indices follow from the shared seed)   int8 n + e (the scale)
//   qsgd ⌈n·(1 + ⌈log₂(s + 1)⌉)/8⌉ + e (sign bit and level per value, plain fixed-width codes — QSGD's Elias coding
//        would send fewer when most levels are 0; the norm in e bytes)
//   sign ⌈n/8⌉ + e (one bit per value, the scale)      powersgd (rows + cols)·r·e (P and Q)
//
// Which collective carries it (compressed_collectives): an all-reduce needs a LINEAR code, where the sum of
// encodings is the encoding of the sum, so partial sums can be passed around the ring —
//   none, random-k (same indices on every worker: all-reduce the k values), powersgd (all-reduce P, then Q)
//   compose with ring all-reduce;
//   top-k (every worker has its own indices), sign (majority vote needs every worker's vote, or a server), qsgd and
//   int8 (each worker has its own scale; the sum of int8 codes overflows int8) go by all-gather: each worker
//   receives all P messages and decodes and averages them itself. What we decided for int8: it is priced as an
//   all-gather, because an all-reduce of int8 is only approximate — with one shared scale (a max all-reduce of one
//   number first) each hop of a ring would have to re-quantise its partial sum, adding error at every one of the
//   P − 1 hops, and the partial sums need wider integers than 8 bits.
// An all-gather's bytes grow with P (each worker receives (P − 1) messages), an all-reduce's do not.
#pragma once

#include <Eigen/Core>
#include <cstdint>
#include <string>
#include <vector>

#include "dsml/cost_model.h"
#include "dsml/mlp.h"
#include "dsml/topology.h"

namespace dsml {

enum class CompressorKind { none, top_k, random_k, int8, qsgd, sign, powersgd };

// "none", "top-k", "random-k", "int8", "qsgd", "sign", "powersgd"; throws Error naming the choices otherwise.
CompressorKind parse_compressor(const std::string& name);
const char* compressor_name(CompressorKind kind);

struct CompressorConfig {
  CompressorKind kind = CompressorKind::none;
  double ratio = 0.01;     // top-k, random-k: k = max(1, round(ratio·n)) of each tensor's n values, 0 < ratio ≤ 1
  int levels = 16;         // qsgd: s ≥ 1
  int rank = 1;            // powersgd: r ≥ 1 (at most min(rows, cols) of a tensor is used)
  int element_bytes = 4;   // a value on the wire (fp32)
  int index_bytes = 4;     // an index on the wire (int32)
};

// Throws Error naming the field ("ratio (fraction of values kept) must be in (0, 1], got 0").
void validate(const CompressorConfig& config);

// k of an n-value tensor: max(1, round(ratio·n)), at most n.
int kept_count(double ratio, Eigen::Index n);

// --- the operators on one flattened tensor (compressors.cpp) ---------------------------------------------------
Eigen::VectorXd top_k(const Eigen::VectorXd& v, int k);  // ties broken by the lower index; 1 ≤ k ≤ n
std::vector<Eigen::Index> random_k_indices(Eigen::Index n, int k, std::uint64_t seed);  // sorted, distinct
Eigen::VectorXd random_k(const Eigen::VectorXd& v, int k, std::uint64_t seed);
Eigen::VectorXd int8_quantize(const Eigen::VectorXd& v);
Eigen::VectorXd qsgd_quantize(const Eigen::VectorXd& v, int levels, std::uint64_t seed);
Eigen::VectorXd scaled_sign(const Eigen::VectorXd& v);  // (‖v‖₁/n)·sign(v), sign(0) = +1
// One worker's tensor m (any shape) through `config`: C(m), same shape. `seed` draws random-k's indices, QSGD's
// rounding and PowerSGD's starting Q (one step, no warm start: compressed_aggregation keeps Q between steps).
// The element-wise compressors see m in column-major order (random-k's indices, top-k's ties).
Eigen::MatrixXd compress_tensor(const CompressorConfig& config, const Eigen::MatrixXd& m, std::uint64_t seed);
// A tensor handed over as `values` flat numbers, to be compressed as a (rows, cols) matrix: 1 to limits::kValues
// numbers (what a tab compresses at once), and rows·cols of them. Throws Error naming the count otherwise.
void check_tensor_shape(std::size_t values, std::int64_t rows, std::int64_t cols);
// min(n/s², √n/s): QSGD's bound on E‖Q(v) − v‖² / ‖v‖².
double qsgd_variance_bound(Eigen::Index n, int levels);

// --- PowerSGD's pieces (powersgd.cpp) ---------------------------------------------------------------------------
// Gram–Schmidt on the columns of p, in place (a zero column becomes a zero column, not a nan).
void orthogonalize(Eigen::MatrixXd& p);
// Single-worker rank-r approximation as PowerSGD makes it with warm start q (cols, r): P = M·Q, orthogonalise,
// Q ← Mᵀ·P̂, return P̂·Qᵀ (q is updated in place for the next step).
Eigen::MatrixXd powersgd_approximation(const Eigen::MatrixXd& m, Eigen::MatrixXd& q);
// The starting Q of a (rows, cols) tensor at rank r: N(0, 1) entries from the seed (every worker the same).
Eigen::MatrixXd powersgd_initial_q(Eigen::Index cols, int rank, std::uint64_t seed);

// --- the wire (wire_cost.cpp) -----------------------------------------------------------------------------------
// Bytes one worker's message of a (rows, cols) tensor takes (the table above).
double compressed_bytes(const CompressorConfig& config, Eigen::Index rows, Eigen::Index cols);
bool composes_with_all_reduce(CompressorKind kind);

// One collective a step launches: collective "all-reduce" (bytes = the vector each rank holds) or "all-gather"
// (bytes = the gathered total, P messages), as closed_form_time and make_schedule take them.
struct CollectiveCall {
  std::string collective;
  double bytes = 0.0;
};
// The collectives one step of data parallelism with `config` launches for a model (one message per tensor, merged
// into one call per phase: PowerSGD's P's, then its Q's). workers ≥ 1.
std::vector<CollectiveCall> compressed_collectives(const CompressorConfig& config, const MlpConfig& model,
                                                   int workers);
// Bytes one worker SENDS in that call with the ring algorithms: all-reduce 2·((P − 1)/P)·n, all-gather
// ((P − 1)/P)·n of the gathered total.
double ring_bytes_sent(const CollectiveCall& call, int workers);
// One worker's compressed message for the whole model, Σ over its 2L tensors (bytes).
double compressed_model_bytes(const CompressorConfig& config, const MlpConfig& model);
// Σ ring_bytes_sent over the step's calls: what one worker sends in a step.
double compressed_bytes_sent(const CompressorConfig& config, const MlpConfig& model, int workers);
// The step's communication time, the calls one after another, each priced by closed_form_time with the ring
// algorithm (collective_cost.h).
double compressed_step_seconds(const CompressorConfig& config, const MlpConfig& model, int workers,
                               const CostModel& network);

// A step's wire beside the uncompressed baseline — the same model and workers with compressor none, i.e. the ring
// all-reduce of the fp32 gradient. The one place that says what a compressor is compared with (the pages, the CLI
// and train_compressed all report it).
struct CompressionWire {
  std::vector<CollectiveCall> collectives;  // compressed_collectives
  double payload_bytes = 0.0;               // compressed_model_bytes
  double bytes_per_step = 0.0;              // compressed_bytes_sent
  double uncompressed_bytes_per_step = 0.0; // compressed_bytes_sent of the baseline
  bool composes_with_all_reduce = false;
};
CompressionWire compression_wire(const CompressorConfig& config, const MlpConfig& model, int workers);
struct CompressionSeconds {
  double compressed_s = 0.0;    // compressed_step_seconds
  double uncompressed_s = 0.0;  // the same for the baseline
};
CompressionSeconds compression_seconds(const CompressorConfig& config, const MlpConfig& model, int workers,
                                       const CostModel& network);

// The same calls run as ring schedules on `topology` one after another (make_schedule → to_programs → simulate,
// simulator.h), so links and contention count: the step's communication seconds. Each call's bytes are rounded up
// to a multiple of 4·P (make_schedule's fp32 elements, equal chunks); there the switch's result equals
// compressed_step_seconds. gamma: s per byte reduced, ≥ 0.
double compressed_step_simulated(const CompressorConfig& config, const MlpConfig& model, const Topology& topology,
                                 double gamma = 0.0);

}  // namespace dsml
