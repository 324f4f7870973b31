/** Find-in-session and filters. */
import { useEffect, useRef, useState } from "react";
import type { Role } from "../../core/model.ts";
import { closeSearch, runSearch, setFilters, stepSearch, useApp } from "../store/store.ts";
import { ROLE_LABELS } from "./format.ts";

/** How long typing pauses before the matches are counted. */
const TYPING_PAUSE_MS = 250;

const FILTER_ROLES: Role[] = ["user", "assistant", "toolResult", "bash", "summary", "custom", "system"];

/** "2 / 7 in the active context · original 9 · active 7", or before Enter "7 matches · original 9 · active 7 · Enter to go". */
function countsText(search: NonNullable<ReturnType<typeof useApp.getState>["search"]>, hits: number): string {
  if (hits === 0) return "no match";
  const more = search.capped ? "+" : "";
  const panes = `original ${search.original.length}${more} · active ${search.active.length}${more}`;
  if (search.cursor < 0) return `${hits}${more} ${hits === 1 ? "match" : "matches"} · ${panes} · Enter to go`;
  return `${search.cursor + 1} / ${hits}${more} ${search.active.length > 0 ? "in the active context" : "in the original only"} · ${panes}`;
}

export function FindBar({ focusNonce }: { focusNonce: number }) {
  const search = useApp((s) => s.search);
  const filters = useApp((s) => s.filters);
  const hasView = useApp((s) => s.view !== null);
  const [query, setQuery] = useState("");
  const input = useRef<HTMLInputElement>(null);

  useEffect(() => {
    if (focusNonce > 0) input.current?.focus();
  }, [focusNonce]);

  // Counts as you type (a pause of TYPING_PAUSE_MS); Enter goes to the matches.
  useEffect(() => {
    if (!hasView) return;
    if (query.trim() === "") {
      if (useApp.getState().search) closeSearch();
      return;
    }
    if (useApp.getState().search?.query === query) return;
    const timer = setTimeout(() => void runSearch(query, true), TYPING_PAUSE_MS);
    return () => clearTimeout(timer);
  }, [query, hasView]);

  const hits = search ? (search.active.length > 0 ? search.active : search.original) : [];
  const toggleRole = (role: Role) => setFilters({ roles: filters.roles.includes(role) ? filters.roles.filter((r) => r !== role) : [...filters.roles, role] });

  return (
    <div className="findbar">
      <form
        role="search"
        onSubmit={(e) => {
          e.preventDefault();
          if (search && search.query === query) stepSearch(1);
          else void runSearch(query);
        }}
      >
        <input
          ref={input}
          type="search"
          placeholder="Find in session (/)"
          aria-label="Find in session"
          value={query}
          disabled={!hasView}
          onChange={(e) => setQuery(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === "Escape") {
              // Esc closes find only: the window's Esc (which closes the selected message) never sees it.
              e.preventDefault();
              e.stopPropagation();
              e.nativeEvent.stopImmediatePropagation();
              setQuery("");
              closeSearch();
              (e.target as HTMLInputElement).blur();
            }
            if (e.key === "Enter" && e.shiftKey) {
              e.preventDefault();
              stepSearch(-1);
            }
          }}
        />
        <button type="button" className="small" disabled={hits.length === 0} onClick={() => stepSearch(-1)} aria-label="Previous match">
          ↑
        </button>
        <button type="button" className="small" disabled={hits.length === 0} onClick={() => stepSearch(1)} aria-label="Next match">
          ↓
        </button>
        {search ? (
          <span className="dim find-counts" aria-live="polite" data-testid="find-counts">
            {countsText(search, hits.length)}
          </span>
        ) : null}
      </form>
      <div className="filters" role="group" aria-label="Filters">
        {FILTER_ROLES.map((role) => (
          <label key={role} className="filter">
            <input type="checkbox" checked={filters.roles.includes(role)} onChange={() => toggleRole(role)} /> {ROLE_LABELS[role]}
          </label>
        ))}
        <label className="filter">
          <input type="checkbox" checked={filters.onlyOmissions} onChange={(e) => setFilters({ onlyOmissions: e.target.checked })} /> only with omissions
        </label>
      </div>
    </div>
  );
}
