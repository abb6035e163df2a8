// fault_tolerance_commands.h — Week 6's subcommands:
//   dsml compress    data-parallel training with a compressed gradient exchange (± error feedback): loss vs bytes
//   dsml checkpoint  the checkpoint interval: overhead, Young's and Daly's optima, beside a failure simulation
//   dsml elastic     data parallelism whose workers leave and join mid-run, beside one device
//   dsml capstone    one data-parallel job with stragglers, failures and checkpoints, compression: its report
#pragma once

namespace dsml::cli {

int compress(int argc, char** argv);    // compress_command.cpp
int checkpoint(int argc, char** argv);  // checkpoint_command.cpp
int elastic(int argc, char** argv);     // elastic_command.cpp
int capstone(int argc, char** argv);    // capstone_command.cpp

}  // namespace dsml::cli
