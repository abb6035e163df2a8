// sim_throughput.cpp — how many discrete events per second the simulator processes.
//
//   build/native/sim_throughput --benchmark_min_time=1
// items_per_second is events per second (SimResult::events: pops of the engine's event queue), the figure
// the later lessons' large runs (thousands of ranks × collective steps) depend on. The Week 1 cases record
// every span and message, as simulate(Network, …) always does; the topology cases say whether they do
// ("Lean": SimOptions with both records off). Program construction is excluded from the timing.
#include <benchmark/benchmark.h>

#include <vector>

#include "dsml/scenarios.h"
#include "dsml/simulator.h"
#include "dsml/topology.h"

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

// ---- topologies ----------------------------------------------------------------------------

void run_on(benchmark::State& state, const dsml::Topology& topology, const std::vector<dsml::Program>& programs,
            bool lean) {
  dsml::SimOptions options;
  options.record_spans = options.record_messages = !lean;
  std::size_t events = 0;
  for (auto _ : state) {
    const dsml::SimResult result = dsml::simulate(topology, programs, options);
    events += result.events;
    benchmark::DoNotOptimize(result.makespan);
  }
  state.SetItemsProcessed(static_cast<int64_t>(events));
}

// Ring all-reduce of 1 MiB (2(p − 1) neighbour steps of n/p bytes) on a ring: p one-hop transfers per step.
void BM_RingAllReduceOnRing(benchmark::State& state) {
  const int p = static_cast<int>(state.range(0));
  std::vector<dsml::Program> programs(static_cast<std::size_t>(p));
  for (int r = 0; r < p; ++r)
    for (int step = 0; step < 2 * (p - 1); ++step) {
      programs[r].push_back(dsml::Step::send((r + 1) % p, double(1 << 20) / p));
      programs[r].push_back(dsml::Step::recv((r + p - 1) % p));
    }
  run_on(state, dsml::Topology::ring(p, dsml::CostModel::from_bandwidth(1e-6, 12.5e9)), programs, state.range(1));
}
BENCHMARK(BM_RingAllReduceOnRing)
    ->ArgNames({"p", "lean"})
    ->Args({256, 0})
    ->Args({256, 1})
    ->Unit(benchmark::kMillisecond);

// A matrix transpose on a 32 × 32 torus, 8 rounds: (i, j) sends to (j, i). Dimension-order routes (up to 32
// hops) pile up on the diagonal's links, so most transfers wait and are retried — each retry re-routes the
// message — several times: the engine's worst path, with far more work per event than the cases above.
void BM_TransposeOnTorus(benchmark::State& state) {
  const int side = 32, p = side * side;
  std::vector<dsml::Program> programs(static_cast<std::size_t>(p));
  for (int round = 0; round < 8; ++round)
    for (int r = 0; r < p; ++r) {
      const int partner = (r % side) * side + r / side;
      if (partner == r) continue;
      programs[r].push_back(dsml::Step::send(partner, 1 << 16));
      programs[r].push_back(dsml::Step::recv(partner));
    }
  run_on(state, dsml::Topology::torus2d(side, side, dsml::CostModel::from_bandwidth(1e-6, 12.5e9)), programs,
         state.range(0));
}
BENCHMARK(BM_TransposeOnTorus)->ArgName("lean")->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
