-- Tournaments between bots: the settings that decide their games (the
-- fingerprint), each finished game as it comes in (so an interrupted
-- tournament resumes), and the final report.
CREATE TABLE tournaments (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    fingerprint TEXT NOT NULL UNIQUE,
    game TEXT NOT NULL,
    config TEXT NOT NULL,
    created INTEGER NOT NULL,
    finished INTEGER,
    report TEXT
);

CREATE TABLE tournament_games (
    tournament_id INTEGER NOT NULL REFERENCES tournaments(id),
    idx INTEGER NOT NULL,
    result TEXT NOT NULL,
    PRIMARY KEY (tournament_id, idx)
);
