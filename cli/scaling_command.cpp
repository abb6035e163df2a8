// scaling_command.cpp — `dsml scaling`: strong or weak scaling of data parallelism on the closed-form switch
// (dsml/dp_scaling.h), and the per-device batch below which DP is communication-bound.
//
//   $ dsml scaling --mode strong --layers 16 --width 1024 --hidden 4096 --batch 16384 --ranks 1,8,64 \
//                  --flops 150e12 --alpha 3e-6 --bandwidth 200e9 --element-bytes 2 --overlap
#include <algorithm>
#include <string>
#include <vector>

#include "args.h"
#include "dsml/dp_scaling.h"
#include "dsml/step_time.h"
#include "network_flags.h"
#include "train_command.h"

namespace dsml::cli {

int scaling(int argc, char** argv) {
  const Args args("scaling", argc, argv, 2,
                  {"mode", "layers", "width", "hidden", "batch", "ranks", "strategy", "micro-batches", "bucket-bytes",
                   "algorithm", "flops", "alpha", "beta", "bandwidth", "gamma", "element-bytes", "overlap-fraction"},
                  {"overlap"});
  ScalingConfig c;
  c.mode = parse_scaling_mode(args.text("mode"));
  c.model = model_flags(args);
  c.batch = args.whole("batch");
  c.ranks.clear();
  for (double p : args.numbers("ranks")) {
    if (p != static_cast<int>(p) || p < 1) throw UsageError("--ranks takes whole numbers >= 1, e.g. 1,2,4,8");
    c.ranks.push_back(static_cast<int>(p));
  }
  c.strategy = args.has("strategy") ? strategy_flag(args) : Strategy::dp_bucketed;
  c.micro_batches = args.whole_or("micro-batches", 1);
  c.bucket_bytes = args.number_or("bucket-bytes", c.bucket_bytes);
  if (args.has("algorithm")) c.algorithm = args.text("algorithm");
  c.flops_per_s = args.number("flops");
  c.element_bytes = args.number_or("element-bytes", 4);
  c.overlap = args.has("overlap");
  const bool partial = args.has("overlap-fraction");
  const double o = args.number_or("overlap-fraction", 0.0);
  if (partial && c.overlap)
    throw UsageError("--overlap prices the buckets' own overlap; --overlap-fraction hides a given fraction of a "
                     "step without it: give one");
  if (partial && !(o >= 0 && o <= 1)) throw UsageError("--overlap-fraction takes o in [0, 1], got " + args.text("overlap-fraction"));
  const CostModel link = model_from(args);
  const std::vector<ScalingPoint> points = dp_scaling(c, link);

  std::vector<JsonObject> rows;
  for (const ScalingPoint& p : points) {
    JsonObject row = JsonObject()
                         .add("ranks", p.ranks)
                         .add("global_batch", p.global_batch)
                         .add("step_s", p.step_s)
                         .add("compute_s", p.compute_s)
                         .add("comm_s", p.comm_s)
                         .add("speedup", p.speedup)
                         .add("ideal", p.ideal)
                         .add("efficiency", p.efficiency);
    if (partial) {  // T(o) = C + (1 − o)·M with o capped at C/M, where the point has less compute than that
      const double used = std::min(o, max_overlap_fraction(p.compute_s, p.comm_s));
      row.add("overlap_fraction", used)
          .add("partial_overlap_step_s", partial_overlap_step_time(p.compute_s, p.comm_s, used));
    }
    rows.push_back(row);
  }
  int largest = 2;
  for (int p : c.ranks) largest = p > largest ? p : largest;
  print(JsonObject()
            .add_text("mode", args.text("mode"))
            .add_text("strategy", strategy_name(c.strategy))
            .add_bool("overlap", c.overlap)
            .add_objects("points", rows)
            .add("comm_bound_batch_per_device",
                 dp_comm_bound_batch(c.flops_per_s, 1.0 / link.beta, c.element_bytes, largest, c.overlap,
                                     c.micro_batches)));
  return 0;
}

}  // namespace dsml::cli
