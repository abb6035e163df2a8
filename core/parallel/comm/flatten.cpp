// flatten.cpp — tensors ↔ one flat Buffer, the unit the collectives and the ZeRO shards work on.
//
// Order: the tensors in the order given (parameter_tensors() for an MLP), each in Eigen's storage order
// (column-major). Only the order matters, and only that flatten and unflatten agree — an element keeps its
// index, so an elementwise optimizer on a shard of the flat vector updates the same numbers it would in place.
#include <algorithm>
#include <string>

#include "dsml/comm.h"
#include "dsml/error.h"

namespace dsml {

Buffer flatten(const std::vector<const Eigen::MatrixXd*>& tensors) {
  std::size_t n = 0;
  for (const Eigen::MatrixXd* t : tensors) n += static_cast<std::size_t>(t->size());
  Buffer flat;
  flat.reserve(n);
  for (const Eigen::MatrixXd* t : tensors) flat.insert(flat.end(), t->data(), t->data() + t->size());
  return flat;
}

void unflatten(const Buffer& flat, const std::vector<Eigen::MatrixXd*>& tensors) {
  std::size_t n = 0;
  for (const Eigen::MatrixXd* t : tensors) n += static_cast<std::size_t>(t->size());
  if (flat.size() != n)
    throw Error("unflatten: the buffer has " + std::to_string(flat.size()) + " elements but the " +
                std::to_string(tensors.size()) + " tensors hold " + std::to_string(n));
  std::size_t at = 0;
  for (Eigen::MatrixXd* t : tensors) {
    std::copy(flat.begin() + static_cast<std::ptrdiff_t>(at),
              flat.begin() + static_cast<std::ptrdiff_t>(at + static_cast<std::size_t>(t->size())), t->data());
    at += static_cast<std::size_t>(t->size());
  }
}

Buffer flatten(const MlpParams& params) { return flatten(parameter_tensors(params)); }

void unflatten(const Buffer& flat, MlpParams& params) { unflatten(flat, parameter_tensors(params)); }

}  // namespace dsml
