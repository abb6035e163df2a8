// dsml/compression_fields.h — Week 6's gradient-compression results as field tables (dsml/result_fields.h): what
// compressionWire and trainCompressed return in JavaScript and `dsml compress` prints, field for field, and what
// types/compression.d.ts declares.
#pragma once

#include "dsml/compressed_training.h"
#include "dsml/compression.h"
#include "dsml/result_fields.h"

namespace dsml {

const FieldTable& compression_wire_fields();        // CompressionWire: the calls a compressed step launches, its bytes
const FieldTable& compression_seconds_fields();     // CompressionSeconds: those calls priced by the ring closed forms
const FieldTable& compressed_training_fields();     // CompressedTrainingResult: the loss and the bytes, step by step

inline const FieldTable& fields_of(const CompressionWire&) { return compression_wire_fields(); }
inline const FieldTable& fields_of(const CompressionSeconds&) { return compression_seconds_fields(); }
inline const FieldTable& fields_of(const CompressedTrainingResult&) { return compressed_training_fields(); }

}  // namespace dsml
