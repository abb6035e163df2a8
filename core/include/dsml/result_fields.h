// dsml/result_fields.h — a result type's fields as data: for each field its one name, its unit and what it means,
// and how to read it from the struct. Every front end writes a result by walking its table (write_fields), so the
// wasm object, the CLI's JSON and the TypeScript contract (dsml.d.ts, checked against the table by a test) show the
// same fields under the same names:
//
//   table (plan_fields.cpp) ──write_fields──▶ JS object   (core/bindings: names as written, camelCase)
//                           ──write_fields──▶ JSON line   (cli: the same names in snake_case)
//                           ──test─────────▶ dsml.d.ts    (tests/core/test_result_fields.cpp)
//
// A field reads its value through a member pointer or a function of the struct (Get), chosen at compile time, so a
// table is a list of plain rows:
//   field::number<&StepPlan::mfu>("mfu", "", "model FLOPs per second over the GPUs' peak")
#pragma once

#include <cstddef>
#include <functional>
#include <initializer_list>
#include <string>
#include <vector>

namespace dsml {

// numbers: a short list (JavaScript: an Array); column: a per-event or per-round series (JavaScript: a copied
// Float64Array, one copy however long); texts: a list of names; maybe: an object or null.
enum class FieldKind { number, flag, text, numbers, column, texts, object, maybe, objects };

struct FieldTable;

struct Field {
  const char* name;     // the one spelling, camelCase (JavaScript's); the CLI prints it in snake_case
  const char* unit;     // "s", "bytes", "FLOP", … ; "" for a count, a ratio, a name or a flag
  const char* doc;      // what it is, one sentence
  FieldKind kind;
  const char* choices;  // text: the names it takes, "a|b|c" ("" for any)
  const FieldTable* fields;  // object, maybe, objects: each one's table
  bool optional;             // present only when the caller asks for it (TypeScript: `name?:`)
  // How the value is read from the struct (the one matching `kind`; the others are null).
  double (*number)(const void*);
  bool (*flag)(const void*);
  std::string (*text)(const void*);
  std::vector<double> (*numbers)(const void*);  // numbers, column
  std::vector<std::string> (*texts)(const void*);
  const void* (*object)(const void*);           // object; maybe (null: none)
  std::size_t (*count)(const void*);
  const void* (*item)(const void*, std::size_t);
};

struct FieldTable {
  const char* type;  // the TypeScript interface dsml.d.ts declares it as
  const char* doc;
  std::vector<Field> fields;
};

namespace field_detail {
template <class>
struct source;
template <class C, class V>
struct source<V C::*> {
  using type = C;
};
template <class R, class A>
struct source<R (*)(const A&)> {
  using type = A;
};
template <auto Get>
using source_t = typename source<decltype(Get)>::type;
template <auto Get>
decltype(auto) read(const void* x) {
  return std::invoke(Get, *static_cast<const source_t<Get>*>(x));
}
inline Field row(const char* name, const char* unit, const char* doc, FieldKind kind) {
  Field f{};
  f.name = name;
  f.unit = unit;
  f.doc = doc;
  f.kind = kind;
  f.choices = "";
  return f;
}
}  // namespace field_detail

// The rows of a table. Get is a member pointer (&StepPlan::mfu) or a function of the struct
// (const char* f(const PlannerLayout&)); object and objects need Get to give a reference (a member, or a function
// returning one), since the walk keeps a pointer to it.
namespace field {

template <auto Get>
Field number(const char* name, const char* unit, const char* doc) {
  Field f = field_detail::row(name, unit, doc, FieldKind::number);
  f.number = [](const void* x) { return static_cast<double>(field_detail::read<Get>(x)); };
  return f;
}

template <auto Get>
Field flag(const char* name, const char* doc) {
  Field f = field_detail::row(name, "", doc, FieldKind::flag);
  f.flag = [](const void* x) { return static_cast<bool>(field_detail::read<Get>(x)); };
  return f;
}

template <auto Get>
Field text(const char* name, const char* choices, const char* doc) {
  Field f = field_detail::row(name, "", doc, FieldKind::text);
  f.choices = choices;
  f.text = [](const void* x) { return std::string(field_detail::read<Get>(x)); };
  return f;
}

template <auto Get>
Field numbers(const char* name, const char* unit, const char* doc) {
  Field f = field_detail::row(name, unit, doc, FieldKind::numbers);
  f.numbers = [](const void* x) {
    const auto& values = field_detail::read<Get>(x);
    return std::vector<double>(values.begin(), values.end());
  };
  return f;
}

template <auto Get>
Field column(const char* name, const char* unit, const char* doc) {
  Field f = numbers<Get>(name, unit, doc);
  f.kind = FieldKind::column;
  return f;
}

template <auto Get>
Field texts(const char* name, const char* doc) {
  Field f = field_detail::row(name, "", doc, FieldKind::texts);
  f.texts = [](const void* x) {
    const auto& values = field_detail::read<Get>(x);
    return std::vector<std::string>(values.begin(), values.end());
  };
  return f;
}

template <auto Get>
Field object(const char* name, const char* unit, const char* doc, const FieldTable& table) {
  Field f = field_detail::row(name, unit, doc, FieldKind::object);
  f.fields = &table;
  f.object = [](const void* x) -> const void* { return &field_detail::read<Get>(x); };
  return f;
}

// Get gives a pointer, null when there is none (the busiest link of a run that used no link).
template <auto Get>
Field maybe(const char* name, const char* unit, const char* doc, const FieldTable& table) {
  Field f = field_detail::row(name, unit, doc, FieldKind::maybe);
  f.fields = &table;
  f.object = [](const void* x) -> const void* { return field_detail::read<Get>(x); };
  return f;
}

template <auto Get>
Field objects(const char* name, const char* unit, const char* doc, const FieldTable& table) {
  Field f = field_detail::row(name, unit, doc, FieldKind::objects);
  f.fields = &table;
  f.count = [](const void* x) { return field_detail::read<Get>(x).size(); };
  f.item = [](const void* x, std::size_t i) -> const void* { return &field_detail::read<Get>(x)[i]; };
  return f;
}

// `f`, written only when the caller asks for it (a run's per-event spans): a front end leaves it out otherwise, with
// omit().
inline Field optional(Field f) {
  f.optional = true;
  return f;
}

}  // namespace field

// The fields of `table` named in `names`, in the table's order: a view of a result that shows part of it (Week 5's
// layouts show a plan's time, memory and fits). Throws std::out_of_range on a name the table does not have.
FieldTable pick(const FieldTable& table, std::initializer_list<const char*> names, const char* type);
// The fields of `table` but those named in `names` (`dsml pipeline` leaves the timeline out unless asked).
FieldTable omit(const FieldTable& table, std::initializer_list<const char*> names, const char* type);

// `value` (of the table's type) as a front end's object. Out is default-constructible with
//   number(name, double), flag(name, bool), text(name, std::string), numbers(name, std::vector<double>),
//   column(name, std::vector<double>), texts(name, std::vector<std::string>), object(name, Out), null(name),
//   objects(name, std::vector<Out>)
// each adding one field under the table's name (a front end may respell it, as the CLI's snake_case does).
template <class Out>
Out write_fields(const FieldTable& table, const void* value) {
  Out out;
  for (const Field& f : table.fields) {
    switch (f.kind) {
      case FieldKind::number: out.number(f.name, f.number(value)); break;
      case FieldKind::flag: out.flag(f.name, f.flag(value)); break;
      case FieldKind::text: out.text(f.name, f.text(value)); break;
      case FieldKind::numbers: out.numbers(f.name, f.numbers(value)); break;
      case FieldKind::column: out.column(f.name, f.numbers(value)); break;
      case FieldKind::texts: out.texts(f.name, f.texts(value)); break;
      case FieldKind::object: out.object(f.name, write_fields<Out>(*f.fields, f.object(value))); break;
      case FieldKind::maybe: {
        const void* inner = f.object(value);
        if (inner) out.object(f.name, write_fields<Out>(*f.fields, inner)); else out.null(f.name);
        break;
      }
      case FieldKind::objects: {
        std::vector<Out> items;
        for (std::size_t i = 0, n = f.count(value); i < n; ++i)
          items.push_back(write_fields<Out>(*f.fields, f.item(value, i)));
        out.objects(f.name, items);
        break;
      }
    }
  }
  return out;
}

// The same for a result whose table fields_of(value) names (found by argument-dependent lookup).
template <class Out, class T>
Out write_fields(const T& value) {
  return write_fields<Out>(fields_of(value), &value);
}

}  // namespace dsml
