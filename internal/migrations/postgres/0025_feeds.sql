-- Feeds (issue 9): indexes the post lists walk.
-- Sub-module and topic lists put pinned posts first (pinned_at desc), then
-- newest; the hot sort orders by like_count + 2 * comment_count (written
-- exactly so in the queries, so both engines match the expression). A
-- user's published posts are listed newest published first.
CREATE INDEX posts_module_pin ON posts(module_id, state, pinned_at DESC, published_at DESC, id DESC);
CREATE INDEX posts_topic_pin ON posts(topic_id, state, pinned_at DESC, published_at DESC, id DESC);
CREATE INDEX posts_hot ON posts(state, (like_count + 2 * comment_count) DESC, published_at DESC, id DESC);
CREATE INDEX posts_author_pub ON posts(author_id, state, published_at DESC, id DESC);
-- Hot topics count each topic's posts of the last 30 days.
CREATE INDEX posts_topic_recent ON posts(state, published_at, topic_id);
