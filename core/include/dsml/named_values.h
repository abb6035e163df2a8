// dsml/named_values.h — an enum's names in one table, read both ways: the one way the core turns a name a learner
// typed ("adam", "slow-node") into a value and a value back into its name. Each parse_* keeps its own error
// message (they name the choices the way the learner's page does).
#pragma once

#include <cstddef>
#include <optional>
#include <string>

namespace dsml {

template <typename E>
struct NamedValue {
  E value;
  const char* name;
};

// The value called `name` in `table`, or nullopt.
template <typename E, std::size_t N>
std::optional<E> find_named(const NamedValue<E> (&table)[N], const std::string& name) {
  for (const NamedValue<E>& entry : table)
    if (name == entry.name) return entry.value;
  return std::nullopt;
}

// The name of `value` in `table`; `fallback` when the table lacks it (a value cast from an out-of-range number).
template <typename E, std::size_t N>
const char* name_of(const NamedValue<E> (&table)[N], E value, const char* fallback = "unknown") {
  for (const NamedValue<E>& entry : table)
    if (entry.value == value) return entry.name;
  return fallback;
}

}  // namespace dsml
