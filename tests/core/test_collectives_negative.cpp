// A checker is only as good as the mistakes it catches. Each test breaks a correct schedule the way a learner
// might — a reduction done twice, a step left out, the wrong peer, the wrong slot — and expects verify() to say
// which rank and slot went wrong, and why; a receive that can never match must name the wait-for cycle.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "dsml/collective_executor.h"
#include "dsml/error.h"
#include "dsml/schedule.h"
#include "dsml/simulator.h"

namespace {

using dsml::Schedule;
using dsml::ScheduleStep;
using Kind = dsml::ScheduleStep::Kind;

// Index of rank r's first step of `kind` with `peer`.
std::size_t find_step(const Schedule& s, int r, Kind kind, int peer) {
  const auto& steps = s.steps[static_cast<std::size_t>(r)];
  for (std::size_t i = 0; i < steps.size(); ++i)
    if (steps[i].kind == kind && steps[i].peer == peer) return i;
  ADD_FAILURE() << "rank " << r << " has no such step";
  return 0;
}

// verify()'s message on a broken schedule (a test failure, and "", when it accepts it).
std::string failure_of(const Schedule& s) {
  const dsml::VerifyResult v = dsml::verify(s);
  EXPECT_FALSE(v.ok) << "verify() accepted a broken schedule";
  return v.ok ? "" : v.message;
}

void expect_contains(const std::string& text, const std::string& part) {
  EXPECT_NE(text.find(part), std::string::npos) << "\"" << text << "\" should contain \"" << part << "\"";
}

TEST(VerifyCatches, AReductionDoneTwice) {
  // Ring all-reduce on 4 ranks, 16 bytes = one element per chunk. Step 0: rank 0 sends chunk 0 to rank 1, which
  // adds it in. Do that transfer twice: rank 0's value of chunk 0 is counted twice, on every rank.
  Schedule s = dsml::make_schedule("all-reduce", "ring", 4, 16);
  auto& r0 = s.steps[0];
  auto& r1 = s.steps[1];
  const std::size_t send = find_step(s, 0, Kind::kSend, 1);
  const std::size_t recv = find_step(s, 1, Kind::kRecvReduce, 0);
  ASSERT_EQ(r0[send].slots, std::vector<int>{0});
  r0.insert(r0.begin() + static_cast<long>(send), r0[send]);
  r1.insert(r1.begin() + static_cast<long>(recv), r1[recv]);
  // v(q, g) = (q + 1) + 5g; chunk 0 is element g = 0: the sum is 1 + 2 + 3 + 4 = 10, plus rank 0's 1 again.
  EXPECT_EQ(failure_of(s), "rank 0 slot 0: expected 10, got 11 (rank 0's contribution is counted twice)");
}

TEST(VerifyCatches, AMissingTransfer) {
  // Binomial reduce to rank 0 on 4 ranks: rank 3 → rank 2 is the first step. Drop both halves of it.
  Schedule s = dsml::make_schedule("reduce", "binomial-tree", 4, 8);
  auto& r2 = s.steps[2];
  auto& r3 = s.steps[3];
  r3.erase(r3.begin() + static_cast<long>(find_step(s, 3, Kind::kSend, 2)));
  r2.erase(r2.begin() + static_cast<long>(find_step(s, 2, Kind::kRecvReduce, 3)));
  EXPECT_EQ(failure_of(s), "rank 0 slot 0: expected 10, got 6 (rank 3's contribution is missing)");
}

TEST(VerifyCatches, AMissingSendAsAWaitForAFinishedRank) {
  Schedule s = dsml::make_schedule("broadcast", "linear", 3, 8);
  s.steps[0].pop_back();  // the root never sends to rank 2
  const std::string message = failure_of(s);
  expect_contains(message, "deadlock: rank 2 waits for rank 0, which finished without sending");
  expect_contains(message, "rank 2 step 0 (recv-copy slot 0 from rank 0) never gets its message");
}

TEST(VerifyCatches, AMismatchedPeerAsADeadlockCycle) {
  // Recursive doubling on 2 ranks: each sends, then receives. Make both receive first: neither ever sends.
  Schedule s = dsml::make_schedule("all-reduce", "recursive-doubling", 2, 8);
  for (auto& steps : s.steps) std::swap(steps[0], steps[1]);
  expect_contains(failure_of(s), "deadlock: rank 0 waits for rank 1, rank 1 waits for rank 0");
  // The simulator, running the same schedule as programs, names the same cycle.
  try {
    dsml::simulate(dsml::Network{2, {1e-6, 1e-9, 0}}, dsml::to_programs(s, 0));
    ADD_FAILURE() << "expected a deadlock";
  } catch (const dsml::DeadlockError& e) {
    expect_contains(e.what(), "deadlock: rank 0 waits for rank 1, rank 1 waits for rank 0");
  }
}

TEST(VerifyCatches, AReceiveFromTheWrongRank) {
  // Ring all-gather on 3 ranks: rank 1 should receive from rank 0. Point it at rank 2 instead: rank 1 then waits
  // for rank 2, and rank 2 waits for rank 1's second send, which comes after that receive.
  Schedule s = dsml::make_schedule("all-gather", "ring", 3, 12);
  s.steps[1][find_step(s, 1, Kind::kRecvCopy, 0)].peer = 2;
  const std::string message = failure_of(s);
  expect_contains(message, "deadlock: rank 1 waits for rank 2, rank 2 waits for rank 1");
  expect_contains(message, "rank 1 step 1 (recv-copy slot 0 from rank 2) never gets its message");
}

TEST(VerifyCatches, DataCopiedIntoTheWrongSlot) {
  Schedule s = dsml::make_schedule("all-gather", "ring", 3, 12);  // one element per chunk
  const std::size_t recv = find_step(s, 1, Kind::kRecvCopy, 0);
  ASSERT_EQ(s.steps[1][recv].slots, std::vector<int>{0});
  s.steps[1][recv].slots = {2};  // rank 0's chunk 0 lands in rank 1's slot 2; slot 0 is never filled
  // Rank 1 then forwards its slot 0 — which it does not hold.
  EXPECT_EQ(failure_of(s),
            "rank 1 step 2 (send slot 0 to rank 2): slot 0 is not held by rank 1 yet (nothing has been received "
            "into it)");
}

TEST(VerifyCatches, AWrongRanksDataInACopy) {
  // All-to-all on 2 ranks, one element per block: slots 0, 1 are rank 0's blocks, 2, 3 rank 1's. Rank 1 sends its
  // own block (slot 3) where it should send slot 2, the block for rank 0.
  Schedule s = dsml::make_schedule("all-to-all", "pairwise", 2, 8);
  ASSERT_EQ(s.steps[1][0].slots, std::vector<int>{2});
  s.steps[1][0].slots = {3};
  // v(q, g) = (q + 1) + 3g: rank 0 expects slot 2 = v(1, 2) = 8, gets slot 3's v(1, 3) = 11.
  EXPECT_EQ(failure_of(s), "rank 0 slot 2: expected 8, got 11 (that is rank 1's data for slot 3)");
}

TEST(VerifyCatches, AMessageOfTheWrongShape) {
  Schedule s = dsml::make_schedule("all-gather", "bruck", 4, 16);
  s.steps[0].back().slots.pop_back();  // the last receive takes one slot fewer than was sent
  const std::string message = failure_of(s);
  expect_contains(message, "rank 0 step");
  expect_contains(message, "2 chunk(s) for 1 slot(s)");
}

TEST(VerifyCatches, ASendNobodyReceives) {
  Schedule s = dsml::make_schedule("broadcast", "linear", 3, 8);
  s.steps[2].clear();  // rank 2 forgets to receive
  EXPECT_EQ(failure_of(s),
            "rank 0 step 1 (send slot 0 to rank 2) is never received: rank 2 finished without a matching recv from "
            "rank 0");
}

TEST(VerifyCatches, AMissingPairwiseExchange) {
  // Pairwise reduce-scatter on 3 ranks, one element per chunk. Drop rank 0 → rank 1 (step k = 1), both halves.
  Schedule s = dsml::make_schedule("reduce-scatter", "pairwise", 3, 12);
  s.steps[0].erase(s.steps[0].begin() + static_cast<long>(find_step(s, 0, Kind::kSend, 1)));
  s.steps[1].erase(s.steps[1].begin() + static_cast<long>(find_step(s, 1, Kind::kRecvReduce, 0)));
  // v(q, g) = (q + 1) + 4g; slot 1 is element g = 1: the sum is (1 + 2 + 3) + 3·4 = 18; rank 0's v(0, 1) = 5.
  EXPECT_EQ(failure_of(s), "rank 1 slot 1: expected 18, got 13 (rank 0's contribution is missing)");
}

TEST(ValidateRejects, MalformedSteps) {
  const auto message = [](const Schedule& s) {
    try {
      dsml::validate(s);
    } catch (const dsml::Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  Schedule s = dsml::make_schedule("all-reduce", "ring", 3, 12);
  Schedule bad = s;
  bad.steps[1][0].peer = 7;
  EXPECT_EQ(message(bad), "schedule: rank 1 step 0 (send slot 1 to rank 7): rank 7 does not exist (ranks are 0 to 2)");
  bad = s;
  bad.steps[1][0].peer = 1;
  expect_contains(message(bad), "a rank cannot message itself");
  bad = s;
  bad.steps[2][1].slots = {5};
  expect_contains(message(bad), "rank 2 step 1 (recv-reduce slot 5 from rank 1): slot 5 does not exist");
  bad = s;
  bad.steps[0][0].slots.clear();
  expect_contains(message(bad), "lists no slots");
  bad = s;
  bad.steps.pop_back();
  expect_contains(message(bad), "steps lists 2 ranks but ranks is 3");
  bad = dsml::make_schedule("all-gather", "ring", 3, 12);
  bad.owner.clear();
  expect_contains(message(bad), "all-gather needs an owner for each of its 3 slots");
  bad.collective = "gather";
  expect_contains(message(bad), "unknown collective \"gather\"");
  // verify() reports the same problem instead of throwing.
  bad = s;
  bad.steps[1][0].peer = 7;
  EXPECT_FALSE(dsml::verify(bad).ok);
}

}  // namespace
