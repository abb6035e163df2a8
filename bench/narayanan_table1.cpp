// narayanan_table1.cpp — the planner against a published measurement: Narayanan et al. 2021 (Megatron-LM, SC'21),
// Table 1, ten GPT models from 1.7B to 1T parameters on 32–3072 A100s.
//
//   build/native/narayanan_table1          the table: published vs predicted TFLOP/s per GPU, relative error,
//                                          the paper's FLOPs per iteration (eq. 3) beside the planner's, the split
//   build/native/narayanan_table1 --fit    how the A100 preset's η_gemm and η_hbm were chosen: the grid search
//
// The constants: one shared pair (η_gemm, η_hbm) for all ten rows, fitted to this table by the grid below (the
// smallest mean |error|); bandwidths and peak are the A100's datasheet numbers. The rows fix b = 1 and v = 1 (the
// table does not give them; core/planner/narayanan_table1.cpp). Target (issue 27): every row within ±6 %, mean
// |error| ≤ 3 %; the program exits 1 if the preset misses it.
//
// Where the rows come from: the second table prints, per row, what it was checked against (two independent
// transcriptions, core/planner/narayanan_table1.cpp names them) and the checks the table allows on itself —
// % of peak = TFLOP/s / 312, aggregate PFLOP/s = TFLOP/s × GPUs / 1000 (each to the table's rounding), and the
// paper's eq. (2) parameter count from (l, h, V, s) against the billions column. A row failing one is printed
// UNCONFIRMED and the program exits 1.
#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>

#include "dsml/planner.h"

namespace {

struct Errors {
  double mean = 0, worst = 0;
};

Errors errors_with(const dsml::GpuSpec& gpu, std::vector<double>* each = nullptr) {
  Errors e;
  for (const dsml::PublishedRun& run : dsml::narayanan_table1()) {
    const double rel = dsml::plan_published_run(run, gpu).tflops_per_gpu / run.tflops_per_gpu - 1.0;
    if (each) each->push_back(rel);
    e.mean += std::fabs(rel) / 10.0;
    e.worst = std::fmax(e.worst, std::fabs(rel));
  }
  return e;
}

int fit() {
  dsml::GpuSpec gpu = dsml::gpu_preset("a100-80gb"), best = gpu;
  Errors best_e{1e9, 1e9};
  for (int g = 50; g <= 90; ++g) {
    for (int m = 8; m <= 20; ++m) {  // η_hbm 0.40 … 1.00 in steps of 0.05
      gpu.gemm_efficiency = g / 100.0;
      gpu.hbm_efficiency = m / 20.0;
      const Errors e = errors_with(gpu);
      if (e.mean < best_e.mean) best_e = e, best = gpu;
    }
  }
  std::printf("grid η_gemm 0.50…0.90 (0.01) × η_hbm 0.40…1.00 (0.05): best η_gemm = %.2f, η_hbm = %.2f, "
              "mean |error| %.2f %%, worst %.2f %%\n",
              best.gemm_efficiency, best.hbm_efficiency, 100 * best_e.mean, 100 * best_e.worst);
  return 0;
}

// Eq. (2) of the paper: P = 12·l·h²·(1 + 13/(12h) + (V + s)/(12·l·h)).
double eq2_parameters(const dsml::PlannerModel& m) {
  const double l = m.layers, h = m.hidden, V = m.vocabulary, s = m.sequence;
  return 12.0 * l * h * h * (1.0 + 13.0 / (12.0 * h) + (V + s) / (12.0 * l * h));
}

bool print_sources() {
  std::printf("\nrows: what each was checked against, and the table's own consistency (%% of peak = TFLOP/s / 312, "
              "aggregate = TFLOP/s x GPUs, eq. (2) parameters vs billions)\n");
  std::printf("%-11s | %6s %6s | %8s %8s | %8s %8s | %-7s | %s\n", "model", "%peak", "=/312", "PFLOP/s", "=x GPUs",
              "billions", "eq. (2)", "status", "checked against");
  bool all = true;
  for (const dsml::PublishedRun& run : dsml::narayanan_table1()) {
    const double pct = 100.0 * run.tflops_per_gpu / 312.0, agg = run.tflops_per_gpu * run.gpus / 1000.0;
    const double billions = eq2_parameters(dsml::planner_model_preset(run.model)) / 1e9;
    // The published cells are rounded: TFLOP/s to 1 (so aggregate within 0.5 × GPUs/1000), % to 1, billions to 0.1.
    const bool ok = std::fabs(pct - run.percent_of_peak) <= 0.5 + 50.0 / 312.0 &&
                    std::fabs(agg - run.aggregate_pflops) <= 0.05 + 0.5 * run.gpus / 1000.0 &&
                    std::fabs(billions - run.billions) <= 0.05 && !run.checked.empty();
    all = all && ok;
    std::printf("%-11s | %5.0f%% %5.1f%% | %8.1f %8.1f | %8.1f %8.1f | %-7s | %s\n", run.model.c_str(),
                run.percent_of_peak, pct, run.aggregate_pflops, agg, run.billions, billions,
                ok ? "checked" : "UNCONFIRMED", run.checked.c_str());
  }
  return all;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 1 && std::strcmp(argv[1], "--fit") == 0) return fit();
  const dsml::GpuSpec gpu = dsml::gpu_preset("a100-80gb");
  std::printf("Narayanan et al. 2021, Table 1, on the a100-80gb preset (η_gemm %.2f, η_hbm %.2f: one shared pair "
              "fitted to this table; b = 1, v = 1)\n",
              gpu.gemm_efficiency, gpu.hbm_efficiency);
  std::printf("%-11s %2s %2s %4s %5s | %9s %9s %7s | %10s %10s | %5s %5s %5s %5s %5s %5s\n", "model", "t", "p",
              "GPUs", "batch", "published", "predicted", "error", "paper FLOP", "planner", "comp%", "bub%",
              "tp%", "pp%", "dp%", "opt%");
  std::vector<double> rel;
  const Errors e = errors_with(gpu, &rel);
  int i = 0;
  for (const dsml::PublishedRun& run : dsml::narayanan_table1()) {
    const dsml::StepPlan plan = dsml::plan_published_run(run, gpu);
    const double paper = dsml::narayanan_flops_per_iteration(dsml::planner_model_preset(run.model),
                                                             run.global_batch);
    const dsml::StepSplit& T = plan.time;
    auto pct = [&](double x) { return 100.0 * x / T.total; };
    std::printf("%-11s %2d %2d %4d %5d | %9.0f %9.1f %+6.1f%% | %10.4e %10.4e | %5.1f %5.1f %5.1f %5.1f %5.1f %5.1f\n",
                run.model.c_str(), run.t, run.p, run.gpus, run.global_batch, run.tflops_per_gpu,
                plan.tflops_per_gpu, 100 * rel[i++], paper, plan.hardware_flops, pct(T.compute), pct(T.bubble),
                pct(T.tensor), pct(T.pipeline), pct(T.data), pct(T.optimizer));
  }
  std::printf("mean |error| %.2f %%, worst %.2f %% (target: every row within 6 %%, mean <= 3 %%)\n", 100 * e.mean,
              100 * e.worst);
  const bool rows_ok = print_sources();
  return e.worst <= 0.06 && e.mean <= 0.03 && rows_ok ? 0 : 1;
}
