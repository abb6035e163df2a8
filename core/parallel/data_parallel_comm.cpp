// data_parallel_comm.cpp — the communication of data parallelism: averaging every rank's gradient.
//
// Naive and bucketed sit side by side on purpose (picotron's DataParallelNaive next to DataParallelBucket).
// Both move the same bytes — Ψ values, 2(p − 1)/p · Ψ · 8 bytes per rank with the ring — and end with the
// same numbers (a sum does not care how the vector is cut). They differ in the number of messages: naive sends one
// all-reduce per tensor (2L of them, each paying (p − 1)·2 latencies α), bucketed ⌈Ψ·8 / bucket_bytes⌉.
// Real DDP also overlaps each bucket's all-reduce with the rest of backward; here the steps run in sequence.
#include <algorithm>
#include <string>

#include "dsml/data_parallel.h"
#include "dsml/error.h"

namespace dsml {

namespace {

std::string tensor_name(std::size_t index) {  // parameter_tensors() order: w_in, w_out per block
  return "blocks[" + std::to_string(index / 2) + "]." + (index % 2 == 0 ? "w_in" : "w_out");
}

}  // namespace

void average_gradients_naive(std::vector<MlpParams>& grads, const std::string& algorithm, CommLog* log) {
  const double p = static_cast<double>(grads.size());
  const std::size_t tensors = parameter_tensors(grads.at(0)).size();
  for (std::size_t i = 0; i < tensors; ++i) {
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
  require_positive("bucket_bytes", bucket_bytes);
  const double p = static_cast<double>(grads.size());
  // 1. Flatten every rank's gradient into one vector of Ψ values (parameter order).
  std::vector<Buffer> flat;
  for (const MlpParams& g : grads) flat.push_back(flatten(g));
  const std::size_t n = flat[0].size();
  const std::size_t per_bucket = std::max<std::size_t>(1, static_cast<std::size_t>(bucket_bytes / 8.0));
  // 2. Cut it into buckets of per_bucket values (the last one partial); one all-reduce per bucket.
  int bucket = 0;
  for (std::size_t begin = 0; begin < n; begin += per_bucket, ++bucket) {
    const std::size_t end = std::min(n, begin + per_bucket);
    std::vector<Buffer> per_rank;
    for (const Buffer& f : flat)
      per_rank.emplace_back(f.begin() + static_cast<std::ptrdiff_t>(begin),
                            f.begin() + static_cast<std::ptrdiff_t>(end));
    all_reduce(per_rank, CommOptions{algorithm, log, "bucket " + std::to_string(bucket)});
    for (std::size_t d = 0; d < flat.size(); ++d)
      std::copy(per_rank[d].begin(), per_rank[d].end(), flat[d].begin() + static_cast<std::ptrdiff_t>(begin));
  }
  // 3. Divide by p and write the buckets back into the tensors (DDP's buckets are views of .grad; ours copy).
  for (std::size_t d = 0; d < grads.size(); ++d) {
    for (double& x : flat[d]) x /= p;
    unflatten(flat[d], grads[d]);
  }
}

}  // namespace dsml
