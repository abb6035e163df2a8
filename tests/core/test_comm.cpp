// The parallel strategies' collectives (dsml/comm.h) against plain sums and copies, for group sizes that do and
// do not divide the buffer, plus the rank grid, the shard rule, flattening and the bytes the log reports.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "dsml/comm.h"
#include "dsml/error.h"
#include "dsml/mlp.h"
#include "dsml/rank_grid.h"

namespace {

using dsml::Buffer;

std::vector<Buffer> random_buffers(int p, std::size_t n, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::vector<Buffer> out(static_cast<std::size_t>(p), Buffer(n));
  for (Buffer& b : out)
    for (double& x : b) x = u(rng);
  return out;
}

Buffer plain_sum(const std::vector<Buffer>& per_rank) {
  Buffer sum(per_rank[0].size(), 0.0);
  for (const Buffer& b : per_rank)
    for (std::size_t i = 0; i < b.size(); ++i) sum[i] += b[i];
  return sum;
}

void expect_near_buffers(const Buffer& got, const Buffer& want, const std::string& what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  for (std::size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], want[i], 1e-12) << what << " element " << i;
}

class CommSizes : public ::testing::TestWithParam<int> {};

TEST_P(CommSizes, AllReduceEqualsPlainSumIncludingUnevenSizes) {
  const int p = GetParam();
  for (std::size_t n : {std::size_t{1}, std::size_t{5}, std::size_t{12}, std::size_t{29}}) {
    for (const char* algorithm : {"ring", "naive", "recursive-doubling"}) {
      std::vector<Buffer> buffers = random_buffers(p, n, 7u + static_cast<unsigned>(n));
      const Buffer want = plain_sum(buffers);
      dsml::CommOptions options;
      options.algorithm = algorithm;
      dsml::all_reduce(buffers, options);
      for (int r = 0; r < p; ++r)
        expect_near_buffers(buffers[static_cast<std::size_t>(r)], want,
                            std::string(algorithm) + " p=" + std::to_string(p) + " n=" + std::to_string(n) +
                                " rank " + std::to_string(r));
    }
  }
}

TEST_P(CommSizes, ReduceScatterThenAllGatherIsAnAllReduce) {
  const int p = GetParam();
  for (std::size_t n : {std::size_t{3}, std::size_t{16}, std::size_t{31}}) {
    const std::vector<Buffer> full = random_buffers(p, n, 11u);
    const Buffer want = plain_sum(full);
    const std::vector<Buffer> shards = dsml::reduce_scatter(full);
    const std::vector<std::size_t> sizes = dsml::shard_sizes(n, p);
    for (int r = 0; r < p; ++r) {
      const auto ur = static_cast<std::size_t>(r);
      ASSERT_EQ(shards[ur].size(), sizes[ur]);
      expect_near_buffers(shards[ur], dsml::shard_of(want, p, r), "reduce-scatter shard " + std::to_string(r));
    }
    const std::vector<Buffer> gathered = dsml::all_gather(shards);
    for (int r = 0; r < p; ++r)
      expect_near_buffers(gathered[static_cast<std::size_t>(r)], want, "all-gather rank " + std::to_string(r));
  }
}

TEST_P(CommSizes, LogReportsTheRingsBusiestRankInFp64Bytes) {
  const int p = GetParam();
  const std::size_t n = 40;  // elements; ring chunks n/p rounded up on the first ranks
  dsml::CommLog log;
  std::vector<Buffer> buffers = random_buffers(p, n, 3u);
  dsml::all_reduce(buffers, {"ring", &log, "grads"});
  std::vector<Buffer> shards;
  for (int r = 0; r < p; ++r) shards.push_back(dsml::shard_of(buffers[static_cast<std::size_t>(r)], p, r));
  dsml::all_gather(shards, {"ring", &log, "params"});
  dsml::reduce_scatter(buffers, {"ring", &log, "grads"});
  ASSERT_EQ(log.records().size(), 3u);
  EXPECT_EQ(log.records()[0].label, "grads");
  EXPECT_EQ(log.records()[0].ranks, p);
  // The busiest rank sends p − 1 chunks per phase; with n mod p ≠ 0 some chunks are one element larger, so the
  // exact number is bounded by the ceil; for p | n it is exactly 2(p − 1)/p · n · 8.
  const double chunk = std::ceil(static_cast<double>(n) / p) * 8.0;
  const double ideal = (p - 1.0) / p * static_cast<double>(n) * 8.0;
  EXPECT_GE(log.bytes("all-reduce"), 2 * ideal - 1e-9);
  EXPECT_LE(log.bytes("all-reduce"), 2 * (p - 1) * chunk + 1e-9);
  EXPECT_GE(log.bytes("all-gather"), ideal - 1e-9);
  EXPECT_LE(log.bytes("all-gather"), (p - 1) * chunk + 1e-9);
  EXPECT_GE(log.bytes("reduce-scatter"), ideal - 1e-9);
  if (n % static_cast<std::size_t>(p) == 0) {
    EXPECT_DOUBLE_EQ(log.bytes("all-reduce"), 2 * ideal);
    EXPECT_DOUBLE_EQ(log.bytes("all-gather"), ideal);
    EXPECT_DOUBLE_EQ(log.bytes("reduce-scatter"), ideal);
  }
  EXPECT_DOUBLE_EQ(log.total_bytes(),
                   log.bytes("all-reduce") + log.bytes("all-gather") + log.bytes("reduce-scatter"));
  log.clear();
  EXPECT_TRUE(log.records().empty());
}

