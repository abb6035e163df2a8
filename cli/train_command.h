// train_command.h — `dsml train-step` (train_command.cpp): the cost of one training step (dsml/step_cost.h).
#pragma once

namespace dsml::cli {

int train_step(int argc, char** argv);

}  // namespace dsml::cli
