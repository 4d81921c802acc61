-- Tournaments between bots: the settings that decide their games (the
-- fingerprint), each finished game as it comes in (so an interrupted
-- tournament resumes), and the final report.
CREATE TABLE tournaments (
    id BIGSERIAL PRIMARY KEY,
    fingerprint TEXT NOT NULL UNIQUE,
    game TEXT NOT NULL,
    config TEXT NOT NULL,
    created BIGINT NOT NULL,
    finished BIGINT,
    report TEXT
);

CREATE TABLE tournament_games (
    tournament_id BIGINT NOT NULL REFERENCES tournaments(id),
    idx BIGINT NOT NULL,
    result TEXT NOT NULL,
    PRIMARY KEY (tournament_id, idx)
);
