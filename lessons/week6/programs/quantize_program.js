// quantize_program.js — the program of Week 6's 8-bit quantization exercise (the learner's encode and decode first,
// then the functions below as source text). Every rank quantizes its own vector `draws` times with a seeded uniform
// generator, sends each message to the next rank around a ring — the codes, then the header, as two messages so the
// trace shows each one's bytes — and decodes every message it receives from the previous rank. The checker reads the
// bytes from the trace and judges the decoded draws against the sender's vector, which it knows from the case.
import { seededRandom } from "./seeded_random.js";

async function main(ctx) {
  const { x, draws, seed } = ctx.input, rand = seededRandom(seed);
  const to = (ctx.rank + 1) % ctx.size, from = (ctx.rank - 1 + ctx.size) % ctx.size;
  const mine = Float64Array.from(x), decoded = [];
  for (let d = 0; d < draws; d++) {
    const message = encode(mine, rand);
    ctx.send(to, message?.codes);
    ctx.send(to, message?.header);
    const codes = await ctx.recv(from), header = await ctx.recv(from);
    decoded.push(Array.from(decode(codes, header)));
  }
  return { from, decoded };
}

export const quantizeProgram = (learnerCode) => [learnerCode, seededRandom, main].map(String).join("\n\n") + "\n";
