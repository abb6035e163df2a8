// The iron law of a step and the tail at scale, against their published forms.
#include <gtest/gtest.h>

#include <cmath>

#include "dsml/error.h"
#include "dsml/step_time.h"

namespace dsml {
namespace {

TEST(StepTime, NoOverlapIsSumAndFullOverlapIsMax) {
  EXPECT_DOUBLE_EQ(step_time(0.030, 0.0397, 0.0), 0.030 + 0.0397);
  EXPECT_DOUBLE_EQ(step_time(0.030, 0.0397, 1.0), 0.0397);
  EXPECT_DOUBLE_EQ(step_time(0.050, 0.010, 1.0), 0.050);
  EXPECT_DOUBLE_EQ(step_time(0.050, 0.010, 0.5), 0.055);  // half of the shorter one hidden
}

TEST(StepTime, RejectsBadInput) {
  EXPECT_THROW(step_time(-1, 1, 0), Error);
  EXPECT_THROW(step_time(1, NAN, 0), Error);
  try {
    step_time(1, 1, 1.5);
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("overlap must be a number between 0 and 1"), std::string::npos);
  }
}

TEST(TailAtScale, DeanAndBarrosoExample) {
  // 1 slow request in 100, fan-out to 100 servers: 1 − 0.99^100 = 63.4%.
  EXPECT_NEAR(probability_any_slow(0.01, 100), 1 - std::pow(0.99, 100), 1e-15);
  EXPECT_NEAR(probability_any_slow(0.01, 100), 0.634, 5e-4);
  EXPECT_DOUBLE_EQ(probability_any_slow(0.01, 1), 0.01);
  EXPECT_DOUBLE_EQ(probability_any_slow(0.0, 1000), 0.0);
  EXPECT_DOUBLE_EQ(probability_any_slow(1.0, 3), 1.0);
  EXPECT_NEAR(probability_any_slow(1e-12, 10), 1e-11, 1e-20);  // no cancellation for tiny q
}

TEST(TailAtScale, RejectsBadInput) {
  EXPECT_THROW(probability_any_slow(-0.1, 10), Error);
  EXPECT_THROW(probability_any_slow(0.1, 0), Error);
  EXPECT_THROW(probability_any_slow(NAN, 10), Error);
}

}  // namespace
}  // namespace dsml
