/**
 * The resume point's id filter: no id added is ever missed, through the text a point keeps and back;
 * false positives about 1 % at capacity; its text is plain base64 of the filter's bytes; a damaged
 * text is refused, not read as a filter.
 */
import fc from "fast-check";
import { expect, it } from "vitest";
import { idFilterFor, OpenIdFilter } from "../../../core/library/id-filter.ts";

it("never misses an id added, before and after the text a point keeps", () => {
  fc.assert(
    fc.property(fc.uniqueArray(fc.string({ minLength: 1, maxLength: 40 }), { maxLength: 600 }), fc.nat(600), (ids, split) => {
      const first = idFilterFor(Math.min(split, ids.length));
      ids.slice(0, split).forEach((id) => first.add(id));
      const reopened = OpenIdFilter.open(first.kept())!;
      ids.slice(split).forEach((id) => reopened.add(id));
      const again = OpenIdFilter.open(reopened.kept())!;
      for (const id of ids) expect(again.mayHave(id), id).toBe(true);
      expect(again.count).toBe(ids.length);
    }),
    { numRuns: 200 },
  );
});

it("says maybe for about 1 % of ids never added, at capacity", () => {
  const filter = idFilterFor(5_000);
  for (let i = 0; i < filter.capacity; i++) filter.add(`entry-${i}`);
  let maybe = 0;
  for (let i = 0; i < 20_000; i++) if (filter.mayHave(`other-${i}`)) maybe++;
  expect(maybe / 20_000).toBeLessThan(0.02);
  expect(filter.full).toBe(true);
});

it("keeps plain base64 of its bytes (no padding), and refuses a damaged text", () => {
  const filter = idFilterFor(10);
  filter.add("a1");
  const { bits } = filter.kept();
  expect(bits).not.toContain("=");
  const bytes = Buffer.from(bits, "base64");
  expect(Buffer.from(bytes).toString("base64")).toBe(bits);
  // Seven bits set (fewer if two hashes meet), in the bytes Buffer decodes.
  const set = [...bytes].reduce((sum, byte) => sum + byte.toString(2).replaceAll("0", "").length, 0);
  expect(set).toBeGreaterThan(0);
  expect(set).toBeLessThanOrEqual(7);
  expect(OpenIdFilter.open({ ...filter.kept(), bits: bits.slice(1) })).toBeNull();
  expect(OpenIdFilter.open({ ...filter.kept(), bits: `*${bits.slice(1)}` })).toBeNull();
});
