// activation.cpp — the three nonlinearities of the MLP block by name, and act / act' on double matrices.
//
// The formulas (ReLU, tanh, GELU in its tanh approximation) live in dsml/block_kernels.h as templates on the
// scalar type, so the float benchmark, the lab's wasm kernels and this double-precision core evaluate the very
// same expressions; here they are only instantiated for double.
#include <string>

#include "dsml/block_kernels.h"
#include "dsml/error.h"
#include "dsml/named_values.h"
#include "dsml/mlp.h"

namespace dsml {

constexpr NamedValue<Activation> kActivationNames[] = {
    {Activation::relu, "relu"}, {Activation::gelu, "gelu"}, {Activation::tanh, "tanh"}};

Activation parse_activation(const std::string& name) {
  if (const auto activation = find_named(kActivationNames, name)) return *activation;
  throw Error("activation must be one of relu, gelu, tanh, got \"" + name + "\"");
}

const char* activation_name(Activation activation) { return name_of(kActivationNames, activation); }

// (B, F) → (B, F), elementwise.
Eigen::MatrixXd activate(Activation activation, const Eigen::MatrixXd& h) { return activate<double>(activation, h); }

Eigen::MatrixXd activate_derivative(Activation activation, const Eigen::MatrixXd& h) {
  return activate_derivative<double>(activation, h);
}

}  // namespace dsml
