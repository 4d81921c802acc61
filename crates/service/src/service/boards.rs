//! A board as one reader sees it: the reply text, the report and the picture.

use std::sync::Arc;

use serde_json::{Value, json};
use tabula_i18n::t;
use tabula_model::{Game, Lang, Seat, Timestamp, Viewer};

use crate::error::{CommandError, ErrorCode};
use crate::reply::{self, BoardText};
use crate::store::{GameStatus, StoredGame};

use super::{GameReport, Loaded, Reply, Service, Snapshot, internal};

impl Service {
    pub(super) fn seat(&self, loaded: &Loaded, user: &str) -> Result<Seat, CommandError> {
        loaded.game.seat_of(user).ok_or_else(|| not_a_player(user, loaded.stored.summary.id))
    }

    /// The game after `seat`'s move `text`, not stored, and what the reply
    /// says before the board (see [`Game::preview`]), in `lang`.
    pub(super) fn preview(
        &self,
        loaded: &Loaded,
        seat: Seat,
        text: &str,
        lang: Lang,
    ) -> Result<(Game, String), CommandError> {
        let preview = loaded.game.preview(seat, text, self.now())?;
        let note = if preview.completes_step {
            format!("{}\n", t!(lang, "preview-completes-step"))
        } else {
            String::new()
        };
        Ok((preview.game, note))
    }

    pub(super) fn board_text(
        &self,
        game: &Game,
        stored: &StoredGame,
        viewer: Viewer,
        lang: Lang,
    ) -> BoardText {
        reply::board_text(
            game,
            stored.summary.id,
            stored.summary.status,
            viewer,
            self.now(),
            &waiting_for(stored),
            lang,
        )
    }

    pub(super) fn board_text_reply(
        &self,
        game: &Game,
        stored: &StoredGame,
        viewer: Viewer,
        lang: Lang,
    ) -> Reply {
        board_text_reply(game, stored, viewer, self.now(), lang)
    }

    pub(super) fn board_reply(
        &self,
        game: &Game,
        stored: &StoredGame,
        user: Option<&str>,
        lang: Lang,
    ) -> Reply {
        let viewer = user.and_then(|u| game.seat_of(u)).map(Viewer::Player).unwrap_or(Viewer::Observer);
        self.board_text_reply(game, stored, viewer, lang)
    }

    /// A board as `user` may see it (an observer's view if `None` or not a
    /// player), optionally as it was after `at` moves, its texts in `lang`.
    /// `user` must be an identity the front end has authenticated.
    pub async fn snapshot(
        &self,
        board: i64,
        user: Option<&str>,
        at: Option<usize>,
        lang: Lang,
    ) -> Result<Snapshot, CommandError> {
        let loaded = self.load(board).await?;
        let Loaded { game, stored, .. } = loaded;
        let now = self.now();
        let (past, viewer) = position(&game, user, at);
        // Replaying and rendering take the longest of any read (a long
        // Rewrite string is copied into the view): off the async workers.
        self.heavy(move || {
            let game = replayed(game, past)?;
            let reply = board_text_reply(&game, &stored, viewer, now, lang);
            let status =
                reply::status_lines_with_turn(&game, stored.summary.status, &waiting_for(&stored), lang);
            let picture = game.picture(viewer, now, lang);
            Ok(Snapshot { reply, svg: picture.svg, click: picture.click, status })
        })
        .await
    }

    /// One string of a board's view as `user` may see it (see
    /// [`Service::snapshot`] for `user` and `at`), whole, by its JSON
    /// `pointer` in the view (`/table`): what a report cut (see
    /// [`tabula_model::window`]).
    pub async fn view_text(
        &self,
        board: i64,
        user: Option<&str>,
        at: Option<usize>,
        pointer: &str,
    ) -> Result<String, CommandError> {
        let Loaded { game, .. } = self.load(board).await?;
        let now = self.now();
        let (past, viewer) = position(&game, user, at);
        let pointer = pointer.to_string();
        self.heavy(move || {
            let game = replayed(game, past)?;
            let mut view = game.view_json(viewer, now);
            match view.pointer_mut(&pointer) {
                Some(Value::String(text)) => Ok(std::mem::take(text)),
                _ => Err(CommandError::says(
                    ErrorCode::BadValue,
                    tabula_i18n::msg!(
                        "error-no-view-text",
                        board = board.to_string(),
                        quoted = format!("{pointer:?}")
                    ),
                )),
            }
        })
        .await
    }

