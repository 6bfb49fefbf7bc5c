-- The sha256 of each applied migration's file: db/migrate.ts refuses to start when one has changed since.
ALTER TABLE schema_migrations ADD COLUMN checksum text;