INSTANTIATE_TEST_SUITE_P(GroupSizes, CommSizes, ::testing::Values(1, 2, 3, 4, 7),
                         [](const ::testing::TestParamInfo<int>& info) { return "p" + std::to_string(info.param); });

TEST(Comm, ShardRuleMatchesTheCollectivesChunking) {
  EXPECT_EQ(dsml::shard_sizes(10, 4), (std::vector<std::size_t>{3, 3, 2, 2}));
  EXPECT_EQ(dsml::shard_sizes(2, 3), (std::vector<std::size_t>{1, 1, 0}));
  EXPECT_EQ(dsml::shard_offset(10, 4, 2), 6u);
  EXPECT_EQ(dsml::shard_of(Buffer{1, 2, 3, 4, 5}, 2, 1), (Buffer{4, 5}));
  EXPECT_THROW(dsml::shard_sizes(4, 0), dsml::Error);
  EXPECT_THROW(dsml::shard_offset(4, 2, 2), dsml::Error);
}

TEST(Comm, RejectsMismatchedBuffers) {
  std::vector<Buffer> ragged{Buffer(4), Buffer(5)};
  EXPECT_THROW(dsml::all_reduce(ragged), dsml::Error);
  EXPECT_THROW(dsml::reduce_scatter(ragged), dsml::Error);
  EXPECT_THROW(dsml::all_gather({Buffer(1), Buffer(3)}), dsml::Error);  // shards of 4 over 2 are 2 + 2
  std::vector<Buffer> none;
  EXPECT_THROW(dsml::all_reduce(none), dsml::Error);
  std::vector<Buffer> two{Buffer(4), Buffer(4)};
  EXPECT_THROW(dsml::all_reduce(two, {"telepathy", nullptr, ""}), dsml::Error);
}

TEST(Comm, FlattenRoundTripsAnMlpInParameterOrder) {
  dsml::MlpConfig config;
  config.layers = 2;
  config.width = 3;
  config.hidden = 5;
  const dsml::MlpParams params = dsml::init_mlp(config, 42);
  const Buffer flat = dsml::flatten(params);
  ASSERT_EQ(flat.size(), dsml::parameter_count(config));
  EXPECT_EQ(flat[0], params.blocks[0].w_in(0, 0));
  EXPECT_EQ(flat[1], params.blocks[0].w_in(1, 0));       // column-major
  EXPECT_EQ(flat[15], params.blocks[0].w_out(0, 0));     // after the 5 x 3 w_in
  dsml::MlpParams back = dsml::zeros_like(config);
  dsml::unflatten(flat, back);
  for (std::size_t l = 0; l < 2; ++l) {
    EXPECT_EQ(back.blocks[l].w_in, params.blocks[l].w_in);
    EXPECT_EQ(back.blocks[l].w_out, params.blocks[l].w_out);
  }
  EXPECT_THROW(dsml::unflatten(Buffer(3), back), dsml::Error);
}

TEST(RankGrid, TensorParallelIndexRunsFastest) {
  const dsml::RankGrid grid{2, 3, 2};
  EXPECT_EQ(grid.size(), 12);
  for (int rank = 0; rank < grid.size(); ++rank) EXPECT_EQ(dsml::rank_of(grid, dsml::coord(grid, rank)), rank);
  const dsml::RankCoord c = dsml::coord(grid, 7);  // 7 = (1·2 + 0)·3 + 1
  EXPECT_EQ(c.t, 1);
  EXPECT_EQ(c.d, 0);
  EXPECT_EQ(c.p, 1);
  EXPECT_EQ(dsml::rank_of(grid, {1, 2, 1}), (1 * 2 + 1) * 3 + 2);
  EXPECT_THROW(dsml::coord(grid, 12), dsml::Error);
  EXPECT_THROW(dsml::rank_of(grid, {2, 0, 0}), dsml::Error);
  EXPECT_THROW(dsml::coord(dsml::RankGrid{0, 1, 1}, 0), dsml::Error);
}

}  // namespace
