/**
 * A small OpenAI-compatible chat completions server on 127.0.0.1 that
 * answers from fixed text, for the endpoint reader's tests (Node and
 * browser). Paths choose the behaviour: /ok, /error500, /slow, /malformed,
 * /notjson, /nocors; for summaries /summary-poor (misses the facts) and
 * /summary-learns (misses them until the prompt lists what it must state). It records the requests it got and sends CORS headers.
 */
import { createServer, type IncomingMessage, type Server } from "node:http";

export interface FakeEndpoint {
  url: string;
  requests: { path: string; body: unknown; authorization?: string }[];
  close(): Promise<void>;
}

export async function startFakeEndpoint(answers: Record<string, string>): Promise<FakeEndpoint> {
  const requests: FakeEndpoint["requests"] = [];
  const server: Server = createServer(async (request, response) => {
    // /nocors behaves like a server that never heard of the browser's CORS rules.
    if (!request.url?.startsWith("/nocors")) {
      response.setHeader("access-control-allow-origin", "*");
      response.setHeader("access-control-allow-headers", "content-type, authorization");
      response.setHeader("access-control-allow-methods", "POST, OPTIONS");
    }
    if (request.method === "OPTIONS") {
      response.writeHead(204).end();
      return;
    }
    const body = await readBody(request);
    const path = request.url ?? "";
    requests.push({ path, body: safeParse(body), authorization: request.headers.authorization });
    const reply = (content: string) => {
      response.writeHead(200, { "content-type": "application/json" });
      response.end(JSON.stringify({ id: "fake", object: "chat.completion", choices: [{ index: 0, message: { role: "assistant", content } }] }));
    };
    const parsed = safeParse(body) as { messages?: { content?: string }[] } | string;
    const prompt = typeof parsed === "object" ? (parsed.messages?.map((m) => m.content ?? "").join("\n") ?? "") : "";
    if (path.startsWith("/summary-poor")) reply("## Goal\nFix the export.\n\n## Next Steps\n1. Keep going.");
    else if (path.startsWith("/summary-learns")) {
      // Poor at first; once told what it must state, it states exactly that.
      const at = prompt.indexOf("must state each of these");
      const lines =
        at === -1
          ? []
          : prompt
              .slice(at)
              .split("\n")
              .filter((line) => line.startsWith("- "));
      reply(lines.length ? `## Goal\nFix the export.\n\n## Critical Context\n${lines.join("\n")}` : "## Goal\nFix the export.");
    } else if (path.startsWith("/error500")) response.writeHead(500).end("boom");
    else if (path.startsWith("/slow")) setTimeout(() => reply(JSON.stringify(answers)), 3_000);
    else if (path.startsWith("/malformed")) reply("Sure! Here are my answers: files are src/export.ts");
    else if (path.startsWith("/notjson")) {
      response.writeHead(200, { "content-type": "application/json" });
      response.end("{not json");
    } else reply("```json\n" + JSON.stringify(answers) + "\n```");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (!address || typeof address === "string") throw new Error("no port");
  return {
    url: `http://127.0.0.1:${address.port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let data = "";
    request.on("data", (chunk) => (data += chunk));
    request.on("end", () => resolve(data));
  });
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
