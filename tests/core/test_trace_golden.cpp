// Golden traces, in the style of SimGrid's .tesh files: each tests/core/golden/*.trace holds a command
//   $ dsml simulate --scenario gather-to-root --ranks 4 --bytes 1000 --alpha 1e-6 --beta 1e-9 --trace
// and the event log it must print, one "> " line per event, with times worked out by hand from T = α + β·n
// ("# " lines explain the arithmetic). This test runs the same scenario through the library and compares
// format_trace() line by line; the dsml tool prints the identical text for the same command.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "dsml/scenarios.h"
#include "dsml/simulator.h"

namespace {

namespace fs = std::filesystem;

struct Golden {
  std::map<std::string, std::string> flags;  // from the "$ dsml simulate …" line
  std::vector<std::string> expected;         // the "> " lines, prefix removed
};

Golden parse(const fs::path& path) {
  Golden golden;
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("$ ", 0) == 0) {
      std::istringstream words(line.substr(2));
      std::string word, program, command;
      words >> program >> command;
      EXPECT_EQ(program + " " + command, "dsml simulate") << path;
      while (words >> word) {
        if (word == "--trace") continue;
        std::string value;
        words >> value;
        golden.flags[word.substr(2)] = value;
      }
    } else if (line.rfind("> ", 0) == 0) {
      golden.expected.push_back(line.substr(2));
    } else {
      EXPECT_TRUE(line.empty() || line[0] == '#') << path << ": unexpected line '" << line << "'";
    }
  }
  return golden;
}

std::vector<std::string> run(const Golden& golden) {
  const auto flag = [&](const std::string& name, const std::string& fallback) {
    const auto it = golden.flags.find(name);
    return it == golden.flags.end() ? fallback : it->second;
  };
  dsml::ScenarioOptions options;
  options.ranks = std::stoi(flag("ranks", "2"));
  options.bytes = std::stod(flag("bytes", "0"));
  options.rounds = std::stoi(flag("rounds", "1"));
  options.laps = std::stoi(flag("laps", "1"));
  options.compute_seconds = std::stod(flag("compute", "0"));
  const auto programs = dsml::make_scenario(flag("scenario", "?"), options);
  dsml::Network network;
  network.ranks = static_cast<int>(programs.size());
  network.model.alpha = std::stod(flag("alpha", "0"));
  network.model.beta = std::stod(flag("beta", "0"));

  std::vector<std::string> lines;
  std::istringstream text(dsml::format_trace(dsml::simulate(network, programs)));
  for (std::string line; std::getline(text, line);) lines.push_back(line);
  return lines;
}

std::vector<fs::path> golden_files() {
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(DSML_GOLDEN_DIR))
    if (entry.path().extension() == ".trace") files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  return files;
}

TEST(TraceGolden, EveryGoldenFileMatches) {
  const std::vector<fs::path> files = golden_files();
  ASSERT_GE(files.size(), 4u) << "golden traces missing from " << DSML_GOLDEN_DIR;
  for (const fs::path& path : files) {
    SCOPED_TRACE(path.filename().string());
    const Golden golden = parse(path);
    ASSERT_FALSE(golden.expected.empty());
    const std::vector<std::string> got = run(golden);
    for (std::size_t i = 0; i < std::min(got.size(), golden.expected.size()); ++i)
      ASSERT_EQ(got[i], golden.expected[i]) << "first difference at event " << i + 1;
    EXPECT_EQ(got.size(), golden.expected.size());
  }
}

TEST(TraceGolden, HeaderExampleFormat) {
  // The two example lines documented in simulator.h.
  dsml::Network network;
  network.ranks = 2;
  network.model.alpha = 1e-6;
  network.model.beta = 1e-9;
  const std::string trace = dsml::format_trace(dsml::simulate(
      network, {{dsml::Step::compute(2e-6), dsml::Step::send(1, 1000)}, {dsml::Step::recv(0)}}));
  EXPECT_NE(trace.find("0.000002000 rank 0 send-start -> 1 1000 B\n"), std::string::npos) << trace;
  EXPECT_NE(trace.find("0.000004000 rank 1 recv <- 0 1000 B\n"), std::string::npos) << trace;
}

TEST(TraceGolden, TagsAndUnreceivedMessages) {
  dsml::Network network;
  network.ranks = 2;
  network.model.alpha = 1e-6;
  network.model.beta = 1e-9;
  const std::string trace =
      dsml::format_trace(dsml::simulate(network, {{dsml::Step::send(1, 1000, 3), dsml::Step::send(1, 500)}, {}}));
  EXPECT_EQ(trace,
            "0.000000000 rank 1 finish\n"
            "0.000000000 rank 0 send-start -> 1 1000 B tag 3\n"
            "0.000002000 rank 0 send-end -> 1 1000 B tag 3\n"
            "0.000002000 rank 0 send-start -> 1 500 B\n"
            "0.000003500 rank 0 send-end -> 1 500 B\n"
            "0.000003500 rank 0 finish\n");
}

}  // namespace
