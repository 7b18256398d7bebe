-- Notices gain a category (system: withdrawals, feedback replies, reviews;
-- interaction: likes, comments, follows) and the user who caused them (0
-- for the system), so the message centre can group them and show who.
ALTER TABLE notices ADD COLUMN category TEXT NOT NULL DEFAULT 'system';
ALTER TABLE notices ADD COLUMN actor_id BIGINT NOT NULL DEFAULT 0;
CREATE INDEX notices_user_unread ON notices(user_id, category, read_at);
