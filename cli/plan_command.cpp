// plan_command.cpp — `dsml plan`: one training step of a transformer on a GPU cluster priced by the planner
// (dsml/planner.h), the fastest layouts that fit, a row of Narayanan et al. 2021's Table 1 beside its prediction, or
// every published run the planner is checked against. One line of JSON, like every command.
//
//   $ dsml plan --model gpt3-175b --gpu a100-80gb --nodes 192 --t 8 --p 8 --global-batch 1536
//   {"model": "gpt3-175b", ..., "time": {"compute": …, "bubble": …, …, "total": …}, "mfu": …, "fits": true}
//   (the fields of core.planStep's object, in snake_case: dsml/plan_fields.h)
//   $ dsml plan --model llama3-70b --gpu h100-sxm --nodes 64 --global-batch 512 --search
//   $ dsml plan --published gpt-1t            (Table 1's row, its layout, the published TFLOP/s beside)
//   $ dsml plan --validate                    (the three published tables, each row's error)
//   $ dsml plan --model llama3-405b --gpu h100-sxm --nodes 128 --t 8 --p 16 --global-batch 128
//       (126 layers on 16 stages: 7, 8 × 14, 7 — or --stage-layers 7,8,…,7)
//
// Flags: --model NAME [--layers L --hidden H --heads A --kv-heads K --ffn F --sequence S --vocabulary V
//        --experts E --top-k K --moe-every M]
//        --gpu NAME --nodes N [--gpus-per-node 8] --t T --p P [--v 1] [--c 1] [--e 1] [--micro-batch 1]
//        --global-batch B [--zero 0|1|2|3] [--sequence-parallel] [--recompute none|selective|full (default full)]
//        [--overlap-dp] [--attention fused|flash-attention-2|flash-attention-1|flash-attention-triton|unfused]
//        [--precision bf16|fp8] [--stage-layers L0,L1,…]
//        d is the GPUs left, N·G/(t·c·p), derived by the core; e splits the experts over e of the d ranks. --search
//        prices every layout instead (selective recomputation, sequence parallelism, overlap on; ZeRO 0–1; b in 1,
//        2, 4, 8; c in 1 and --c; every e) and prints the --keep (5) fastest that fit, or why none does.
//   $ dsml plan --model mixtral-8x7b --gpu h100-sxm --nodes 16 --t 4 --c 2 --p 2 --e 8 --global-batch 256
#include <string>
#include <vector>

#include "args.h"
#include "dsml/error.h"
#include "dsml/plan_fields.h"
#include "dsml/planner.h"
#include "dsml/planner_validation.h"
#include "json_fields.h"
#include "json_output.h"
#include "network_flags.h"
#include "plan_command.h"

