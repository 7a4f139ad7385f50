-- Schema version 3: uids holds every uid the store knows with the
-- transaction time of the batch that first named it. A uid is known from
-- that batch on even when none of its versions survived the batch (an
-- edge asserted and retracted in one batch still registers both
-- endpoints), so the version tables alone cannot say which uids a read
-- as of some time knows. Rows are written with their batch and never
-- changed.
--
-- A store migrated with batches in it is filled by its writer from the
-- batches' replay (uids_pending is true until then): readers that need
-- the table refuse the store while it is pending.
CREATE TABLE IF NOT EXISTS uids (
	uid text COLLATE "C" PRIMARY KEY, -- distribution column
	tt  bigint NOT NULL               -- the batch that registered it
);
ALTER TABLE tgms_meta ADD COLUMN IF NOT EXISTS uids_pending boolean NOT NULL DEFAULT false;
UPDATE tgms_meta SET uids_pending = EXISTS (SELECT 1 FROM batches);
