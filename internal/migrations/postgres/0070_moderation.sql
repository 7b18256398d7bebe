-- Moderation (issue 20 §5).
--
-- blocked_words is the operator's list of blocked words (internal/wordfilter)
-- as one row: the words, one per line, as the operator wrote them, and a
-- version that every replacement raises. Each node caches the list and
-- compares its version with this row's at most every few seconds, so a
-- change reaches every node without a broadcast.
CREATE TABLE blocked_words (
    id         SMALLINT PRIMARY KEY CHECK (id = 1),
    words      TEXT NOT NULL,
    version    BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    updated_by BIGINT NOT NULL DEFAULT 0
);
INSERT INTO blocked_words (id, words, version, updated_at) VALUES (1, '', 0, 0);

-- Video reports get a handling state: open until an operator dismisses them
-- or unpublishes the video (catalog, reports_admin.go), then resolved with
-- the action taken. The queue reads open reports newest first per video.
ALTER TABLE video_reports ADD COLUMN state TEXT NOT NULL DEFAULT 'open';
ALTER TABLE video_reports ADD COLUMN resolution TEXT NOT NULL DEFAULT '';
ALTER TABLE video_reports ADD COLUMN resolved_at BIGINT NOT NULL DEFAULT 0;
CREATE INDEX video_reports_state ON video_reports(state, video_id);

-- Message reports likewise (messaging): dismissed, or the reported user muted.
ALTER TABLE message_reports ADD COLUMN state TEXT NOT NULL DEFAULT 'open';
ALTER TABLE message_reports ADD COLUMN resolution TEXT NOT NULL DEFAULT '';
ALTER TABLE message_reports ADD COLUMN resolved_at BIGINT NOT NULL DEFAULT 0;
CREATE INDEX message_reports_state ON message_reports(state, id);
