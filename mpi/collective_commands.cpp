// collective_commands.cpp — `dsml-mpi verify`, `dsml-mpi collective` and `dsml-mpi sweep`: the course's
// collective schedules run by MPI processes, checked against the MPI library and timed against it and against
// the α–β–γ closed form (dsml/collective_cost.h) with α, β fitted on this cluster.
//
//   verify      every (collective, algorithm) the core knows × every --bytes size: equal to the library's?
//   collective  one collective at one size: equal?, measured time, the library's time, the model's prediction
//   sweep       the Week 2 "time vs size" table on this network: one line per (size, algorithm)
#include <cmath>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "args.h"
#include "cluster_model.h"
#include "collective_case.h"
#include "commands.h"
#include "dsml/collective_cost.h"
#include "dsml/error.h"
#include "json_line.h"

namespace dsml::mpi {

namespace {

using cli::Args;
using cli::JsonObject;

// One (collective, algorithm, size) with this rank's schedule, built before any message is sent.
struct Case {
  std::string collective;
  std::string algorithm;
  double bytes = 0;
  int root = 0;
  int devices_per_node = 0;
  std::shared_ptr<RankSchedule> schedule;
};

Case make_case(const World& world, const std::string& collective, const std::string& algorithm, double bytes,
               int root, int devices_per_node) {
  Case c{collective, algorithm, bytes, 0, 0, nullptr};
  if (collective == "broadcast" || collective == "reduce") c.root = root;
  if (algorithm == "hierarchical")
    c.devices_per_node = devices_per_node > 0 ? devices_per_node : default_devices_per_node(world.size);
  c.schedule = std::make_shared<RankSchedule>(
      rank_schedule(world, collective, algorithm, bytes, c.root, c.devices_per_node));
  return c;
}

JsonObject case_json(const Case& c, const World& world) {
  JsonObject json;
  json.add_text("collective", c.collective).add_text("algorithm", c.algorithm).add("ranks", world.size)
      .add("bytes", c.bytes);
  if (c.collective == "broadcast" || c.collective == "reduce") json.add("root", c.root);
  if (c.algorithm == "hierarchical") json.add("devices_per_node", c.devices_per_node);
  return json;
}

void report_mismatch(const World& world, const Case& c, const CaseResult& r) {
  if (world.rank == 0)
    std::fprintf(stderr, "dsml-mpi: %s %s on %d ranks, %.0f bytes, differs from %s: %s\n", c.collective.c_str(),
                 c.algorithm.c_str(), world.size, c.bytes, r.library_call.c_str(), r.mismatch.c_str());
}

int repetitions_flag(const Args& args, int fallback) {
  const int k = args.whole_or("repetitions", fallback);
  if (k < 1) throw Error("--repetitions must be >= 1, got " + std::to_string(k));
  return k;
}

// The timed line of `collective` and `sweep`.
std::string timed_json(const Case& c, const World& world, const CaseResult& r, const ClusterModel& model) {
  const double measured = median(r.course_s);
  const double library = median(r.library_s);
  const double predicted =
      closed_form_time(c.collective, c.algorithm, world.size, c.bytes, model.model, c.devices_per_node).total();
  JsonObject json = case_json(c, world);
  json.add_text("mpi", library_version())
      .add_text("library_call", r.library_call)
      .add("repetitions", static_cast<double>(r.course_s.size()))
      .add("measured_s", measured)
      .add("library_s", library)
      .add("ratio_to_library", measured / library)
      .add("predicted_s", predicted)
      .add("model_error", (predicted - measured) / measured)
      .add("busbw_Bps", measured > 0 ? busbw(c.collective, world.size, c.bytes, measured) : NAN);
  return with_raw(with_raw(json, "verified", json_bool(r.equal)), "model", model_json(model));
}

std::vector<std::string> words(const std::string& list) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start <= list.size()) {
    const std::size_t comma = list.find(',', start);
    const std::string word = list.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    if (word.empty()) throw cli::UsageError("empty name in the list '" + list + "'");
    out.push_back(word);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return out;
}

}  // namespace

