-- Accounts played by a program (`bot on USERID PASSWORD`), shown as bots
-- everywhere. A remote bot's program runs on its author's machine and
-- plays through the account's token (`tabula bot connect`); a hosted one's
-- command, a JSON array of words, is run by the server (`tabula bot add`).
CREATE TABLE bot_accounts (
    user_id TEXT PRIMARY KEY NOT NULL REFERENCES users(id),
    since BIGINT NOT NULL,
    command TEXT
);
