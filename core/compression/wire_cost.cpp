// wire_cost.cpp — what a compressed gradient costs on the wire: bytes per message, the collective that carries it
// (all-reduce for linear codes, all-gather otherwise — see dsml/compression.h) and its ring closed form.
#include <algorithm>
#include <cmath>

#include "dsml/collective_cost.h"
#include "dsml/compression.h"
#include "dsml/error.h"
#include "dsml/schedule.h"
#include "dsml/simulator.h"

namespace dsml {

double compressed_bytes(const CompressorConfig& c, Eigen::Index rows, Eigen::Index cols) {
  validate(c);
  const double n = static_cast<double>(rows) * static_cast<double>(cols), e = c.element_bytes;
  const double k = kept_count(c.ratio, rows * cols);
  switch (c.kind) {
    case CompressorKind::none: return n * e;
    case CompressorKind::top_k: return k * (e + c.index_bytes);
    case CompressorKind::random_k: return k * e;
    case CompressorKind::int8: return n + e;
    case CompressorKind::qsgd: {
      const double bits = 1 + std::ceil(std::log2(c.levels + 1.0));  // sign + level 0 … s
      return std::ceil(n * bits / 8) + e;
    }
    case CompressorKind::sign: return std::ceil(n / 8) + e;
    case CompressorKind::powersgd: {
      const double r = std::min<Eigen::Index>(c.rank, std::min(rows, cols));
      return static_cast<double>(rows + cols) * r * e;
    }
  }
  return n * e;
}

bool composes_with_all_reduce(CompressorKind kind) {
  return kind == CompressorKind::none || kind == CompressorKind::random_k || kind == CompressorKind::powersgd;
}

std::vector<CollectiveCall> compressed_collectives(const CompressorConfig& c, const MlpConfig& model, int workers) {
  validate(c);
  validate(model);
  if (workers < 1) throw Error("workers must be >= 1, got " + std::to_string(workers));
  const Eigen::Index d = model.width, f = model.hidden;
  // Every tensor is (F, D) or (D, F): W_in and W_out of each of the L blocks.
  const double total = compressed_model_bytes(c, model);
  if (c.kind == CompressorKind::powersgd) {
    const double r = std::min<Eigen::Index>(c.rank, std::min(d, f)), e = c.element_bytes;
    // W_in (F, D): P is (F, r), Q (D, r); W_out (D, F): P (D, r), Q (F, r) — per block both phases hold (F + D)·r.
    const double phase = model.layers * static_cast<double>(f + d) * r * e;
    return {{"all-reduce", phase}, {"all-reduce", phase}};
  }
  if (composes_with_all_reduce(c.kind)) return {{"all-reduce", total}};
  return {{"all-gather", total * workers}};
}

double ring_bytes_sent(const CollectiveCall& call, int workers) {
  const double share = static_cast<double>(workers - 1) / workers;
  return call.collective == "all-reduce" ? 2 * share * call.bytes : share * call.bytes;
}

double compressed_model_bytes(const CompressorConfig& config, const MlpConfig& model) {
  validate(model);
  return model.layers * 2 * compressed_bytes(config, model.hidden, model.width);  // (F, D) and (D, F) cost the same
}

double compressed_bytes_sent(const CompressorConfig& config, const MlpConfig& model, int workers) {
  double bytes = 0;
  for (const CollectiveCall& call : compressed_collectives(config, model, workers)) bytes += ring_bytes_sent(call, workers);
  return bytes;
}

double compressed_step_seconds(const CompressorConfig& config, const MlpConfig& model, int workers,
                               const CostModel& network) {
  double seconds = 0;
  for (const CollectiveCall& call : compressed_collectives(config, model, workers))
    seconds += closed_form_time(call.collective, "ring", workers, call.bytes, network).total();
  return seconds;
}

namespace {
CompressorConfig uncompressed(const CompressorConfig& config) {
  CompressorConfig plain = config;
  plain.kind = CompressorKind::none;
  return plain;
}
}  // namespace

CompressionWire compression_wire(const CompressorConfig& config, const MlpConfig& model, int workers) {
  CompressionWire w;
  w.collectives = compressed_collectives(config, model, workers);
  w.payload_bytes = compressed_model_bytes(config, model);
  w.bytes_per_step = compressed_bytes_sent(config, model, workers);
  w.uncompressed_bytes_per_step = compressed_bytes_sent(uncompressed(config), model, workers);
  w.composes_with_all_reduce = composes_with_all_reduce(config.kind);
  return w;
}

CompressionSeconds compression_seconds(const CompressorConfig& config, const MlpConfig& model, int workers,
                                       const CostModel& network) {
  return {compressed_step_seconds(config, model, workers, network),
          compressed_step_seconds(uncompressed(config), model, workers, network)};
}

double compressed_step_simulated(const CompressorConfig& config, const MlpConfig& model, const Topology& topology,
                                 double gamma) {
  const int p = topology.ranks();
  double seconds = 0;
  for (const CollectiveCall& call : compressed_collectives(config, model, p)) {
    const double unit = 4.0 * p;
    const double bytes = std::ceil(call.bytes / unit) * unit;
    seconds += simulate(topology, to_programs(make_schedule(call.collective, "ring", p, bytes), gamma)).makespan;
  }
  return seconds;
}

}  // namespace dsml
