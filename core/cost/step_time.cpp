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

double max_overlap_fraction(double compute_s, double communication_s) {
  require_non_negative("compute time", compute_s);
  require_non_negative("communication time", communication_s);
  return communication_s > 0 ? std::min(1.0, compute_s / communication_s) : 1.0;
}

double partial_overlap_step_time(double compute_s, double communication_s, double o) {
  const double most = max_overlap_fraction(compute_s, communication_s);
  if (!(o >= 0.0 && o <= most + 1e-12))
    throw Error("the overlap fraction must lie in [0, " + format_number(most) + "] (min(1, C/M): no more "
                "communication hides than there is compute to hide it), got " + format_number(o));
  return compute_s + (1.0 - std::min(o, most)) * communication_s;
}

double probability_any_slow(double q, double workers) {
  if (!(q >= 0.0 && q <= 1.0)) throw Error("probability q must be a number between 0 and 1, got " + format_number(q));
  if (!(std::isfinite(workers) && workers >= 1.0))
    throw Error("workers must be a finite number >= 1, got " + format_number(workers));
  // 1 − (1 − q)^N computed as −expm1(N·log1p(−q)): exact for tiny q, where 1 − (1 − q)^N would cancel.
  return q == 1.0 ? 1.0 : -std::expm1(workers * std::log1p(-q));
}

}  // namespace dsml
