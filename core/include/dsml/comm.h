// dsml/comm.h — collectives on real double buffers for the parallel training strategies, plus a log of what
// they moved.
//
// A strategy holds one Buffer per simulated rank of a group and calls all_reduce / all_gather /
// reduce_scatter on them. Each call builds the core's collective SCHEDULE (dsml/schedule.h, the same schedule
// the simulator times and the lessons draw) and runs it with execute_on_buffers — so a DP step really adds
// gradients slot by slot around the ring, and a wrong schedule would show up as a wrong model.
//
// Sizes. The schedules count float32 elements; we pass bytes = 4·n so that one schedule element is one double
// here. The log reports bytes with 8-byte doubles (what the same step moves in fp64).
// Sharding rule (shard_sizes): n elements over p parts, the first n mod p parts one element larger — the rule
// the collectives split their chunks by, so ZeRO/FSDP shards line up with the reduce-scatter's output.
#pragma once

#include <Eigen/Core>
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "dsml/mlp.h"

namespace dsml {

using Buffer = std::vector<double>;

// One collective call as the lab plots it: "bytes communicated per step by kind".
struct CommRecord {
  std::string kind;       // "all-reduce", "all-gather", "reduce-scatter", "all-to-all", "send"
  std::string label;      // what was moved, e.g. "grads", "bucket 3", "block 1 params"
  int ranks = 0;          // group size p
  double bytes_per_rank = 0;  // what the busiest rank of the schedule sends, 8-byte doubles
  int stage = -1;         // "send": the pipeline stage that sends it; -1 for collectives
};

class CommLog {
 public:
  void add(CommRecord record) { records_.push_back(std::move(record)); }
  const std::vector<CommRecord>& records() const { return records_; }
  double bytes(const std::string& kind) const;  // Σ bytes_per_rank over records of that kind
  double total_bytes() const;                   // Σ over every record
  void clear() { records_.clear(); }

 private:
  std::vector<CommRecord> records_;
};

struct CommOptions {
  std::string algorithm = "ring";  // any algorithm make_schedule knows for the collective
  CommLog* log = nullptr;          // when set, every call appends one record
  std::string label;               // copied into the record
};

// n elements over `parts` shards: sizes, first n mod parts one larger. Throws Error unless parts >= 1.
std::vector<std::size_t> shard_sizes(std::size_t n, int parts);
// Where shard `index` starts: Σ of the sizes before it.
std::size_t shard_offset(std::size_t n, int parts, int index);
// Copy of shard `index` of `full` (by shard_sizes(full.size(), parts)).
Buffer shard_of(const Buffer& full, int parts, int index);

// Sum, in place: afterwards every rank holds Σ_r per_rank[r]. All buffers must have one size.
void all_reduce(std::vector<Buffer>& per_rank, const CommOptions& options = {});
// shards[r] sized shard_sizes(n, p)[r] (n = Σ sizes) → every rank receives the concatenation (n elements).
std::vector<Buffer> all_gather(const std::vector<Buffer>& shards, const CommOptions& options = {});
// full[r] all of size n → rank r receives shard r (shard_sizes(n, p)[r] elements) of Σ_r full[r].
std::vector<Buffer> reduce_scatter(const std::vector<Buffer>& full, const CommOptions& options = {});
// blocks[i][j] (b doubles, the same b everywhere) is rank i's block for rank j → received[j][i] = blocks[i][j]
// (pairwise exchange, whatever options.algorithm says; logged as "all-to-all").
std::vector<std::vector<Buffer>> all_to_all(const std::vector<std::vector<Buffer>>& blocks,
                                            const CommOptions& options = {});

// ---- flattening (flatten.cpp) -----------------------------------------------------------------------------
// Tensors are laid end to end in the given order, each in Eigen's storage order (column-major).
Buffer flatten(const std::vector<const Eigen::MatrixXd*>& tensors);
// Writes `flat` back into tensors of their current shapes; throws Error if the sizes differ.
void unflatten(const Buffer& flat, const std::vector<Eigen::MatrixXd*>& tensors);
// The same over an MLP in parameter_tensors() order (blocks[0].w_in, blocks[0].w_out, blocks[1].w_in, …).
Buffer flatten(const MlpParams& params);
void unflatten(const Buffer& flat, MlpParams& params);

}  // namespace dsml
