// design_command.h — Week 5's design subcommands (design_command.cpp, dsml/parallel_design.h):
//   dsml micro-batches   the optimal number of micro-batches with a per-micro-batch overhead
//   dsml layouts         every (t, p, d) for a planner model preset on nodes × GPUs, each priced by plan_step with
//                        and without ZeRO-1: memory, the step's terms, fits
#pragma once

namespace dsml::cli {

int micro_batches(int argc, char** argv);
int layouts(int argc, char** argv);

}  // namespace dsml::cli
