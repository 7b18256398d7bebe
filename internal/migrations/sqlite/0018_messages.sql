-- Direct messages between two registered users (issue 8). A message is
-- stored once; sender and recipient each see it. client_id makes a retried
-- send one message: it is unique per sender.
CREATE TABLE messages (
    id           INTEGER PRIMARY KEY,
    sender_id    BIGINT NOT NULL,
    recipient_id BIGINT NOT NULL,
    kind         TEXT NOT NULL,
    body         TEXT NOT NULL DEFAULT '',
    asset_id     BIGINT NOT NULL DEFAULT 0,
    client_id    TEXT NOT NULL,
    created_at   BIGINT NOT NULL,
    read_at      BIGINT NOT NULL DEFAULT 0
);
CREATE UNIQUE INDEX messages_client ON messages(sender_id, client_id);
-- One conversation's history, either direction, is read as two index
-- ranges (sender, recipient) merged by id; the unread count of one
-- conversation is the second index.
CREATE INDEX messages_pair ON messages(sender_id, recipient_id, id);
CREATE INDEX messages_unread ON messages(recipient_id, sender_id, read_at);

-- A user's list of conversations: one row per (user, peer), moved to the
-- top by each message either way; unread counts the peer's messages the
-- user has not read, kept in the transactions that change it.
CREATE TABLE conversations (
    user_id         BIGINT NOT NULL,
    peer_id         BIGINT NOT NULL,
    last_message_id BIGINT NOT NULL,
    unread          INTEGER NOT NULL DEFAULT 0,
    updated_at      BIGINT NOT NULL,
    PRIMARY KEY (user_id, peer_id)
);
CREATE INDEX conversations_user ON conversations(user_id, last_message_id);

-- user_id refuses messages from blocked_id.
CREATE TABLE message_blocks (
    user_id    BIGINT NOT NULL,
    blocked_id BIGINT NOT NULL,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (user_id, blocked_id)
);

-- Reports of a user or conversation, for operators. last_message_id is the
-- newest message of the conversation when it was reported, so operators
-- read what the reporter saw.
CREATE TABLE message_reports (
    id              INTEGER PRIMARY KEY,
    reporter_id     BIGINT NOT NULL,
    reported_id     BIGINT NOT NULL,
    reason          TEXT NOT NULL,
    last_message_id BIGINT NOT NULL DEFAULT 0,
    created_at      BIGINT NOT NULL
);
CREATE INDEX message_reports_reported ON message_reports(reported_id, id);
