-- Search runs (issue 23 §3): see the PostgreSQL file. The tables are made
-- here too so both engines have one schema, but SQLite never fills them:
-- FTS5 walks a token's doclist newest first and stops at the window, which
-- is what the runs give PostgreSQL (and a trigger cannot be put on FTS5's
-- virtual table).
CREATE TABLE search_runs (
    tok TEXT   NOT NULL,
    hi  BIGINT NOT NULL,
    lo  BIGINT NOT NULL,
    n   INTEGER NOT NULL,
    ids TEXT   NOT NULL,
    PRIMARY KEY (tok, hi)
);

CREATE TABLE search_fresh (
    id      BIGINT PRIMARY KEY,
    changes INTEGER NOT NULL DEFAULT 1
);
