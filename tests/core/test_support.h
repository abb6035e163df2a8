// test_support.h — small helpers the GoogleTest files share.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "dsml/error.h"

// The message of the dsml::Error that `call` throws (a test failure, and "", if it throws none).
template <typename F>
std::string error_of(F call) {
  try {
    call();
  } catch (const dsml::Error& e) {
    return e.what();
  }
  ADD_FAILURE() << "expected dsml::Error";
  return "";
}
