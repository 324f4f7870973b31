/**
 * Where the page may connect. The static policy in index.html governs
 * everything but connections; this one, added before the worker starts,
 * allows the page's own origin plus the model endpoints the user allowed
 * (kept in localStorage). A policy can only be tightened once a page is
 * running, so allowing a new endpoint reloads the page.
 */
const STORAGE_KEY = "session-inspector.endpoint-origins";

export function allowedEndpointOrigins(): string[] {
  try {
    const stored = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? "[]");
    return Array.isArray(stored) ? stored.filter((o): o is string => typeof o === "string" && /^https?:\/\/[^\s;'"]+$/.test(o)) : [];
  } catch {
    return [];
  }
}

export function connectPolicy(origins: readonly string[]): string {
  return ["connect-src 'self'", ...origins].join(" ");
}

export function installConnectPolicy(): void {
  const meta = document.createElement("meta");
  meta.httpEquiv = "Content-Security-Policy";
  meta.content = connectPolicy(allowedEndpointOrigins());
  document.head.prepend(meta);
}

export function originOf(url: string): string | null {
  try {
    const parsed = new URL(url);
    return parsed.protocol === "http:" || parsed.protocol === "https:" ? parsed.origin : null;
  } catch {
    return null;
  }
}

/** Allows one more endpoint origin (or forgets one) and reloads so the policy takes effect. */
export function setEndpointAllowed(origin: string, allowed: boolean): void {
  const origins = new Set(allowedEndpointOrigins());
  if (allowed) origins.add(origin);
  else origins.delete(origin);
  localStorage.setItem(STORAGE_KEY, JSON.stringify([...origins]));
  window.location.reload();
}
