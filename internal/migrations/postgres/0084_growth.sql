-- The operator's invitation list (GET /api/admin/invites/list, issue 21)
-- is every binding newest first by (bound_at, invitee_id), paged by
-- keyset: an index walk from the first page to the deepest. One
-- inviter's list walks invite_bindings_inviter.
CREATE INDEX invite_bindings_bound ON invite_bindings (bound_at, invitee_id);
