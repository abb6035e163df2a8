// lab_convert.h — typed arrays ⇄ wasm memory for the lab kernels (Embind layer only).
//
// The lab trainer calls the kernels many times per step (about 400 calls a step on 8 Workers), so a conversion is
// ONE call into JavaScript per array: its length (checked) in one, a bulk copy into the wasm heap in another
// (HEAPF64.set), and a result comes back as HEAPF64.slice — a fresh Float64Array that owns its memory, nothing to
// .delete(). Going through emscripten::val instead (global lookups, a typed_memory_view, a method call, handle
// bookkeeping) cost 120–380 JavaScript ⇄ wasm crossings per kernel call. The data stays ROW-MAJOR here;
// dsml/block_rows.h turns it into the column-major matrices the core computes with.
#pragma once

#include <emscripten/val.h>

#include <Eigen/Core>
#include <string>
#include <vector>

#include "dsml/mlp.h"

namespace dsml::bindings {

using emscripten::val;

using Values = std::vector<double>;

// The number of elements of a JS Array or typed array; throws Error("<fn>: <name> must be a Float64Array") when
// `array` is neither.
std::size_t array_length(const val& array, const std::string& fn, const char* name);

// array's rows·cols numbers (row-major, copied). Throws Error naming the function, the argument and the expected
// count, `shape` spelling it out: "blockInForward: x has 100 numbers, expected rows · width = 96".
Values values_from(const val& array, Eigen::Index rows, Eigen::Index cols, const std::string& fn, const char* name,
                   const char* shape);

// array's numbers, whatever their count (optimizer tensors are elementwise, so any shard goes).
Values values_from(const val& array, const std::string& fn, const char* name);

// The column count of a (rows_known × ?) tensor: array.length / rows_known; throws unless that divides evenly
// and is >= 1 ("blockInForward: wIn has 50 numbers, not a positive multiple of width = 8 (wIn is Fl × width)").
Eigen::Index slice_width(const val& array, Eigen::Index rows_known, const std::string& fn, const char* name,
                         const char* shape);

// A fresh Float64Array holding a copy of the values.
val float64_array(const double* data, std::size_t n);
inline val float64_array(const Values& values) { return float64_array(values.data(), values.size()); }

// Copies values into `target`, a Float64Array of exactly values.size() numbers that the caller owns and reuses
// (no allocation); throws Error naming the argument and `shape` otherwise.
void write_values(const val& target, const Values& values, const std::string& fn, const char* name,
                  const char* shape);

// A fresh Float64Array with m's entries in row-major order.
val to_row_major(const Eigen::MatrixXd& m);

// An activation by name; throws Error("<fn>: <parse_activation's message>").
Activation activation_arg(const std::string& name, const std::string& fn);

// The batch rows B and the model width D of a kernel call, whole numbers >= 1 (throws Error naming fn otherwise).
struct Dims {
  Eigen::Index rows;
  Eigen::Index width;
};
Dims dims(double rows, double width, const std::string& fn);

}  // namespace dsml::bindings
