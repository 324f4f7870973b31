/** A long id shortened in a row header: the whole id in its tooltip, copied on click. */
import { useState } from "react";

const SHOWN = 8;

export function ShortId({ id, what }: { id: string; what: string }) {
  const [copied, setCopied] = useState(false);
  const short = id.length > SHOWN + 2 ? `${id.slice(0, SHOWN)}…` : id;
  return (
    <button
      type="button"
      className="short-id mono dim"
      title={`${what} ${id} (click to copy)`}
      aria-label={`Copy ${what} ${id}`}
      data-full-id={id}
      onClick={(e) => {
        e.stopPropagation();
        void navigator.clipboard?.writeText(id).then(
          () => {
            setCopied(true);
            setTimeout(() => setCopied(false), 1200);
          },
          () => undefined,
        );
      }}
    >
      {copied ? "copied" : short}
    </button>
  );
}
