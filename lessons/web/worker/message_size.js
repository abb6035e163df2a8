// message_size.js — how many bytes a message "costs", and how it crosses from one Worker to another.
//
// The size is what the α–β model charges for (T(n) = α + β·n, n in bytes), so it must be the same number
// the simulator would use for the same payload:
//   typed array / DataView / ArrayBuffer → byteLength   (raw data: the common case for gradients)
//   number                               → 8            (one float64)
//   anything else                        → UTF-8 length of JSON.stringify(value)   (a fair proxy for
//                                          "this object serialised on a wire")
const utf8 = new TextEncoder();

export function messageBytes(data) {
  if (ArrayBuffer.isView(data) || data instanceof ArrayBuffer) return data.byteLength;
  if (typeof data === "number" || typeof data === "bigint") return 8;
  let json;
  try {
    json = JSON.stringify(data);
  } catch {
    return 0;  // cycles: structured clone still delivers it; we cannot size it fairly
  }
  return json === undefined ? 0 : utf8.encode(json).length;
}

// What to post and what to transfer. A typed array is copied ONCE into a fresh buffer and that buffer is
// transferred (moved, not copied again) to the receiver — so the sender may keep mutating its array, the way
// MPI_Send lets you reuse the buffer after it returns. With move=true the caller's own buffer is transferred
// instead (zero copies; the caller's array becomes detached, length 0) — the analogue of handing off ownership.
// Everything else goes through the structured clone of postMessage.
export function preparePayload(data, move = false) {
  if (ArrayBuffer.isView(data)) {
    if (move) return { payload: data, transfer: [data.buffer] };
    const copy = data instanceof DataView
      ? new DataView(data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength))
      : data.slice();  // same element type, own exactly-sized buffer
    return { payload: copy, transfer: [copy.buffer] };
  }
  if (data instanceof ArrayBuffer) {
    const buffer = move ? data : data.slice(0);
    return { payload: buffer, transfer: [buffer] };
  }
  return { payload: data, transfer: [] };
}
