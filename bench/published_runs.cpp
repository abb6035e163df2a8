// published_runs.cpp — the planner against published training runs (dsml/planner_validation.h): Narayanan et al.
// 2021 Table 1 (A100, Megatron-LM), and llm-foundry's H100 BF16 and A100 80GB tables (MPT under FSDP, 2023).
//
//   build/native/published_runs          every row: published, predicted, relative error, whether its layout fits,
//                                        the largest term besides the matmuls; per table mean and worst |error|
//   build/native/published_runs --fit    how the one fitted constant was chosen: matmul_in_step on a grid of 0.01,
//                                        the smallest mean |error| over Table 1 (its only rows)
//   build/native/published_runs --sources  Table 1's rows against the table's own arithmetic
//   build/native/published_runs --ceiling  the best this model could score on each llm-foundry table if its
//                                        constants were fitted on that table itself (an in-sample fit, so an upper
//                                        bound on any out-of-sample score): the matmul share and a factor on the
//                                        measured attention rates on a grid, then also the share of a forward pass
//                                        that checkpointing reruns; prints the rows that stay outside ±15 %
//
// In sample: Table 1 (matmul_in_step was fitted on it). Out of sample: both llm-foundry tables — no constant of the
// planner was chosen by looking at them. Exits 1 only when Table 1 misses its in-sample bound or a row's checks
// fail; the out-of-sample tables are reported against their bounds, not enforced here.
#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>

#include "dsml/planner.h"
#include "dsml/planner_validation.h"

