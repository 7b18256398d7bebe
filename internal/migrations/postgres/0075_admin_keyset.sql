-- Operator lists page by keyset (issue 20 §1): each first and deep page is
-- an index walk.
--
-- The post list of the console (community, AdminPosts) is ordered by
-- (created_at, id): the review queue (state pending) oldest first, every
-- other list newest first; a list of one state walks posts_state_created,
-- the list of every post posts_created (one author's: posts_author).
CREATE INDEX posts_state_created ON posts(state, created_at, id);
CREATE INDEX posts_created ON posts(created_at, id);

-- The comment list of one post (AdminComments) is newest first by id;
-- comments_post leads with parent_id, so it does not give that order.
CREATE INDEX comments_post_id ON comments(post_id, id);
