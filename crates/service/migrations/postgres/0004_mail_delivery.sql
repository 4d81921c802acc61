-- Incoming mail already handled, by Message-ID (or a digest of the message
-- when it has none): a message the mail server delivers twice runs its
-- commands once. `done_at` is set once the reply is queued; a claim left
-- without it by a crash is taken over after a while.
CREATE TABLE incoming_mail (
    key TEXT PRIMARY KEY,
    claimed BIGINT NOT NULL,
    done_at BIGINT
);

-- Outgoing mail given up for good (refused by the relay, or failed too
-- often): kept with its error for inspection, never tried again.
ALTER TABLE outbox ADD COLUMN gave_up_at BIGINT;
