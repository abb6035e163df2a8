// What one training request may ask for (dsml/run_limits.h): the sizes every wasm endpoint checks against.
#include <gtest/gtest.h>

#include "dsml/run_limits.h"
#include "test_support.h"

namespace {

TEST(RunLimits, ATrainingRunWithinTheLimitsPassesAndEachLimitIsNamed) {
  dsml::MlpConfig lab{4, 64, 256, dsml::Activation::gelu, true};
  EXPECT_NO_THROW(dsml::limits::check_run_size(lab, 1024, dsml::limits::kSteps));
  EXPECT_EQ(error_of([&] { dsml::limits::check_run_size(lab, 1024, dsml::limits::kSteps + 1); }),
            "steps must be at most 10000");
  EXPECT_EQ(error_of([&] { dsml::limits::check_run_size(lab, 200000, 1); }), "batch·width must be at most 1e7");
  dsml::MlpConfig real{96, 12288, 4 * 12288, dsml::Activation::gelu, true};  // GPT-3's blocks
  EXPECT_NE(error_of([&] { dsml::limits::check_run_size(real, 1, 1); }).find("layers·width·hidden must be at most 1e8"),
            std::string::npos);
}

TEST(RunLimits, ASimulatedJobIsCappedAtFourMillionWorkerSteps) {
  EXPECT_NO_THROW(dsml::limits::check_job_size(1024, 3906));  // 3,999,744 worker-steps
  EXPECT_NO_THROW(dsml::limits::check_job_size(400, 10000));  // exactly 4e6
  EXPECT_EQ(error_of([&] { dsml::limits::check_job_size(400, 10001); }), "workers·steps must be at most 4e6");
  EXPECT_EQ(error_of([&] { dsml::limits::check_job_size(1024, 3907); }), "workers·steps must be at most 4e6");
}

TEST(RunLimits, AGridIsCappedAt4096Ranks) {
  EXPECT_NO_THROW(dsml::limits::check_grid_size(dsml::RankGrid{16, 16, 16}));  // exactly 4096
  EXPECT_EQ(error_of([&] { dsml::limits::check_grid_size(dsml::RankGrid{16, 16, 17}); }),
            "dp·tp·pp must be at most 4096 ranks");
  // 65536³ overflows an int: the product is taken in doubles.
  EXPECT_EQ(error_of([&] { dsml::limits::check_grid_size(dsml::RankGrid{65536, 65536, 65536}); }),
            "dp·tp·pp must be at most 4096 ranks");
}

TEST(RunLimits, AParameterServerRunIsCappedAtTwoMillionPushes) {
  EXPECT_NO_THROW(dsml::limits::check_ps_size(100, 2, 10000));  // exactly 2e6
  EXPECT_EQ(error_of([&] { dsml::limits::check_ps_size(100, 2, 10001); }),
            "workers·servers·iterations must be <= 2e6 (pushes a tab simulates at once), got 2.0002e+06");
  EXPECT_NO_THROW(dsml::limits::check_ps_training_size(10, 1000, 8, 250000));  // exactly 2e10
  EXPECT_EQ(error_of([&] { dsml::limits::check_ps_training_size(10, 1000, 8, 250001); }),
            "workers·iterations·batch·parameters must be <= 2e10 (what a tab trains in seconds)");
  EXPECT_NO_THROW(dsml::limits::check_speed_draws(400, 10000));  // exactly 4e6
  EXPECT_EQ(error_of([&] { dsml::limits::check_speed_draws(400, 10001); }), "workers·iterations must be <= 4e6");
}

TEST(RunLimits, AMixtureOfExpertsRunIsCappedAtAHundredMillionWeights) {
  const dsml::MlpConfig mlp{4, 50, 500, dsml::Activation::gelu, true};  // 1e5 weights a block's expert
  EXPECT_NO_THROW(dsml::limits::check_moe_size(1000, mlp));              // exactly 1e8
  EXPECT_EQ(error_of([&] { dsml::limits::check_moe_size(1001, mlp); }),
            "experts·layers·width·hidden must be <= 1e8 for a run in a tab");
  EXPECT_NO_THROW(dsml::limits::check_expert_parallel_size(400, 500, 500));  // exactly 1e8
  EXPECT_EQ(error_of([&] { dsml::limits::check_expert_parallel_size(401, 500, 500); }),
            "batch·width·hidden must be <= 1e8 for a run in a tab");
}

}  // namespace

