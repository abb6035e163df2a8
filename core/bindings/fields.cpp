// fields.cpp — see fields.h.
#include "fields.h"

#include <cmath>

#include "dsml/error.h"

namespace dsml::bindings {

namespace {

bool is_number(const val& v) { return v.typeOf().as<std::string>() == "number"; }

}  // namespace

bool is_object(const val& v) { return v.typeOf().as<std::string>() == "object" && !v.isNull(); }

void require_object(const val& v, const std::string& context, const char* shape) {
  if (!is_object(v)) throw Error(context + ": expected an object " + shape);
}

double number_field(const val& obj, const char* name, const std::string& context) {
  const val v = obj[name];
  if (!is_number(v)) throw Error(context + ": " + name + " must be a number");
  const double x = v.as<double>();
  if (!std::isfinite(x)) throw Error(context + ": " + name + " must be finite, got " + format_number(x));
  return x;
}

double number_field_or(const val& obj, const char* name, double fallback, const std::string& context) {
  return obj[name].isUndefined() ? fallback : number_field(obj, name, context);
}

std::int64_t whole_value(double x, const std::string& what, std::int64_t minimum, std::int64_t maximum) {
  if (!(x >= static_cast<double>(minimum) && x <= static_cast<double>(maximum)) || x != std::floor(x))
    throw Error(what + " must be a whole number >= " + std::to_string(minimum) +
                (maximum < kMaxSafeInteger ? " and <= " + std::to_string(maximum) : std::string()) + ", got " +
                format_number(x));
  return static_cast<std::int64_t>(x);
}

std::int64_t whole_field(const val& obj, const char* name, const std::string& context, std::int64_t minimum,
                         std::int64_t maximum) {
  if (obj[name].isUndefined())
    throw Error(context + ": " + name + " is required (a whole number >= " + std::to_string(minimum) + ")");
  return whole_value(number_field(obj, name, context), context + ": " + name, minimum, maximum);
}

std::int64_t whole_field_or(const val& obj, const char* name, std::int64_t fallback, const std::string& context,
                            std::int64_t minimum, std::int64_t maximum) {
  return obj[name].isUndefined() ? fallback : whole_field(obj, name, context, minimum, maximum);
}

std::string text_field(const val& obj, const char* name, const std::string& context) {
  const val v = obj[name];
  if (v.typeOf().as<std::string>() != "string") throw Error(context + ": " + name + " must be a string");
  return v.as<std::string>();
}

bool flag_field_or(const val& obj, const char* name, bool fallback, const std::string& context) {
  const val v = obj[name];
  if (v.isUndefined()) return fallback;
  if (v.typeOf().as<std::string>() != "boolean") throw Error(context + ": " + name + " must be true or false");
  return v.as<bool>();
}

val object_field(const val& obj, const char* name, const std::string& context) {
  const val v = obj[name];
  if (!is_object(v)) throw Error(context + ": " + name + " must be an object");
  return v;
}

CostModel to_cost_model(const val& obj, const std::string& context) {
  CostModel m{number_field(obj, "alpha", context), number_field(obj, "beta", context), gamma_field(obj, context)};
  validate(m);
  return m;
}

double gamma_field(const val& obj, const std::string& context) {
  const double gamma = number_field_or(obj, "gamma", 0.0, context);
  require_non_negative("gamma", gamma);
  return gamma;
}

}  // namespace dsml::bindings
