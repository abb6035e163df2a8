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
