//! The games lists: `/` (every game, filtered, and the games waiting for
//! the logged-in user) and `/users/{id}` (a user's games).

use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use minijinja::context;
use serde::{Deserialize, Serialize};
use tabula_i18n::t;
use tabula_service::store::{GameStatus, GameSummary};
use tabula_service::{Waiting, WaitingGame};

use super::{base, frame, page, query, title_of, visitor};
use crate::Web;
use crate::api::{GamesQuery, game_filter, public_user};
use crate::client::ClientAddress;
use crate::error::PageError;
use crate::lang::current;
use crate::templates::render;

/// Games shown on a user's page.
const LIST_GAMES: i64 = 200;
/// Games shown on one page of the games list.
const PAGE_GAMES: i64 = 50;

#[derive(Serialize)]
pub(super) struct GameRow {
    id: i64,
    kind: String,
    title: String,
    players: Vec<String>,
    state: String,
    status: &'static str,
    moves: i64,
    updated: i64,
    my_turn: bool,
    /// Why it waits for the visitor, in words (the "Your turn" list).
    why: Option<String>,
}

fn game_row(g: &GameSummary, me: Option<&str>) -> GameRow {
    let lang = current();
    GameRow {
        id: g.id,
        kind: g.kind.clone(),
        title: title_of(&g.kind),
        players: g.players.clone(),
        state: match g.status {
            GameStatus::Finished => g.result.clone().unwrap_or_else(|| t!(lang, "state-over")),
            GameStatus::Cancelled => t!(lang, "state-rejected"),
            GameStatus::Proposed => t!(lang, "state-proposed"),
            GameStatus::Active if g.to_move.is_empty() => t!(lang, "state-running"),
            GameStatus::Active => {
                t!(lang, "state-to-move", players = tabula_service::reply::and_list(&g.to_move))
            }
        },
        status: g.status.as_str(),
        moves: g.moves,
        updated: g.updated,
        my_turn: g.status == GameStatus::Active && me.is_some_and(|m| g.to_move.iter().any(|u| u == m)),
        why: None,
    }
}

pub(super) fn game_rows(games: &[GameSummary], me: Option<&str>) -> Vec<GameRow> {
    games.iter().map(|g| game_row(g, me)).collect()
}

fn waiting_rows(games: &[WaitingGame], me: &str) -> Vec<GameRow> {
    let lang = current();
    games
        .iter()
        .map(|w| GameRow {
            my_turn: true,
            why: Some(match w.why {
                Waiting::Move => t!(lang, "why-move"),
                Waiting::Challenge => t!(lang, "why-challenge"),
                Waiting::Offer => t!(lang, "why-offer"),
            }),
            ..game_row(&w.game, Some(me))
        })
        .collect()
}

#[derive(Deserialize, Default)]
pub(super) struct ListQuery {
    game: Option<String>,
    player: Option<String>,
    state: Option<String>,
    /// Only boards numbered below this (the next page).
    before: Option<i64>,
}

/// `/`: the games, filtered by game, player and state; and the logged-in
/// user's games waiting for them.
pub(super) async fn games_page(
    State(web): State<Web>,
    client: ClientAddress,
    headers: HeaderMap,
    q: Result<Query<ListQuery>, QueryRejection>,
) -> Result<Response, PageError> {
    let login = visitor(&web, client, &headers).await?;
    let q = query(q)?;
    let state = q.state.clone().unwrap_or_else(|| "all".into());
    let filter = GamesQuery {
        kind: q.game.clone(),
        player: q.player.clone(),
        status: Some(state.clone()),
        to_move: None,
        before: q.before,
        limit: Some(PAGE_GAMES),
    };
    let me = login.as_ref().map(|l| l.user.as_str());
    let (games, error) = match game_filter(&filter) {
        Ok(f) => (web.service.games(&f).await?, None),
        Err(e) => (Vec::new(), Some(e.message)),
    };
    let waiting = match me {
        Some(m) => web.service.waiting_for(m).await?,
        None => Vec::new(),
    };
    // A full page may have more after it: link to the boards below its last.
    let older = (games.len() as i64 == PAGE_GAMES).then(|| games.last().map(|g| g.id)).flatten();
    let html = render(
        "games.html",
        context! {
            base => frame(login.as_ref(), waiting.len()),
            games => game_rows(&games, me),
            waiting => waiting_rows(&waiting, me.unwrap_or_default()),
            game => q.game.unwrap_or_default(),
            player => q.player.unwrap_or_default(),
            state,
            error,
            older,
            paged => q.before.is_some(),
        },
    )?;
    Ok(page(StatusCode::OK, html))
}

/// `/users/{id}`: a user's games.
pub(super) async fn user_page(
    State(web): State<Web>,
    client: ClientAddress,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> Result<Response, PageError> {
    let login = visitor(&web, client, &headers).await?;
    let (profile, games) =
        public_user(&web, &id, LIST_GAMES).await.map_err(|e| PageError::new(e.status, e.message))?;
    let me = login.as_ref().map(|l| l.user.as_str());
    let (running, over): (Vec<GameSummary>, Vec<GameSummary>) =
        games.into_iter().partition(|g| matches!(g.status, GameStatus::Active | GameStatus::Proposed));
    let html = render(
        "user.html",
        context! {
            base => base(&web, login.as_ref()).await?,
            user => profile,
            running => game_rows(&running, me),
            over => game_rows(&over, me),
        },
    )?;
    Ok(page(StatusCode::OK, html))
}

/// Players shown on a ladder page.
const LADDER_ROWS: usize = 500;

/// `/ladder/{kind}`: a game's ladder (Glicko-2 ratings of people and bots).
pub(super) async fn ladder_page(
    State(web): State<Web>,
    client: ClientAddress,
    headers: HeaderMap,
    Path(kind): Path<String>,
) -> Result<Response, PageError> {
    let login = visitor(&web, client, &headers).await?;
    let info = tabula_games::find(&kind)
        .ok_or_else(|| PageError::not_found(t!(current(), "no-game", kind = format!("{kind:?}"))))?
        .info();
    let (rows, total) = crate::api::ladder_rows(&web, info.kind, LADDER_ROWS)
        .await
        .map_err(|e| PageError::new(e.status, e.message))?;
    let rows: Vec<serde_json::Value> = rows
        .into_iter()
        .enumerate()
        .map(|(i, entry)| {
            let rating = entry.row.rating;
            let mut r = serde_json::to_value(entry).unwrap_or_default();
            r["rank"] = (i + 1).into();
            r["rating"] = format!("{:.0}", rating.rating).into();
            r["deviation"] = format!("{:.0}", rating.deviation).into();
            r
        })
        .collect();
    let html = render(
        "ladder.html",
        context! {
            base => base(&web, login.as_ref()).await?,
            title => info.title(current()),
            kind => info.kind,
            more => total > rows.len(),
            total,
            rows,
        },
    )?;
    Ok(page(StatusCode::OK, html))
}
