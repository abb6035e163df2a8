// dsml/scaling_laws.h — Amdahl (1967) and Gustafson (1988).
//
// s is the serial fraction of the work (0 ≤ s ≤ 1), N the number of processors (N ≥ 1).
//   Amdahl,   fixed problem size:  S(N) = 1 / (s + (1 − s)/N),   S(∞) = 1/s
//   Gustafson, fixed time per processor (the problem grows with N):  S(N) = N − s·(N − 1)
#pragma once

namespace dsml {

double amdahl_speedup(double serial_fraction, double processors);
double gustafson_speedup(double serial_fraction, double processors);

// The limit of Amdahl's speed-up as N → ∞: 1/s (infinity when s = 0).
double amdahl_limit(double serial_fraction);

// Inverts Amdahl: the serial fraction that gives `speedup` on `processors`.
// s = (N/S − 1) / (N − 1). Requires N > 1 and 1 ≤ S ≤ N.
double amdahl_serial_fraction(double speedup, double processors);

}  // namespace dsml
