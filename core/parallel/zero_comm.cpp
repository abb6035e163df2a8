// zero_comm.cpp — the communication of ZeRO: what replaces DP's single all-reduce of the gradients.
//
// The identity behind every stage: all-reduce = reduce-scatter + all-gather (the ring all-reduce is literally
// those two halves). ZeRO splits it around the optimizer update: reduce-scatter the gradients so each rank gets
// the mean gradient of just the shard it updates, update, then all-gather the updated parameters. Same bytes as
// DP for stages 1 and 2 (ZeRO §7.2.1), and no rank ever needs the full optimizer state.
#include "dsml/zero.h"

namespace dsml {

std::vector<Buffer> zero_reduce_scatter_gradients(const std::vector<Buffer>& flat_grads, const std::string& algorithm,
                                                  CommLog* log, const std::string& label) {
  std::vector<Buffer> shards = reduce_scatter(flat_grads, CommOptions{algorithm, log, label});
  const double n = static_cast<double>(flat_grads.size());
  for (Buffer& g : shards)
    for (double& x : g) x /= n;
  return shards;
}

std::vector<Buffer> zero_gather_params(const std::vector<Buffer>& shards, const std::string& algorithm, CommLog* log,
                                       const std::string& label) {
  return all_gather(shards, CommOptions{algorithm, log, label});
}

}  // namespace dsml
