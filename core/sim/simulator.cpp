// simulator.cpp — the public face of the simulator: building steps, checking a network and its programs, and
// handing them to the engine (engine.h). Every mistake a learner can make in a hand-written program is caught
// here, before anything runs, with the rank and step that hold it.
#include "dsml/simulator.h"

#include <cmath>
#include <string>

#include "dsml/error.h"
#include "sim/engine.h"

namespace dsml {

Step Step::send(int to, double bytes, int tag) {
  Step step;
  step.kind = Kind::kSend;
  step.peer = to;
  step.bytes = bytes;
  step.tag = tag;
  return step;
}

Step Step::recv(int from, int tag) {
  Step step;
  step.kind = Kind::kRecv;
  step.peer = from;
  step.tag = tag;
  return step;
}

Step Step::compute(double seconds) {
  Step step;
  step.kind = Kind::kCompute;
  step.seconds = seconds;
  return step;
}

namespace {

std::string where(int rank, std::size_t step) {
  return "rank " + std::to_string(rank) + " step " + std::to_string(step);
}

void validate_step(const Step& step, int rank, std::size_t index, int ranks) {
  switch (step.kind) {
    case Step::Kind::kCompute:
      if (!(std::isfinite(step.seconds) && step.seconds >= 0.0))
        require_non_negative((where(rank, index) + ": compute seconds").c_str(), step.seconds);
      return;
    case Step::Kind::kSend:
    case Step::Kind::kRecv: {
      const bool send = step.kind == Step::Kind::kSend;
      const char* verb = send ? "send to" : "recv from";
      if (step.peer < 0 || step.peer >= ranks)
        throw Error(where(rank, index) + ": " + verb + " rank " + std::to_string(step.peer) +
                    ", but ranks are numbered 0 to " + std::to_string(ranks - 1));
      if (step.peer == rank)
        throw Error(where(rank, index) + ": " + verb + " itself (rank " + std::to_string(rank) +
                    "); a message needs two different ranks");
      if (send && !(std::isfinite(step.bytes) && step.bytes >= 0.0))
        require_non_negative((where(rank, index) + ": bytes").c_str(), step.bytes);
      return;
    }
  }
}

void validate_programs(int ranks, const std::vector<Program>& programs) {
  if (programs.size() != static_cast<std::size_t>(ranks))
    throw Error("programs has " + std::to_string(programs.size()) + " entries but ranks is " + std::to_string(ranks));
  for (int r = 0; r < ranks; ++r) {
    const Program& program = programs[static_cast<std::size_t>(r)];
    for (std::size_t i = 0; i < program.size(); ++i) validate_step(program[i], r, i, ranks);
  }
}

// Vectors of steps, already checked, read in order.
class ProgramSteps : public StepSource {
 public:
  explicit ProgramSteps(const std::vector<Program>& programs) : programs_(programs), pc_(programs.size(), 0) {}
  bool next(int rank, Step& out) override {
    const Program& program = programs_[static_cast<std::size_t>(rank)];
    std::size_t& pc = pc_[static_cast<std::size_t>(rank)];
    if (pc == program.size()) return false;
    out = program[pc++];
    return true;
  }
  Counts count(int rank) const override {
    Counts counts;
    for (const Step& step : programs_[static_cast<std::size_t>(rank)]) {
      counts.sends += step.kind == Step::Kind::kSend;
      counts.span_bound += step.kind == Step::Kind::kSend ? 2 : 1;  // a send may wait for a link, then transmits
    }
    return counts;
  }

 private:
  const std::vector<Program>& programs_;
  std::vector<std::size_t> pc_;  // per rank: the index of its next step
};

// Another source's steps, each checked as the engine takes it (the engine itself trusts its steps).
class CheckedSteps : public StepSource {
 public:
  CheckedSteps(StepSource& steps, int ranks) : steps_(steps), ranks_(ranks), taken_(static_cast<std::size_t>(ranks), 0) {}
  bool next(int rank, Step& out) override {
    if (!steps_.next(rank, out)) return false;
    validate_step(out, rank, taken_[static_cast<std::size_t>(rank)]++, ranks_);
    return true;
  }
  Counts count(int rank) const override { return steps_.count(rank); }

 private:
  StepSource& steps_;
  int ranks_;
  std::vector<std::size_t> taken_;  // per rank: steps taken so far
};

}  // namespace

SimResult simulate(const Network& network, const std::vector<Program>& programs, const SimOptions& options) {
  // Checked in Week 1's order (and words) before the network becomes its fully_connected topology.
  if (network.ranks < 1) throw Error("the network needs at least 1 rank, got " + std::to_string(network.ranks));
  validate(network.model);
  validate_programs(network.ranks, programs);
  const Topology topology = Topology::fully_connected(network.ranks, network.model);
  ProgramSteps steps(programs);
  return sim::Engine(topology, steps, options).run();
}

SimResult simulate(const Topology& topology, const std::vector<Program>& programs, const SimOptions& options) {
  if (topology.ranks() < 1) throw Error("the topology is empty; build one with Topology::ring(…) and the like");
  validate_programs(topology.ranks(), programs);
  ProgramSteps steps(programs);
  return sim::Engine(topology, steps, options).run();
}

SimResult simulate(const Topology& topology, StepSource& steps, const SimOptions& options) {
  if (topology.ranks() < 1) throw Error("the topology is empty; build one with Topology::ring(…) and the like");
  CheckedSteps checked(steps, topology.ranks());
  return sim::Engine(topology, checked, options).run();
}

}  // namespace dsml
