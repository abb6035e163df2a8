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

// `call` throws a dsml::Error whose message contains `fragment`.
template <typename F>
void expect_error(F call, const std::string& fragment) {
  const std::string message = error_of(call);
  EXPECT_NE(message.find(fragment), std::string::npos) << "expected an error containing \"" << fragment << "\", got \""
                                                       << message << "\"";
}
