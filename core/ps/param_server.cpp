// param_server.cpp — the parameter server's configuration: regimes by name, validation, key ranges
// (dsml/param_server.h). The event loop is ps_engine.cpp.
#include <cmath>

#include "dsml/error.h"
#include "dsml/named_values.h"
#include "dsml/param_server.h"
#include "dsml/ps_closed_forms.h"

namespace dsml {

constexpr NamedValue<Consistency> kConsistencyNames[] = {
    {Consistency::bsp, "bsp"}, {Consistency::asp, "asp"}, {Consistency::ssp, "ssp"}, {Consistency::backup, "backup"}};

Consistency parse_consistency(const std::string& name) {
  if (const auto consistency = find_named(kConsistencyNames, name)) return *consistency;
  throw Error("unknown regime \"" + name + "\"; choose bsp, asp, ssp or backup");
}

const char* consistency_name(Consistency consistency) { return name_of(kConsistencyNames, consistency, "bsp"); }

void validate(const ParamServerConfig& config) {
  if (config.workers < 1 || config.workers > 4096)
    throw Error("workers must be a whole number in [1, 4096], got " + std::to_string(config.workers));
  require_positive("parameters (model size, count)", config.parameters);
  if (config.parameters != std::floor(config.parameters) || config.parameters > 9e15)
    throw Error("parameters must be a whole number, got " + format_number(config.parameters));
  if (config.servers < 1 || config.servers > 4096 || config.servers > config.parameters)
    throw Error("servers must be a whole number in [1, min(4096, parameters)], got " +
                std::to_string(config.servers));
  if (config.staleness < 0) throw Error("staleness bound s must be >= 0, got " + std::to_string(config.staleness));
  if (config.backup < 0 || config.backup >= config.workers)
    throw Error("backup workers b must be in [0, workers − 1] = [0, " + std::to_string(config.workers - 1) +
                "], got " + std::to_string(config.backup));
  if (config.backup > 0 && config.consistency != Consistency::backup)
    throw Error("backup workers need the backup regime (got " + std::string(consistency_name(config.consistency)) +
                ")");
  if (config.cancel_stragglers && config.consistency != Consistency::backup && config.consistency != Consistency::bsp)
    throw Error("cancel_stragglers applies to the synchronous regimes (bsp, backup), got " +
                std::string(consistency_name(config.consistency)));
  if (config.iterations < 1 || config.iterations > 1000000)
    throw Error("iterations must be a whole number in [1, 1000000], got " + std::to_string(config.iterations));
  require_positive("bytes_per_parameter", config.bytes_per_parameter);
  validate(config.speed, config.workers);
}

int round_quota(const ParamServerConfig& config) {
  switch (config.consistency) {
    case Consistency::bsp: return config.workers;
    case Consistency::backup: return config.workers - config.backup;
    default: return 0;
  }
}

std::optional<double> closed_form_round_compute(const ParamServerConfig& config) {
  const bool fresh_race = config.consistency == Consistency::bsp ||
                          (config.consistency == Consistency::backup && (config.cancel_stragglers || config.backup == 0));
  if (!fresh_race) return std::nullopt;
  return expected_round_compute(config.speed, config.workers, round_quota(config));
}

std::int64_t shard_begin(const ParamServerConfig& config, int shard) {
  const auto n = static_cast<std::int64_t>(config.parameters);
  return n / config.servers * shard + (n % config.servers) * shard / config.servers;  // ⌊k·N/K⌋ without overflow
}

double shard_bytes(const ParamServerConfig& config, int shard) {
  return static_cast<double>(shard_begin(config, shard + 1) - shard_begin(config, shard)) *
         config.bytes_per_parameter;
}


Topology param_server_topology(const ParamServerConfig& config, const CostModel& link) {
  return Topology::fully_connected(config.workers + config.servers, link);
}

}  // namespace dsml
