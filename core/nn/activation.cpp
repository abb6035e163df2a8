// activation.cpp — the three nonlinearities of the MLP block and their derivatives, elementwise on (B, F).
//
// ReLU (Nair & Hinton 2010), tanh, and GELU in its tanh approximation (Hendrycks & Gimpel 2016, as in GPT-2):
//   gelu(h)  = ½·h·(1 + t),   t = tanh(u),   u = c·(h + k·h³),   c = √(2/π),   k = 0.044715
//   gelu'(h) = ½·(1 + t) + ½·h·(1 − t²)·c·(1 + 3k·h²)
// ReLU's derivative at exactly 0 is taken as 0 (the subgradient PyTorch uses).
#include <cmath>
#include <string>

#include "dsml/error.h"
#include "dsml/mlp.h"

namespace dsml {

namespace {

constexpr double kGeluC = 0.7978845608028654;  // √(2/π)
constexpr double kGeluK = 0.044715;

double gelu(double h) { return 0.5 * h * (1.0 + std::tanh(kGeluC * (h + kGeluK * h * h * h))); }

double gelu_derivative(double h) {
  const double t = std::tanh(kGeluC * (h + kGeluK * h * h * h));
  return 0.5 * (1.0 + t) + 0.5 * h * (1.0 - t * t) * kGeluC * (1.0 + 3.0 * kGeluK * h * h);
}

}  // namespace

Activation parse_activation(const std::string& name) {
  if (name == "relu") return Activation::relu;
  if (name == "gelu") return Activation::gelu;
  if (name == "tanh") return Activation::tanh;
  throw Error("activation must be one of relu, gelu, tanh, got \"" + name + "\"");
}

const char* activation_name(Activation activation) {
  switch (activation) {
    case Activation::relu: return "relu";
    case Activation::gelu: return "gelu";
    case Activation::tanh: return "tanh";
  }
  return "unknown";
}

Eigen::MatrixXd activate(Activation activation, const Eigen::MatrixXd& h) {
  switch (activation) {
    case Activation::relu: return h.cwiseMax(0.0);
    case Activation::gelu: return h.unaryExpr([](double v) { return gelu(v); });
    case Activation::tanh: return h.unaryExpr([](double v) { return std::tanh(v); });
  }
  throw Error("unknown activation");
}

Eigen::MatrixXd activate_derivative(Activation activation, const Eigen::MatrixXd& h) {
  switch (activation) {
    case Activation::relu: return h.unaryExpr([](double v) { return v > 0.0 ? 1.0 : 0.0; });
    case Activation::gelu: return h.unaryExpr([](double v) { return gelu_derivative(v); });
    case Activation::tanh: return h.unaryExpr([](double v) { const double t = std::tanh(v); return 1.0 - t * t; });
  }
  throw Error("unknown activation");
}

}  // namespace dsml
