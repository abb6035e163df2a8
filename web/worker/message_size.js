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

// What to post and what to transfer, so that the receiver gets its own copy and the sender may keep mutating its
// array at once, the way MPI_Send lets you reuse the buffer after it returns:
//   · a typed array that covers its whole buffer is posted as it is: postMessage's structured clone copies it
//     synchronously into the message, and only the receiver allocates (its copy);
//   · a view of part of a buffer (a chunk of a ring all-reduce) would clone the WHOLE buffer, so it is first
//     copied into `scratch(view)` — a reusable array of exactly its type and length, when the caller keeps such
//     arrays (rank_messaging.js does) — or into a fresh buffer that is then transferred (moved, not copied again).
// An ArrayBuffer allocation costs a Worker far more than the copy: in Chromium, tens of µs for a few KiB (see
// bench/lab_steps.mjs), so a send allocates none. With move=true the caller's own buffer is transferred instead
// (zero copies; the caller's array becomes detached, length 0) — the analogue of handing off ownership.
// Everything else goes through the structured clone of postMessage.
export function preparePayload(data, move = false, scratch = null) {
  if (ArrayBuffer.isView(data)) {
    if (move) return { payload: data, transfer: [data.buffer] };
    if (data instanceof DataView) {
      const copy = new DataView(data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength));
      return { payload: copy, transfer: [copy.buffer] };
    }
    if (data.byteOffset === 0 && data.byteLength === data.buffer.byteLength) return { payload: data, transfer: [] };
    if (scratch) {
      const copy = scratch(data);
      copy.set(data);
      return { payload: copy, transfer: [] };
    }
    const copy = data.slice();  // same element type, own exactly-sized buffer
    return { payload: copy, transfer: [copy.buffer] };
  }
  if (data instanceof ArrayBuffer) {
    if (move) return { payload: data, transfer: [data] };
    return { payload: data, transfer: [] };  // cloned: copied into the message
  }
  return { payload: data, transfer: [] };
}

// scratch(view) for preparePayload: one reusable array per element type and length (a sender's chunks repeat
// their sizes step after step). At most `limit` of them are kept, so a program that sends many sizes holds
// little memory.
export function scratchArrays(limit = 32) {
  const arrays = new Map();
  return (view) => {
    const key = `${view.constructor.name}:${view.length}`;
    let array = arrays.get(key);
    if (!array) {
      if (arrays.size >= limit) arrays.clear();
      array = new view.constructor(view.length);
      arrays.set(key, array);
    }
    return array;
  };
}
