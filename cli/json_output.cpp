// json_output.cpp — see json_output.h.
#include "json_output.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace dsml::cli {

std::string json_number(double value) {
  if (!std::isfinite(value)) return "null";
  char buffer[32];
  for (int precision = 15; precision <= 17; ++precision) {
    std::snprintf(buffer, sizeof buffer, "%.*g", precision, value);
    if (std::strtod(buffer, nullptr) == value) break;
  }
  return buffer;
}

void JsonObject::key(const std::string& name) {
  body_ += body_.empty() ? "\"" : ", \"";
  body_ += name + "\": ";  // our keys are plain identifiers: nothing to escape
}

JsonObject& JsonObject::add(const std::string& name, double value) {
  key(name);
  body_ += json_number(value);
  return *this;
}

JsonObject& JsonObject::add(const std::string& name, const std::vector<double>& values) {
  key(name);
  body_ += "[";
  for (std::size_t i = 0; i < values.size(); ++i) body_ += (i ? ", " : "") + json_number(values[i]);
  body_ += "]";
  return *this;
}

namespace {

// `text` as a JSON string, escaped.
std::string quoted(const std::string& text) {
  std::string out = "\"";
  for (const char c : text) {  // UTF-8 bytes (like "→" in a link name) pass through unchanged
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\u%04x", static_cast<unsigned>(c));
      out += escaped;
    } else {
      out += c;
    }
  }
  return out + '"';
}

}  // namespace

JsonObject& JsonObject::add_text(const std::string& name, const std::string& text) {
  key(name);
  body_ += quoted(text);
  return *this;
}

JsonObject& JsonObject::add_texts(const std::string& name, const std::vector<std::string>& texts) {
  key(name);
  body_ += "[";
  for (std::size_t i = 0; i < texts.size(); ++i) body_ += (i ? ", " : "") + quoted(texts[i]);
  body_ += "]";
  return *this;
}

JsonObject& JsonObject::add_object(const std::string& name, const JsonObject& object) {
  key(name);
  body_ += object.str();
  return *this;
}

JsonObject& JsonObject::add_objects(const std::string& name, const std::vector<JsonObject>& objects) {
  key(name);
  body_ += "[";
  for (std::size_t i = 0; i < objects.size(); ++i) body_ += (i ? ", " : "") + objects[i].str();
  body_ += "]";
  return *this;
}

JsonObject& JsonObject::add_bool(const std::string& name, bool value) {
  key(name);
  body_ += value ? "true" : "false";
  return *this;
}

JsonObject& JsonObject::add_null(const std::string& name) {
  key(name);
  body_ += "null";
  return *this;
}

JsonObject& JsonObject::add_fields(const JsonObject& other) {
  if (!body_.empty() && !other.body_.empty()) body_ += ", ";
  body_ += other.body_;
  return *this;
}

std::string JsonObject::str() const { return "{" + body_ + "}"; }

}  // namespace dsml::cli
