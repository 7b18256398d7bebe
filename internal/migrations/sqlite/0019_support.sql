-- Support and information (docs/architecture.md, *Support*).

-- Remote configuration entries gain an icon (an http(s) URL or a /media/
-- path) and a short description, used by the APPS key (application
-- centre); other keys leave them empty.
ALTER TABLE source_entries ADD COLUMN icon TEXT NOT NULL DEFAULT '';
ALTER TABLE source_entries ADD COLUMN description TEXT NOT NULL DEFAULT '';

-- Clicks on an application centre entry (source_entries.id of key APPS),
-- counted per Asia/Shanghai day (YYYY-MM-DD). The operator's replace of a
-- key's list keeps the ids of the entries it keeps, so counts survive edits.
CREATE TABLE app_clicks (
    entry_id BIGINT NOT NULL,
    day      TEXT NOT NULL,
    clicks   BIGINT NOT NULL DEFAULT 0,
    PRIMARY KEY (entry_id, day)
);

-- Feedback (mine/suggest): a user's text, up to four of their own pictures
-- and an optional contact; status open until an operator replies.
CREATE TABLE feedback (
    id         INTEGER PRIMARY KEY,
    user_id    BIGINT NOT NULL,
    content    TEXT NOT NULL,
    contact    TEXT NOT NULL DEFAULT '',
    status     TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'replied')),
    created_at BIGINT NOT NULL,
    replied_at BIGINT NOT NULL DEFAULT 0
);
CREATE INDEX feedback_user ON feedback(user_id, id);
CREATE INDEX feedback_status ON feedback(status, id);

CREATE TABLE feedback_images (
    feedback_id BIGINT NOT NULL REFERENCES feedback(id),
    position    SMALLINT NOT NULL,
    asset_id    BIGINT NOT NULL,
    PRIMARY KEY (feedback_id, position)
);

CREATE TABLE feedback_replies (
    id          INTEGER PRIMARY KEY,
    feedback_id BIGINT NOT NULL REFERENCES feedback(id),
    operator_id BIGINT NOT NULL,
    body        TEXT NOT NULL,
    created_at  BIGINT NOT NULL
);
CREATE INDEX feedback_replies_feedback ON feedback_replies(feedback_id, id);

-- Creator applications (mine/settled). A user has at most one pending
-- application (the partial unique index settles parallel submissions);
-- after a rejection they may apply again, so earlier rows stay as history.
CREATE TABLE creator_applications (
    id          INTEGER PRIMARY KEY,
    user_id     BIGINT NOT NULL,
    name        TEXT NOT NULL,
    contact     TEXT NOT NULL,
    intro       TEXT NOT NULL,
    category    TEXT NOT NULL,
    status      TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'approved', 'rejected')),
    reason      TEXT NOT NULL DEFAULT '',
    operator_id BIGINT NOT NULL DEFAULT 0,
    created_at  BIGINT NOT NULL,
    decided_at  BIGINT NOT NULL DEFAULT 0
);
CREATE INDEX creator_applications_user ON creator_applications(user_id, id);
CREATE INDEX creator_applications_status ON creator_applications(status, id);
CREATE UNIQUE INDEX creator_applications_one_pending ON creator_applications(user_id) WHERE status = 'pending';
