// foundations_commands.h — Week 1's subcommands:
//   dsml cost       the α–β(–γ) cost of one message, the crossover size n* = α/β, the effective bandwidth
//   dsml amdahl     Amdahl's speed-up and limit, or the serial fraction behind a measured speed-up
//   dsml gustafson  Gustafson's scaled speed-up
//   dsml fit        α and β fitted to measured (bytes, seconds) by least squares
//   dsml simulate   a message-passing scenario on the discrete-event simulator, on a switch or a topology
#pragma once

namespace dsml::cli {

int cost(int argc, char** argv);       // cost_command.cpp
int amdahl(int argc, char** argv);     // amdahl_command.cpp
int gustafson(int argc, char** argv);  // amdahl_command.cpp
int fit(int argc, char** argv);        // fit_command.cpp
int simulate(int argc, char** argv);   // simulate_command.cpp

}  // namespace dsml::cli
