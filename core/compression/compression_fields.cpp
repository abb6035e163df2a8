// compression_fields.cpp — the gradient-compression results as field tables (dsml/compression_fields.h): each
// field's one name, its unit and its meaning, written once for the wasm objects, `dsml compress`'s JSON and
// compression.d.ts.
#include "dsml/compression_fields.h"

namespace dsml {
namespace {

const FieldTable& call_fields() {
  static const FieldTable table{
      "CompressedCall", "One collective a compressed step launches (compressed_collectives).",
      {field::text<&CollectiveCall::collective>("collective", "all-reduce|all-gather", "the collective"),
       field::number<&CollectiveCall::bytes>("bytes", "bytes", "what it carries: the reduced or gathered total")}};
  return table;
}

}  // namespace

const FieldTable& compression_wire_fields() {
  static const FieldTable table{
      "CompressionWire",
      "The collectives one compressed data-parallel step launches and what one worker sends with the ring algorithms "
      "(compression_wire).",
      {field::objects<&CompressionWire::collectives>("collectives", "", "one call per phase", call_fields()),
       field::number<&CompressionWire::payload_bytes>("payloadBytes", "bytes",
                                                      "one worker's compressed message for the whole model"),
       field::number<&CompressionWire::bytes_per_step>("bytesPerStep", "bytes", "what one worker sends a step"),
       field::number<&CompressionWire::uncompressed_bytes_per_step>(
           "uncompressedBytesPerStep", "bytes", "the same for the fp32 gradient's ring all-reduce"),
       field::flag<&CompressionWire::composes_with_all_reduce>(
           "composesWithAllReduce", "whether compressed messages sum in the compressed form (an all-reduce carries "
                                    "them), or must be gathered")}};
  return table;
}

const FieldTable& compression_seconds_fields() {
  static const FieldTable table{
      "CompressionSeconds", "Those calls priced by the ring closed forms on a network (compression_seconds).",
      {field::number<&CompressionSeconds::compressed_s>("commSeconds", "s", "the compressed step's communication"),
       field::number<&CompressionSeconds::uncompressed_s>("uncompressedCommSeconds", "s",
                                                          "the fp32 gradient's ring all-reduce")}};
  return table;
}

const FieldTable& compressed_training_fields() {
  static const FieldTable table{
      "TrainCompressedResult",
      "Data-parallel SGD on the teacher task with each worker's gradient compressed (train_compressed).",
      {field::objects<&CompressedTrainingResult::collectives>("collectives", "", "what carries it", call_fields()),
       field::number<&CompressedTrainingResult::payload_bytes>("payloadBytes", "bytes",
                                                               "one worker's compressed message a step"),
       field::number<&CompressedTrainingResult::bytes_per_step>("bytesPerStep", "bytes",
                                                                "what one worker sends a step"),
       field::number<&CompressedTrainingResult::uncompressed_bytes_per_step>(
           "uncompressedBytesPerStep", "bytes", "the same for the fp32 gradient's ring all-reduce"),
       field::number<&CompressedTrainingResult::final_error_norm>(
           "finalErrorNorm", "", "√(Σ_w ‖e_w‖²) at the end (0 without error feedback)"),
       field::column<&CompressedTrainingResult::losses>("losses", "",
                                                        "held-out loss before step 1, then after every step"),
       field::column<&CompressedTrainingResult::cumulative_bytes>("cumulativeBytes", "bytes",
                                                                  "what one worker has sent by then (the first 0)")}};
  return table;
}

}  // namespace dsml
