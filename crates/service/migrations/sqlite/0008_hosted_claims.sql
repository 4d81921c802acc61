-- Which server runs a hosted bot's program, for how long: with several
-- servers on one database, each hosted bot is run by one of them, and
-- another takes it over once the holder stops renewing its claim.
ALTER TABLE bot_accounts ADD COLUMN host TEXT;
ALTER TABLE bot_accounts ADD COLUMN host_until INTEGER;
