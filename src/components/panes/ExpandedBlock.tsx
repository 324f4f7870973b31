/**
 * A row block opened in place ("… more" / "▸ thinking"): a box of fixed height
 * (the row's height is known before it renders) that scrolls inside and holds
 * the block's whole display text, fetched from the worker for this row only.
 */
import { useEffect, useState } from "react";
import { useApp } from "../../store/store.ts";
import type { DisplayBlock, Pane } from "../../worker/protocol.ts";
import { highlight, useFindQuery } from "./Highlight.tsx";

/** Closed by the same toggle that opened it (it reads "Show less" while open). */
/** `height`: the box's height in the row's geometry (PaneView's expandedBoxHeight), so the row measures what it shows. */
export function ExpandedBlock({ pane, index, blockIndex, expandKey, height }: { pane: Pane; index: number; blockIndex: number; expandKey: string; height: number }) {
  const expanded = useApp((state) => state.expandedThinking[expandKey] === true);
  const client = useApp((s) => s.client);
  const viewId = useApp((s) => s.view?.id);
  const query = useFindQuery();
  const [block, setBlock] = useState<DisplayBlock | null | "error">(null);
  useEffect(() => {
    if (!expanded || !client || viewId === undefined) return;
    let live = true;
    client
      .request({ type: "detail", view: viewId, pane, index, full: false })
      .promise.then((detail) => live && setBlock(detail.blocks[blockIndex] ?? "error"))
      .catch(() => live && setBlock("error"));
    return () => {
      live = false;
    };
  }, [expanded, client, viewId, pane, index, blockIndex]);
  if (!expanded) return null;
  const text = block === null ? "Loading…" : block === "error" ? "This block could not be read." : block.text;
  return (
    <div className="expanded-box" style={{ height: height - 8 }} data-testid="expanded-block" onClick={(e) => e.stopPropagation()}>
      <pre className="expanded-text">
        {highlight(text, query)}
        {block && block !== "error" && block.truncated ? `\n… ${(block.totalChars - block.text.length).toLocaleString()} more characters: select the row to see all.` : ""}
      </pre>
    </div>
  );
}
