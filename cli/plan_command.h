// plan_command.h — `dsml plan` (plan_command.cpp, dsml/planner.h): a transformer training step on a GPU cluster.
#pragma once

namespace dsml::cli {

int plan(int argc, char** argv);

}  // namespace dsml::cli
