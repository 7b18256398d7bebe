-- Community (issue 9): topics, posts, pictures, likes, comments, reports,
-- mutes and the operator's settings. Times are Unix seconds, 0 unset.

-- A topic groups posts under a name (#话题). status 1 shown, 0 hidden by an
-- operator (its page answers 404 and it leaves every list). cover is a
-- public URL (an operator upload published at an immutable URL) or ''.
CREATE TABLE topics (
    id          INTEGER PRIMARY KEY,
    name        TEXT NOT NULL UNIQUE,
    description TEXT NOT NULL DEFAULT '',
    cover       TEXT NOT NULL DEFAULT '',
    sort        INTEGER NOT NULL DEFAULT 0,
    status      SMALLINT NOT NULL DEFAULT 1,
    created_at  BIGINT NOT NULL
);

CREATE TABLE topic_follows (
    user_id    BIGINT NOT NULL,
    topic_id   BIGINT NOT NULL,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (user_id, topic_id)
);
CREATE INDEX topic_follows_topic ON topic_follows(topic_id);
CREATE INDEX topic_follows_user ON topic_follows(user_id, created_at, topic_id);

-- A post. kind: picture (1-9 pictures, text), video (one uploaded video
-- asset, text), article (title and sanitised HTML body). module_id is the
-- community sub-module (modules/clist of a type-1 module) it is filed
-- under, 0 none; topic_id its topic, 0 none.
-- state: pending (waiting for review), published, rejected (reason in
-- reject_reason), removed (by an operator, reason too), deleted (by the
-- author). Only published posts are shown to anyone but the author; the
-- author sees pending and rejected ones with their state.
-- vip_level/coins: the access level and coin price, as videos have them.
-- like_count/comment_count are kept in the transactions that change the
-- rows they count (the hot sort reads them). pinned_at > 0 puts a post at
-- the head of its sub-module and topic lists (newest pin first); featured
-- marks 精华.
CREATE TABLE posts (
    id             INTEGER PRIMARY KEY,
    author_id      BIGINT NOT NULL,
    kind           TEXT NOT NULL CHECK (kind IN ('picture', 'video', 'article')),
    module_id      BIGINT NOT NULL DEFAULT 0,
    topic_id       BIGINT NOT NULL DEFAULT 0,
    title          TEXT NOT NULL DEFAULT '',
    body           TEXT NOT NULL DEFAULT '',
    video_asset_id BIGINT NOT NULL DEFAULT 0,
    vip_level      SMALLINT NOT NULL DEFAULT 0,
    coins          BIGINT NOT NULL DEFAULT 0 CHECK (coins >= 0),
    state          TEXT NOT NULL CHECK (state IN ('pending', 'published', 'rejected', 'removed', 'deleted')),
    reason         TEXT NOT NULL DEFAULT '',
    like_count     BIGINT NOT NULL DEFAULT 0,
    comment_count  BIGINT NOT NULL DEFAULT 0,
    view_count     BIGINT NOT NULL DEFAULT 0,
    pinned_at      BIGINT NOT NULL DEFAULT 0,
    featured       SMALLINT NOT NULL DEFAULT 0,
    client_id      TEXT NOT NULL DEFAULT '',
    created_at     BIGINT NOT NULL,
    published_at   BIGINT NOT NULL DEFAULT 0,
    updated_at     BIGINT NOT NULL
);
CREATE INDEX posts_state ON posts(state, published_at DESC, id DESC);
CREATE INDEX posts_module ON posts(module_id, state, published_at DESC, id DESC);
CREATE INDEX posts_topic ON posts(topic_id, state, published_at DESC, id DESC);
CREATE INDEX posts_author ON posts(author_id, created_at DESC, id DESC);
-- A retried publish (same client_id from the same author) is one post.
CREATE UNIQUE INDEX posts_client ON posts(author_id, client_id) WHERE client_id <> '';

-- A picture post's pictures in order (pos 0..8): the author's own uploaded
-- picture assets.
CREATE TABLE post_pictures (
    post_id  BIGINT NOT NULL,
    pos      SMALLINT NOT NULL,
    asset_id BIGINT NOT NULL,
    PRIMARY KEY (post_id, pos)
);

CREATE TABLE post_likes (
    user_id    BIGINT NOT NULL,
    post_id    BIGINT NOT NULL,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (user_id, post_id)
);
CREATE INDEX post_likes_post ON post_likes(post_id, created_at);

-- Comments, two levels: parent_id 0 is a comment on the post, otherwise
-- the id of a top-level comment of the same post (a reply). reply_to_uid
-- is whom a reply answers (the parent's author, or a replier under it).
-- state: published, removed (operator), deleted (author); a removed or
-- deleted comment with replies keeps its place as "已删除".
CREATE TABLE comments (
    id           INTEGER PRIMARY KEY,
    post_id      BIGINT NOT NULL,
    parent_id    BIGINT NOT NULL DEFAULT 0,
    author_id    BIGINT NOT NULL,
    reply_to_uid BIGINT NOT NULL DEFAULT 0,
    body         TEXT NOT NULL,
    state        TEXT NOT NULL CHECK (state IN ('published', 'removed', 'deleted')),
    reply_count  BIGINT NOT NULL DEFAULT 0,
    client_id    TEXT NOT NULL DEFAULT '',
    created_at   BIGINT NOT NULL
);
CREATE INDEX comments_post ON comments(post_id, parent_id, id);
CREATE INDEX comments_author ON comments(author_id, created_at);
CREATE UNIQUE INDEX comments_client ON comments(author_id, client_id) WHERE client_id <> '';

-- Reports of a post or a comment (comment_id 0 for the post itself), one
-- per reporter and target; operators resolve them.
CREATE TABLE post_reports (
    id          INTEGER PRIMARY KEY,
    reporter_id BIGINT NOT NULL,
    post_id     BIGINT NOT NULL,
    comment_id  BIGINT NOT NULL DEFAULT 0,
    reason      TEXT NOT NULL,
    state       TEXT NOT NULL DEFAULT 'open' CHECK (state IN ('open', 'resolved')),
    created_at  BIGINT NOT NULL,
    UNIQUE (reporter_id, post_id, comment_id)
);
CREATE INDEX post_reports_state ON post_reports(state, id);

-- Purchases of paid (gold) posts, as video_purchases: one row per (user,
-- post), the price paid and never deleted.
CREATE TABLE post_purchases (
    id         INTEGER PRIMARY KEY,
    user_id    BIGINT NOT NULL,
    post_id    BIGINT NOT NULL,
    price      BIGINT NOT NULL CHECK (price >= 0),
    txn_id     BIGINT NOT NULL DEFAULT 0,
    created_at BIGINT NOT NULL,
    UNIQUE (user_id, post_id)
);
CREATE INDEX post_purchases_user ON post_purchases(user_id, created_at DESC, id DESC);

-- A user an operator muted: no posts or comments until muted_until.
CREATE TABLE community_mutes (
    user_id     BIGINT PRIMARY KEY,
    muted_until BIGINT NOT NULL,
    reason      TEXT NOT NULL DEFAULT '',
    operator_id BIGINT NOT NULL DEFAULT 0,
    created_at  BIGINT NOT NULL
);

-- The operator's community settings, one row: review on (1) holds new
-- posts as pending; rules is the text /community/publish/rule shows.
CREATE TABLE community_settings (
    id         SMALLINT PRIMARY KEY CHECK (id = 1),
    review     SMALLINT NOT NULL DEFAULT 0,
    rules      TEXT NOT NULL DEFAULT '',
    updated_at BIGINT NOT NULL DEFAULT 0
);
INSERT INTO community_settings (id, review, rules, updated_at) VALUES (1, 0, '', 0);
