-- Search (issue 10): see the SQLite file. PostgreSQL keeps the tokens the Go
-- tokenizer made in a tsvector (built with array_to_tsvector, so no parser
-- or dictionary touches them; title tokens weighted A) under a GIN index.
-- Filters are plain columns here.
CREATE TABLE search_docs (
    id            BIGINT PRIMARY KEY,
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

-- The full-text side lives in its own table so both engines keep the same
-- search_docs columns; one row per doc, same id.
CREATE TABLE search_fts (
    id  BIGINT PRIMARY KEY REFERENCES search_docs(id) ON DELETE CASCADE,
    tsv TSVECTOR NOT NULL
);
CREATE INDEX search_fts_tsv ON search_fts USING GIN (tsv);

CREATE TABLE search_queries (
    word  TEXT NOT NULL,
    day   BIGINT NOT NULL,
    count BIGINT NOT NULL DEFAULT 0,
    PRIMARY KEY (word, day)
);
CREATE INDEX search_queries_day ON search_queries(day, word);

CREATE TABLE search_pins (
    word TEXT PRIMARY KEY,
    sort INTEGER NOT NULL DEFAULT 0
);
