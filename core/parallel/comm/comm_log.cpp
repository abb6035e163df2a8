// comm_log.cpp — CommLog totals and the shard-size rule every sharded strategy and collective agrees on.
#include <string>

#include "dsml/comm.h"
#include "dsml/error.h"

namespace dsml {

double CommLog::bytes(const std::string& kind) const {
  double total = 0;
  for (const CommRecord& r : records_)
    if (r.kind == kind) total += r.bytes_per_rank;
  return total;
}

double CommLog::total_bytes() const {
  double total = 0;
  for (const CommRecord& r : records_) total += r.bytes_per_rank;
  return total;
}

// As the collectives' chunking (collectives/chunking.cpp): the first n mod p shards get one extra element.
std::vector<std::size_t> shard_sizes(std::size_t n, int parts) {
  if (parts < 1) throw Error("parts must be >= 1, got " + std::to_string(parts));
  const auto p = static_cast<std::size_t>(parts);
  std::vector<std::size_t> sizes(p, n / p);
  for (std::size_t i = 0; i < n % p; ++i) ++sizes[i];
  return sizes;
}

std::size_t shard_offset(std::size_t n, int parts, int index) {
  const std::vector<std::size_t> sizes = shard_sizes(n, parts);
  if (index < 0 || index >= parts)
    throw Error("shard index must be in [0, " + std::to_string(parts) + "), got " + std::to_string(index));
  std::size_t offset = 0;
  for (int i = 0; i < index; ++i) offset += sizes[static_cast<std::size_t>(i)];
  return offset;
}

Buffer shard_of(const Buffer& full, int parts, int index) {
  const std::size_t begin = shard_offset(full.size(), parts, index);
  const std::size_t size = shard_sizes(full.size(), parts)[static_cast<std::size_t>(index)];
  return Buffer(full.begin() + static_cast<std::ptrdiff_t>(begin),
                full.begin() + static_cast<std::ptrdiff_t>(begin + size));
}

}  // namespace dsml
