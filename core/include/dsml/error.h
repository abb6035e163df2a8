// dsml/error.h — the one exception type the core throws on bad input.
//
// The core never aborts: every public function validates its arguments and throws
// dsml::Error with a sentence a learner can act on ("bandwidth must be > 0, got 0").
// The Embind layer turns it into a JavaScript Error carrying the same message.
#pragma once

#include <stdexcept>
#include <string>

namespace dsml {

class Error : public std::invalid_argument {
 public:
  explicit Error(const std::string& message) : std::invalid_argument(message) {}
};

// A simulated run where every unfinished rank waits for a message that will never come.
// The message names the wait-for cycle: "deadlock: rank 0 waits for rank 1, rank 1 waits for rank 0".
class DeadlockError : public Error {
 public:
  explicit DeadlockError(const std::string& message) : Error(message) {}
};

// Throws Error("<name> must be a finite number > 0, got <value>") unless value is finite and > 0.
// A training step produced a gradient that is not finite (inf or nan): the run diverged. Optimizer::step throws
// it; train_compare catches it and reports the step as a result (TrainComparison::diverged_at), not an error.
class DivergedError : public Error {
 public:
  explicit DivergedError(const std::string& message) : Error(message) {}
};

void require_positive(const char* name, double value);
// Throws Error("<name> must be a finite number >= 0, got <value>") unless value is finite and >= 0.
void require_non_negative(const char* name, double value);

// The shortest text that reads back as `value` ("0.1", "1e-06", "nan"), for error messages.
std::string format_number(double value);

}  // namespace dsml
