/**
 * The strategies' payload digests are computed once per payload object and
 * are exactly the archive's digests (core/hash.ts digestPayloads).
 */
import { expect, it } from "vitest";
import * as hash from "../../../core/hash.ts";
import { payloadDigests } from "../../../core/strategies/payload-digests.ts";

const message = { id: "m1", role: "toolResult", meta: {}, blocks: [{ type: "text", text: "ls -la\ntotal 0" }] };

it("gives digestPayloads' digests, for objects and for strings alike", async () => {
  const payloads = [message, message.blocks, message.blocks[0], "a bare string", { type: "text", text: "ünïcode ✓" }];
  expect(await payloadDigests(payloads)).toEqual(await hash.digestPayloads(payloads));
});

it("hashes an object seen before no more, and a copy of it anew", async () => {
  // JSON.stringify calls toJSON: it counts how often the payload is serialized for hashing.
  let serialized = 0;
  const payload = { toJSON: () => (serialized++, { type: "text", text: "total 0" }) };
  const first = await payloadDigests([payload]);
  const again = await payloadDigests([payload, message.blocks]);
  expect(serialized).toBe(1);
  expect(again[0]).toBe(first[0]);
  expect(again[1]).toEqual((await hash.digestPayloads([message.blocks]))[0]);
  const masked = { ...message, blocks: [{ type: "text", text: "ls -la\n[REDACTED]" }] };
  const [copy] = await payloadDigests([masked]);
  expect(copy).toEqual((await hash.digestPayloads([masked]))[0]);
  expect(copy!.sha256).not.toBe((await hash.digestPayloads([message]))[0]!.sha256);
});