namespace dsml::cli {
namespace {

PlannerModel planner_model_from(const Args& args) {
  PlannerModel m = planner_model_preset(args.text("model"));
  m.layers = args.whole_or("layers", m.layers);
  m.hidden = args.whole_or("hidden", m.hidden);
  m.heads = args.whole_or("heads", m.heads);
  m.kv_heads = args.whole_or("kv-heads", m.kv_heads);
  m.ffn = args.whole_or("ffn", m.ffn);
  m.sequence = args.whole_or("sequence", m.sequence);
  m.vocabulary = args.whole_or("vocabulary", m.vocabulary);
  m.experts = args.whole_or("experts", m.experts);
  m.top_k = args.whole_or("top-k", m.top_k);
  m.moe_every = args.whole_or("moe-every", m.moe_every);
  return m;
}

int published(const Args& args) {
  const std::string name = args.text("published");
  for (const PublishedRun& run : narayanan_table1()) {
    if (run.model != name) continue;
    const StepPlan plan = plan_published_run(run, gpu_preset("a100-80gb"));
    const double paper = narayanan_flops_per_iteration(planner_model_preset(run.model), run.global_batch);
    print(fields_json(plan)
              .add_text("model", run.model)
              .add_text("gpu", "a100-80gb")
              .add_object("published", JsonObject()
                                           .add("tflops_per_gpu", run.tflops_per_gpu)
                                           .add("paper_flops", paper)
                                           .add("relative_error", plan.tflops_per_gpu / run.tflops_per_gpu - 1)));
    return 0;
  }
  std::string names;
  for (const PublishedRun& run : narayanan_table1()) names += (names.empty() ? "" : ", ") + run.model;
  throw UsageError("--published: Table 1 has no row \"" + name + "\"; choose one of: " + names);
}

int validate() {
  std::vector<JsonObject> tables;
  for (const ValidationTable& t : planner_validation().tables) {
    std::vector<JsonObject> rows;
    for (const ValidationRow& r : t.rows)
      rows.push_back(JsonObject().add_text("run", r.label).add("published", r.published).add("predicted", r.predicted)
                         .add("relative_error", r.relative_error).add_bool("fits", r.fits)
                         .add_text("main_term", r.main_term));
    tables.push_back(JsonObject().add_text("id", t.id).add_text("metric", t.metric).add_bool("in_sample", t.in_sample)
                         .add("mean_abs_error", t.mean_abs_error).add("worst_abs_error", t.worst_abs_error)
                         .add("fitting", t.fitting).add_objects("rows", rows));
  }
  print(JsonObject().add_objects("tables", tables));
  return 0;
}

std::vector<int> stage_layers_from(const Args& args) {
  std::vector<int> out;
  for (double x : args.numbers("stage-layers")) {
    if (x != static_cast<int>(x)) throw UsageError("--stage-layers takes whole numbers of layers, e.g. 7,8,8,7");
    out.push_back(static_cast<int>(x));
  }
  return out;
}

}  // namespace

int plan(int argc, char** argv) {
  const Args args("plan", argc, argv, 2,
                  {"model", "layers", "hidden", "heads", "kv-heads", "ffn", "sequence", "vocabulary", "experts", "top-k",
                   "moe-every", "gpu", "nodes", "gpus-per-node", "t", "p", "v", "c", "e", "micro-batch",
                   "global-batch", "zero", "recompute", "keep", "published", "attention", "precision", "stage-layers"},
                  {"sequence-parallel", "overlap-dp", "search", "validate"});
  if (args.has("published")) return published(args);
  if (args.has("validate")) return validate();
  const PlannerModel model = planner_model_from(args);
  ClusterSpec cluster;
  cluster.gpu = gpu_preset(args.text("gpu"));
  cluster.nodes = args.whole("nodes");
  cluster.gpus_per_node = args.whole_or("gpus-per-node", 8);
  if (cluster.nodes < 1 || cluster.gpus_per_node < 1) throw UsageError("--nodes and --gpus-per-node must be >= 1");
  JsonObject head = JsonObject().add_text("model", model.name).add_text("gpu", cluster.gpu.name);
  if (args.has("search")) {
    SearchOptions o;
    o.global_batch = args.whole("global-batch");
    o.keep = args.whole_or("keep", o.keep);
    if (args.whole_or("c", 1) > 1) o.contexts.push_back(args.whole("c"));
    if (args.has("attention")) o.attention = parse_attention_kernel(args.text("attention"));
    if (args.has("precision")) o.precision = parse_precision(args.text("precision"));
    std::vector<JsonObject> rows;
    for (const StepPlan& p : search_layouts(model, cluster, o)) rows.push_back(fields_json(p));
    head.add_objects("layouts", rows);
    if (rows.empty()) head.add_text("reason", search_refusal(model, cluster, o));
    print(head);
    return 0;
  }
  PlannerLayout l;
  l.t = args.whole("t");
  l.p = args.whole("p");
  l.v = args.whole_or("v", 1);
  l.c = args.whole_or("c", 1);
  l.e = args.whole_or("e", 1);
  l.d = 0;  // the core derives d = GPUs/(t·c·p), or says why it cannot
  l.micro_batch = args.whole_or("micro-batch", 1);
  l.global_batch = args.whole("global-batch");
  l.zero_stage = args.whole_or("zero", 0);
  l.sequence_parallel = args.has("sequence-parallel");
  l.recomputation = args.has("recompute") ? parse_recomputation(args.text("recompute")) : Recomputation::kFull;
  l.overlap_dp = args.has("overlap-dp");
  if (args.has("attention")) l.attention = parse_attention_kernel(args.text("attention"));
  if (args.has("precision")) l.precision = parse_precision(args.text("precision"));
  if (args.has("stage-layers")) l.stage_layers = stage_layers_from(args);
  const StepPlan plan = plan_step(model, cluster, l);
  JsonObject out = head;
  print(out.add_object("plan", fields_json(plan)));
  return 0;
}

}  // namespace dsml::cli
