// lab_convert.cpp — see lab_convert.h.
#include "lab_convert.h"

#include "dsml/error.h"

namespace dsml::bindings {

namespace {

using RowMajor = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

}  // namespace

std::size_t array_length(const val& array, const std::string& fn, const char* name) {
  const bool ok = val::global("ArrayBuffer").call<bool>("isView", array) ||
                  val::global("Array").call<bool>("isArray", array);
  if (!ok) throw Error(fn + ": " + name + " must be a Float64Array");
  return array["length"].as<std::size_t>();
}

Eigen::MatrixXd matrix_from(const val& array, Eigen::Index rows, Eigen::Index cols, const std::string& fn,
                            const char* name, const char* shape) {
  const std::size_t n = array_length(array, fn, name);
  const std::size_t want = static_cast<std::size_t>(rows) * static_cast<std::size_t>(cols);
  if (n != want)
    throw Error(fn + ": " + name + " has " + std::to_string(n) + " numbers, expected " + shape + " = " +
                std::to_string(rows) + " · " + std::to_string(cols) + " = " + std::to_string(want));
  RowMajor buffer(rows, cols);
  // One bulk copy: a Float64Array view on the buffer, filled by TypedArray.prototype.set.
  val(emscripten::typed_memory_view(buffer.size(), buffer.data())).call<void>("set", array);
  return buffer;  // → column-major
}

Eigen::MatrixXd column_from(const val& array, const std::string& fn, const char* name) {
  const std::size_t n = array_length(array, fn, name);
  Eigen::MatrixXd column(static_cast<Eigen::Index>(n), 1);
  val(emscripten::typed_memory_view(n, column.data())).call<void>("set", array);
  return column;
}

Eigen::Index slice_width(const val& array, Eigen::Index rows_known, const std::string& fn, const char* name,
                         const char* shape) {
  const std::size_t n = array_length(array, fn, name);
  const std::size_t known = static_cast<std::size_t>(rows_known);
  if (n == 0 || n % known != 0)
    throw Error(fn + ": " + name + " has " + std::to_string(n) + " numbers, not a positive multiple of width = " +
                std::to_string(rows_known) + " (" + name + " is " + shape + ")");
  return static_cast<Eigen::Index>(n / known);
}

val to_row_major(const Eigen::MatrixXd& m) {
  const RowMajor buffer = m;
  // Float64Array's constructor copies the view, so the result owns its memory.
  return val::global("Float64Array").new_(emscripten::typed_memory_view(buffer.size(), buffer.data()));
}

}  // namespace dsml::bindings
