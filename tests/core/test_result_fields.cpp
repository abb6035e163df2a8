// The result field tables (dsml/result_fields.h; the planner's, dsml/plan_fields.h, and the pipeline's,
// dsml/pipeline_fields.h): a walk writes every field of a hand-made result under its name with its value, and the
// .d.ts files of core/bindings/types/ declare exactly the tables — each block between `// <name>` and `// </name>`
// is the TypeScript its tables give, written out below. When they differ the test prints the block the tables give,
// to paste into the .d.ts file after a table was changed on purpose.
#include <gtest/gtest.h>

#include <cctype>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "dsml/compression_fields.h"
#include "dsml/job_fields.h"
#include "dsml/pipeline_fields.h"
#include "dsml/plan_fields.h"
#include "dsml/ps_fields.h"

namespace {

using dsml::Field;
using dsml::FieldKind;
using dsml::FieldTable;

// A front end that keeps every number under its dotted path ("time.computeParts.matmul", "stages.1.layers").
struct Flat {
  std::map<std::string, double> values;
  std::map<std::string, std::string> words;
  void number(const char* name, double x) { values[name] = x; }
  void flag(const char* name, bool x) { values[name] = x ? 1 : 0; }
  void text(const char* name, const std::string& x) { words[name] = x; }
  void numbers(const char* name, const std::vector<double>& xs) {
    for (std::size_t i = 0; i < xs.size(); ++i) lists[std::string(name) + "." + std::to_string(i)] = xs[i];
  }
  void column(const char* name, const std::vector<double>& xs) { numbers(name, xs); }
  void texts(const char* name, const std::vector<std::string>& xs) {
    for (std::size_t i = 0; i < xs.size(); ++i) words[std::string(name) + "." + std::to_string(i)] = xs[i];
  }
  void object(const char* name, const Flat& x) { take(name, x); }
  void null(const char* name) { words[name] = "null"; }
  void objects(const char* name, const std::vector<Flat>& xs) {
    for (std::size_t i = 0; i < xs.size(); ++i) take(std::string(name) + "." + std::to_string(i), xs[i]);
  }
  void take(const std::string& prefix, const Flat& x) {
    for (const auto& [k, v] : x.values) values[prefix + "." + k] = v;
    for (const auto& [k, v] : x.words) words[prefix + "." + k] = v;
    for (const auto& [k, v] : x.lists) lists[prefix + "." + k] = v;
  }
  std::map<std::string, double> lists;  // "layout.stageLayers.0" …
};

TEST(ResultFields, APlanWritesEachFieldUnderItsNameWithItsValue) {
  dsml::StepPlan p;
  p.layout.t = 8;
  p.layout.stage_layers = {7, 9};
  p.layout.recomputation = dsml::Recomputation::kSelective;
  p.layout.precision = dsml::Precision::kFp8;
  p.micro_batches = 12;
  p.time.total = 3.5;
  p.time.memory_bound = 0.25;
  p.stages.resize(2);
  p.stages[1].layers = 9;
  p.stages[1].memory.total = 6e10;
  p.memory.activations = 1e9;
  p.fits = true;
  p.tokens_per_s = 1234;
  const Flat out = dsml::write_fields<Flat>(p);
  EXPECT_EQ(out.values.at("layout.t"), 8);
  EXPECT_EQ(out.words.at("layout.recomputation"), "selective");
  EXPECT_EQ(out.words.at("layout.precision"), "fp8");
  EXPECT_EQ(out.values.at("microBatches"), 12);
  EXPECT_EQ(out.values.at("time.total"), 3.5);
  EXPECT_EQ(out.values.at("time.computeParts.memoryBound"), 0.25);
  EXPECT_EQ(out.values.at("stages.1.layers"), 9);
  EXPECT_EQ(out.values.at("stages.1.memory.total"), 6e10);
  EXPECT_EQ(out.values.at("memory.activations"), 1e9);
  EXPECT_EQ(out.values.at("fits"), 1);
  EXPECT_EQ(out.values.at("tokensPerS"), 1234);
  EXPECT_EQ(out.lists.at("layout.stageLayers.1"), 9);
  // StepPlan's 17 fields: layout, time, stages and memory, and 13 numbers and flags.
  EXPECT_EQ(dsml::step_plan_fields().fields.size(), 17u);
}

// Each table's names are unique camelCase words, each documented.
TEST(ResultFields, EveryNameIsOneCamelCaseWordWithADoc) {
  for (const FieldTable* table :
       {&dsml::step_plan_fields(), &dsml::attention_cost_fields(), &dsml::schedule_timeline_fields(),
        &dsml::schedule_comparison_fields(), &dsml::param_server_run_fields(), &dsml::stale_training_curve_fields(),
        &dsml::hogwild_fields(), &dsml::ssp_stall_fields(), &dsml::ssp_clock_limits_fields(),
        &dsml::ps_bandwidth_fields(), &dsml::job_run_fields(), &dsml::job_scaling_point_fields(),
        &dsml::target_run_fields(), &dsml::target_sweep_fields(), &dsml::compression_wire_fields(),
        &dsml::compression_seconds_fields(), &dsml::compressed_training_fields()}) {
    std::vector<const FieldTable*> todo{table};
    while (!todo.empty()) {
      const FieldTable& t = *todo.back();
      todo.pop_back();
      std::set<std::string> seen;
      for (const Field& f : t.fields) {
        const std::string name = f.name;
        EXPECT_TRUE(seen.insert(name).second) << t.type << "." << name << " twice";
        EXPECT_TRUE(name.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789") ==
                        std::string::npos && std::islower(static_cast<unsigned char>(name[0])))
            << t.type << "." << name;
        EXPECT_FALSE(std::string(f.doc).empty()) << t.type << "." << name;
        if (f.fields) todo.push_back(f.fields);
      }
    }
  }
}

// --- the TypeScript the tables give ----------------------------------------------------------------------------

// "/** text */" at `indent`, wrapped at 120 bytes as the .d.ts files are (" *  " continues a line).
std::string doc_comment(const std::string& text, const std::string& indent) {
  std::istringstream words(text);
  std::string word, line = indent + "/**", out;
  bool first = true;
  while (words >> word) {
    if (!first && line.size() + 1 + word.size() + 3 > 120) {
      out += line + "\n";
      line = indent + " * ";
    }
    line += " " + word;
    first = false;
  }
  return out + line + " */\n";
}

std::string ts_type(const Field& f) {
  switch (f.kind) {
    case FieldKind::number: return "number";
    case FieldKind::flag: return "boolean";
    case FieldKind::numbers: return "number[]";
    case FieldKind::column: return "Float64Array";
    case FieldKind::texts: return "string[]";
    case FieldKind::object: return f.fields->type;
    case FieldKind::maybe: return std::string(f.fields->type) + " | null";
    case FieldKind::objects: return std::string(f.fields->type) + "[]";
    case FieldKind::text: break;
  }
  const std::string choices = f.choices;
  if (choices.empty()) return "string";
  std::string out;
  std::size_t start = 0;
  while (true) {
    const std::size_t bar = choices.find('|', start);
    out += (out.empty() ? "\"" : " | \"") + choices.substr(start, bar - start) + "\"";
    if (bar == std::string::npos) return out;
    start = bar + 1;
  }
}

// The interface of `table`, then those of the tables it holds, each once.
void declare(const FieldTable& table, std::set<std::string>& declared, std::string& out) {
  if (!declared.insert(table.type).second) return;
  out += doc_comment(table.doc, "");
  out += "export interface " + std::string(table.type) + " {\n";
  for (const Field& f : table.fields) {
    const std::string unit = f.unit;
    out += doc_comment(std::string(f.doc) + (unit.empty() ? "" : " [" + unit + "]"), "  ");
    out += "  " + std::string(f.name) + (f.optional ? "?: " : ": ") + ts_type(f) + ";\n";
  }
  out += "}\n";
  for (const Field& f : table.fields)
    if (f.fields) declare(*f.fields, declared, out);
}

// The block `// <marker>` … `// </marker>` of core/bindings/types/<file> against the TypeScript `tables` give;
// the types in `imported` are declared in another file (the block's file imports them).
void expect_declared(const std::string& file, const std::string& marker, std::vector<const FieldTable*> tables,
                     std::set<std::string> imported = {}) {
  std::set<std::string> declared = std::move(imported);
  std::string want;
  for (const FieldTable* table : tables) declare(*table, declared, want);
  const std::string path = std::string(DSML_BINDING_TYPES_DIR) + "/" + file;
  std::ifstream in(path);
  ASSERT_TRUE(in) << "cannot read " << path;
  std::stringstream text;
  text << in.rdbuf();
  const std::string dts = text.str(), open = "// <" + marker + ">\n", close = "// </" + marker + ">\n";
  const std::size_t begin = dts.find(open), end = dts.find(close);
  ASSERT_TRUE(begin != std::string::npos && end != std::string::npos && begin < end)
      << path << " has no block between " << open << " and " << close;
  EXPECT_EQ(dts.substr(begin + open.size(), end - begin - open.size()), want)
      << file << " differs from the field tables; the block they give is:\n" << open << want << close;
}

TEST(ResultFields, PlannerDtsDeclaresExactlyThePlannersTables) {
  expect_declared("planner.d.ts", "plan_fields", {&dsml::step_plan_fields(), &dsml::attention_cost_fields()});
}

TEST(ResultFields, ModelParallelDtsDeclaresExactlyThePipelinesTables) {
  expect_declared("model_parallel.d.ts", "pipeline_fields",
                  {&dsml::schedule_timeline_fields(), &dsml::schedule_comparison_fields()});
}

TEST(ResultFields, ParamServerDtsDeclaresExactlyTheParameterServersTables) {
  expect_declared("param_server.d.ts", "ps_fields",
                  {&dsml::param_server_run_fields(), &dsml::stale_training_curve_fields(), &dsml::hogwild_fields(),
                   &dsml::ssp_stall_fields(), &dsml::ssp_clock_limits_fields(), &dsml::ps_bandwidth_fields()},
                  {"LinkBusy"});
}

TEST(ResultFields, FaultToleranceDtsDeclaresExactlyTheJobsTables) {
  expect_declared("fault_tolerance.d.ts", "job_fields",
                  {&dsml::job_run_fields(), &dsml::job_scaling_point_fields(), &dsml::target_run_fields(),
                   &dsml::target_sweep_fields()});
}

TEST(ResultFields, CompressionDtsDeclaresExactlyTheCompressionTables) {
  expect_declared("compression.d.ts", "compression_fields",
                  {&dsml::compression_wire_fields(), &dsml::compression_seconds_fields(),
                   &dsml::compressed_training_fields()});
}

// A picked or omitted view keeps the table's order and refuses a name the table does not have.
TEST(ResultFields, PickAndOmitKeepTheTablesOrder) {
  const FieldTable picked = dsml::pick(dsml::step_plan_fields(), {"fits", "time", "memory"}, "LayoutPlan");
  ASSERT_EQ(picked.fields.size(), 3u);
  EXPECT_EQ(std::string(picked.fields[0].name) + picked.fields[1].name + picked.fields[2].name, "timememoryfits");
  const FieldTable left = dsml::omit(dsml::schedule_timeline_fields(), {"timeline"}, "PipelineTimeline");
  EXPECT_EQ(left.fields.size(), dsml::schedule_timeline_fields().fields.size() - 1);
  EXPECT_EQ(std::string(left.fields.back().name), "messages");
  EXPECT_THROW(dsml::pick(dsml::step_plan_fields(), {"time_s"}, "X"), std::out_of_range);
}

// The spans of a hand-made timeline come out one object each, with the op's name.
TEST(ResultFields, ATimelineWritesItsSpans) {
  dsml::ScheduleTimeline run;
  run.schedule.name = "1f1b";
  run.schedule.devices = 2;
  run.timing.makespan = 6;
  run.timing.spans.resize(2);
  run.timing.spans[1].kind = dsml::ChunkOp::Kind::kBackward;
  run.timing.spans[1].start = 4;
  run.peak_activations = {2, 1};
  const Flat out = dsml::write_fields<Flat>(run);
  EXPECT_EQ(out.words.at("name"), "1f1b");
  EXPECT_EQ(out.values.at("devices"), 2);
  EXPECT_EQ(out.values.at("makespan"), 6);
  EXPECT_EQ(out.words.at("timeline.1.kind"), "BW");
  EXPECT_EQ(out.values.at("timeline.1.start"), 4);
  EXPECT_EQ(out.lists.at("peakActivations.0"), 2);
}

// A hand-made parameter-server run: its spans one object each, its updates as columns, its busiest link by name
// (null when no link carried data), and the spans left out by the view that omits them.
TEST(ResultFields, AParameterServerRunWritesSpansUpdatesAndItsBusiestLink) {
  dsml::ParamServerResult run;
  run.makespan = 2.5;
  run.spans = {{1, dsml::PsSpan::Kind::kPush, 1.0, 1.5, 3}};
  run.updates = {{0, 1, 3, 1.5, 0}, {1, 2, 4, 2.0, 2}};
  run.round_seconds = {1.0, 1.5};
  run.topology = dsml::Topology::fully_connected(2, dsml::CostModel{0, 1});
  run.link_busy = {0.0, 0.75};
  run.busiest_link = 1;
  const Flat out = dsml::write_fields<Flat>(run);
  EXPECT_EQ(out.values.at("makespan"), 2.5);
  EXPECT_EQ(out.words.at("spans.0.kind"), "push");
  EXPECT_EQ(out.values.at("spans.0.iteration"), 3);
  EXPECT_EQ(out.lists.at("updates.worker.1"), 2);
  EXPECT_EQ(out.lists.at("updates.tau.1"), 2);
  EXPECT_EQ(out.lists.at("updates.time.0"), 1.5);
  EXPECT_EQ(out.lists.at("roundSeconds.1"), 1.5);
  EXPECT_EQ(out.words.at("linkNames.1"), run.topology.link_name(1));
  EXPECT_EQ(out.words.at("busiestLink.name"), run.topology.link_name(1));
  EXPECT_EQ(out.values.at("busiestLink.busy"), 0.75);
  run.busiest_link = -1;
  EXPECT_EQ(dsml::write_fields<Flat>(run).words.at("busiestLink"), "null");
  const FieldTable quiet = dsml::omit(dsml::param_server_run_fields(), {"spans"}, "ParamServerRun");
  const Flat without = dsml::write_fields<Flat>(quiet, &run);
  EXPECT_EQ(without.words.count("spans.0.kind"), 0u);
  EXPECT_EQ(without.values.at("makespan"), 2.5);
}

// A hand-made job: its clock read through `timing`, its wall split nested, its loss curve a column; a target sweep's
// points without their curves.
TEST(ResultFields, AJobWritesItsTimingSplitAndCurve) {
  dsml::JobRun run;
  run.timing.step_compute = 0.7;
  run.timing.wall = 13;
  run.timing.split.straggler_wait = 0.25;
  run.timing.failures = 3;
  run.losses = {2.0, 1.5};
  run.optimal_steps = 40;
  const Flat out = dsml::write_fields<Flat>(run);
  EXPECT_EQ(out.values.at("stepCompute"), 0.7);
  EXPECT_EQ(out.values.at("wall"), 13);
  EXPECT_EQ(out.values.at("split.stragglerWait"), 0.25);
  EXPECT_EQ(out.values.at("failures"), 3);
  EXPECT_EQ(out.values.at("optimalSteps"), 40);
  EXPECT_EQ(out.lists.at("losses.1"), 1.5);
  dsml::TargetSweep sweep;
  sweep.points.resize(2);
  sweep.points[1].workers = 4;
  sweep.points[1].reached = true;
  sweep.points[1].curve_loss = {1.0};
  sweep.best = 1;
  const Flat swept = dsml::write_fields<Flat>(sweep);
  EXPECT_EQ(swept.values.at("points.1.workers"), 4);
  EXPECT_EQ(swept.values.at("points.1.reached"), 1);
  EXPECT_EQ(swept.lists.count("points.1.curveLoss.0"), 0u);
  EXPECT_EQ(swept.values.at("best"), 1);
}

// A compressed run's calls one object each, its curves as columns.
TEST(ResultFields, ACompressedRunWritesItsCallsAndCurves) {
  dsml::CompressedTrainingResult r;
  r.collectives = {{"all-gather", 3328}};
  r.payload_bytes = 832;
  r.cumulative_bytes = {0, 2496};
  const Flat out = dsml::write_fields<Flat>(r);
  EXPECT_EQ(out.words.at("collectives.0.collective"), "all-gather");
  EXPECT_EQ(out.values.at("collectives.0.bytes"), 3328);
  EXPECT_EQ(out.values.at("payloadBytes"), 832);
  EXPECT_EQ(out.lists.at("cumulativeBytes.1"), 2496);
}

}  // namespace

