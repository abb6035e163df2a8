// guard.h — every bound function goes through Guarded<F>::call, which turns a C++ exception into a
// JavaScript Error carrying the same message. (Emscripten 3.1.6 has no getExceptionMessage: without this
// a throw would reach JS as a bare pointer.)
#pragma once

#include <exception>
#include <string>
#include <utility>

namespace dsml::bindings {

// Throws `new Error(message)` into JavaScript. Never returns.
[[noreturn]] void throw_js_error(const std::string& message);

template <auto F>
struct Guarded;

template <typename R, typename... Args, R (*F)(Args...)>
struct Guarded<F> {
  static R call(Args... args) {
    try {
      return F(std::forward<Args>(args)...);
    } catch (const std::exception& e) {
      throw_js_error(e.what());
    } catch (...) {
      throw_js_error("dsml: unknown internal error");
    }
  }
};

}  // namespace dsml::bindings
