// Amdahl (1967) and Gustafson (1988) against their closed forms and textbook values.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

#include "dsml/error.h"
#include "test_support.h"
#include "dsml/scaling_laws.h"

namespace {

TEST(Amdahl, TextbookValues) {
  EXPECT_DOUBLE_EQ(dsml::amdahl_speedup(1.0 / 15.0, 16), 8.0);  // s = 1/15, N = 16 → 8
  EXPECT_DOUBLE_EQ(dsml::amdahl_speedup(0.0, 64), 64.0);        // perfectly parallel: linear
  EXPECT_DOUBLE_EQ(dsml::amdahl_speedup(1.0, 64), 1.0);         // all serial: no gain
  EXPECT_DOUBLE_EQ(dsml::amdahl_speedup(0.05, 1), 1.0);
  EXPECT_NEAR(dsml::amdahl_speedup(0.05, 1e12), 20.0, 1e-9);   // approaches 1/s
}

TEST(Amdahl, MatchesClosedFormOnAGrid) {
  for (double s : {0.0, 0.01, 0.1, 0.25, 0.5, 0.9}) {
    for (double n : {1.0, 2.0, 7.0, 64.0, 1024.0}) {
      EXPECT_DOUBLE_EQ(dsml::amdahl_speedup(s, n), 1.0 / (s + (1.0 - s) / n)) << "s=" << s << " N=" << n;
      EXPECT_DOUBLE_EQ(dsml::gustafson_speedup(s, n), n - s * (n - 1.0)) << "s=" << s << " N=" << n;
      EXPECT_LE(dsml::amdahl_speedup(s, n), dsml::gustafson_speedup(s, n) + 1e-12);
    }
  }
}

TEST(Amdahl, Limit) {
  EXPECT_DOUBLE_EQ(dsml::amdahl_limit(0.05), 20.0);
  EXPECT_DOUBLE_EQ(dsml::amdahl_limit(1.0 / 15.0), 15.0);
  EXPECT_TRUE(std::isinf(dsml::amdahl_limit(0.0)));
}

TEST(Amdahl, InverseRecoversSerialFraction) {
  EXPECT_NEAR(dsml::amdahl_serial_fraction(8, 16), 1.0 / 15.0, 1e-15);
  for (double s : {0.0, 0.02, 0.3, 1.0}) {
    for (double n : {2.0, 16.0, 1000.0}) {
      EXPECT_NEAR(dsml::amdahl_serial_fraction(dsml::amdahl_speedup(s, n), n), s, 1e-12) << s << " " << n;
    }
  }
}

TEST(Gustafson, TextbookValues) {
  EXPECT_DOUBLE_EQ(dsml::gustafson_speedup(0.1, 64), 64 - 0.1 * 63);
  EXPECT_DOUBLE_EQ(dsml::gustafson_speedup(0.0, 8), 8.0);
  EXPECT_DOUBLE_EQ(dsml::gustafson_speedup(1.0, 8), 1.0);
}

TEST(ScalingLaws, RejectBadInput) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_NE(error_of([] { dsml::amdahl_speedup(1.5, 4); }).find("serial fraction must be a number between 0 and 1, got 1.5"),
            std::string::npos);
  EXPECT_NE(error_of([] { dsml::amdahl_speedup(-0.1, 4); }).find("serial fraction"), std::string::npos);
  EXPECT_NE(error_of([&] { dsml::gustafson_speedup(nan, 4); }).find("got nan"), std::string::npos);
  EXPECT_NE(error_of([] { dsml::amdahl_speedup(0.1, 0); }).find("processors must be a finite number >= 1, got 0"),
            std::string::npos);
  EXPECT_NE(error_of([] { dsml::gustafson_speedup(0.1, 0.5); }).find("processors"), std::string::npos);
  EXPECT_NE(error_of([] { dsml::amdahl_limit(2); }).find("serial fraction"), std::string::npos);
  EXPECT_NE(error_of([] { dsml::amdahl_serial_fraction(8, 1); }).find("processors must be a finite number > 1"),
            std::string::npos);
  EXPECT_NE(error_of([] { dsml::amdahl_serial_fraction(20, 16); }).find("speedup must be between 1 and"),
            std::string::npos);
  EXPECT_NE(error_of([] { dsml::amdahl_serial_fraction(0.5, 16); }).find("got 0.5"), std::string::npos);
}

}  // namespace