    /// The board text a reader gets by mail, in their language.
    pub(crate) fn board_text_for(&self, game: &Game, board: i64, viewer: Viewer, lang: Lang) -> String {
        let t = reply::board_text(game, board, GameStatus::Active, viewer, self.now(), &[], lang);
        format!("{}\n\n{}", t.heading, t.body)
    }

    /// A game's board for a reader, in `lang`: used by the mail front end.
    pub async fn board_for(&self, board: i64, user: Option<&str>, lang: Lang) -> Result<Reply, CommandError> {
        let loaded = self.load(board).await?;
        Ok(self.board_reply(&loaded.game, &loaded.stored, user, lang))
    }
}

pub(super) fn waiting_for(stored: &StoredGame) -> Vec<String> {
    stored
        .summary
        .players
        .iter()
        .zip(&stored.accepted)
        .filter(|(_, a)| !**a)
        .map(|(u, _)| u.clone())
        .collect()
}

pub(super) fn not_a_player(user: &str, board: i64) -> CommandError {
    CommandError::says(
        ErrorCode::NotAPlayer,
        tabula_i18n::msg!("error-not-a-player", user = user, board = board.to_string()),
    )
}

pub(super) fn wrong_kind(board: i64, kind: &str) -> CommandError {
    CommandError::says(
        ErrorCode::UnknownBoard,
        tabula_i18n::msg!("error-wrong-kind", board = board.to_string(), kind = kind),
    )
}

/// A board's reply for `viewer` at `now`, in `lang`: its text and its report.
pub(super) fn board_text_reply(
    game: &Game,
    stored: &StoredGame,
    viewer: Viewer,
    now: Timestamp,
    lang: Lang,
) -> Reply {
    let t = reply::board_text(
        game,
        stored.summary.id,
        stored.summary.status,
        viewer,
        now,
        &waiting_for(stored),
        lang,
    );
    Reply {
        subject: t.heading,
        text: t.body,
        game: Some(report_at(game, stored, viewer, now, lang)),
        data: Value::Null,
    }
}

/// A game's report for `viewer` at `now`, its words in `lang`.
pub(super) fn report_at(
    game: &Game,
    stored: &StoredGame,
    viewer: Viewer,
    now: Timestamp,
    lang: Lang,
) -> GameReport {
    let (view, cut) = game.view_windowed(viewer, now);
    GameReport {
        id: stored.summary.id,
        kind: stored.summary.kind.clone(),
        players: game.players().to_vec(),
        bots: game
            .players()
            .iter()
            .filter(|p| p.starts_with("bot:") || stored.bot_accounts.contains(p))
            .cloned()
            .collect(),
        status: stored.summary.status,
        to_move: reply::to_move_users(game),
        moves: game.moves(),
        version: game.record().events.len(),
        outcome: game.outcome().map(|o| {
            json!({
                "winners": o.winners.iter().map(|&s| game.players()[s].clone()).collect::<Vec<_>>(),
                "draw": o.winners.len() > 1,
                "reason": o.reason.render(lang),
                // Exact (`61/3`), and as shown (`20.33`).
                "scores": o.scores,
                "scores_text": o.scores.iter().map(|s| s.decimal()).collect::<Vec<_>>(),
            })
        }),
        options: game.record().options.given().to_vec(),
        cut,
        view,
        history: game.history_json(viewer, lang),
    }
}

/// The position `user` asks for with `at` (the moves made then, if not the
/// current one) and the viewer it is shown to: a past position is shown as
/// an observer saw it then, so replay never reveals a secret early.
pub(super) fn position(game: &Game, user: Option<&str>, at: Option<usize>) -> (Option<usize>, Viewer) {
    let past = at.filter(|&n| n < game.moves());
    let viewer = match (past, user.and_then(|u| game.seat_of(u))) {
        (None, Some(seat)) => Viewer::Player(seat),
        _ => Viewer::Observer,
    };
    (past, viewer)
}

/// `game` as it was after `past` moves, or as it is.
pub(super) fn replayed(game: Arc<Game>, past: Option<usize>) -> Result<Arc<Game>, CommandError> {
    match past {
        Some(n) => {
            Game::replay_prefix(game.kind(), game.record().clone(), n).map(Arc::new).map_err(|e| internal(&e))
        }
        None => Ok(game),
    }
}
