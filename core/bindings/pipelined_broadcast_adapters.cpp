// pipelined_broadcast_adapters.cpp — see pipelined_broadcast_adapters.h.
#include "pipelined_broadcast_adapters.h"

#include <cmath>
#include <string>

#include "dsml/pipelined_broadcast.h"
#include "fields.h"
#include "js_object.h"

namespace dsml::bindings {

namespace {

int ranks_of(const val& options, const std::string& ctx) {
  return static_cast<int>(whole_field(options, "ranks", ctx, 1, 1000000000));
}

val best_to_val(const BestSegments& best) {
  return object_of({{"segments", best.segments},
                    {"optimum", std::isinf(best.optimum) ? val::global("Infinity") : val(best.optimum)},
                    {"seconds", best.seconds}});
}

}  // namespace

val pipelined_broadcast(const val& request) {
  const std::string ctx = "pipelinedBroadcast";
  require_object(request, ctx, "{algorithm, ranks, bytes, segments?, root?, alpha, beta}");
  const PipelinedBroadcastReport r = run_pipelined_broadcast(
      text_field(request, "algorithm", ctx), ranks_of(request, ctx), number_field(request, "bytes", ctx),
      static_cast<int>(whole_field_or(request, "segments", 0, ctx, 0, 1000000000)),
      static_cast<int>(whole_field_or(request, "root", 0, ctx, 0, 1000000000)), to_cost_model(request, ctx));
  val out = object_of({{"segments", r.segments}, {"perSegment", r.shape.per_segment}, {"startup", r.shape.startup}});
  val closed = object_of({{"latency", r.closed_form.latency}, {"bandwidth", r.closed_form.bandwidth},
                          {"total", r.closed_form.total()}});
  out.set("closedForm", closed);
  out.set("simulated", r.simulated_s);
  out.set("messages", r.messages);
  out.set("verified", r.verified);
  out.set("verifyMessage", r.verify_message);
  out.set("best", best_to_val(r.best));
  return out;
}

val best_segments(const std::string& algorithm, const val& options) {
  const std::string ctx = "bestSegments " + algorithm;
  require_object(options, ctx, "{ranks, bytes, alpha, beta}");
  return best_to_val(dsml::best_segments(algorithm, ranks_of(options, ctx), number_field(options, "bytes", ctx),
                                         to_cost_model(options, ctx)));
}

}  // namespace dsml::bindings
