//! Lists over many games: a user's boards, standings and Elo ratings.

use std::collections::HashMap;

use serde_json::json;
use tabula_model::Lang;
use tabula_model::{GameKind, SeatResult};

use crate::command::GamesWhich;
use crate::error::{CommandError, ErrorCode};
use crate::reply;
use crate::store::{GameFilter, GameStatus, GameSummary};
use crate::users;

use super::{Reply, Service};

impl Service {
    pub(super) async fn games_list(
        &self,
        kind: &'static dyn GameKind,
        user: &str,
        which: GamesWhich,
    ) -> Result<Reply, CommandError> {
        let id = users::canonical_user_id(user).map_err(|m| CommandError::new(ErrorCode::UnknownUser, m))?;
        if !id.starts_with("bot:") && self.store.user(&id).await?.is_none() {
            return Err(CommandError::new(ErrorCode::UnknownUser, format!("there is no user {id}")));
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
        let finished = self.store.finished(Some(kind.info().kind)).await?;
        let ratings = elo(&finished);
        let mut text = format!("{:<20} {:>7} {:>6}\n", "player", "rating", "games");
        for (u, r, n) in &ratings {
            text.push_str(&format!("{u:<20} {r:>7.0} {n:>6}\n"));
        }
        if ratings.is_empty() {
            text.push_str("No finished games yet.\n");
        }
        text.push_str("\nElo ratings from every finished game in order (start 1500, K = 32; a game of several players counts as a match between every pair).\n");
        let mut r = Reply::plain(format!("{} ratings", kind.info().title(Lang::En)), text);
        r.data = json!(
            ratings.iter().map(|(u, r, n)| json!({"user": u, "rating": r, "games": n})).collect::<Vec<_>>()
        );
        Ok(r)
    }
}

/// Pairwise Elo over finished games, in order: (user, rating, games).
pub(super) fn elo(finished: &[GameSummary]) -> Vec<(String, f64, u32)> {
    let mut ratings: HashMap<String, (f64, u32)> = HashMap::new();
    for g in finished {
        let n = g.players.len();
        let mut delta = vec![0.0; n];
        for i in 0..n {
            for j in (i + 1)..n {
                let score = |seat: usize| match g.seat_results.get(seat).copied().flatten() {
                    Some(SeatResult::Win) => 1.0,
                    Some(SeatResult::Draw) => 0.5,
                    _ => 0.0,
                };
                let (si, sj) = (score(i), score(j));
                let actual = if si == sj {
                    0.5
                } else if si > sj {
                    1.0
                } else {
                    0.0
                };
                let ri = ratings.get(&g.players[i]).map(|r| r.0).unwrap_or(1500.0);
                let rj = ratings.get(&g.players[j]).map(|r| r.0).unwrap_or(1500.0);
                let expected = 1.0 / (1.0 + 10f64.powf((rj - ri) / 400.0));
                let k = 32.0 / (n - 1) as f64;
                delta[i] += k * (actual - expected);
                delta[j] -= k * (actual - expected);
            }
        }
        for (i, p) in g.players.iter().enumerate() {
            let e = ratings.entry(p.clone()).or_insert((1500.0, 0));
            e.0 += delta[i];
            e.1 += 1;
        }
    }
    let mut out: Vec<(String, f64, u32)> = ratings.into_iter().map(|(u, (r, n))| (u, r, n)).collect();
    out.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    out
}
