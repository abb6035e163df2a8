// error.cpp — the two argument checks every public function in the core starts with.
//
// Messages follow one pattern, "<name> must be a finite number > 0, got <value>", so a learner sees which
// argument was wrong and what it was. NaN fails both checks because every comparison with NaN is false.
#include "dsml/error.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace dsml {

// Tries "%.6g", "%.7g", … until the text reads back as the same double: 0.1 → "0.1", 1e-6 → "1e-06".
std::string format_number(double value) {
  char buffer[32];
  for (int precision = 6; precision <= 17; ++precision) {
    std::snprintf(buffer, sizeof buffer, "%.*g", precision, value);
    if (!std::isfinite(value) || std::strtod(buffer, nullptr) == value) break;
  }
  return buffer;
}

void require_positive(const char* name, double value) {
  if (std::isfinite(value) && value > 0.0) return;
  throw Error(std::string(name) + " must be a finite number > 0, got " + format_number(value));
}

void require_non_negative(const char* name, double value) {
  if (std::isfinite(value) && value >= 0.0) return;
  throw Error(std::string(name) + " must be a finite number >= 0, got " + format_number(value));
}

}  // namespace dsml
