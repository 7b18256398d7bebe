-- Search, compact (issue 10): the index holds only what a query walks.
--
-- search_docs is gone. It repeated every title (a third of the index) and
-- needed a (kind, ref_id) index to find a doc; a doc's id is now computed
-- from what it indexes, kind << 40 | the item's id (internal/search,
-- docID), so a kind is one contiguous id range and, within it, ids follow
-- the items' own ids: newest first is id descending, and FTS5's rowid
-- deltas stay small. Titles and popularity are read from the items' own
-- tables when a query ranks its window, so they are never stale.
--
-- One column, detail=none: queries AND single tokens and never ask for
-- positions or columns. Filter tokens (_m<module id>, _v<vip level>) live
-- in the same column; '_' is a token character here and never one of the
-- Go tokenizer's, so a user's words cannot match them. contentless_delete
-- lets a doc be deleted by its id alone. The index is rebuilt after this
-- migration by the search.reindex job (internal/app enqueues it).
DROP TABLE search_fts;
DROP TABLE search_docs;

CREATE VIRTUAL TABLE search_fts USING fts5(
    tokens,
    content = '', contentless_delete = 1, detail = none,
    tokenize = "unicode61 remove_diacritics 0 tokenchars '_'"
);
