// pipeline_command.h — Week 5's subcommands (pipeline_command.cpp):
//   dsml pipeline   a pipeline schedule (gpipe, 1f1b, interleaved, zb-h1) timed: makespan, bubble, peak
//                   activations, messages, optionally the timeline; or --compare: all four at the same (P, m)
#pragma once

namespace dsml::cli {

int pipeline(int argc, char** argv);

}  // namespace dsml::cli
