// collective_data.cpp — see collective_data.h.
#include "collective_data.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "dsml/error.h"

namespace dsml::mpi {

namespace {

bool held_at_start(const Schedule& h, int rank, int slot) {
  if (h.collective == "broadcast") return rank == h.root;
  if (h.collective == "all-gather") return h.owner[static_cast<std::size_t>(slot)] == rank;
  if (h.collective == "all-to-all") return slot / h.ranks == rank;
  return true;  // reduce, all-reduce, reduce-scatter: every rank brings its own values
}

long long period(int p) {
  const long long pp1 = static_cast<long long>(p) * (p + 1);
  return std::max(1LL, ((1LL << 24) - pp1) / pp1);
}

float value(int p, int q, long long g) {
  return static_cast<float>((q + 1) + static_cast<long long>(p + 1) * (g % period(p)));
}

// Why the library's value differs from the course's, when one of them misses or repeats a rank's contribution.
std::string diagnose(int p, long long g, float course, float library) {
  const float diff = course - library;
  for (int q = 0; q < p; ++q) {
    if (diff == -value(p, q, g)) return " (rank " + std::to_string(q) + "'s contribution is missing)";
    if (diff == value(p, q, g)) return " (rank " + std::to_string(q) + "'s contribution is counted twice)";
  }
  return "";
}

}  // namespace

std::vector<float> initial_data(const RankSchedule& schedule) {
  const Schedule& h = schedule.header();
  const SlotLayout& layout = schedule.layout();
  std::vector<float> data(layout.total(), std::numeric_limits<float>::quiet_NaN());
  for (std::size_t s = 0; s < layout.slots(); ++s) {
    if (!held_at_start(h, schedule.rank(), static_cast<int>(s))) continue;
    for (std::size_t i = layout.offset[s]; i < layout.offset[s + 1]; ++i)
      data[i] = value(h.ranks, schedule.rank(), static_cast<long long>(i));
  }
  return data;
}

bool promised(const Schedule& h, int rank, int slot) {
  const std::string& c = h.collective;
  if (c == "broadcast" || c == "all-reduce" || c == "all-gather") return true;
  if (c == "reduce") return rank == h.root;
  if (c == "reduce-scatter") return h.owner[static_cast<std::size_t>(slot)] == rank;
  if (c == "all-to-all") return slot % h.ranks == rank;
  throw Error("unknown collective '" + c + "'");
}

std::string compare_with_library(const RankSchedule& schedule, const std::vector<float>& course,
                                 const std::vector<float>& library, const std::string& library_call) {
  const Schedule& h = schedule.header();
  const SlotLayout& layout = schedule.layout();
  const int rank = schedule.rank();
  for (std::size_t s = 0; s < layout.slots(); ++s) {
    if (!promised(h, rank, static_cast<int>(s))) continue;
    for (std::size_t i = layout.offset[s]; i < layout.offset[s + 1]; ++i) {
      if (course[i] == library[i]) continue;  // NaN ≠ NaN: a slot the course never delivered is caught too
      return "rank " + std::to_string(rank) + " slot " + std::to_string(s) + " element " +
             std::to_string(i - layout.offset[s]) + ": the course's " + h.algorithm + " gives " +
             format_number(course[i]) + ", " + library_call + " gives " + format_number(library[i]) +
             diagnose(h.ranks, static_cast<long long>(i), course[i], library[i]);
    }
  }
  return "";
}

}  // namespace dsml::mpi
