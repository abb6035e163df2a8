// json_line.cpp — see json_line.h.
#include "json_line.h"

#include <cstdio>

namespace dsml::mpi {

std::string with_raw(const std::string& object, const std::string& key, const std::string& raw) {
  std::string text = object;
  text.pop_back();  // the closing '}'
  text += (text.size() > 1 ? ", \"" : "\"") + key + "\": " + raw + "}";
  return text;
}

std::string json_array(const std::vector<std::string>& items) {
  std::string text = "[";
  for (std::size_t i = 0; i < items.size(); ++i) text += (i ? ", " : "") + items[i];
  return text + "]";
}

void print_line(const std::string& json) {
  std::printf("%s\n", json.c_str());
  std::fflush(stdout);
}

}  // namespace dsml::mpi
