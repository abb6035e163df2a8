// parallel/micro_batches.h — private to core/parallel: what both pipeline trainers (pipeline_parallel.cpp,
// chunk_pipeline_parallel.cpp) check of a step's batch, and how they cut it into micro-batches of rows.
#pragma once

#include <vector>

#include <Eigen/Core>

#include "dsml/teacher_task.h"

namespace dsml::micro_batches {

// Throws dsml::Error unless inputs and targets are both B × width with B >= 1.
void check_batch(const Batch& batch, int width);

// Micro-batch i is rows [offset[i], offset[i] + rows[i]) of the global batch: shard_sizes(B, m), the first B mod m
// one row larger. Throws dsml::Error unless 1 <= m <= B.
struct Rows {
  std::vector<Eigen::Index> offset;
  std::vector<Eigen::Index> rows;
};
Rows cut(Eigen::Index batch_rows, int m);

}  // namespace dsml::micro_batches
