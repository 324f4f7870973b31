/** Decoding a file in pieces: the same text, and the same failures, as decoding it whole, for any split. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { PieceDecoder, StreamTextPieces, type TextPieces } from "../../core/decode.ts";

const whole = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });

function decodeWhole(bytes: Uint8Array): string | "error" {
  try {
    return whole.decode(bytes);
  } catch {
    return "error";
  }
}

function decodeInPieces(bytes: Uint8Array, cuts: number[], decoder: TextPieces = new PieceDecoder()): string | "error" {
  let text = "";
  let from = 0;
  try {
    for (const cut of [...cuts, bytes.length].sort((a, b) => a - b)) {
      if (cut < from) continue;
      text += decoder.decode(bytes.subarray(from, cut));
      from = cut;
    }
    return text + decoder.finish();
  } catch {
    return "error";
  }
}

const encoder = new TextEncoder();
// Text dense in multi-byte characters (2, 3 and 4 bytes), maybe with a BOM, a BOM later on, and stray bytes.
const bytesArb = fc
  .record({
    bom: fc.boolean(),
    text: fc.array(fc.constantFrom("a", "é", "€", "東", "😀", "\uFEFF", "\n", "{}"), { maxLength: 40 }).map((parts) => parts.join("")),
    stray: fc.option(fc.record({ at: fc.nat(), byte: fc.constantFrom(0x80, 0xbf, 0xc3, 0xe2, 0xf0, 0xff, 0xc0) })),
  })
  .map(({ bom, text, stray }) => {
    const bytes = Array.from(encoder.encode((bom ? "\uFEFF" : "") + text));
    if (stray) bytes.splice(stray.at % (bytes.length + 1), 0, stray.byte);
    return Uint8Array.from(bytes);
  });

describe("decoding in pieces (PieceDecoder, and TextDecoder's stream mode)", () => {
  it("equals a whole fatal decode for any split, errors included", () => {
    fc.assert(
      fc.property(bytesArb, fc.array(fc.nat(), { maxLength: 12 }), (bytes, rawCuts) => {
        const cuts = rawCuts.map((cut) => cut % (bytes.length + 1));
        expect(decodeInPieces(bytes, cuts)).toBe(decodeWhole(bytes));
        expect(decodeInPieces(bytes, cuts, new StreamTextPieces())).toBe(decodeWhole(bytes));
      }),
      { numRuns: 3000 },
    );
  });

  it("one byte at a time", () => {
    const bytes = encoder.encode("\uFEFFé€東😀 and a later \uFEFF stays");
    expect(decodeInPieces(bytes, Array.from(bytes.keys()))).toBe(decodeWhole(bytes));
    const cut = Uint8Array.from([...encoder.encode("ok "), 0xf0, 0x9f]);
    expect(decodeInPieces(cut, [4])).toBe("error");
  });
});
