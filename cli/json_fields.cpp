// json_fields.cpp — see json_fields.h.
#include "json_fields.h"

#include <cctype>

namespace dsml::cli {

std::string snake_case(const std::string& name) {
  std::string out;
  for (char c : name) {
    if (std::isupper(static_cast<unsigned char>(c))) {
      out += '_';
      out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    } else {
      out += c;
    }
  }
  return out;
}

void JsonFields::objects(const char* name, const std::vector<JsonFields>& xs) {
  std::vector<JsonObject> list;
  for (const JsonFields& x : xs) list.push_back(x.value);
  value.add_objects(snake_case(name), list);
}

}  // namespace dsml::cli
