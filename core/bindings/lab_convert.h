// lab_convert.h — typed arrays ⇄ Eigen matrices for the lab kernels (Embind layer only).
//
// The lab trainer calls the kernels many times per step, so a conversion is one bulk copy each way:
// JS → a row-major buffer through TypedArray.prototype.set (no per-element val calls), then into the column-major
// Eigen::MatrixXd the core computes with — the same storage the single-device reference uses, so the products
// round exactly as they do there. Results go back as fresh Float64Arrays (copies: nothing to .delete()).
#pragma once

#include <emscripten/val.h>

#include <Eigen/Core>
#include <string>

namespace dsml::bindings {

using emscripten::val;

// The number of elements of a JS Array or typed array; throws Error("<fn>: <name> must be a Float64Array") when
// `array` is neither.
std::size_t array_length(const val& array, const std::string& fn, const char* name);

// array (row-major, rows·cols numbers) as a (rows, cols) matrix. Throws Error naming the function, the argument
// and the expected count, `shape` spelling it out: "blockInForward: x has 100 numbers, expected rows · width = 96".
Eigen::MatrixXd matrix_from(const val& array, Eigen::Index rows, Eigen::Index cols, const std::string& fn,
                            const char* name, const char* shape);

// array as an (n, 1) column, whatever its length n (optimizer tensors are elementwise, so any shard goes).
Eigen::MatrixXd column_from(const val& array, const std::string& fn, const char* name);

// The column count of a (rows_known × ?) tensor: array.length / rows_known; throws unless that divides evenly
// and is >= 1 ("blockInForward: wIn has 50 numbers, not a positive multiple of width = 8 (wIn is Fl × width)").
Eigen::Index slice_width(const val& array, Eigen::Index rows_known, const std::string& fn, const char* name,
                         const char* shape);

// A fresh Float64Array with m's entries in row-major order.
val to_row_major(const Eigen::MatrixXd& m);

}  // namespace dsml::bindings
