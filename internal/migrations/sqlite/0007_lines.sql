-- Delivery lines: the API, image and video lines and the fallback list
-- sources that GET /api/app/ping/domain/h5 hands to clients (spec §9).
-- Operators set each list as a whole (POST /api/admin/lines); position
-- keeps the operator's order, which is the order clients try API lines in.
-- No rows of a kind: that list is this server's own origin.
CREATE TABLE delivery_lines (
    kind     TEXT NOT NULL CHECK (kind IN ('api', 'image', 'video', 'fallback')),
    position BIGINT NOT NULL,
    url      TEXT NOT NULL,
    PRIMARY KEY (kind, position)
);

-- Error reports from clients (spec §9: unreachable lines, payment errors),
-- kept for operators. detail is JSON text of the kind's own fields; ip is
-- the server's view of the client (never the body's), uid the token's.
CREATE TABLE error_reports (
    id         INTEGER PRIMARY KEY,
    kind       TEXT NOT NULL CHECK (kind IN ('line', 'payment')),
    uid        BIGINT NOT NULL DEFAULT 0,
    ip         TEXT NOT NULL DEFAULT '',
    appname    TEXT NOT NULL DEFAULT '',
    appv       TEXT NOT NULL DEFAULT '',
    dev        TEXT NOT NULL DEFAULT '',
    detail     TEXT NOT NULL,
    created_at BIGINT NOT NULL
);
-- The operator's listing: newest first, optionally one kind.
CREATE INDEX error_reports_kind ON error_reports (kind, id);

-- One row per failing line of a line report, so "which line is down in the
-- last 24 h" is an index range and a GROUP BY, not a scan of JSON.
CREATE TABLE error_report_lines (
    report_id  BIGINT NOT NULL REFERENCES error_reports(id) ON DELETE CASCADE,
    line       TEXT NOT NULL,
    reason     TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (report_id, line)
);
CREATE INDEX error_report_lines_recent ON error_report_lines (created_at, line);
