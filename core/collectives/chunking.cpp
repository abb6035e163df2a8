// chunking.cpp — splitting a buffer into slots, and the small index arithmetic every generator uses.
//
// A collective on n bytes of float32 works on whole elements: n/4 elements split into k slots as equal as
// possible, the first (n/4) mod k slots one element larger (MPICH and NCCL split the same way). With n = 0
// every slot is empty, yet every message is still sent: the schedule, and its α terms, do not depend on n.
#include <cstdint>

#include "collectives/generators.h"

namespace dsml::collectives {

std::vector<double> split_bytes(double bytes, int parts) {
  const auto elements = static_cast<std::int64_t>(bytes / kElementBytes);  // exact: bytes is a multiple of 4
  const std::int64_t base = elements / parts;
  const std::int64_t larger = elements % parts;  // this many slots get base + 1 elements
  std::vector<double> slot_bytes(static_cast<std::size_t>(parts));
  for (int i = 0; i < parts; ++i)
    slot_bytes[static_cast<std::size_t>(i)] = static_cast<double>((base + (i < larger ? 1 : 0)) * kElementBytes);
  return slot_bytes;
}

std::vector<int> slot_range(int begin, int end) {
  std::vector<int> slots;
  slots.reserve(end > begin ? static_cast<std::size_t>(end - begin) : 0);
  for (int s = begin; s < end; ++s) slots.push_back(s);
  return slots;
}

std::vector<int> join_parts(const std::vector<std::vector<int>>& parts, int begin, int end) {
  std::vector<int> slots;
  for (int i = begin; i < end; ++i) slots.insert(slots.end(), parts[i].begin(), parts[i].end());
  return slots;
}

std::vector<std::vector<int>> one_slot_parts(int count) {
  std::vector<std::vector<int>> parts(static_cast<std::size_t>(count));
  for (int i = 0; i < count; ++i) parts[static_cast<std::size_t>(i)] = {i};
  return parts;
}

int ceil_log2(int p) {
  int k = 0;
  while ((1 << k) < p) ++k;
  return k;
}

int floor_power_of_two(int p) {
  int power = 1;
  while (power * 2 <= p) power *= 2;
  return power;
}

}  // namespace dsml::collectives
