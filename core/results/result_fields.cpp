// result_fields.cpp — see dsml/result_fields.h.
#include "dsml/result_fields.h"

#include <stdexcept>
#include <string>

namespace dsml {

namespace {

// The fields of `table` that are (keep) or are not (!keep) named in `names`; every name must be the table's.
FieldTable select(const FieldTable& table, std::initializer_list<const char*> names, const char* type, bool keep) {
  const auto named = [&](const Field& f) {
    for (const char* name : names)
      if (std::string(f.name) == name) return true;
    return false;
  };
  for (const char* name : names) {
    bool found = false;
    for (const Field& f : table.fields) found = found || std::string(f.name) == name;
    if (!found) throw std::out_of_range(std::string(table.type) + " has no field " + name);
  }
  FieldTable out{type, table.doc, {}};
  for (const Field& f : table.fields)
    if (named(f) == keep) out.fields.push_back(f);
  return out;
}

}  // namespace

FieldTable pick(const FieldTable& table, std::initializer_list<const char*> names, const char* type) {
  return select(table, names, type, true);
}

FieldTable omit(const FieldTable& table, std::initializer_list<const char*> names, const char* type) {
  return select(table, names, type, false);
}

}  // namespace dsml