Run prepare_verify(int argc, char** argv, const World& world) {
  const Args args("verify", argc, argv, 2, {"bytes", "collective"}, {}, "dsml-mpi");
  const std::vector<double> sizes = args.has("bytes") ? args.numbers("bytes") : std::vector<double>{4, 4004, 1048588};
  std::vector<Case> cases;
  for (const AlgorithmName& name : list_algorithms()) {
    if (args.has("collective") && name.collective != args.text("collective")) continue;
    for (double bytes : sizes) cases.push_back(make_case(world, name.collective, name.algorithm, bytes, world.size - 1, 0));
  }
  if (cases.empty()) throw Error("no algorithm of collective '" + args.text("collective") + "' (see dsml-mpi --help)");
  return [world, cases] {
    int equal = 0;
    for (const Case& c : cases) {
      const CaseResult r = run_case(world, *c.schedule, 0);
      equal += r.equal ? 1 : 0;
      if (!r.equal) report_mismatch(world, c, r);
      if (world.rank == 0)
        print_line(with_raw(case_json(c, world).add_text("library_call", r.library_call), "equal", json_bool(r.equal)));
    }
    if (world.rank == 0)
      print_line(JsonObject().add("ranks", world.size).add("cases", static_cast<double>(cases.size()))
                     .add("equal", equal).str());
    return equal == static_cast<int>(cases.size()) ? 0 : 1;
  };
}

Run prepare_collective(int argc, char** argv, const World& world) {
  std::vector<std::string> valued = {"collective", "algorithm", "bytes", "root", "devices-per-node", "repetitions"};
  for (const std::string& flag : model_flag_names()) valued.push_back(flag);
  const Args args("collective", argc, argv, 2, valued, {}, "dsml-mpi");
  const Case c = make_case(world, args.text("collective"), args.text("algorithm"), args.number("bytes"),
                           args.whole_or("root", 0), args.whole_or("devices-per-node", 0));
  const int repetitions = repetitions_flag(args, 10);
  const ModelChoice choice = model_choice(args, world);
  return [world, c, repetitions, choice] {
    const ClusterModel model = cluster_model(choice, world);
    const CaseResult r = run_case(world, *c.schedule, repetitions);
    if (!r.equal) report_mismatch(world, c, r);
    if (world.rank == 0) print_line(timed_json(c, world, r, model));
    return r.equal ? 0 : 1;
  };
}

Run prepare_sweep(int argc, char** argv, const World& world) {
  std::vector<std::string> valued = {"collective", "algorithms", "from", "to", "factor", "repetitions"};
  for (const std::string& flag : model_flag_names()) valued.push_back(flag);
  const Args args("sweep", argc, argv, 2, valued, {}, "dsml-mpi");
  const std::string collective = args.has("collective") ? args.text("collective") : "all-reduce";
  std::vector<std::string> algorithms;
  if (args.has("algorithms")) {
    algorithms = words(args.text("algorithms"));
  } else if (collective == "all-reduce") {
    algorithms = {"naive", "ring", "recursive-doubling", "rabenseifner"};  // Week 2's time-vs-size widget
  } else {
    for (const AlgorithmName& name : list_algorithms())
      if (name.collective == collective) algorithms.push_back(name.algorithm);
  }
  const double from = args.number_or("from", 1024);
  const double to = args.number_or("to", 67108864);
  const double factor = args.number_or("factor", 4);
  if (!(from >= 4) || !(to >= from) || !(factor > 1) || !std::isfinite(to))
    throw Error("the sweep needs 4 <= --from <= --to and --factor > 1, got from " + format_number(from) + ", to " +
                format_number(to) + ", factor " + format_number(factor));
  std::vector<Case> cases;
  for (double n = from; n <= to * (1 + 1e-9); n *= factor)
    for (const std::string& algorithm : algorithms)
      cases.push_back(make_case(world, collective, algorithm, 4 * std::round(n / 4), 0, 0));
  const int repetitions = repetitions_flag(args, 5);
  const ModelChoice choice = model_choice(args, world);
  return [world, cases, repetitions, choice] {
    const ClusterModel model = cluster_model(choice, world);
    bool all_equal = true;
    for (const Case& c : cases) {
      const CaseResult r = run_case(world, *c.schedule, repetitions);
      if (!r.equal) report_mismatch(world, c, r);
      all_equal = all_equal && r.equal;
      if (world.rank == 0) print_line(timed_json(c, world, r, model));
    }
    return all_equal ? 0 : 1;
  };
}

}  // namespace dsml::mpi
