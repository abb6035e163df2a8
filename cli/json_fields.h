// json_fields.h — a result printed from its core field table (dsml/result_fields.h): the fields of the wasm object,
// in its order, each name in snake_case (tokensPerS → tokens_per_s), as every line the dsml tool prints is spelled.
//   print(fields_json(plan));
#pragma once

#include <string>
#include <vector>

#include "dsml/result_fields.h"
#include "json_output.h"

namespace dsml::cli {

// "tflopsPerGpu" → "tflops_per_gpu": an underscore before each capital, which is lowered.
std::string snake_case(const std::string& name);

struct JsonFields {
  JsonObject value;
  void number(const char* name, double x) { value.add(snake_case(name), x); }
  void flag(const char* name, bool x) { value.add_bool(snake_case(name), x); }
  void text(const char* name, const std::string& x) { value.add_text(snake_case(name), x); }
  void numbers(const char* name, const std::vector<double>& xs) { value.add(snake_case(name), xs); }
  void column(const char* name, const std::vector<double>& xs) { value.add(snake_case(name), xs); }
  void texts(const char* name, const std::vector<std::string>& xs) { value.add_texts(snake_case(name), xs); }
  void object(const char* name, const JsonFields& x) { value.add_object(snake_case(name), x.value); }
  void null(const char* name) { value.add_null(snake_case(name)); }
  void objects(const char* name, const std::vector<JsonFields>& xs);
};

template <class T>
JsonObject fields_json(const T& result) {
  return write_fields<JsonFields>(result).value;
}

// The same through another view of its table (omit() or pick()).
template <class T>
JsonObject fields_json(const FieldTable& table, const T& result) {
  return write_fields<JsonFields>(table, &result).value;
}

}  // namespace dsml::cli
