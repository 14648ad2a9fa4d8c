-- A webhook endpoint delivers only the events its owner may read at delivery time (DESIGN.md §13):
-- the owner is who last chose where it delivers. Endpoints made before owners were kept have none and
-- deliver every event, as they did.
ALTER TABLE "webhook_endpoints" ADD COLUMN "owner_user_id" integer;
