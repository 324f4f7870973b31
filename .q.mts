import { readFileSync } from "node:fs";
import { loadSession } from "./core/session.ts";
import { textOf } from "./core/model.ts";
const [file, ...ids] = process.argv.slice(2);
const s = loadSession(readFileSync(file!));
for (const m of s.branch(null)) if (ids.includes(m.id)) { console.log("==", m.id, m.role); for (const b of m.blocks) console.log(b.type === "toolCall" ? JSON.stringify(b.arguments).slice(0, 600) : b.type === "text" ? b.text.slice(0, 400) : b.type); }
