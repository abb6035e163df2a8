// args.h — command-line flags for the dsml tool: "--name value", "--name=value" and bare switches.
//
// Every mistake becomes a UsageError whose message main() prints as "dsml: error: <message>" (exit code 2).
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

namespace dsml::cli {

class UsageError : public std::runtime_error {
 public:
  explicit UsageError(const std::string& message) : std::runtime_error(message) {}
};

class Args {
 public:
  // Parses argv[first..argc) for `command`. `valued` lists the flags that take a value, `switches` those that
  // do not (both without the leading "--"). Throws UsageError on an unknown, repeated or value-less flag.
  // `program` names the tool in messages ("dsml", "dsml-mpi").
  Args(const std::string& command, int argc, char** argv, int first, const std::vector<std::string>& valued,
       const std::vector<std::string>& switches = {}, const std::string& program = "dsml");

  bool has(const std::string& name) const;
  std::string text(const std::string& name) const;                        // required
  double number(const std::string& name) const;                           // required
  double number_or(const std::string& name, double fallback) const;
  int whole(const std::string& name) const;                               // required integer, e.g. --rows 4
  int whole_or(const std::string& name, int fallback) const;              // an integer, e.g. --ranks 8
  std::vector<double> numbers(const std::string& name) const;             // required, comma-separated
  // --seed, a whole number >= 0 (0 when absent): every command that draws random numbers reads it so.
  std::uint64_t seed() const;

 private:
  std::string command_;  // "<program> <subcommand>", e.g. "dsml collective"
  std::string program_;
  std::map<std::string, std::string> values_;
  std::set<std::string> switches_;
};

// Parses a whole string as a double ("1e-6", "12.5e9", "inf", "nan"); throws UsageError naming `flag`.
double parse_number(const std::string& flag, const std::string& text);

}  // namespace dsml::cli
