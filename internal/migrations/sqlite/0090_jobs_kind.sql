-- The operators' view of one kind's recent jobs (jobs.Latest: the backups page).
CREATE INDEX jobs_kind ON jobs (kind, id);
