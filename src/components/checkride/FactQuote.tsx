/** Where a key fact or a candidate came from, shown under it once its source was clicked. */
import type { FactSource } from "../../../core/checkride/source.ts";

/** Quotes longer than this are cut (the pane shows the whole message). */
const QUOTE_CHARS = 600;

/** The quoted words, with the part the fact points at marked. */
export function Quote({ source }: { source: FactSource }) {
  return (
    <blockquote className="fact-quote">
      <mark data-testid="fact-quote">{source.quote.length > QUOTE_CHARS ? source.quote.slice(0, QUOTE_CHARS) + "…" : source.quote}</mark>
    </blockquote>
  );
}

/** A fact's text: marked in place when it is the quoted span itself and its source is the one shown. */
export function FactText({ text, source, focused }: { text: string; source?: FactSource; focused: boolean }) {
  return focused && source?.quote === text ? <mark data-testid="fact-quote">{text}</mark> : <>{text}</>;
}
