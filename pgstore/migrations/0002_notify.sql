-- Schema version 2: every batch row announces itself on the channel
-- tgms_batches with the payload "<schema> <tt>", delivered when the
-- batch's transaction commits (and not at all when it rolls back).
-- Replicas (tgms serve --store postgres://...) LISTEN and apply the new
-- batches in tt order; a trigger rather than the writer sends it, so every
-- client that inserts a batch row is heard.
CREATE OR REPLACE FUNCTION tgms_notify_batch() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
	PERFORM pg_notify('tgms_batches', TG_TABLE_SCHEMA || ' ' || NEW.tt);
	RETURN NULL;
END
$$;
DROP TRIGGER IF EXISTS batches_notify ON batches;
CREATE TRIGGER batches_notify AFTER INSERT ON batches
	FOR EACH ROW EXECUTE FUNCTION tgms_notify_batch();
