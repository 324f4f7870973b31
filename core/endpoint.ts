/**
 * One chat completion from an OpenAI-compatible server the user runs
 * (llama.cpp, Ollama, vLLM, LM Studio). Shared by the endpoint reader and
 * the summarizer: failures come back as a reason, never as an exception.
 */
export interface EndpointConfig {
  /** Base URL, e.g. http://127.0.0.1:8080/v1 */
  url: string;
  model: string;
  apiKey?: string;
  timeoutMs?: number;
  /** For tests and other runtimes (the app proxies through the page); defaults to globalThis.fetch. */
  fetch?: typeof fetch;
}

/** The settings a user gives (and a worker message can carry): the endpoint without its fetch. */
export type EndpointSettings = Omit<EndpointConfig, "fetch">;

export type Completion = { ok: true; text: string } | { ok: false; reason: string };

export function chatCompletionsUrl(base: string): string {
  const trimmed = base.replace(/\/+$/, "");
  return trimmed.endsWith("/chat/completions") ? trimmed : `${trimmed}/chat/completions`;
}

export async function chatCompletion(endpoint: EndpointConfig, system: string, user: string, defaultTimeoutMs: number): Promise<Completion> {
  const doFetch = endpoint.fetch ?? globalThis.fetch;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), endpoint.timeoutMs ?? defaultTimeoutMs);
  try {
    const response = await doFetch(chatCompletionsUrl(endpoint.url), {
      method: "POST",
      headers: { "content-type": "application/json", ...(endpoint.apiKey ? { authorization: `Bearer ${endpoint.apiKey}` } : {}) },
      body: JSON.stringify({
        model: endpoint.model,
        temperature: 0,
        messages: [
          { role: "system", content: system },
          { role: "user", content: user },
        ],
      }),
      signal: controller.signal,
    });
    if (!response.ok) return { ok: false, reason: `the endpoint answered HTTP ${response.status}` };
    const body = (await response.json()) as { choices?: { message?: { content?: unknown } }[] };
    const text = body.choices?.[0]?.message?.content;
    return typeof text === "string" ? { ok: true, text } : { ok: false, reason: "the endpoint's reply has no message content" };
  } catch (error) {
    const aborted = error instanceof Error && error.name === "AbortError";
    return { ok: false, reason: aborted ? "the endpoint timed out" : `the endpoint could not be reached (${error instanceof Error ? error.message : String(error)})` };
  } finally {
    clearTimeout(timer);
  }
}
