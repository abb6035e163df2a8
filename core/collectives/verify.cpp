// verify.cpp — does a schedule compute its collective? Seed distinct data, execute, compare with the promise.
//
// The data make every mistake visible. Rank q's value at element g (counted through the slots in order) is
//   v(q, g) = (q + 1) + (p + 1)·g,
// a whole number, so sums are exact in double precision (|v| < 2^53 for any buffer that fits in memory), and
// v(q, g) determines both q and g: 1 ≤ q + 1 ≤ p < p + 1. Hence
//   a sum that misses rank q's contribution is short by exactly v(q, g); one that counts it twice is over by it;
//   a copy of the wrong rank's or the wrong slot's data decodes to that rank and slot.
// What each rank must hold at the end is the table in dsml/schedule.h; ranks with no promise (non-roots after a
// reduce, non-owners after a reduce-scatter) are not checked.
#include <algorithm>
#include <cmath>
#include <string>

#include "dsml/collective_executor.h"
#include "dsml/error.h"

namespace dsml {

namespace {

enum class Expect { kNothing, kCopy, kSum };

struct Promise {
  Expect expect = Expect::kNothing;
  int from = -1;  // kCopy: whose data
};

// What rank r must hold in slot s after the collective.
Promise promise(const Schedule& sc, int r, int s) {
  const std::string& c = sc.collective;
  const int p = sc.ranks;
  if (c == "broadcast") return {Expect::kCopy, sc.root};
  if (c == "reduce") return r == sc.root ? Promise{Expect::kSum, -1} : Promise{};
  if (c == "all-reduce") return {Expect::kSum, -1};
  if (c == "all-gather") return {Expect::kCopy, sc.owner[static_cast<std::size_t>(s)]};
  if (c == "reduce-scatter") return r == sc.owner[static_cast<std::size_t>(s)] ? Promise{Expect::kSum, -1} : Promise{};
  if (c == "all-to-all") return s % p == r ? Promise{Expect::kCopy, s / p} : Promise{};
  return {};
}

// Does rank r hold slot s before the collective?
bool held_at_start(const Schedule& sc, int r, int s) {
  const std::string& c = sc.collective;
  if (c == "broadcast") return r == sc.root;
  if (c == "all-gather") return sc.owner[static_cast<std::size_t>(s)] == r;
  if (c == "all-to-all") return s / sc.ranks == r;
  return true;  // reduce, all-reduce, reduce-scatter: every rank brings its own values
}

// First global element index of every slot, plus the total at the end.
std::vector<long long> slot_offsets(const Schedule& sc, int element_bytes) {
  std::vector<long long> offsets{0};
  for (double bytes : sc.slot_bytes) offsets.push_back(offsets.back() + slot_elements(bytes, element_bytes));
  return offsets;
}

double value(int p, int q, long long g) { return (q + 1) + static_cast<double>(p + 1) * static_cast<double>(g); }

// Why `got` is not `want` at element g, from the data's structure (see the top of the file).
std::string diagnose(const Schedule& sc, const std::vector<long long>& offsets, const Promise& pr, long long g,
                     double want, double got) {
  const int p = sc.ranks;
  if (std::isnan(got)) return "not data any rank sent";
  if (pr.expect == Expect::kSum) {
    const double diff = got - want;
    for (int q = 0; q < p; ++q) {
      if (diff == -value(p, q, g)) return "rank " + std::to_string(q) + "'s contribution is missing";
      if (diff == value(p, q, g)) return "rank " + std::to_string(q) + "'s contribution is counted twice";
    }
    return diff < 0 ? "contributions are missing" : "too much: a contribution is counted more than once";
  }
  // A copy: decode got = (q + 1) + (p + 1)·g'.
  const double q1 = std::fmod(got, static_cast<double>(p + 1));
  const long long g2 = static_cast<long long>((got - q1) / (p + 1));
  if (got >= 1 && got == std::floor(got) && q1 >= 1 && g2 < offsets.back()) {
    const int q = static_cast<int>(q1) - 1;
    const auto slot = std::upper_bound(offsets.begin(), offsets.end(), g2) - offsets.begin() - 1;
    if (g2 == g) return "that is rank " + std::to_string(q) + "'s data, not rank " + std::to_string(pr.from) + "'s";
    return "that is rank " + std::to_string(q) + "'s data for slot " + std::to_string(slot);
  }
  return "not any single rank's data: was it reduced?";
}

std::string summary(const Schedule& sc) {
  const std::size_t slots = sc.slot_bytes.size();
  const std::string head = sc.collective + " " + sc.algorithm + " on " + std::to_string(sc.ranks) +
                           (sc.ranks == 1 ? " rank, " : " ranks, ") + std::to_string(slots) +
                           (slots == 1 ? " slot: " : " slots: ");
  const std::string& c = sc.collective;
  if (c == "broadcast") return head + "every rank holds rank " + std::to_string(sc.root) + "'s data";
  if (c == "reduce") return head + "rank " + std::to_string(sc.root) + " holds the sum over all ranks";
  if (c == "all-reduce") return head + "every rank holds the sum over all ranks";
  if (c == "all-gather") return head + "every rank holds every rank's slots";
  if (c == "reduce-scatter") return head + "every rank holds the sum of the slots it owns";
  return head + "every rank holds the block every other rank had for it";
}

}  // namespace

Buffers initial_buffers(const Schedule& schedule, int element_bytes) {
  validate(schedule);
  if (element_bytes < 1) throw Error("element_bytes must be >= 1, got " + std::to_string(element_bytes));
  const std::vector<long long> offsets = slot_offsets(schedule, element_bytes);
  constexpr double kMaxValues = 134217728.0;  // 2^27 doubles = 1 GiB
  if (static_cast<double>(offsets.back()) * schedule.ranks > kMaxValues)
    throw Error("the buffers would hold " + format_number(static_cast<double>(offsets.back()) * schedule.ranks) +
                " values (more than 2^27); execute with fewer ranks or bytes");
  const int p = schedule.ranks;
  Buffers buffers(static_cast<std::size_t>(p), RankBuffers(schedule.slot_bytes.size()));
  for (int r = 0; r < p; ++r)
    for (std::size_t s = 0; s < schedule.slot_bytes.size(); ++s) {
      SlotBuffer& buffer = buffers[static_cast<std::size_t>(r)][s];
      const long long count = offsets[s + 1] - offsets[s];
      buffer.held = held_at_start(schedule, r, static_cast<int>(s));
      buffer.values.assign(static_cast<std::size_t>(count), std::nan(""));
      if (buffer.held)
        for (long long e = 0; e < count; ++e) buffer.values[static_cast<std::size_t>(e)] = value(p, r, offsets[s] + e);
    }
  return buffers;
}

// On verify's data. Here rather than in buffer_executor.cpp, so that the executor knows nothing of the data
// verify seeds, and the two files call in one direction only (verify → executor).
Buffers execute_on_buffers(const Schedule& schedule, int element_bytes) {
  return execute_on_buffers(schedule, initial_buffers(schedule, element_bytes));
}

VerifyResult verify(const Schedule& schedule, int element_bytes) {
  Buffers buffers;
  try {
    buffers = execute_on_buffers(schedule, element_bytes);
  } catch (const Error& e) {  // bad schedule, unheld slot, wrong shape, unreceived message, deadlock
    return {false, e.what()};
  }
  const int p = schedule.ranks;
  const std::vector<long long> offsets = slot_offsets(schedule, element_bytes);
  for (int r = 0; r < p; ++r)
    for (std::size_t s = 0; s < schedule.slot_bytes.size(); ++s) {
      const Promise pr = promise(schedule, r, static_cast<int>(s));
      if (pr.expect == Expect::kNothing) continue;
      const SlotBuffer& buffer = buffers[static_cast<std::size_t>(r)][s];
      const std::string where = "rank " + std::to_string(r) + " slot " + std::to_string(s);
      const auto want = [&](long long g) {
        if (pr.expect == Expect::kCopy) return value(p, pr.from, g);
        const double pp1 = static_cast<double>(p) * (p + 1);  // Σ_q v(q, g) = p(p + 1)/2 + p(p + 1)·g
        return pp1 / 2 + pp1 * static_cast<double>(g);
      };
      if (!buffer.held) {
        const std::string expected = buffer.values.empty() ? "data" : format_number(want(offsets[s]));
        return {false, where + ": expected " + expected + ", got nothing (no step delivered it)"};
      }
      for (std::size_t e = 0; e < buffer.values.size(); ++e) {
        const long long g = offsets[s] + static_cast<long long>(e);
        const double expected = want(g);
        const double got = buffer.values[e];
        if (got == expected) continue;
        return {false, where + (e > 0 ? " element " + std::to_string(e) : "") + ": expected " +
                           format_number(expected) + ", got " + format_number(got) + " (" +
                           diagnose(schedule, offsets, pr, g, expected, got) + ")"};
      }
    }
  return {true, summary(schedule)};
}

}  // namespace dsml
