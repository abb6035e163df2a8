// args.cpp — see args.h.
#include "args.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>

namespace dsml::cli {

namespace {

bool contains(const std::vector<std::string>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

}  // namespace

Args::Args(const std::string& command, int argc, char** argv, int first, const std::vector<std::string>& valued,
           const std::vector<std::string>& switches, const std::string& program)
    : command_(program + " " + command), program_(program) {
  for (int i = first; i < argc; ++i) {
    const std::string token = argv[i];
    if (token.rfind("--", 0) != 0 || token.size() == 2)
      throw UsageError("unexpected argument '" + token + "' for '" + command_ + "' (flags look like --bytes 1000)");
    const std::size_t equals = token.find('=');
    const std::string name = token.substr(2, equals == std::string::npos ? std::string::npos : equals - 2);
    if (values_.count(name) || switches_.count(name)) throw UsageError("--" + name + " is given twice");
    if (contains(switches, name)) {
      if (equals != std::string::npos) throw UsageError("--" + name + " takes no value");
      switches_.insert(name);
    } else if (contains(valued, name)) {
      if (equals != std::string::npos) {
        values_[name] = token.substr(equals + 1);
      } else {
        // A value may itself start with '-' (a negative number) but not with "--" (the next flag).
        if (i + 1 >= argc || std::string(argv[i + 1]).rfind("--", 0) == 0)
          throw UsageError("--" + name + " needs a value");
        values_[name] = argv[++i];
      }
    } else {
      throw UsageError("unknown flag --" + name + " for '" + command_ + "' (see " + program_ + " --help)");
    }
  }
}

bool Args::has(const std::string& name) const { return values_.count(name) > 0 || switches_.count(name) > 0; }

std::string Args::text(const std::string& name) const {
  const auto it = values_.find(name);
  if (it == values_.end()) throw UsageError("'" + command_ + "' needs --" + name);
  return it->second;
}

double Args::number(const std::string& name) const { return parse_number(name, text(name)); }

double Args::number_or(const std::string& name, double fallback) const {
  return has(name) ? number(name) : fallback;
}

int Args::whole(const std::string& name) const {
  const double value = number(name);
  if (!(std::abs(value) <= 2147483647.0) || value != std::floor(value))
    throw UsageError("--" + name + " expects a whole number, got '" + text(name) + "'");
  return static_cast<int>(value);
}

int Args::whole_or(const std::string& name, int fallback) const { return has(name) ? whole(name) : fallback; }

std::uint64_t Args::seed() const {
  const int seed = whole_or("seed", 0);
  if (seed < 0) throw UsageError("--seed must be a whole number >= 0, got " + text("seed"));
  return static_cast<std::uint64_t>(seed);
}

std::vector<double> Args::numbers(const std::string& name) const {
  const std::string list = text(name);
  std::vector<double> out;
  std::size_t begin = 0;
  while (true) {
    const std::size_t comma = list.find(',', begin);
    out.push_back(parse_number(name, list.substr(begin, comma - begin)));
    if (comma == std::string::npos) return out;
    begin = comma + 1;
  }
}

double parse_number(const std::string& flag, const std::string& text) {
  errno = 0;
  char* end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  if (text.empty() || end != text.c_str() + text.size() || errno == ERANGE)
    throw UsageError("--" + flag + " expects a number, got '" + text + "'");
  return value;
}

}  // namespace dsml::cli
