/**
 * Two independent 32-bit FNV-1a lanes over a text's UTF-16 code units: a
 * cheap 64-bit digest for what runs once per message or per id (the library's
 * audit-input fingerprints, its resume points' id filters). Not for anything
 * an adversary picks: SHA-256 (core/sha256.ts) is for that.
 */
export function fnvLanes(text: string): [number, number] {
  let a = 0x811c9dc5;
  let b = 0x050c5d1f;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    a = Math.imul(a ^ unit, 0x01000193);
    b = Math.imul(b ^ unit, 0x01000193) ^ (b >>> 15);
  }
  return [a >>> 0, b >>> 0];
}
