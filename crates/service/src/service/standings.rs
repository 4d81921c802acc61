//! Lists over many games: a user's boards, standings and the ladder
//! (Glicko-2 ratings).

use std::collections::HashMap;

use serde_json::json;
use tabula_model::Lang;
use tabula_model::{GameKind, SeatResult};

use crate::command::GamesWhich;
use crate::error::{CommandError, ErrorCode};
use crate::reply;
use crate::store::{GameFilter, GameStatus};
use crate::users;

use super::{Reply, Service};

impl Service {
    pub(super) async fn games_list(
        &self,
        kind: &'static dyn GameKind,
        user: &str,
        which: GamesWhich,
    ) -> Result<Reply, CommandError> {
        let id = users::canonical_user_id(user).map_err(|m| CommandError::says(ErrorCode::UnknownUser, m))?;
        if !id.starts_with("bot:") && self.store.user(&id).await?.is_none() {
            return Err(CommandError::says(ErrorCode::UnknownUser, tabula_i18n::msg!("error-no-user", user = &id)));
        }
        let filter = GameFilter {
            kind: Some(kind.info().kind.to_string()),
            player: Some(id.clone()),
            statuses: match which {
                GamesWhich::Active | GamesWhich::Next => vec![GameStatus::Active, GameStatus::Proposed],
                GamesWhich::Inactive => vec![GameStatus::Finished, GameStatus::Cancelled],
                GamesWhich::All => Vec::new(),
            },
            to_move: (which == GamesWhich::Next).then(|| id.clone()),
            before: None,
            limit: 500,
        };
        let games = self.store.games(&filter).await?;
        let mut text = String::new();
        for g in &games {
            let state = match g.status {
                GameStatus::Finished => g.result.clone().unwrap_or_else(|| "over".into()),
                GameStatus::Cancelled => "cancelled".into(),
                GameStatus::Proposed => "waiting for acceptance".into(),
                GameStatus::Active if g.to_move.is_empty() => "running".into(),
                GameStatus::Active => format!("{} to move", reply::and_list(&g.to_move)),
            };
            text.push_str(&format!("Board {:>5}  {}  ({state})\n", g.id, g.players.join(" ")));
        }
        if games.is_empty() {
            text.push_str("No boards.\n");
        }
        let which_word = match which {
            GamesWhich::Active => "active",
            GamesWhich::Inactive => "finished",
            GamesWhich::Next => "waiting for them",
            GamesWhich::All => "all",
        };
        let mut r =
            Reply::plain(format!("{} games of {id} ({which_word})", kind.info().title(Lang::En)), text);
        r.data = json!(games);
        Ok(r)
    }

    pub(super) async fn standings(&self, kind: &'static dyn GameKind) -> Result<Reply, CommandError> {
        let finished = self.store.finished(Some(kind.info().kind)).await?;
        let mut table: HashMap<String, [u32; 3]> = HashMap::new();
        for g in &finished {
            for (seat, user) in g.players.iter().enumerate() {
                let row = table.entry(user.clone()).or_default();
                match g.seat_results.get(seat).copied().flatten() {
                    Some(SeatResult::Win) => row[0] += 1,
                    Some(SeatResult::Loss) => row[1] += 1,
                    Some(SeatResult::Draw) => row[2] += 1,
                    None => {}
                }
            }
        }
        let mut rows: Vec<(String, [u32; 3])> = table.into_iter().collect();
        rows.sort_by(|a, b| b.1[0].cmp(&a.1[0]).then(a.1[1].cmp(&b.1[1])).then(a.0.cmp(&b.0)));
        let mut text = format!("{:<20} {:>6} {:>6} {:>6}\n", "player", "won", "lost", "drawn");
        for (u, [w, l, d]) in &rows {
            text.push_str(&format!("{u:<20} {w:>6} {l:>6} {d:>6}\n"));
        }
        if rows.is_empty() {
            text.push_str("No finished games yet.\n");
        }
        let mut r = Reply::plain(format!("{} standings", kind.info().title(Lang::En)), text);
        r.data = json!(
            rows.iter()
                .map(|(u, [w, l, d])| json!({"user": u, "won": w, "lost": l, "drawn": d}))
                .collect::<Vec<_>>()
        );
        Ok(r)
    }

    pub(super) async fn ratings(&self, kind: &'static dyn GameKind) -> Result<Reply, CommandError> {
        let ladder = self.ladder(kind.info().kind).await?;
        let mut text = format!(
            "{:<20} {:>7} {:>5} {:>6} {:>5} {:>5} {:>5}\n",
            "player", "rating", "RD", "games", "won", "lost", "drawn"
        );
        for r in &ladder {
            text.push_str(&format!(
                "{:<20} {:>7.0} {:>5.0} {:>6} {:>5} {:>5} {:>5}\n",
                r.user, r.rating.rating, r.rating.deviation, r.games, r.won, r.lost, r.drawn
            ));
        }
        if ladder.is_empty() {
            text.push_str("No finished games yet.\n");
        }
        text.push_str(
            "\nGlicko-2 ratings over every finished game in order (start 1500, deviation RD 350; the rating is within 2 RD of the truth with about 95 % confidence; a game of several players counts as a match between every pair).\n",
        );
        let mut r = Reply::plain(format!("{} ratings", kind.info().title(Lang::En)), text);
        r.data = json!(ladder);
        Ok(r)
    }

    /// The ladder of the game `kind`: Glicko-2 ratings of every player,
    /// people and bots, over its finished games (see [`crate::glicko`]).
    ///
    /// # Errors
    /// `bad_option` for an unknown game, or storage failures.
    pub async fn ladder(&self, kind: &str) -> Result<Vec<crate::glicko::LadderRow>, CommandError> {
        let kind = tabula_games::find(kind)
            .ok_or_else(|| {
                CommandError::says(ErrorCode::UnknownCommand, tabula_i18n::msg!("error-no-game", quoted = format!("{kind:?}")))
            })?;
        let finished = self.store.finished(Some(kind.info().kind)).await?;
        Ok(crate::glicko::ladder(&finished))
    }
}
