/**
 * The product's terms of art in plain words, shown on hover wherever the term
 * is (#31). One place, so the stats bar, the audit and the checkride explain a
 * term the same way.
 */
export const GLOSSARY = {
  o200k:
    "o200k: the tokenizer of OpenAI's GPT-4o family, run here on your machine. Every agent's model has its own; Claude's counts differ from it by a few percent, so the file's own figure is shown beside it.",
  round:
    "A round is one pass of compaction. Round 2 compacts the result of round 1 again, as an agent does at its next compaction; a fact that survives every round survives a long session.",
  keptOfAsked:
    "Facts asked: the load-bearing facts the harness knows for certain at that moment (the files changed, the last check and its outcome, the user's rules…). Kept: those still present, word for word, in the context the model reads.",
  proseSegments:
    "Segments of what the user and the assistant wrote (their text, not tool output or thinking) kept word for word in the active context, of all such segments in the branch.",
  metadataFields: "Fields of the records beside their text (ids, timestamps, models, usage…) kept in the checkpoint so the session can be rebuilt; the model never reads them.",
} as const;
