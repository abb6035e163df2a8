// js_object.h — a result object for JavaScript written as one table of fields (Embind layer only):
//   return object_of({{"makespan", run.makespan}, {"losses", to_float64_array(run.losses)}});
// Each value converts as val::set would convert it (a number, a bool, a string, or a val such as an array), in
// the order listed, so a result's fields, their names and their types read in one place.
#pragma once

#include <emscripten/val.h>

#include <initializer_list>

namespace dsml::bindings {

struct JsField {
  template <typename T>
  JsField(const char* field_name, const T& field_value) : name(field_name), value(field_value) {}
  const char* name;
  emscripten::val value;
};

inline emscripten::val object_of(std::initializer_list<JsField> fields) {
  emscripten::val out = emscripten::val::object();
  for (const JsField& f : fields) out.set(f.name, f.value);
  return out;
}

}  // namespace dsml::bindings

#include <string>
#include <vector>

#include "dsml/result_fields.h"

namespace dsml::bindings {

// A result written from its core field table (dsml/result_fields.h), under the table's names:
//   return fields_to_val(plan);
struct JsFields {
  emscripten::val value = emscripten::val::object();
  void number(const char* name, double x) { value.set(name, x); }
  void flag(const char* name, bool x) { value.set(name, x); }
  void text(const char* name, const std::string& x) { value.set(name, x); }
  void numbers(const char* name, const std::vector<double>& xs) {
    emscripten::val list = emscripten::val::array();
    for (double x : xs) list.call<void>("push", x);
    value.set(name, list);
  }
  // Float64Array's constructor copies the view, so the array owns its memory: one copy, not a call per value.
  void column(const char* name, const std::vector<double>& xs) {
    value.set(name, emscripten::val::global("Float64Array").new_(emscripten::typed_memory_view(xs.size(), xs.data())));
  }
  void texts(const char* name, const std::vector<std::string>& xs) {
    emscripten::val list = emscripten::val::array();
    for (const std::string& x : xs) list.call<void>("push", x);
    value.set(name, list);
  }
  void object(const char* name, const JsFields& x) { value.set(name, x.value); }
  void null(const char* name) { value.set(name, emscripten::val::null()); }
  void objects(const char* name, const std::vector<JsFields>& xs) {
    emscripten::val list = emscripten::val::array();
    for (const JsFields& x : xs) list.call<void>("push", x.value);
    value.set(name, list);
  }
};

template <class T>
emscripten::val fields_to_val(const T& result) {
  return write_fields<JsFields>(result).value;
}

// The same through another view of its table (omit() or pick()).
template <class T>
emscripten::val fields_to_val(const FieldTable& table, const T& result) {
  return write_fields<JsFields>(table, &result).value;
}

}  // namespace dsml::bindings
