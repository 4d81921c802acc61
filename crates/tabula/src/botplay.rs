//! A bot account's programs at play, one process per game, each on a
//! thread of its own (a program's answers are waited for with blocking
//! deadlines): shared by `tabula bot connect`, whose moves go over HTTP,
//! and the server's hosted bots, whose moves go to the service directly.
//! Both are handed the account's events (`tabula_bots::live`) and send
//! its commands through a [`Sender`].

use std::collections::HashMap;
use std::sync::{Arc, mpsc};

use tabula_bots::BotLimits;
use tabula_bots::live::GameProgram;
use tabula_bots::protocol::Message;
use tabula_i18n::t;

use crate::help::lang;

/// A command the server refused: its error code and message.
#[derive(Clone, Debug)]
pub struct Refusal {
    /// The service's error code (`illegal_move`, `game_over` ..).
    pub code: String,
    /// What it said.
    pub message: String,
}

/// Runs one line of the command language as the bot (retrying as long as
/// the server cannot be reached); a refusal is the server's answer. Called
/// from the games' threads, never from async code.
pub type Sender = Arc<dyn Fn(&str) -> Result<(), Refusal> + Send + Sync>;

/// What a game's thread is handed.
enum ToGame {
    Start(Message),
    Turn { version: i64, message: Message },
    End(Message),
}

struct GameThread {
    send: mpsc::Sender<ToGame>,
    handle: std::thread::JoinHandle<()>,
}

/// One bot account's games being played.
pub struct Games {
    user: String,
    argv: Vec<String>,
    limits: BotLimits,
    /// Challenges of these games are accepted (all when empty).
    accepted: Vec<String>,
    sender: Sender,
    threads: HashMap<i64, GameThread>,
    /// Where the bot's messages go (`tabula:` on the bridge's standard
    /// error, the server's log for a hosted bot).
    log: fn(&str, &str),
}

impl Games {
    /// The games of `user`, played by `argv`.
    pub fn new(
        user: &str,
        argv: Vec<String>,
        limits: BotLimits,
        accepted: Vec<String>,
        sender: Sender,
        log: fn(&str, &str),
    ) -> Games {
        Games { user: user.to_string(), argv, limits, accepted, sender, threads: HashMap::new(), log }
    }

    /// The boards being played (those whose thread has ended are dropped).
    pub fn held(&mut self) -> Vec<i64> {
        self.threads.retain(|_, g| !g.handle.is_finished());
        let mut boards: Vec<i64> = self.threads.keys().copied().collect();
        boards.sort_unstable();
        boards
    }

    /// Handle one event of the account (`challenge`, `start`, `turn`, `end`).
    pub fn event(&mut self, name: &str, board: i64, kind: &str, version: i64, message: Option<Message>) {
        match (name, message) {
            ("challenge", _) => {
                let take = self.accepted.is_empty() || self.accepted.iter().any(|g| g == kind);
                let verb = if take { "accept" } else { "reject" };
                let (done, failed) = if take {
                    ("bot-accepted", "bot-accept-failed")
                } else {
                    ("bot-rejected", "bot-reject-failed")
                };
                let line = format!("{kind} {verb} {board} {} -", self.user);
                let (sender, log, user, kind) =
                    (self.sender.clone(), self.log, self.user.clone(), kind.to_string());
                std::thread::spawn(move || match sender(&line) {
                    Ok(()) => log(&user, &t!(lang(), done, board = board, game = kind)),
                    Err(r) => log(&user, &t!(lang(), failed, board = board, message = r.message)),
                });
            }
            ("start", Some(m)) => {
                let _ = self.thread(board, kind).send.send(ToGame::Start(m));
            }
            ("turn", Some(m)) => {
                let _ = self.thread(board, kind).send.send(ToGame::Turn { version, message: m });
            }
            ("end", Some(m)) => {
                if let Some(thread) = self.threads.remove(&board) {
                    let _ = thread.send.send(ToGame::End(m));
                }
                (self.log)(&self.user, &t!(lang(), "bot-game-over", board = board));
            }
            _ => {}
        }
    }

    /// The thread of `board`'s game, started if it has none.
    fn thread(&mut self, board: i64, kind: &str) -> &GameThread {
        self.threads.entry(board).or_insert_with(|| {
            let (send, receive) = mpsc::channel();
            let player = Player {
                sender: self.sender.clone(),
                log: self.log,
                board,
                kind: kind.to_string(),
                user: self.user.clone(),
                program: GameProgram::new(self.argv.clone(), self.limits.clone()),
                answered: None,
                lost: false,
            };
            let handle = std::thread::spawn(move || player.play(receive));
            GameThread { send, handle }
        })
    }
}

impl Drop for Games {
    fn drop(&mut self) {
        // The threads end (and kill their programs) once their channel closes.
        self.threads.clear();
    }
}

/// One game's program and what it has answered.
struct Player {
    sender: Sender,
    log: fn(&str, &str),
    board: i64,
    kind: String,
    user: String,
    program: GameProgram,
    /// The version of the last turn answered.
    answered: Option<i64>,
    /// The program failed and the bot resigned.
    lost: bool,
}

impl Player {
    fn play(mut self, receive: mpsc::Receiver<ToGame>) {
        while let Ok(message) = receive.recv() {
            match message {
                ToGame::Start(start) => {
                    if let Err(f) = self.program.start(&start) {
                        self.resign(&f.describe(lang()));
                    }
                }
                // A turn comes again after a reconnection if the move was
                // not made; one answered is not asked again.
                ToGame::Turn { version, .. } if self.lost || self.answered.is_some_and(|v| v >= version) => {}
                ToGame::Turn { .. } if !self.program.is_running() => {
                    self.resign(&t!(lang(), "bot-program-not-running"))
                }
                ToGame::Turn { version, message } => match self.program.turn(&message) {
                    Ok(text) => self.send_move(version, &text),
                    Err(f) => {
                        let tail = self.program.stderr_tail();
                        if !tail.trim().is_empty() {
                            self.say(&t!(lang(), "bot-last-words", tail = tail));
                        }
                        self.resign(&f.describe(lang()));
                    }
                },
                ToGame::End(end) => {
                    self.program.end(&end);
                    return;
                }
            }
        }
    }

    fn say(&self, text: &str) {
        (self.log)(&self.user, &t!(lang(), "bot-on-board", board = self.board, text = text));
    }

    fn send_move(&mut self, version: i64, text: &str) {
        self.answered = Some(version);
        let line = format!("{} move {} {} - {text}", self.kind, self.board, self.user);
        if let Err(r) = (self.sender)(&line) {
            self.say(&t!(
                lang(),
                "bot-move-refused",
                answer = format!("{text:?}"),
                message = r.message.as_str()
            ));
            // The program's own fault loses the game, as in a tournament;
            // a game that moved on meanwhile (over, or another turn) does not.
            if matches!(r.code.as_str(), "illegal_move" | "malformed_move" | "usage") {
                self.resign(&t!(lang(), "bot-refused-move-loses", answer = format!("{text:?}")));
            }
        }
    }

    /// The bot resigns this game: its program failed.
    fn resign(&mut self, reason: &str) {
        self.lost = true;
        self.say(&t!(lang(), "bot-resigning", reason = reason));
        let line = format!("{} move {} {} - resign", self.kind, self.board, self.user);
        if let Err(r) = (self.sender)(&line) {
            self.say(&t!(lang(), "bot-resign-failed", message = r.message));
        }
    }
}
