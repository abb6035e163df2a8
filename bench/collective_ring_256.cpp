// collective_ring_256.cpp — the cost of "one algorithm, many executors" at the scale later lessons use: the ring
// all-reduce of 1 MiB on 256 ranks (2·255 steps per rank, 130,560 messages of 4 KiB).
//
//   build/native/collective_ring_256 --benchmark_min_time=1
// (BM_ScheduleToMakespan1024NoRecords: the same pipeline on 1024 ranks, 16× the messages, as the Week 2 page ran it;
// BM_Lazy…: the schedule made step by step as the simulator reaches it, dsml/lazy_schedule.h, as the page and
// `dsml collective` run it now.)
// Each stage is timed alone, so a slow one is visible: make_schedule (the generator), to_programs (schedule →
// simulator steps), simulate (the discrete-event run, recording every span and message, and again with
// SimOptions switching both off), and the three together as a page would run them. messages_per_second counts simulated messages. The simulated makespan is
// checked against the closed form 2(p − 1)α + 2((p − 1)/p)nβ + ((p − 1)/p)nγ once, outside the timing.
#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdio>
#include <vector>

#include "dsml/collective_cost.h"
#include "dsml/lazy_schedule.h"
#include "dsml/schedule.h"
#include "dsml/simulator.h"
#include "dsml/topology.h"

