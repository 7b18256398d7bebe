-- Search runs (issue 23 §3): the newest matches of a common token without
-- a heap fetch per match. GIN yields row addresses, so every plan of the
-- window read a 320 MiB heap row per match it considered, mostly from disk
-- cache with the default shared_buffers; a one- or two-character query
-- took 50-120 ms at p99 on 1,000,000 titles.
--
-- search_runs: for each token in at least search.RunMin docs, its doc ids
-- newest first, cut into runs of search.RunLen within one kind. ids is the
-- first id, then each next one as its difference from the one before, in
-- decimal, comma-separated (short, and compressed further when TOASTed).
-- hi and lo are the run's first and last id. Built whole by search.Runs
-- (Reindex ends with it, and the search.runs job) from search_fts.
--
-- search_fresh: every doc id written to search_fts since the runs were
-- built, kept by the triggers below (so Touch, Reindex and anything else
-- that writes search_fts cannot forget it). A query takes a token's runs
-- minus these ids, plus those of these docs that match now, so a new,
-- edited or deleted item is reflected at once. changes is bumped by each
-- write: a runs build (repeatable read) that would delete a row written
-- after its snapshot fails with a serialization error and is retried.
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

CREATE FUNCTION search_fresh_mark() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        INSERT INTO search_fresh (id) SELECT id FROM old_docs
            ON CONFLICT (id) DO UPDATE SET changes = search_fresh.changes + 1;
    ELSE
        INSERT INTO search_fresh (id) SELECT id FROM new_docs
            ON CONFLICT (id) DO UPDATE SET changes = search_fresh.changes + 1;
    END IF;
    RETURN NULL;
END
$$;

CREATE TRIGGER search_fts_inserted AFTER INSERT ON search_fts
    REFERENCING NEW TABLE AS new_docs FOR EACH STATEMENT EXECUTE FUNCTION search_fresh_mark();
CREATE TRIGGER search_fts_updated AFTER UPDATE ON search_fts
    REFERENCING NEW TABLE AS new_docs FOR EACH STATEMENT EXECUTE FUNCTION search_fresh_mark();
CREATE TRIGGER search_fts_deleted AFTER DELETE ON search_fts
    REFERENCING OLD TABLE AS old_docs FOR EACH STATEMENT EXECUTE FUNCTION search_fresh_mark();
