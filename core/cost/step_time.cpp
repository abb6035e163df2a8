// step_time.cpp — see dsml/step_time.h.
#include "dsml/step_time.h"

#include <algorithm>
#include <cmath>

#include "dsml/error.h"

namespace dsml {

double step_time(double compute_s, double communication_s, double overlap) {
  require_non_negative("compute time", compute_s);
  require_non_negative("communication time", communication_s);
  if (!(overlap >= 0.0 && overlap <= 1.0))
    throw Error("overlap must be a number between 0 and 1, got " + format_number(overlap));
  return compute_s + communication_s - overlap * std::min(compute_s, communication_s);
}

double probability_any_slow(double q, double workers) {
  if (!(q >= 0.0 && q <= 1.0)) throw Error("probability q must be a number between 0 and 1, got " + format_number(q));
  if (!(std::isfinite(workers) && workers >= 1.0))
    throw Error("workers must be a finite number >= 1, got " + format_number(workers));
  // 1 − (1 − q)^N computed as −expm1(N·log1p(−q)): exact for tiny q, where 1 − (1 − q)^N would cancel.
  return q == 1.0 ? 1.0 : -std::expm1(workers * std::log1p(-q));
}

}  // namespace dsml
