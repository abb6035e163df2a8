// data_parallel_comm.cpp — the communication of data parallelism: averaging every rank's gradient.
//
// Naive and bucketed sit side by side on purpose (picotron's DataParallelNaive next to DataParallelBucket).
// Both move the same bytes — Ψ values, 2(p − 1)/p · Ψ · 8 bytes per rank with the ring — and end with the
// same numbers (a sum does not care how the vector is cut). They differ in the number of messages: naive sends one
// all-reduce per tensor (2L of them, each paying (p − 1)·2 latencies α), bucketed ⌈Ψ·8 / bucket_bytes⌉.
// Both issue their all-reduces in the order backward completes the gradients (last block first), which is what
// lets real DDP overlap each one with the rest of backward; here the steps run in sequence, and the step cost
// model (step_cost.h, overlap mode) times that overlap.
#include <algorithm>
#include <cmath>
#include <string>

#include "dsml/data_parallel.h"
#include "dsml/error.h"

namespace dsml {

namespace {

std::string tensor_name(std::size_t index) {  // parameter_tensors() order: w_in, w_out per block
  return "blocks[" + std::to_string(index / 2) + "]." + (index % 2 == 0 ? "w_in" : "w_out");
}

}  // namespace

std::vector<Bucket> gradient_buckets(std::uint64_t values, std::uint64_t per_bucket) {
  if (per_bucket < 1) throw Error("a gradient bucket must hold at least one value");
  std::vector<Bucket> buckets;
  for (std::uint64_t end = values; end > 0;) {  // from the last value backwards
    const std::uint64_t begin = end > per_bucket ? end - per_bucket : 0;
    buckets.push_back(Bucket{begin, end});
    end = begin;
  }
  return buckets;
}

std::uint64_t bucket_values(double bucket_bytes, double element_bytes) {
  require_positive("bucket_bytes", bucket_bytes);
  require_positive("element_bytes", element_bytes);
  const double values = std::floor(bucket_bytes / element_bytes);
  return values < 1 ? 1 : values > 9e15 ? static_cast<std::uint64_t>(9e15) : static_cast<std::uint64_t>(values);
}

void average_gradients_naive(std::vector<MlpParams>& grads, const std::string& algorithm, CommLog* log) {
  const double p = static_cast<double>(grads.size());
  const std::size_t tensors = parameter_tensors(grads.at(0)).size();
  for (std::size_t i = tensors; i-- > 0;) {  // backward's order: the last block's w_out first
    // 1. Each rank contributes tensor i, flattened: (rows·cols) values.
    std::vector<Buffer> per_rank;
    for (MlpParams& g : grads) per_rank.push_back(flatten({parameter_tensors(g)[i]}));
    // 2. One all-reduce for this tensor: every rank now holds Σ_d g_d.
    all_reduce(per_rank, CommOptions{algorithm, log, tensor_name(i)});
    // 3. Divide by p: the mean of the ranks' mean-loss gradients = the full-batch gradient.
    for (std::size_t d = 0; d < grads.size(); ++d) {
      for (double& x : per_rank[d]) x /= p;
      unflatten(per_rank[d], {parameter_tensors(grads[d])[i]});
    }
  }
}

void average_gradients_bucketed(std::vector<MlpParams>& grads, double bucket_bytes, const std::string& algorithm,
                                CommLog* log) {
  const double p = static_cast<double>(grads.size());
  // 1. Flatten every rank's gradient into one vector of Ψ values (parameter order).
  std::vector<Buffer> flat;
  for (const MlpParams& g : grads) flat.push_back(flatten(g));
  // 2. Cut it into DDP's buckets (from the end backwards); one all-reduce per bucket.
  const std::vector<Bucket> buckets = gradient_buckets(flat[0].size(), bucket_values(bucket_bytes, 8.0));
  for (std::size_t b = 0; b < buckets.size(); ++b) {
    const auto begin = static_cast<std::ptrdiff_t>(buckets[b].begin), end = static_cast<std::ptrdiff_t>(buckets[b].end);
    std::vector<Buffer> per_rank;
    for (const Buffer& f : flat) per_rank.emplace_back(f.begin() + begin, f.begin() + end);
    all_reduce(per_rank, CommOptions{algorithm, log, "bucket " + std::to_string(b)});
    for (std::size_t d = 0; d < flat.size(); ++d)
      std::copy(per_rank[d].begin(), per_rank[d].end(), flat[d].begin() + begin);
  }
  // 3. Divide by p and write the buckets back into the tensors (DDP's buckets are views of .grad; ours copy).
  for (std::size_t d = 0; d < grads.size(); ++d) {
    for (double& x : flat[d]) x /= p;
    unflatten(flat[d], grads[d]);
  }
}

}  // namespace dsml
