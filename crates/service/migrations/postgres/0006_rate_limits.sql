-- Counts that limit how fast something may be tried, shared by every
-- process on the database so that several servers limit as one and a
-- restart forgets nothing: failed logins per (user, address) and per
-- address, challenges per user and hour. Each count starts again once it
-- has not grown for a while, and old ones are deleted.
CREATE TABLE rate_limits (
    name TEXT PRIMARY KEY NOT NULL,
    hits BIGINT NOT NULL,
    last_at BIGINT NOT NULL
);
CREATE INDEX rate_limits_last_at ON rate_limits(last_at);

-- The per-user count of failed logins they replace: it refused the right
-- password from every address once anyone had guessed wrong five times.
ALTER TABLE users DROP COLUMN failed_logins;
ALTER TABLE users DROP COLUMN last_failed_login;
