// dsml/teacher_task.h — a synthetic regression task whose loss can reach ~0 (the "teacher–student" setup).
//
// A fixed random teacher network of the student's architecture labels Gaussian inputs:
//   X ~ N(0, 1)  (B, D)        T = teacher(X)  (B, D)
// Because the student can represent the teacher exactly, a falling loss shows that training works, and any
// parallel strategy must reproduce the single-device loss curve step for step.
#pragma once

#include <Eigen/Core>
#include <cstdint>

#include "dsml/mlp.h"

namespace dsml {

struct Batch {
  Eigen::MatrixXd inputs;   // (B, D)
  Eigen::MatrixXd targets;  // (B, D)
};

class TeacherTask {
 public:
  // Teacher weights are init_mlp(config, seed) — so start the student from a different seed.
  TeacherTask(const MlpConfig& config, std::uint64_t seed);

  // The global batch for training step `step`: a pure function of (seed, step, batch_size). Data-parallel
  // rank r of p takes rows [r·B/p, (r+1)·B/p) of the same batch, so every strategy sees the same data.
  // Throws Error unless batch_size ≥ 1.
  Batch make_batch(std::uint64_t step, int batch_size) const;

  const MlpConfig& config() const { return config_; }
  const MlpParams& teacher() const { return teacher_; }
  std::uint64_t seed() const { return seed_; }

 private:
  MlpConfig config_;
  std::uint64_t seed_;
  MlpParams teacher_;
};

// TeacherTask(config, seed).make_batch(step, batch_size), keeping the latest teacher between calls: the Workers of a
// lab run ask for step after step of one task. The same batch with or without the kept teacher.
Batch teacher_batch(const MlpConfig& config, std::uint64_t seed, std::uint64_t step, int batch_size);

// The seed a student is drawn from: the teacher's + 1, so that it does not start at the answer. Every student —
// the MLP's (init_student), the MoE layer's and the MoE MLP's — comes from it.
constexpr std::uint64_t student_seed(std::uint64_t teacher_seed) { return teacher_seed + 1; }

// The student every teacher-task run starts from: init_mlp(config, student_seed(teacher_seed)). The teacher is
// init_mlp(config, teacher_seed), so the next seed gives a student that does not start at the answer, and every
// strategy, its single-device reference and the pages derive the same start from the one seed a learner sets.
MlpParams init_student(const MlpConfig& config, std::uint64_t teacher_seed);

}  // namespace dsml
