-- Games of distributed tournaments, one row each, claimed by `tabula worker`
-- processes (FOR UPDATE SKIP LOCKED). A claim holds until `lease_until`,
-- which a live worker keeps pushing on; a dead worker's game is claimed
-- again once its lease has run out. PostgreSQL only (numbered apart from
-- the migrations SQLite shares).
CREATE TABLE tournament_jobs (
    tournament_id BIGINT NOT NULL REFERENCES tournaments(id),
    idx BIGINT NOT NULL,
    claimed_by TEXT,
    lease_until BIGINT,
    attempts BIGINT NOT NULL DEFAULT 0,
    done BOOLEAN NOT NULL DEFAULT FALSE,
    PRIMARY KEY (tournament_id, idx)
);
CREATE INDEX tournament_jobs_open ON tournament_jobs(tournament_id, idx) WHERE NOT done;
