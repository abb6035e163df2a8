// commands.h — the subcommands of dsml-mpi. Each prepare_* parses and checks its arguments and builds what it
// needs WITHOUT sending a message, so bad input throws the same dsml::Error (or cli::UsageError) on every rank;
// main() agrees on it (world.h) and only then calls the returned run, which communicates and returns the exit
// code (0, or 1 when a result is wrong: a collective that differs from the library's, a training run that
// differs from the single-device one).
#pragma once

#include <functional>

#include "world.h"

namespace dsml::mpi {

using Run = std::function<int()>;

Run prepare_verify(int argc, char** argv, const World& world);      // collective_commands.cpp
Run prepare_collective(int argc, char** argv, const World& world);  // collective_commands.cpp
Run prepare_sweep(int argc, char** argv, const World& world);       // collective_commands.cpp
Run prepare_ping_pong(int argc, char** argv, const World& world);   // ping_pong_command.cpp
Run prepare_train(int argc, char** argv, const World& world);       // train_command.cpp

}  // namespace dsml::mpi
