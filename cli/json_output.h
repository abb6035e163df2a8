// json_output.h — the one-line JSON objects the dsml tool prints on stdout.
//
// Numbers are written with the fewest digits that read back as the same double (0.1, not 0.10000000000000001);
// JSON has no NaN or Infinity, so those become null (e.g. Amdahl's limit 1/s when s = 0).
#pragma once

#include <string>
#include <vector>

namespace dsml::cli {

std::string json_number(double value);

class JsonObject {
 public:
  JsonObject& add(const std::string& key, double value);
  JsonObject& add(const std::string& key, const std::vector<double>& values);
  JsonObject& add_text(const std::string& key, const std::string& text);  // a JSON string, escaped
  JsonObject& add_texts(const std::string& key, const std::vector<std::string>& texts);  // ["a", "b"]
  JsonObject& add_object(const std::string& key, const JsonObject& object);
  JsonObject& add_objects(const std::string& key, const std::vector<JsonObject>& objects);  // [{…}, {…}]
  JsonObject& add_bool(const std::string& key, bool value);
  JsonObject& add_null(const std::string& key);
  JsonObject& add_fields(const JsonObject& other);  // other's fields, after these
  std::string str() const;  // {"key": 1, "list": [1, 2]}

 private:
  void key(const std::string& name);
  std::string body_;
};

}  // namespace dsml::cli
