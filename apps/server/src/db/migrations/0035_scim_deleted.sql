-- SCIM (DESIGN.md §22): a user a SCIM client deleted is frozen and kept for the audit trail; this
-- marks it, so SCIM answers 404 for it from then on (RFC 7644 §3.6) while the console still shows it.
ALTER TABLE "users" ADD COLUMN "scim_deleted_at" timestamp with time zone;
