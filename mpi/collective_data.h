// collective_data.h — the data a collective check runs on, and what each rank must hold afterwards.
//
// The pattern is verify()'s (collective_executor.h) made safe for float32 and any summation order: rank q's
// value at element g of the collective's data is
//   v(q, g) = (q + 1) + (p + 1)·(g mod K),     K = the largest period with p·(p + 1)·K ≤ 2^24,
// so every value and every partial sum is a whole number below 2^24 — exact in float32, whatever order the
// course's schedule or the MPI library adds in. Results can then be compared with ==, element by element, and a
// sum that misses rank q's contribution is short by exactly v(q, g), which the message names.
// Which slots a rank holds before, and must hold after, follow the table in dsml/schedule.h.
#pragma once

#include <string>
#include <vector>

#include "schedule_runner.h"

namespace dsml::mpi {

// This rank's buffer before the collective (layout().total() floats): held slots filled with the pattern,
// the others NaN.
std::vector<float> initial_data(const RankSchedule& schedule);

// Does the collective promise this rank's slot a value (broadcast: every slot; reduce: the root's; all-gather:
// every slot; reduce-scatter: the owned ones; all-to-all: slots i·p + rank)?
bool promised(const Schedule& header, int rank, int slot);

// "" when `course` and `library` agree on every promised element; otherwise the first difference, e.g.
// "rank 2 slot 1 element 4: the course's ring gives 36, MPI_Allreduce gives 40 (rank 3's contribution is
// missing)".
std::string compare_with_library(const RankSchedule& schedule, const std::vector<float>& course,
                                 const std::vector<float>& library, const std::string& library_call);

}  // namespace dsml::mpi
