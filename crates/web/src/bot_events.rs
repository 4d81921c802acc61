//! `GET /api/v1/bot/events`: a bot account's events as Server-Sent Events,
//! for a program on its author's machine (`tabula bot connect`).
//!
//! The stream is the account's, proven by its bearer token (header, or
//! `?token=`); only a bot account (`bot on USERID PASSWORD`) that the
//! server does not host has one. Events (see `tabula_bots::live`):
//! `challenge`, `start`, `turn` and `end`, each with `{"board", "kind",
//! "version", "message"}` where `message` is the bot protocol's own line
//! (`start`, `turn` or `end`) for the program, and a challenge's
//! `{"players", "options"}`. Moves, acceptances and refusals go through
//! `POST /api/v1/commands` like anyone's.
//!
//! On connecting, the stream tells of every running game: its `start`
//! and, when the bot must move, its `turn`. A client that reconnects names
//! the boards its programs play in `?boards=1,2,3`: their `start` is not
//! sent again, and their `end` is if they ended while it was away.

use std::collections::VecDeque;
use std::convert::Infallible;

use axum::extract::rejection::QueryRejection;
use axum::extract::{Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::sse::{Event, KeepAlive, Sse};
use futures_util::Stream;
use serde::Deserialize;
use tabula_bots::live::{BotEvent, BotFeed, MAX_FOLLOWED};
use tabula_i18n::t;
use tokio::sync::broadcast::error::RecvError;

use crate::Web;
use crate::auth::{api_user, token_user};
use crate::client::ClientAddress;
use crate::error::ApiError;
use crate::events::{KEEP_ALIVE, STORE_POLL};
use crate::lang::current;

/// Query parameters of a bot's event stream.
#[derive(Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct BotEventsQuery {
    /// A bearer token, for clients that cannot set headers.
    pub token: Option<String>,
    /// Boards the client's programs play already (at most 500),
    /// comma-separated, after a reconnection: their `start` is not sent
    /// again, and their `end` is if they ended meanwhile.
    #[param(example = "4,7")]
    pub boards: Option<String>,
}

struct Listener {
    web: Web,
    feed: BotFeed,
    updates: tokio::sync::broadcast::Receiver<tabula_service::GameUpdate>,
    pending: VecDeque<Event>,
}

