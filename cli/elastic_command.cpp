// elastic_command.cpp — `dsml elastic` (usage in main.cpp): data parallelism whose world shrinks and grows mid-run,
// beside one device trained on the same batches.
//
//   $ dsml elastic --workers 4 --changes 3:2,6:4 --layers 2 --width 4 --hidden 8 --batch 12 --steps 10
#include <string>
#include <vector>

#include "args.h"
#include "dsml/elastic.h"
#include "fault_tolerance_commands.h"
#include "json_output.h"
#include "network_flags.h"
#include "train_command.h"

namespace dsml::cli {
namespace {

// "3:2,6:4" → {{3, 2}, {6, 4}}: from step 3 on 2 workers, from step 6 on 4; "7:3:crash": the leaving ranks crash
// during step 7 without handing over their state (elastic.h).
std::vector<WorldChange> changes_flag(const std::string& text) {
  std::vector<WorldChange> out;
  std::size_t at = 0;
  while (at < text.size()) {
    const std::size_t end = std::min(text.find(',', at), text.size());
    const std::string item = text.substr(at, end - at);
    const std::size_t colon = item.find(':');
    try {
      if (colon == std::string::npos) throw std::invalid_argument(item);
      const std::string kCrash = ":crash";
      const bool crash =
          item.size() > kCrash.size() && item.compare(item.size() - kCrash.size(), kCrash.size(), kCrash) == 0;
      const std::string pair = crash ? item.substr(0, item.size() - kCrash.size()) : item;
      std::size_t used = 0, used2 = 0;
      const int step = std::stoi(pair.substr(0, colon), &used), workers = std::stoi(pair.substr(colon + 1), &used2);
      if (used != colon || used2 != pair.size() - colon - 1) throw std::invalid_argument(item);
      out.push_back({step, workers, crash});
    } catch (const std::exception&) {
      throw UsageError("--changes takes STEP:WORKERS pairs separated by commas, a crash marked :crash (e.g. "
                       "3:2,6:4,8:3:crash), got \"" + item + "\"");
    }
    at = end + 1;
  }
  return out;
}

}  // namespace

int elastic(int argc, char** argv) {
  const Args args("elastic", argc, argv, 2,
                  {"workers", "changes", "layers", "width", "hidden", "batch", "steps", "optimizer", "lr", "seed",
                   "algorithm", "checkpoint-every"},
                  {"replicated"});
  ElasticConfig c;
  c.initial_workers = args.whole("workers");
  if (args.has("changes")) c.changes = changes_flag(args.text("changes"));
  c.model = model_flags(args);
  c.batch = args.whole("batch");
  c.steps = args.whole("steps");
  if (args.has("optimizer")) c.optimizer.kind = parse_optimizer(args.text("optimizer"));
  c.optimizer.lr = args.number_or("lr", c.optimizer.lr);
  const int seed = args.whole_or("seed", 0);
  if (seed < 0) throw UsageError("--seed must be a whole number >= 0, got " + args.text("seed"));
  c.seed = static_cast<std::uint64_t>(seed);
  if (args.has("algorithm")) c.algorithm = args.text("algorithm");
  c.shard_optimizer = !args.has("replicated");
  c.checkpoint_interval = args.whole_or("checkpoint-every", 0);
  const ElasticResult r = train_elastic(c);
  std::vector<JsonObject> resizes;
  for (const ResizeEvent& e : r.resizes) {
    JsonObject o;
    o.add("step", e.step)
        .add("from", e.from)
        .add("to", e.to)
        .add("optimizer_bytes_moved", e.optimizer_bytes_moved)
        .add("parameter_bytes_to_joiners", e.parameter_bytes_to_joiners);
    if (e.crash)  // restored_from is -1 under DP: the survivors needed no checkpoint
      o.add_bool("crash", true).add("restored_from", e.restored_from).add("lost_steps", e.lost_steps)
          .add("bytes_restored", e.bytes_restored);
    resizes.push_back(o);
  }
  print(JsonObject()
            .add_text("state", c.shard_optimizer ? "zero1" : "replicated")
            .add("workers", std::vector<double>(r.workers.begin(), r.workers.end()))
            .add_objects("resizes", resizes)
            .add("losses", r.losses)
            .add("single_losses", r.single_losses)
            .add("max_relative_difference", r.max_relative_difference)
            .add("step_bytes", r.step_bytes));
  return 0;
}

}  // namespace dsml::cli
