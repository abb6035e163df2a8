// compressor_config.cpp — naming and checking a compressor (dsml/compression.h).
#include <cmath>

#include "dsml/compression.h"
#include "dsml/error.h"

namespace dsml {
namespace {

constexpr CompressorKind kAll[] = {CompressorKind::none, CompressorKind::top_k, CompressorKind::random_k,
                                   CompressorKind::int8, CompressorKind::qsgd,  CompressorKind::sign,
                                   CompressorKind::powersgd};

}  // namespace

const char* compressor_name(CompressorKind kind) {
  switch (kind) {
    case CompressorKind::none: return "none";
    case CompressorKind::top_k: return "top-k";
    case CompressorKind::random_k: return "random-k";
    case CompressorKind::int8: return "int8";
    case CompressorKind::qsgd: return "qsgd";
    case CompressorKind::sign: return "sign";
    case CompressorKind::powersgd: return "powersgd";
  }
  return "?";
}

CompressorKind parse_compressor(const std::string& name) {
  for (const CompressorKind kind : kAll)
    if (name == compressor_name(kind)) return kind;
  throw Error("unknown compressor \"" + name + "\"; choose none, top-k, random-k, int8, qsgd, sign or powersgd");
}

void validate(const CompressorConfig& c) {
  if (!(c.ratio > 0.0 && c.ratio <= 1.0))
    throw Error("ratio (fraction of values kept) must be in (0, 1], got " + format_number(c.ratio));
  if (c.levels < 1) throw Error("levels (QSGD's s) must be >= 1, got " + std::to_string(c.levels));
  if (c.rank < 1) throw Error("rank (PowerSGD's r) must be >= 1, got " + std::to_string(c.rank));
  if (c.element_bytes < 1 || c.element_bytes > 8)
    throw Error("element_bytes must be between 1 and 8, got " + std::to_string(c.element_bytes));
  if (c.index_bytes < 1 || c.index_bytes > 8)
    throw Error("index_bytes must be between 1 and 8, got " + std::to_string(c.index_bytes));
}

}  // namespace dsml
