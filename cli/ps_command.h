// ps_command.h — Week 4's subcommands (ps_command.cpp):
//   dsml ps       a parameter server simulated under a consistency regime, optionally training the teacher task
//   dsml hogwild  lock-free sparse SGD by T threads: collision rate against its prediction, loss
#pragma once

namespace dsml::cli {

int ps(int argc, char** argv);
int hogwild(int argc, char** argv);

}  // namespace dsml::cli
