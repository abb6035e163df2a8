// lab_convert.cpp — see lab_convert.h. The three EM_JS helpers below are the only JavaScript the conversions run;
// they are compiled into the module's glue (no eval: the pages' Content-Security-Policy is unchanged).
#include "lab_convert.h"

#include <emscripten/emscripten.h>

#include "dsml/error.h"
#include "fields.h"

// (At global scope: emscripten finds an EM_JS by its C symbol.)

// array.length for an Array or a typed array (DataView excluded); −1 for anything else.
EM_JS(double, dsml_array_length, (emscripten::EM_VAL handle), {
  const a = Emval.toValue(handle);
  return (Array.isArray(a) || (ArrayBuffer.isView(a) && !(a instanceof DataView))) ? a.length : -1;
});

// Copies the array's numbers to the 8-byte-aligned wasm address dst (TypedArray.prototype.set: one bulk copy).
EM_JS(void, dsml_copy_in, (emscripten::EM_VAL handle, double* dst), {
  HEAPF64.set(Emval.toValue(handle), dst >> 3);
});

// target.length if target is a Float64Array, −1 otherwise.
EM_JS(double, dsml_float64_length, (emscripten::EM_VAL handle), {
  const a = Emval.toValue(handle);
  return a instanceof Float64Array ? a.length : -1;
});

// Copies the n doubles at src into the Float64Array target (no allocation: a view of the heap, then set).
EM_JS(void, dsml_copy_to, (emscripten::EM_VAL handle, const double* src, double n), {
  Emval.toValue(handle).set(HEAPF64.subarray(src >> 3, (src >> 3) + n));
});

// A new Float64Array with its own buffer holding the n doubles at src.
EM_JS(emscripten::EM_VAL, dsml_copy_out, (const double* src, double n), {
  return Emval.toHandle(HEAPF64.slice(src >> 3, (src >> 3) + n));
});

namespace dsml::bindings {

namespace {

using RowMajor = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

Values copied(const val& array, std::size_t n) {
  Values values(n);
  if (n > 0) dsml_copy_in(array.as_handle(), values.data());
  return values;
}

}  // namespace

std::size_t array_length(const val& array, const std::string& fn, const char* name) {
  const double n = dsml_array_length(array.as_handle());
  if (n < 0) throw Error(fn + ": " + name + " must be a Float64Array");
  return static_cast<std::size_t>(n);
}

Values values_from(const val& array, Eigen::Index rows, Eigen::Index cols, const std::string& fn, const char* name,
                   const char* shape) {
  const std::size_t n = array_length(array, fn, name);
  const std::size_t want = static_cast<std::size_t>(rows) * static_cast<std::size_t>(cols);
  if (n != want)
    throw Error(fn + ": " + name + " has " + std::to_string(n) + " numbers, expected " + shape + " = " +
                std::to_string(rows) + " · " + std::to_string(cols) + " = " + std::to_string(want));
  return copied(array, n);
}

Values values_from(const val& array, const std::string& fn, const char* name) {
  return copied(array, array_length(array, fn, name));
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

val float64_array(const double* data, std::size_t n) {
  return val::take_ownership(dsml_copy_out(data, static_cast<double>(n)));
}

void write_values(const val& target, const Values& values, const std::string& fn, const char* name,
                  const char* shape) {
  const double n = dsml_float64_length(target.as_handle());
  if (n != static_cast<double>(values.size()))
    throw Error(fn + ": " + name + " must be a Float64Array of " + shape + " = " + std::to_string(values.size()) +
                " numbers" + (n < 0 ? "" : ", got " + std::to_string(static_cast<std::size_t>(n))));
  dsml_copy_to(target.as_handle(), values.data(), static_cast<double>(values.size()));
}

val to_row_major(const Eigen::MatrixXd& m) {
  const RowMajor buffer = m;
  return float64_array(buffer.data(), static_cast<std::size_t>(buffer.size()));
}

Activation activation_arg(const std::string& name, const std::string& fn) {
  return in_context(fn, [&] { return parse_activation(name); });
}

Dims dims(double rows, double width, const std::string& fn) {
  return {static_cast<Eigen::Index>(whole_value(rows, fn + ": rows", 1, 1000000000)),
          static_cast<Eigen::Index>(whole_value(width, fn + ": width", 1, 1000000000))};
}

}  // namespace dsml::bindings
