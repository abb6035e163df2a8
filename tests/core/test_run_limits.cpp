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

}  // namespace
