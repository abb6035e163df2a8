// compress_command.cpp — `dsml compress` (usage in main.cpp): one line of JSON with the loss curve and the bytes.
//
//   $ dsml compress --compressor top-k --ratio 0.01 --error-feedback --workers 4 --layers 2 --width 16 --hidden 64
//       --steps 300
#include <string>
#include <vector>

#include "args.h"
#include "dsml/compressed_training.h"
#include "dsml/compression_fields.h"
#include "fault_tolerance_commands.h"
#include "json_fields.h"
#include "json_output.h"
#include "network_flags.h"
#include "train_command.h"

namespace dsml::cli {

int compress(int argc, char** argv) {
  std::vector<std::string> valued = {"compressor", "ratio", "levels", "rank", "workers", "layers", "width", "hidden",
                                     "batch", "steps", "lr", "seed", "eval-batch", "alpha", "beta", "bandwidth",
                                     "gamma", "topology"};
  for (const std::string& flag : topology_flags("")) valued.push_back(flag);
  const Args args("compress", argc, argv, 2, valued, {"error-feedback"});
  CompressedTrainingConfig c;
  c.compressor.kind = parse_compressor(args.text("compressor"));
  c.compressor.ratio = args.number_or("ratio", c.compressor.ratio);
  c.compressor.levels = args.whole_or("levels", c.compressor.levels);
  c.compressor.rank = args.whole_or("rank", c.compressor.rank);
  c.error_feedback = args.has("error-feedback");
  c.workers = args.whole("workers");
  c.model = model_flags(args);
  c.batch_per_worker = args.whole_or("batch", c.batch_per_worker);
  c.steps = args.whole_or("steps", c.steps);
  c.lr = args.number_or("lr", c.lr);
  c.seed = args.seed();
  c.eval_batch = args.whole_or("eval-batch", c.eval_batch);
  const CompressedTrainingResult r = train_compressed(c);

  JsonObject json;
  json.add_text("compressor", compressor_name(c.compressor.kind))
      .add_bool("error_feedback", c.error_feedback)
      .add("workers", c.workers)
      .add_bool("composes_with_all_reduce", composes_with_all_reduce(c.compressor.kind))
      .add("initial_loss", r.losses.front())
      .add("final_loss", r.losses.back())
      .add_fields(fields_json(r));  // trainCompressed's fields (dsml/compression_fields.h)
  // The step's communication priced by the ring closed forms.
  if (args.has("alpha") || args.has("beta") || args.has("bandwidth"))
    json.add_fields(fields_json(compression_seconds(c.compressor, c.model, c.workers, model_from(args))));
  if (args.has("topology")) {  // the same calls as ring schedules simulated on the network
    int ranks = c.workers;
    const Topology topology = topology_from(args, ranks);
    if (ranks != c.workers)
      throw UsageError("the topology has " + std::to_string(ranks) + " ranks but --workers is " +
                       std::to_string(c.workers));
    json.add("simulated_comm_seconds",
             compressed_step_simulated(c.compressor, c.model, topology, args.number_or("gamma", 0.0)));
  }
  print(json);
  return 0;
}

}  // namespace dsml::cli