/// The handler.
#[utoipa::path(
    get,
    path = "/api/v1/bot/events",
    tag = "bots",
    summary = "A bot account's events as Server-Sent Events",
    description = "For a program playing a bot account (`bot on USERID PASSWORD`) from its author's machine, as `tabula bot connect` does. Events: `challenge` (a challenge waits for the bot's acceptance; its account's policy is `ask`), `start` (a game of the bot runs), `turn` (the bot must move), `end` (a game of the bot is over or cancelled). Each event's data is `{\"board\", \"kind\", \"version\", \"message\"}`, `message` being the bot protocol's own `start`, `turn` or `end` line for the program (docs/bot-protocol.md), built as the tournament referee builds it; a challenge has `{\"players\", \"options\"}` instead. On connecting the stream tells of every running game (its `start`, and its `turn` when the bot must move). Moves, acceptances and refusals go through POST /api/v1/commands. Only a bot account's token opens the stream (header, or the `token` parameter); not a web login, and not an account whose program the server hosts.",
    security(("bearer" = [])),
    params(BotEventsQuery),
    responses(
        (status = 200, description = "The stream.", content_type = "text/event-stream", body = String,
            example = "event: turn\ndata: {\"board\":4,\"kind\":\"intervalo\",\"version\":3,\"message\":{\"type\":\"turn\",\"view\":{\"history\":[],\"scores\":[0,0],\"strip\":\"...\"},\"legal\":[\"1\",\"2\",\"3\"],\"time_ms\":10000}}\n\n"),
        (status = 400, description = "`usage`: a bad `boards` list.", body = crate::openapi::ErrorBody),
        (status = 401, description = "`unauthorized`: no token, or an unknown or revoked one.", body = crate::openapi::ErrorBody),
        (status = 403, description = "`not_a_bot`: the token's account is not a bot account.", body = crate::openapi::ErrorBody),
        (status = 409, description = "`hosted_bot`: the server runs this bot's program itself.", body = crate::openapi::ErrorBody),
        (status = 429, description = "`too_many_requests`: too many streams from one client.", body = crate::openapi::ErrorBody),
    )
)]
pub async fn bot_events(
    State(web): State<Web>,
    client: ClientAddress,
    headers: HeaderMap,
    q: Result<Query<BotEventsQuery>, QueryRejection>,
) -> Result<Sse<impl Stream<Item = Result<Event, Infallible>>>, ApiError> {
    let Query(q) = q.map_err(|e| ApiError::bad_request(t!(current(), "bad-query", error = e.body_text())))?;
    let held = held_boards(q.boards.as_deref())?;
    let origin = client.origin();
    // A token only: a browser's login session is a person's, not a program's.
    let user = match api_user(&web.service, &headers, &origin, false).await? {
        Some(u) => u,
        None => match q.token.as_deref().filter(|t| !t.is_empty()) {
            Some(token) => token_user(&web.service, token, &origin).await?,
            None => {
                return Err(ApiError::unauthorized(t!(current(), "bot-events-need-token")));
            }
        },
    };
    match web.service.bot_account(&user).await? {
        None => {
            return Err(ApiError::new(
                StatusCode::FORBIDDEN,
                "not_a_bot",
                t!(current(), "bot-events-not-a-bot", user = user.as_str()),
            ));
        }
        Some(b) if b.command.is_some() => {
            return Err(ApiError::new(
                StatusCode::CONFLICT,
                "hosted_bot",
                t!(current(), "bot-events-hosted", user = user.as_str()),
            ));
        }
        Some(_) => {}
    }
    // Subscribe before the first scan, so no change falls between the two.
    let updates = web.service.updates();
    let mut listener = Listener {
        feed: BotFeed::new(web.service.clone(), &user, &held),
        web,
        updates,
        pending: VecDeque::new(),
    };
    let first = listener.feed.scan().await?;
    listener.pending.extend(first.iter().map(sse_event));
    let stream = futures_util::stream::unfold(listener, next_event);
    Ok(Sse::new(stream).keep_alive(KeepAlive::new().interval(KEEP_ALIVE)))
}

/// `?boards=1,2,3`, checked.
fn held_boards(text: Option<&str>) -> Result<Vec<i64>, ApiError> {
    let words: Vec<&str> = text.unwrap_or("").split(',').map(str::trim).filter(|w| !w.is_empty()).collect();
    if words.len() > MAX_FOLLOWED as usize {
        return Err(ApiError::bad_request(t!(current(), "bot-events-too-many", max = MAX_FOLLOWED)));
    }
    words.iter().map(|w| crate::api::board_id(w)).collect()
}

/// A bot event as a Server-Sent Event: its name, its JSON as the data.
pub fn sse_event(e: &BotEvent) -> Event {
    let data = serde_json::to_string(e).unwrap_or_else(|_| "{}".into());
    Event::default().event(e.name).data(data)
}

async fn next_event(mut l: Listener) -> Option<(Result<Event, Infallible>, Listener)> {
    let mut stopping = l.web.stopping.clone();
    loop {
        if let Some(event) = l.pending.pop_front() {
            return Some((Ok(event), l));
        }
        if *stopping.borrow() {
            return None;
        }
        tokio::select! {
            received = l.updates.recv() => match received {
                // A change of a game the bot does not play yet is looked
                // for at the next poll (a new challenge).
                Ok(update) if !l.feed.follows(update.board) => continue,
                Ok(_) | Err(RecvError::Lagged(_)) => {}
                Err(RecvError::Closed) => return None,
            },
            _ = stopping.changed() => return None,
            _ = tokio::time::sleep(STORE_POLL) => {}
        }
        match l.feed.scan().await {
            Ok(events) => l.pending.extend(events.iter().map(sse_event)),
            Err(e) => {
                tracing::warn!(user = l.feed.user(), error = %e.message, "bot event stream ends");
                return None;
            }
        }
    }
}
