/** Find matches in row text, wrapped in <mark> (text only, never HTML). Case-insensitive, like the worker's search. */
import type { ReactNode } from "react";
import { useApp } from "../../store/store.ts";

export function useFindQuery(): string {
  return useApp((s) => (s.search && (s.search.original.length > 0 || s.search.active.length > 0) ? s.search.query.trim() : ""));
}

export function highlight(text: string, query: string): ReactNode {
  if (!query) return text;
  const lower = text.toLowerCase();
  const needle = query.toLowerCase();
  let at = lower.indexOf(needle);
  if (at < 0) return text;
  const parts: ReactNode[] = [];
  let from = 0;
  while (at >= 0 && parts.length < 200) {
    if (at > from) parts.push(text.slice(from, at));
    parts.push(
      <mark key={at} className="find-hit" data-testid="find-hit">
        {text.slice(at, at + needle.length)}
      </mark>,
    );
    from = at + needle.length;
    at = lower.indexOf(needle, from);
  }
  parts.push(text.slice(from));
  return parts;
}

export function Highlighted({ text }: { text: string }) {
  const query = useFindQuery();
  return <>{highlight(text, query)}</>;
}
