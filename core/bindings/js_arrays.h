// js_arrays.h — a vector of numbers as a plain JS Array (Embind layer only), for results a page reads as
// ordinary arrays (per-device or per-expert counts), not as Float64Array buffers.
#pragma once

#include <emscripten/val.h>

#include <vector>

namespace dsml::bindings {

template <typename Number>
emscripten::val to_js_array(const std::vector<Number>& values) {
  emscripten::val out = emscripten::val::array();
  for (Number x : values) out.call<void>("push", x);
  return out;
}

}  // namespace dsml::bindings
