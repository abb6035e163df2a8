// json_line.h — what dsml-mpi adds to the CLI's JsonObject (cli/json_output.h): JSON literals it cannot hold
// (true/false, arrays of objects), appended to an object's text, and printing one line from rank 0.
#pragma once

#include <string>
#include <vector>

#include "json_output.h"

namespace dsml::mpi {

// `object` with "key": raw appended; raw must already be JSON (true, [1, 2], {"a": 1}).
std::string with_raw(const std::string& object, const std::string& key, const std::string& raw);
inline std::string with_raw(const cli::JsonObject& object, const std::string& key, const std::string& raw) {
  return with_raw(object.str(), key, raw);
}
inline const char* json_bool(bool value) { return value ? "true" : "false"; }
std::string json_array(const std::vector<std::string>& items);  // [a, b, …] of already-JSON items

// One line on stdout, flushed (mpirun forwards it as soon as it is written).
void print_line(const std::string& json);

}  // namespace dsml::mpi
