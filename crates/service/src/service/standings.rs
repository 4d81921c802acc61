//! Lists over many games: a user's boards, standings and the ladder
//! (Glicko-2 ratings).

use std::collections::HashMap;

use serde_json::json;
use tabula_i18n::t;
use tabula_model::Lang;
use tabula_model::{GameKind, SeatResult};

use crate::command::GamesWhich;
use crate::error::{CommandError, ErrorCode};
use crate::store::{GameFilter, GameStatus};
use crate::users;

use super::{Reply, Service};

impl Service {
    pub(super) async fn games_list(
        &self,
        kind: &'static dyn GameKind,
        user: &str,
        which: GamesWhich,
        lang: Lang,
    ) -> Result<Reply, CommandError> {
        let id = users::canonical_user_id(user).map_err(|m| CommandError::says(ErrorCode::UnknownUser, m))?;
        if !id.starts_with("bot:") && self.store.user(&id).await?.is_none() {
            return Err(CommandError::says(
                ErrorCode::UnknownUser,
                tabula_i18n::msg!("error-no-user", user = &id),
            ));
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
                // The stored result line is English; other languages say the game is over.
                GameStatus::Finished => match (&g.result, lang) {
                    (Some(result), Lang::En) => result.clone(),
                    _ => t!(lang, "boards-state-over"),
                },
                GameStatus::Cancelled => t!(lang, "boards-state-cancelled"),
                GameStatus::Proposed => t!(lang, "boards-state-proposed"),
                GameStatus::Active if g.to_move.is_empty() => t!(lang, "boards-state-running"),
                GameStatus::Active => {
                    t!(lang, "boards-state-to-move", users = tabula_i18n::and_list(lang, &g.to_move))
                }
            };
            let board = format!("{:>5}", g.id);
            text.push_str(&t!(
                lang,
                "games-line",
                board = board,
                players = g.players.join(" "),
                state = state
            ));
            text.push('\n');
        }
        if games.is_empty() {
            text.push_str(&t!(lang, "games-none"));
            text.push('\n');
        }
        let which_word = match which {
            GamesWhich::Active => "active",
            GamesWhich::Inactive => "finished",
            GamesWhich::Next => "waiting",
            GamesWhich::All => "all",
        };
        let subject =
            t!(lang, "games-subject", game = kind.info().title(lang), user = &id, which = which_word);
        let mut r = Reply::plain(subject, text);
        r.data = json!(games);
        Ok(r)
    }

    pub(super) async fn standings(
        &self,
        kind: &'static dyn GameKind,
        lang: Lang,
    ) -> Result<Reply, CommandError> {
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
        let column = |id: &str| t!(lang, id);
        let mut text = format!(
            "{:<20} {:>6} {:>6} {:>6}\n",
            column("column-player"),
            column("column-won"),
            column("column-lost"),
            column("column-drawn")
        );
        for (u, [w, l, d]) in &rows {
            text.push_str(&format!("{u:<20} {w:>6} {l:>6} {d:>6}\n"));
        }
        if rows.is_empty() {
            text.push_str(&t!(lang, "standings-none"));
            text.push('\n');
        }
        let mut r = Reply::plain(t!(lang, "standings-subject", game = kind.info().title(lang)), text);
        r.data = json!(
            rows.iter()
                .map(|(u, [w, l, d])| json!({"user": u, "won": w, "lost": l, "drawn": d}))
                .collect::<Vec<_>>()
        );
        Ok(r)
    }

    pub(super) async fn ratings(
        &self,
        kind: &'static dyn GameKind,
        lang: Lang,
    ) -> Result<Reply, CommandError> {
        let ladder = self.ladder(kind.info().kind).await?;
        let column = |id: &str| t!(lang, id);
        let mut text = format!(
            "{:<20} {:>7} {:>5} {:>6} {:>5} {:>5} {:>5}\n",
            column("column-player"),
            column("column-rating"),
            column("column-deviation"),
            column("column-games"),
            column("column-won"),
            column("column-lost"),
            column("column-drawn")
        );
        for r in &ladder {
            text.push_str(&format!(
                "{:<20} {:>7.0} {:>5.0} {:>6} {:>5} {:>5} {:>5}\n",
                r.user, r.rating.rating, r.rating.deviation, r.games, r.won, r.lost, r.drawn
            ));
        }
        if ladder.is_empty() {
            text.push_str(&t!(lang, "standings-none"));
            text.push('\n');
        }
        text.push('\n');
        text.push_str(&t!(lang, "ratings-explained"));
        text.push('\n');
        let mut r = Reply::plain(t!(lang, "ratings-subject", game = kind.info().title(lang)), text);
        r.data = json!(ladder);
        Ok(r)
    }

    /// The ladder of the game `kind`: Glicko-2 ratings of every player,
    /// people and bots, over its finished games (see [`crate::glicko`]).
    ///
    /// # Errors
    /// `bad_option` for an unknown game, or storage failures.
    pub async fn ladder(&self, kind: &str) -> Result<Vec<crate::glicko::LadderRow>, CommandError> {
        let kind = tabula_games::find(kind).ok_or_else(|| {
            CommandError::says(
                ErrorCode::UnknownCommand,
                tabula_i18n::msg!("error-no-game", quoted = format!("{kind:?}")),
            )
        })?;
        let finished = self.store.finished(Some(kind.info().kind)).await?;
        Ok(crate::glicko::ladder(&finished))
    }
}
