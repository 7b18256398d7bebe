-- The operator's preview rule, one row: a refused viewer's preview of a
-- video is at most max_seconds long and at most fraction_num/fraction_den
-- of the video (a fraction of integers, so 1/3 is exact), cut down to
-- whole HLS segments (internal/media, previewCut).
CREATE TABLE preview_rule (
    id           SMALLINT PRIMARY KEY CHECK (id = 1),
    max_seconds  INTEGER NOT NULL DEFAULT 10,
    fraction_num INTEGER NOT NULL DEFAULT 1,
    fraction_den INTEGER NOT NULL DEFAULT 3,
    updated_at   BIGINT NOT NULL DEFAULT 0
);
INSERT INTO preview_rule (id, max_seconds, fraction_num, fraction_den, updated_at) VALUES (1, 10, 1, 3, 0);