namespace {

constexpr int kRanks = 256;
constexpr double kBytes = 1 << 20;                                   // 1 MiB
const dsml::CostModel kModel = dsml::CostModel::from_bandwidth(5e-6, 25e9, 1.0 / 100e9);  // 5 µs, 25 GB/s

dsml::Schedule ring() { return dsml::make_schedule("all-reduce", "ring", kRanks, kBytes); }

void BM_MakeSchedule(benchmark::State& state) {
  std::size_t steps = 0;
  for (auto _ : state) {
    const dsml::Schedule s = ring();
    for (const auto& list : s.steps) steps += list.size();
    benchmark::DoNotOptimize(s.steps.data());
  }
  state.counters["steps_per_second"] = benchmark::Counter(static_cast<double>(steps), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_MakeSchedule)->Unit(benchmark::kMillisecond);

void BM_ToPrograms(benchmark::State& state) {
  const dsml::Schedule s = ring();
  for (auto _ : state) {
    const std::vector<dsml::Program> programs = dsml::to_programs(s, kModel.gamma);
    benchmark::DoNotOptimize(programs.data());
  }
}
BENCHMARK(BM_ToPrograms)->Unit(benchmark::kMillisecond);

void BM_Simulate(benchmark::State& state) {
  const std::vector<dsml::Program> programs = dsml::to_programs(ring(), kModel.gamma);
  const dsml::Network net{kRanks, kModel};
  std::size_t messages = 0, spans = 0;
  for (auto _ : state) {
    const dsml::SimResult result = dsml::simulate(net, programs);
    messages += result.messages.size();
    spans += result.spans.size();
    benchmark::DoNotOptimize(result.makespan);
  }
  state.counters["messages_per_second"] =
      benchmark::Counter(static_cast<double>(messages), benchmark::Counter::kIsRate);
  state.counters["messages"] = static_cast<double>(messages) / static_cast<double>(state.iterations());
  state.counters["spans"] = static_cast<double>(spans) / static_cast<double>(state.iterations());
  // What the records cost: a MessageRecord per message and a Span per send, wait and reduction.
  state.counters["record_MiB"] = (static_cast<double>(messages) * sizeof(dsml::MessageRecord) +
                                  static_cast<double>(spans) * sizeof(dsml::Span)) /
                                 static_cast<double>(state.iterations()) / (1 << 20);
}
BENCHMARK(BM_Simulate)->Unit(benchmark::kMillisecond);

// The same run with recording switched off (SimOptions, dsml/simulator.h): what the spans and message records cost.
void BM_SimulateNoRecords(benchmark::State& state) {
  const std::vector<dsml::Program> programs = dsml::to_programs(ring(), kModel.gamma);
  const dsml::Topology net = dsml::Topology::fully_connected(kRanks, kModel);
  dsml::SimOptions options;
  options.record_spans = false;
  options.record_messages = false;
  std::size_t events = 0;
  for (auto _ : state) {
    const dsml::SimResult result = dsml::simulate(net, programs, options);
    events += result.events;
    benchmark::DoNotOptimize(result.makespan);
  }
  state.counters["events_per_second"] = benchmark::Counter(static_cast<double>(events), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_SimulateNoRecords)->Unit(benchmark::kMillisecond);

void BM_ScheduleToMakespan(benchmark::State& state) {
  const dsml::Network net{kRanks, kModel};
  for (auto _ : state) {
    const dsml::SimResult result = dsml::simulate(net, dsml::to_programs(ring(), kModel.gamma));
    benchmark::DoNotOptimize(result.makespan);
  }
}
BENCHMARK(BM_ScheduleToMakespan)->Unit(benchmark::kMillisecond);

// The Week 2 page's largest run (bench/page_sim_1024.mjs, in wasm): 1024 ranks, 2,095,104 messages, nothing
// recorded — generator, conversion and simulation together, as core.simulateCollective runs them.
void BM_ScheduleToMakespan1024NoRecords(benchmark::State& state) {
  const dsml::Topology net = dsml::Topology::fully_connected(1024, {1e-6, 1e-10, 0.0});
  dsml::SimOptions options;
  options.record_spans = false;
  options.record_messages = false;
  for (auto _ : state) {
    const dsml::Schedule s = dsml::make_schedule("all-reduce", "ring", 1024, kBytes);
    const dsml::SimResult result = dsml::simulate(net, dsml::to_programs(s, 0.0), options);
    benchmark::DoNotOptimize(result.makespan);
  }
}
BENCHMARK(BM_ScheduleToMakespan1024NoRecords)->Unit(benchmark::kMillisecond)->Iterations(3);

// The same two runs with the schedule made lazily: no Schedule, no programs; memory O(p + messages in flight).
void BM_LazyScheduleToMakespan(benchmark::State& state) {
  const dsml::Topology net = dsml::Topology::fully_connected(kRanks, kModel);
  for (auto _ : state) {
    const auto s = dsml::make_lazy_schedule("all-reduce", "ring", kRanks, kBytes);
    const dsml::SimResult result = dsml::simulate_schedule(net, *s, kModel.gamma);
    benchmark::DoNotOptimize(result.makespan);
  }
}
BENCHMARK(BM_LazyScheduleToMakespan)->Unit(benchmark::kMillisecond);

void BM_LazyScheduleToMakespan1024NoRecords(benchmark::State& state) {
  const dsml::Topology net = dsml::Topology::fully_connected(1024, {1e-6, 1e-10, 0.0});
  for (auto _ : state) {
    const auto s = dsml::make_lazy_schedule("all-reduce", "ring", 1024, kBytes);
    const dsml::SimResult result = dsml::simulate_schedule(net, *s, 0.0, dsml::SimOptions{false, false});
    benchmark::DoNotOptimize(result.makespan);
  }
}
BENCHMARK(BM_LazyScheduleToMakespan1024NoRecords)->Unit(benchmark::kMillisecond)->Iterations(3);

}  // namespace

int main(int argc, char** argv) {
  const double simulated =
      dsml::simulate(dsml::Network{kRanks, kModel}, dsml::to_programs(ring(), kModel.gamma)).makespan;
  const double formula = dsml::closed_form_time("all-reduce", "ring", kRanks, kBytes, kModel).total();
  std::printf("ring all-reduce, %d ranks, 1 MiB: simulated %.9g s, closed form %.9g s\n", kRanks, simulated, formula);
  if (std::abs(simulated - formula) > 1e-9 * formula) return 1;
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
