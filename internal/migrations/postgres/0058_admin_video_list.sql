-- The operators' video list (GET /api/admin/videos) pages by id, newest
-- first, with a keyset: filtered by module or sub-module it walks these
-- indexes (equality, then id in order) instead of the whole table, and
-- the drafts filter walks the few unpublished ones. The partial indexes
-- of 0002 hold published videos in the app's orders, not by id.
CREATE INDEX videos_admin_mod ON videos(module_id, id);
CREATE INDEX videos_admin_sub ON videos(sub_module_id, id);
CREATE INDEX videos_admin_drafts ON videos(id) WHERE published = 0;
-- The console's module counts (GET /api/admin/modules): one pass over
-- this index instead of the table.
CREATE INDEX videos_admin_sub_pub ON videos(sub_module_id, published);
