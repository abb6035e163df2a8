// scenario_throughput.cpp — the native half of the native-vs-wasm comparison: build a named scenario and
// simulate it with recording off, exactly the work core.simulateScenario({record: false}) does in wasm
// (bench/sim_throughput_wasm.mjs runs the same scenario in Node). Reports events per second.
//   build/native/scenario_throughput --benchmark_min_time=1
#include <benchmark/benchmark.h>

#include "dsml/scenarios.h"
#include "dsml/simulator.h"
#include "dsml/topology.h"

static void BM_TokenRingLean(benchmark::State& state) {
  dsml::ScenarioOptions options;
  options.ranks = 64;
  options.bytes = 65536;
  options.laps = static_cast<int>(state.range(0));
  const dsml::Topology topology = dsml::Topology::fully_connected(options.ranks, dsml::CostModel{1e-6, 1e-10, 0});
  std::size_t events = 0;
  for (auto _ : state) {
    const dsml::SimResult result =
        dsml::simulate(topology, dsml::make_scenario("token-ring", options), dsml::SimOptions{false, false});
    events += result.events;
    benchmark::DoNotOptimize(result.makespan);
  }
  state.counters["events_per_s"] = benchmark::Counter(static_cast<double>(events), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_TokenRingLean)->Arg(2000)->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
