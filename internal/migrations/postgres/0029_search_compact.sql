-- Search, compact (issue 10): see the SQLite file. One row per doc, its id
-- kind << 40 | the item's id, the Go tokenizer's tokens and the filter
-- lexemes (_m<module id>, _v<vip level>) in one tsvector without positions
-- or weights, under a GIN index. The index is rebuilt after this migration
-- by the search.reindex job (internal/app enqueues it).
DROP TABLE search_fts;
DROP TABLE search_docs;

CREATE TABLE search_fts (
    id  BIGINT PRIMARY KEY,
    tsv TSVECTOR NOT NULL
);
CREATE INDEX search_fts_tsv ON search_fts USING GIN (tsv) WITH (fastupdate = off);
