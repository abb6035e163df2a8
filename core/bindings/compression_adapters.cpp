// compression_adapters.cpp — see compression_adapters.h. Convert, call the core, convert back.
#include "compression_adapters.h"

#include "convert.h"
#include "dsml/compressed_training.h"
#include "dsml/compression_fields.h"
#include "dsml/error.h"
#include "dsml/run_limits.h"
#include "fields.h"
#include "js_object.h"
#include "training_convert.h"

namespace dsml::bindings {

CompressorConfig to_compressor(const val& r, const std::string& ctx) {
  CompressorConfig c;
  c.kind = parse_compressor(text_field(r, "compressor", ctx));
  c.ratio = number_field_or(r, "ratio", c.ratio, ctx);
  c.levels = static_cast<int>(whole_field_or(r, "levels", c.levels, ctx, 1, 1 << 20));
  c.rank = static_cast<int>(whole_field_or(r, "rank", c.rank, ctx, 1, 1 << 20));
  validate(c);
  return c;
}

val compress_gradient(const val& r) {
  const std::string ctx = "compressGradient";
  require_object(r, ctx, "{compressor, values, ratio?, levels?, seed?, rows?, cols?, rank?}");
  const CompressorConfig c = to_compressor(r, ctx);
  const std::vector<double> values = to_doubles(r["values"], "compressGradient: values");
  const auto n = static_cast<Eigen::Index>(values.size());
  const auto rows = whole_field_or(r, "rows", 1, ctx, 1), cols = whole_field_or(r, "cols", n, ctx, 1);
  in_context(ctx, [&] { check_tensor_shape(values.size(), rows, cols); });
  const auto seed = static_cast<std::uint64_t>(whole_field_or(r, "seed", 0, ctx));
  // Row-major values as the (rows, cols) matrix, and back.
  using RowMajor = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  const RowMajor out = compress_tensor(c, Eigen::Map<const RowMajor>(values.data(), rows, cols), seed);
  return object_of({{"values", to_float64_array(std::vector<double>(out.data(), out.data() + out.size()))},
                    {"bytes", compressed_bytes(c, rows, cols)}});
}

val compression_wire(const val& r) {
  const std::string ctx = "compressionWire";
  require_object(r, ctx, "{compressor, model, workers, network?, ratio?, levels?, rank?}");
  const CompressorConfig c = to_compressor(r, ctx);
  const MlpConfig model = to_mlp_config(object_field(r, "model", ctx), ctx);
  const int workers = static_cast<int>(whole_field(r, "workers", ctx, 1, limits::kSimulatedWorkers));
  val out = fields_to_val(dsml::compression_wire(c, model, workers));
  if (!r["network"].isUndefined()) {  // the same calls priced: CompressionSeconds' fields beside the wire's
    const val seconds = fields_to_val(
        compression_seconds(c, model, workers, to_cost_model(object_field(r, "network", ctx), ctx + ": network")));
    val::global("Object").call<void>("assign", out, seconds);
  }
  return out;
}

val train_compressed(const val& r) {
  const std::string ctx = "trainCompressed";
  require_object(r, ctx, "{compressor, model, workers, errorFeedback?, batch?, steps?, lr?, seed?, …}");
  CompressedTrainingConfig c;
  c.compressor = to_compressor(r, ctx);
  c.model = to_mlp_config(object_field(r, "model", ctx), ctx);
  c.workers = static_cast<int>(whole_field(r, "workers", ctx, 1, limits::kTrainedWorkers));
  c.error_feedback = flag_field_or(r, "errorFeedback", c.error_feedback, ctx);
  c.batch_per_worker = static_cast<int>(whole_field_or(r, "batch", c.batch_per_worker, ctx, 1, limits::kRows));
  c.steps = static_cast<int>(whole_field_or(r, "steps", c.steps, ctx, 1, limits::kSteps));
  c.lr = number_field_or(r, "lr", c.lr, ctx);
  c.seed = static_cast<std::uint64_t>(whole_field_or(r, "seed", static_cast<std::int64_t>(c.seed), ctx));
  c.eval_batch = static_cast<int>(whole_field_or(r, "evalBatch", c.eval_batch, ctx, 1, limits::kRows));
  check_run_size(c.model, c.workers * c.batch_per_worker, c.steps, ctx);
  return fields_to_val(dsml::train_compressed(c));
}

double qsgd_variance_bound(double n, double levels) {
  return dsml::qsgd_variance_bound(static_cast<Eigen::Index>(whole_value(n, "qsgdVarianceBound: n", 1)),
                                   static_cast<int>(whole_value(levels, "qsgdVarianceBound: levels", 1, 1 << 20)));
}

}  // namespace dsml::bindings
