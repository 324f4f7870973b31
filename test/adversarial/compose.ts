/** Small sessions composed for the adversarial tests (never copied from the fixtures). */

/** A Pi v3 session whose messages are dense in 2-, 3- and 4-byte characters, so any piece size cuts some. */
export function multiByteSession(messages = 6): string {
  const lines = [JSON.stringify({ type: "session", version: 3, id: "adv-0001", timestamp: "2026-11-20T09:00:00.000Z", cwd: "/tmp/adv" })];
  let parent: string | null = null;
  const alphabet = ["é", "€", "東", "😀", "ß", "ж", "a"];
  for (let i = 0; i < messages; i++) {
    const id = `m${String(i).padStart(7, "0")}`;
    // A different rotation per message: the bytes at the same offset of the next piece differ.
    const text = Array.from({ length: 40 + i * 7 }, (_, k) => alphabet[(k * (i + 2)) % alphabet.length]).join("");
    const role = i % 2 === 0 ? "user" : "assistant";
    lines.push(
      JSON.stringify({
        type: "message",
        id,
        parentId: parent,
        timestamp: `2026-11-20T09:00:${String(10 + i).padStart(2, "0")}.000Z`,
        message: { role, content: [{ type: "text", text }] },
      }),
    );
    parent = id;
  }
  return lines.join("\n") + "\n";
}
