// scaling_laws.cpp — how far parallelism can take a program whose serial fraction is s.
//
// Amdahl, "Validity of the single processor approach to achieving large scale computing capabilities",
// AFIPS 1967: with a fixed problem, S(N) = 1 / (s + (1 − s)/N) and S(∞) = 1/s.
// Gustafson, "Reevaluating Amdahl's law", CACM 31(5), 1988: if the parallel part grows with N while the
// run time stays fixed, the scaled speed-up is S(N) = N − s·(N − 1).
#include "dsml/scaling_laws.h"

#include <cmath>
#include <limits>
#include <string>

#include "dsml/error.h"

namespace dsml {

namespace {

void require_fraction(double serial_fraction) {
  if (std::isfinite(serial_fraction) && serial_fraction >= 0.0 && serial_fraction <= 1.0) return;
  throw Error("serial fraction must be a number between 0 and 1, got " + format_number(serial_fraction));
}

void require_processors(double processors) {
  if (std::isfinite(processors) && processors >= 1.0) return;
  throw Error("processors must be a finite number >= 1, got " + format_number(processors));
}

}  // namespace

double amdahl_speedup(double serial_fraction, double processors) {
  require_fraction(serial_fraction);
  require_processors(processors);
  return 1.0 / (serial_fraction + (1.0 - serial_fraction) / processors);
}

double gustafson_speedup(double serial_fraction, double processors) {
  require_fraction(serial_fraction);
  require_processors(processors);
  return processors - serial_fraction * (processors - 1.0);
}

double amdahl_limit(double serial_fraction) {
  require_fraction(serial_fraction);
  if (serial_fraction == 0.0) return std::numeric_limits<double>::infinity();  // perfectly parallel
  return 1.0 / serial_fraction;
}

double amdahl_serial_fraction(double speedup, double processors) {
  // Solve S = 1 / (s + (1 − s)/N) for s: 1/S = s·(1 − 1/N) + 1/N  ⇒  s = (N/S − 1) / (N − 1).
  if (!(std::isfinite(processors) && processors > 1.0))
    throw Error("processors must be a finite number > 1, got " + format_number(processors));
  if (!(std::isfinite(speedup) && speedup >= 1.0 && speedup <= processors))
    throw Error("speedup must be between 1 and the number of processors (" + format_number(processors) +
                "), got " + format_number(speedup));
  return (processors / speedup - 1.0) / (processors - 1.0);
}

}  // namespace dsml
