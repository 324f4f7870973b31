/** Base64 both ways, against Node's own Buffer codec on any bytes. */
import fc from "fast-check";
import { expect, it } from "vitest";
import { fromBase64, toBase64 } from "../../core/base64.ts";

it("encodes as Buffer does and decodes back, for any bytes", () => {
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => {
      const text = toBase64(bytes);
      expect(text).toBe(Buffer.from(bytes).toString("base64"));
      expect(fromBase64(text)).toEqual(bytes);
    }),
    { numRuns: 500 },
  );
});

it("refuses a text that is not base64", () => {
  expect(() => fromBase64("abc")).toThrow(/multiple of 4/);
  expect(() => fromBase64("ab*d")).toThrow(/not in the alphabet/);
});
