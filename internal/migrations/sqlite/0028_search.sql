-- Search (issue 10): one row per searchable item, and SQLite's own
-- full-text index over text the Go tokenizer (internal/search) has already
-- cut into tokens: CJK unigrams and bigrams, Latin and digit words, all
-- normalised and joined by spaces, so unicode61 only splits on the spaces.
--
-- A doc exists exactly while anyone may see its item (search.Touch keeps it
-- so in the item's own transaction). id orders docs by recency: a new doc
-- takes the next id (an edit keeps its id), and Reindex touches items oldest
-- first, so the full-text index walks matches newest first and a query can
-- stop after a bounded window. Small id steps also keep the index small
-- (FTS5 stores rowid deltas as varints).
CREATE TABLE search_docs (
    id            INTEGER PRIMARY KEY,
    kind          TEXT NOT NULL,
    ref_id        BIGINT NOT NULL,
    module_id     BIGINT NOT NULL DEFAULT 0,
    sub_module_id BIGINT NOT NULL DEFAULT 0,
    vip_level     SMALLINT NOT NULL DEFAULT 0,
    coins         BIGINT NOT NULL DEFAULT 0,
    title         TEXT NOT NULL,
    popularity    BIGINT NOT NULL DEFAULT 0,
    published_at  BIGINT NOT NULL DEFAULT 0,
    UNIQUE (kind, ref_id)
);

-- Contentless (the text lives in the source tables), rows deletable by
-- rowid (contentless_delete), rowid = search_docs.id. Columns: title
-- tokens, other text (tags, body, bio, description), and filter tokens
-- (k<kind>, m<module id>, v<vip level>) so a filtered query is still one
-- index walk in rowid order. detail=column: no positions (queries AND
-- tokens, they never ask for phrases), which keeps the index small.
CREATE VIRTUAL TABLE search_fts USING fts5(
    title, body, facets,
    content = '', contentless_delete = 1, detail = column,
    tokenize = 'unicode61 remove_diacritics 0'
);

-- Searched words per day (normalised), for hot searches over a sliding window.
CREATE TABLE search_queries (
    word  TEXT NOT NULL,
    day   BIGINT NOT NULL,
    count BIGINT NOT NULL DEFAULT 0,
    PRIMARY KEY (word, day)
);
CREATE INDEX search_queries_day ON search_queries(day, word);

-- Operator-pinned hot words, shown first in sort order.
CREATE TABLE search_pins (
    word TEXT PRIMARY KEY,
    sort INTEGER NOT NULL DEFAULT 0
);
