// sim_throughput.cpp — how many discrete events per second the simulator processes.
//
//   build/native/sim_throughput --benchmark_min_time=1
// items_per_second is events per second (SimResult::events: pops of the engine's event queue), the figure
// the later lessons' large runs (thousands of ranks × collective steps) depend on. Each run also records
// every span and message, as simulate() always does. Program construction is excluded from the timing.
#include <benchmark/benchmark.h>

#include <vector>

#include "dsml/scenarios.h"
#include "dsml/simulator.h"

namespace {

dsml::Network network(int ranks) {
  dsml::Network net;
  net.ranks = ranks;
  net.model = dsml::CostModel::from_bandwidth(1e-6, 12.5e9);
  return net;
}

void run(benchmark::State& state, const std::vector<dsml::Program>& programs) {
  const dsml::Network net = network(static_cast<int>(programs.size()));
  std::size_t events = 0, messages = 0;
  for (auto _ : state) {
    const dsml::SimResult result = dsml::simulate(net, programs);
    events += result.events;
    messages += result.messages.size();
    benchmark::DoNotOptimize(result.makespan);
  }
  state.SetItemsProcessed(static_cast<int64_t>(events));
  // An event is one pop of the engine's queue: a hop of the token ring costs one (its arrival).
  state.counters["messages_per_second"] =
      benchmark::Counter(static_cast<double>(messages), benchmark::Counter::kIsRate);
}

// One token circling 64 ranks: one hop (one arrival event) at a time — the queue stays tiny.
void BM_TokenRing64(benchmark::State& state) {
  run(state, dsml::token_ring(64, 1 << 16, static_cast<int>(state.range(0))));
}
BENCHMARK(BM_TokenRing64)->Arg(100)->Arg(2000)->Unit(benchmark::kMillisecond);

// Every rank computes and exchanges at once: p events in flight, so the priority queue does real work.
void BM_ComputeThenExchange(benchmark::State& state) {
  run(state, dsml::compute_then_exchange(static_cast<int>(state.range(0)), 1 << 16, 1e-3));
}
BENCHMARK(BM_ComputeThenExchange)->Arg(64)->Arg(65536)->Unit(benchmark::kMillisecond);

// Contention: p − 1 transfers queue on the root's downlink.
void BM_GatherToRoot(benchmark::State& state) {
  run(state, dsml::gather_to_root(static_cast<int>(state.range(0)), 1 << 16));
}
BENCHMARK(BM_GatherToRoot)->Arg(65536)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
