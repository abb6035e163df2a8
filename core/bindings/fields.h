// fields.h — reading JavaScript arguments, for every adapter: one reader per kind of value. Each throws
// dsml::Error "<context>: <name> must be …, got …", naming the function and the field, so a learner editing a
// request by hand can find the mistake (Embind layer only).
#pragma once

#include <emscripten/val.h>

#include <cstdint>
#include <string>

#include "dsml/cost_model.h"
#include "dsml/error.h"

namespace dsml::bindings {

using emscripten::val;

constexpr std::int64_t kMaxSafeInteger = 9007199254740992;  // 2^53: every whole number below is exact in a double

// A non-null JS object (not a number, string, boolean, undefined or null).
bool is_object(const val& v);
// Throws Error("<context>: expected an object <shape>") unless v is one.
void require_object(const val& v, const std::string& context, const char* shape);

// A finite JS number at obj[name]; throws "<context>: <name> must be a number" otherwise.
double number_field(const val& obj, const char* name, const std::string& context);
// Same, but `fallback` when the field is absent (undefined).
double number_field_or(const val& obj, const char* name, double fallback, const std::string& context);

// A whole number in [minimum, maximum] at obj[name]; throws "<context>: <name> must be a whole number >= 1, got
// 2.5" (and "… <= maximum" when maximum < 2^53), or "<context>: <name> is required (…)" when it is absent. The
// _or form returns `fallback` when the field is absent.
std::int64_t whole_field(const val& obj, const char* name, const std::string& context, std::int64_t minimum = 0,
                         std::int64_t maximum = kMaxSafeInteger);
std::int64_t whole_field_or(const val& obj, const char* name, std::int64_t fallback, const std::string& context,
                            std::int64_t minimum = 0, std::int64_t maximum = kMaxSafeInteger);
// The same check on a positional argument: "<what> must be a whole number >= 1, got 0".
std::int64_t whole_value(double x, const std::string& what, std::int64_t minimum = 0,
                         std::int64_t maximum = kMaxSafeInteger);

// A string at obj[name]; throws "<context>: <name> must be a string" otherwise.
std::string text_field(const val& obj, const char* name, const std::string& context);
// true or false at obj[name], `fallback` when absent; throws "<context>: <name> must be true or false" otherwise.
bool flag_field_or(const val& obj, const char* name, bool fallback, const std::string& context);
// A non-null object at obj[name]; throws "<context>: <name> must be an object" otherwise.
val object_field(const val& obj, const char* name, const std::string& context);

// f(), a core Error's message prefixed with `context` ("trainMoeBalanced: batch …"): the endpoint's name before the
// core's words. Whatever f returns (or void).
template <typename F>
auto in_context(const std::string& context, F&& f) -> decltype(f()) {
  try {
    return f();
  } catch (const Error& e) {
    throw Error(context + ": " + e.what());
  }
}

// The α–β–γ cost model of a request or a link, {alpha, beta, gamma?} (γ 0 when absent), checked by the core's
// validate(CostModel): the one reader every binding uses for a network.
CostModel to_cost_model(const val& obj, const std::string& context);
// Its γ alone (s per byte reduced, 0 when absent, ≥ 0), for a request whose α and β are a topology's links'.
double gamma_field(const val& obj, const std::string& context);

}  // namespace dsml::bindings
