-- API bearer tokens and web login sessions. Only a SHA-256 hash of each
-- secret is stored, so a copy of the database lets no one in.
CREATE TABLE tokens (
    id BIGSERIAL PRIMARY KEY,
    hash TEXT NOT NULL UNIQUE,
    user_id TEXT NOT NULL,
    name TEXT NOT NULL,
    created BIGINT NOT NULL,
    last_used BIGINT,
    revoked BIGINT
);
CREATE INDEX tokens_user ON tokens(user_id);

CREATE TABLE sessions (
    hash TEXT PRIMARY KEY NOT NULL,
    user_id TEXT NOT NULL,
    csrf TEXT NOT NULL,
    created BIGINT NOT NULL,
    expires BIGINT NOT NULL
);
CREATE INDEX sessions_user ON sessions(user_id);