namespace {

struct Errors {
  double mean = 0, worst = 0;
};

Errors table1_errors(const dsml::GpuSpec& gpu) {
  Errors e;
  const std::vector<dsml::PublishedRun> rows = dsml::narayanan_table1();
  for (const dsml::PublishedRun& run : rows) {
    const double rel = dsml::plan_published_run(run, gpu).tflops_per_gpu / run.tflops_per_gpu - 1.0;
    e.mean += std::fabs(rel) / rows.size();
    e.worst = std::fmax(e.worst, std::fabs(rel));
  }
  return e;
}

int fit() {
  dsml::GpuSpec gpu = dsml::gpu_preset("a100-80gb");
  double best = 0;
  Errors best_e{1e9, 1e9};
  std::printf("matmul_in_step  mean |error|  worst   (Narayanan et al. 2021 Table 1, a100-80gb)\n");
  for (int g = 60; g <= 100; ++g) {
    gpu.matmul_in_step = g / 100.0;
    const Errors e = table1_errors(gpu);
    std::printf("%14.2f  %11.2f %%  %5.2f %%\n", gpu.matmul_in_step, 100 * e.mean, 100 * e.worst);
    if (e.mean < best_e.mean) best_e = e, best = gpu.matmul_in_step;
  }
  std::printf("best: %.2f (mean %.2f %%, worst %.2f %%); the presets hold %.2f\n", best, 100 * best_e.mean,
              100 * best_e.worst, dsml::gpu_preset("a100-80gb").matmul_in_step);
  return 0;
}

// The ceiling: llm-foundry's rows priced with the model's own constants chosen on the rows themselves.
struct Knobs {
  double matmul_share = 0, attention_factor = 1, rerun = 1;  // rerun: share of the forward checkpointing repeats
};
double ceiling_error(const dsml::FoundryRun& run, const dsml::GpuSpec& gpu, double rerun) {
  const dsml::StepPlan full = dsml::plan_foundry_run(run, gpu);
  double seconds = full.time.total;
  if (run.checkpointing && rerun < 1) {
    dsml::FoundryRun kept = run;
    kept.checkpointing = false;
    const double none = dsml::plan_foundry_run(kept, gpu).time.total;
    seconds = none + rerun * (seconds - none);
  }
  const double tokens = full.tokens_per_s / full.gpus * full.time.total / seconds;
  return dsml::foundry_mfu(run, gpu, tokens) / (run.mfu_percent / 100.0) - 1.0;
}
dsml::GpuSpec with_knobs(const char* name, const Knobs& k) {
  dsml::GpuSpec gpu = dsml::gpu_preset(name);
  gpu.matmul_in_step = k.matmul_share;
  for (dsml::AttentionSpeed& a : gpu.kernels.attention)
    for (double& f : a.flops) f *= k.attention_factor;
  return gpu;
}
Errors table_errors(const std::vector<dsml::FoundryRun>& runs, const char* gpu_name, const Knobs& k, int* within) {
  const dsml::GpuSpec gpu = with_knobs(gpu_name, k);
  Errors e;
  *within = 0;
  for (const dsml::FoundryRun& run : runs) {
    const double rel = std::fabs(ceiling_error(run, gpu, k.rerun));
    e.mean += rel / runs.size();
    e.worst = std::fmax(e.worst, rel);
    *within += rel <= 0.15 ? 1 : 0;
  }
  return e;
}
void ceiling_of(const char* title, const char* gpu_name, const std::vector<dsml::FoundryRun>& runs, bool rerun) {
  Knobs best;
  Errors best_e{1e9, 1e9};
  int best_within = 0;
  for (int g = 50; g <= 100; g += 2)
    for (int a = 80; a <= 180; a += 5)
      for (int r = rerun ? 0 : 10; r <= 10; ++r) {
        const Knobs k{g / 100.0, a / 100.0, r / 10.0};
        int within = 0;
        const Errors e = table_errors(runs, gpu_name, k, &within);
        if (e.mean < best_e.mean) best_e = e, best = k, best_within = within;
      }
  std::printf("\n%s, %zu rows, fitted on itself: matmul share %.2f, attention rates x %.2f, checkpointing reruns "
              "%.0f %% of a forward\n  mean |error| %.1f %%, worst %.1f %%, %d within ±15 %%\n",
              title, runs.size(), best.matmul_share, best.attention_factor, 100 * best.rerun, 100 * best_e.mean,
              100 * best_e.worst, best_within);
  const dsml::GpuSpec gpu = with_knobs(gpu_name, best);
  for (const dsml::FoundryRun& run : runs) {
    const double rel = ceiling_error(run, gpu, best.rerun);
    if (std::fabs(rel) > 0.15)
      std::printf("  outside ±15 %%: %s, s %d, %d GPUs, b %d%s: published %.2f %% MFU, %+.1f %%\n", run.model.c_str(),
                  run.sequence, run.gpus, run.micro_batch, run.checkpointing ? ", checkpointed" : "",
                  run.mfu_percent, 100 * rel);
  }
}
int ceiling() {
  std::printf("The ceiling: the planner's constants fitted on each llm-foundry table itself (in sample), on a grid of "
              "matmul share 0.50…1.00, attention-rate factor 0.80…1.80, and then also the share of a forward pass that "
              "checkpointing reruns 0…1. No out-of-sample prediction by this model can beat these numbers.\n");
  for (bool rerun : {false, true}) {
    ceiling_of(rerun ? "H100 BF16 (3 constants)" : "H100 BF16 (2 constants)", "h100-sxm", dsml::llm_foundry_h100_bf16(),
               rerun);
    ceiling_of(rerun ? "A100 80GB (3 constants)" : "A100 80GB (2 constants)", "a100-80gb",
               dsml::llm_foundry_a100_80gb(), rerun);
  }
  return 0;
}

// Eq. (2) of Narayanan et al.: P = 12·l·h²·(1 + 13/(12h) + (V + s)/(12·l·h)).
double eq2_parameters(const dsml::PlannerModel& m) {
  const double l = m.layers, h = m.hidden, V = m.vocabulary, s = m.sequence;
  return 12.0 * l * h * h * (1.0 + 13.0 / (12.0 * h) + (V + s) / (12.0 * l * h));
}

bool print_sources() {
  std::printf("Table 1's rows and the table's own arithmetic (%% of peak = TFLOP/s / 312, aggregate = TFLOP/s x GPUs, "
              "eq. (2) parameters vs billions)\n");
  bool all = true;
  for (const dsml::PublishedRun& run : dsml::narayanan_table1()) {
    const double pct = 100.0 * run.tflops_per_gpu / 312.0, agg = run.tflops_per_gpu * run.gpus / 1000.0;
    const double billions = eq2_parameters(dsml::planner_model_preset(run.model)) / 1e9;
    // The published cells are rounded: TFLOP/s to 1 (so aggregate within 0.5 × GPUs/1000), % to 1, billions to 0.1.
    const bool ok = std::fabs(pct - run.percent_of_peak) <= 0.5 + 50.0 / 312.0 &&
                    std::fabs(agg - run.aggregate_pflops) <= 0.05 + 0.5 * run.gpus / 1000.0 &&
                    std::fabs(billions - run.billions) <= 0.05 && !run.checked.empty();
    all = all && ok;
    std::printf("%-11s | %5.0f%% %5.1f%% | %8.1f %8.1f | %8.1f %8.1f | %-11s | %s\n", run.model.c_str(),
                run.percent_of_peak, pct, run.aggregate_pflops, agg, run.billions, billions,
                ok ? "checked" : "UNCONFIRMED", run.checked.c_str());
  }
  return all;
}

void print_table(const dsml::ValidationTable& t) {
  const bool mfu = t.metric == "mfu";
  std::printf("\n%s — %s\nsource: %s\n", t.in_sample ? "IN SAMPLE (matmul_in_step fitted on it)" : "OUT OF SAMPLE",
              t.title.c_str(), t.source.c_str());
  std::printf("%-48s %9s %9s %8s %5s %7s  %s\n", "run", "published", "predicted", "error", "fits", "GB", "largest "
              "term besides the matmuls (share of the step)");
  for (const dsml::ValidationRow& r : t.rows) {
    const double scale = mfu ? 100.0 : 1.0;
    std::printf("%-48s %8.2f%s %8.2f%s %+7.1f%% %5s %7.1f  %s\n", r.label.c_str(), scale * r.published,
                mfu ? "%" : " ", scale * r.predicted, mfu ? "%" : " ", 100 * r.relative_error, r.fits ? "yes" : "NO",
                r.memory_bytes / 1e9, r.main_term.c_str());
  }
  int within = 0;
  for (const dsml::ValidationRow& r : t.rows) within += std::fabs(r.relative_error) <= t.bound_each ? 1 : 0;
  std::printf("%zu rows: mean |error| %.1f %%, worst %.1f %%, %d within ±%.0f %%, %d of %zu fit (bounds: each ±%.0f %%, "
              "mean ≤ %.0f %%: %s)\n",
              t.rows.size(), 100 * t.mean_abs_error, 100 * t.worst_abs_error, within, 100 * t.bound_each, t.fitting,
              t.rows.size(), 100 * t.bound_each, 100 * t.bound_mean,
              t.worst_abs_error <= t.bound_each && t.mean_abs_error <= t.bound_mean ? "met" : "NOT met");
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 1 && std::strcmp(argv[1], "--fit") == 0) return fit();
  if (argc > 1 && std::strcmp(argv[1], "--ceiling") == 0) return ceiling();
  if (argc > 1 && std::strcmp(argv[1], "--sources") == 0) return print_sources() ? 0 : 1;
  const dsml::PlannerValidation v = dsml::planner_validation();
  std::printf("constants (none fitted except where said):\n");
  for (const dsml::PlannerConstant& c : v.constants)
    std::printf("  %-44s %12.4g %-7s %s%s%s\n", c.name.c_str(), c.value, c.unit.c_str(), c.source.c_str(),
                c.fitted_on.empty() ? "" : "; fitted on ", c.fitted_on.c_str());
  bool in_sample_met = true;
  for (const dsml::ValidationTable& t : v.tables) {
    print_table(t);
    if (t.in_sample) in_sample_met = in_sample_met && t.worst_abs_error <= t.bound_each && t.mean_abs_error <= t.bound_mean;
  }
  return in_sample_met ? 0 : 1;
}
