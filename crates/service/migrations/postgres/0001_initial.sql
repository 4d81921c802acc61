-- Users: ids are stored lower-case, so `Ned` and `ned` are one account.
CREATE TABLE users (
    id TEXT PRIMARY KEY NOT NULL,
    password_hash TEXT NOT NULL,
    emails TEXT NOT NULL DEFAULT '[]',
    created BIGINT NOT NULL,
    notify BIGINT NOT NULL DEFAULT 1,
    vacation_until BIGINT,
    game_limit BIGINT,
    challenge_policy TEXT NOT NULL DEFAULT 'open',
    signed_off BIGINT NOT NULL DEFAULT 0,
    failed_logins BIGINT NOT NULL DEFAULT 0,
    last_failed_login BIGINT
);

-- A game is its record (kind, options, players, seed, created, events) plus a
-- summary kept in step with it for listing; `version` is the number of
-- events and guards every append.
CREATE TABLE games (
    id BIGSERIAL PRIMARY KEY,
    kind TEXT NOT NULL,
    options TEXT NOT NULL,
    players TEXT NOT NULL,
    seed BIGINT NOT NULL,
    created BIGINT NOT NULL,
    version BIGINT NOT NULL DEFAULT 0,
    status TEXT NOT NULL,
    moves BIGINT NOT NULL DEFAULT 0,
    to_move TEXT NOT NULL DEFAULT '[]',
    updated BIGINT NOT NULL,
    result TEXT,
    next_clock BIGINT
);
CREATE INDEX games_status ON games(status, kind);
CREATE INDEX games_next_clock ON games(next_clock) WHERE next_clock IS NOT NULL;

CREATE TABLE game_players (
    game_id BIGINT NOT NULL REFERENCES games(id),
    seat BIGINT NOT NULL,
    user_id TEXT NOT NULL,
    accepted BIGINT NOT NULL DEFAULT 1,
    result TEXT,
    PRIMARY KEY (game_id, seat)
);
CREATE INDEX game_players_user ON game_players(user_id, game_id);

CREATE TABLE events (
    game_id BIGINT NOT NULL REFERENCES games(id),
    seq BIGINT NOT NULL,
    at BIGINT NOT NULL,
    seat BIGINT,
    action TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
);

-- Messages to send, written in the same transaction as what caused them;
-- `key` makes a retry of the same notification a no-op.
CREATE TABLE outbox (
    id BIGSERIAL PRIMARY KEY,
    key TEXT NOT NULL UNIQUE,
    created BIGINT NOT NULL,
    recipient TEXT NOT NULL,
    subject TEXT NOT NULL,
    body TEXT NOT NULL,
    game_id BIGINT,
    sent_at BIGINT,
    attempts BIGINT NOT NULL DEFAULT 0,
    next_attempt BIGINT NOT NULL,
    last_error TEXT
);
CREATE INDEX outbox_pending ON outbox(next_attempt) WHERE sent_at IS NULL;

CREATE TABLE subscriptions (
    game_id BIGINT NOT NULL REFERENCES games(id),
    user_id TEXT NOT NULL,
    PRIMARY KEY (game_id, user_id)
);

-- Conditional moves (`queue`), tried in order when it is the user's turn.
CREATE TABLE queued_moves (
    id BIGSERIAL PRIMARY KEY,
    game_id BIGINT NOT NULL REFERENCES games(id),
    user_id TEXT NOT NULL,
    move TEXT NOT NULL,
    created BIGINT NOT NULL
);
CREATE INDEX queued_moves_game ON queued_moves(game_id, user_id, id);

-- Two-step moves: `submit` stores, `confirm` plays.
CREATE TABLE pending_moves (
    game_id BIGINT NOT NULL REFERENCES games(id),
    user_id TEXT NOT NULL,
    move TEXT NOT NULL,
    created BIGINT NOT NULL,
    PRIMARY KEY (game_id, user_id)
);

CREATE TABLE chats (
    id BIGSERIAL PRIMARY KEY,
    game_id BIGINT NOT NULL REFERENCES games(id),
    user_id TEXT NOT NULL,
    at BIGINT NOT NULL,
    text TEXT NOT NULL
);
CREATE INDEX chats_game ON chats(game_id, id);
