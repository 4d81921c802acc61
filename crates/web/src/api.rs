//! The JSON API under `/api/v1`, described by `GET /api/openapi.json`.
//!
//! Every answer is an object with `"ok"`. A command's answer is exactly what
//! the command line's `--json` prints. Views are the caller's own: a bearer
//! token's owner (or, for reading, the logged-in browser's user) sees their
//! secrets; everyone else sees what an observer sees.

use axum::extract::rejection::{JsonRejection, QueryRejection};
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{delete, get, post};
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::{Value, json};
use tabula_model::Lang;
use tabula_service::store::{GameFilter, GameStatus};
use tabula_service::{Caller, Context, Reply, Snapshot};

use crate::auth::{api_user, bearer};
use crate::client::ClientAddress;
use crate::error::ApiError;
use crate::{Web, bot_events, events, openapi};

/// Most games one list returns.
pub const MAX_LIST: i64 = 500;
/// Games a list returns when no `limit` is given.
const DEFAULT_LIST: i64 = 100;

/// The API's routes.
pub fn routes() -> Router<Web> {
    Router::new()
        .route("/api/openapi.json", get(openapi::document))
        .route("/api/v1/commands", post(command))
        .route("/api/v1/kinds", get(kinds))
        .route("/api/v1/kinds/{kind}", get(kind))
        .route("/api/v1/kinds/{kind}/ladder", get(ladder))
        .route("/api/v1/games", get(games))
        .route("/api/v1/games/{id}", get(game))
        .route("/api/v1/games/{id}/history", get(history))
        .route("/api/v1/games/{id}/text", get(text))
        .route("/api/v1/games/{id}/events", get(events::game_events))
        .route("/api/v1/users/{id}", get(user))
        .route("/api/v1/bot/events", get(bot_events::bot_events))
        .route("/api/v1/me", get(me))
        .route("/api/v1/tokens", post(create_token).get(list_tokens))
        .route("/api/v1/tokens/{id}", delete(revoke_token))
}

/// A reply as the command line's `--json` prints it: the reply's fields and
/// `"ok": true`.
pub fn reply_json(reply: &Reply) -> Result<Value, ApiError> {
    let mut v = serde_json::to_value(reply).map_err(internal)?;
    v["ok"] = Value::Bool(true);
    Ok(v)
}

/// A board as one reader sees it: the reply's fields (`subject`, `text`,
/// `game`), the picture (`svg`), its click layout (`click`, or null) and
/// `"ok": true`. The API, the event streams and the page script share it.
pub fn snapshot_json(snapshot: &Snapshot) -> Result<Value, ApiError> {
    let mut v = reply_json(&snapshot.reply)?;
    v["svg"] = Value::String(snapshot.svg.clone());
    v["click"] = serde_json::to_value(&snapshot.click).map_err(internal)?;
    Ok(v)
}

/// A reply with `"ok": true`, written straight out: going through
/// [`reply_json`]'s intermediate value copied the whole board, view and
/// history once more on every move.
#[derive(serde::Serialize)]
struct Answer<'a> {
    #[serde(flatten)]
    reply: &'a Reply,
    ok: bool,
}

/// The body of [`reply_json`], serialised directly.
fn reply_response(reply: &Reply) -> Result<Response, ApiError> {
    let body = serde_json::to_vec(&Answer { reply, ok: true }).map_err(internal)?;
    Ok(([(header::CONTENT_TYPE, "application/json")], body).into_response())
}

fn internal(e: impl std::fmt::Display) -> ApiError {
    tracing::error!(error = %e, "answer does not serialise");
    ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "internal", "internal error")
}

/// A board number from a path.
pub fn board_id(text: &str) -> Result<i64, ApiError> {
    match text.parse::<i64>() {
        Ok(n) if n > 0 => Ok(n),
        _ => Err(ApiError::bad_request(format!("{text:?} is not a board number"))),
    }
}

fn json_body<T>(body: Result<Json<T>, JsonRejection>, shape: &str) -> Result<T, ApiError> {
    body.map(|Json(b)| b).map_err(|e| match e {
        JsonRejection::BytesRejection(_) if e.status() == StatusCode::PAYLOAD_TOO_LARGE => ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            "payload_too_large",
            format!("the body is larger than {} bytes", crate::MAX_BODY),
        ),
        e => ApiError::bad_request(format!("the body must be JSON {shape}: {}", e.body_text())),
    })
}

fn query<T>(q: Result<Query<T>, QueryRejection>) -> Result<T, ApiError> {
    q.map(|Query(q)| q).map_err(|e| ApiError::bad_request(format!("bad query parameters: {}", e.body_text())))
}

fn ok(mut v: Value) -> Response {
    v["ok"] = Value::Bool(true);
    Json(v).into_response()
}

#[derive(Deserialize)]
struct CommandBody {
    line: String,
}

/// `POST /api/v1/commands {"line": "..."}`: any command of the language,
/// answered as the CLI's `--json` answers it. With a bearer token the
/// password word may be `-`.
async fn command(
    State(web): State<Web>,
    client: ClientAddress,
    headers: HeaderMap,
    body: Result<Json<CommandBody>, JsonRejection>,
) -> Result<Response, ApiError> {
    let body = json_body(body, r#"{"line": "COMMAND"}"#)?;
    let origin = client.origin();
    let caller = match bearer(&headers)? {
        // The caller with the account read along with the token, so the
        // command needs not read it again.
        Some(token) => web.service.token_caller(token, &origin).await?,
        None => Caller::Anonymous,
    };
    // The service tells live listeners of any change itself.
    let reply = web.service.execute(&body.line, Context::new(caller, origin)).await?;
    reply_response(&reply)
}

fn kind_json(info: &tabula_model::GameInfo) -> Value {
    json!({
        "kind": info.kind,
        "title": info.title(Lang::En),
        "summary": info.summary(Lang::En),
        "rules": info.rules(Lang::En),
        "move_help": info.move_help(Lang::En),
        "min_players": info.min_players,
        "max_players": info.max_players,
        "dynamics": info.dynamics,
        "hidden_information": info.hidden_information,
        "open_join": info.open_join,
        "options": info.all_options().collect::<Vec<_>>(),
    })
}

/// `GET /api/v1/kinds`: the games on offer with their option tables.
async fn kinds() -> Response {
    let kinds: Vec<Value> = tabula_games::all().iter().map(|k| kind_json(k.info())).collect();
    ok(json!({ "kinds": kinds }))
}

/// `GET /api/v1/kinds/{kind}`: one game's rules, move help and options.
async fn kind(Path(kind): Path<String>) -> Result<Response, ApiError> {
    let k = tabula_games::find(&kind).ok_or_else(|| ApiError::not_found(format!("no game {kind:?}")))?;
    Ok(ok(json!({ "kind": kind_json(k.info()) })))
}

#[derive(Deserialize)]
struct LadderQuery {
    limit: Option<usize>,
}

/// Most players one ladder answer lists.
pub const MAX_LADDER: usize = 1000;

/// `GET /api/v1/kinds/{kind}/ladder?limit=N`: the game's ladder, best
/// first: Glicko-2 ratings of people and bots over its finished games.
async fn ladder(
    State(web): State<Web>,
    Path(kind): Path<String>,
    q: Result<Query<LadderQuery>, QueryRejection>,
) -> Result<Response, ApiError> {
    let info =
        tabula_games::find(&kind).ok_or_else(|| ApiError::not_found(format!("no game {kind:?}")))?.info();
    let limit = query(q)?.limit.unwrap_or(100);
    if !(1..=MAX_LADDER).contains(&limit) {
        return Err(ApiError::bad_request(format!("limit must be 1 to {MAX_LADDER}")));
    }
    let (rows, total) = ladder_rows(&web, info.kind, limit).await?;
    Ok(ok(json!({ "kind": info.kind, "total": total, "ladder": rows })))
}

/// The first `limit` rows of the game `kind`'s ladder as JSON, each with
/// `bot` (whether the player is one), and how many players it has.
///
/// # Errors
/// Storage failures.
pub async fn ladder_rows(web: &Web, kind: &str, limit: usize) -> Result<(Vec<Value>, usize), ApiError> {
    let ladder = web.service.ladder(kind).await?;
    let total = ladder.len();
    let shown = &ladder[..limit.min(total)];
    let users: Vec<String> = shown.iter().map(|r| r.user.clone()).collect();
    let bots = web.service.bots_among(&users).await?;
    let rows = shown
        .iter()
        .map(|r| {
            let mut v = serde_json::to_value(r).unwrap_or_default();
            v["bot"] = bots.contains(&r.user).into();
            v
        })
        .collect();
    Ok((rows, total))
}

/// Filters of a games list.
#[derive(Debug, Default, Deserialize)]
pub struct GamesQuery {
    /// Only this game.
    pub kind: Option<String>,
    /// Only games this user plays in.
    pub player: Option<String>,
    /// Only these states, comma-separated: `proposed`, `active`,
    /// `finished`, `cancelled`, or `running` (proposed and active) and
    /// `over` (finished and cancelled).
    pub status: Option<String>,
    /// Only games where this user must act.
    pub to_move: Option<String>,
    /// Only boards numbered below this one (the next page: the last board
    /// of the page before).
    pub before: Option<i64>,
    /// At most this many (newest first).
    pub limit: Option<i64>,
}

/// The store filter for `q`.
///
/// # Errors
/// An unknown game or state word, or a limit out of range.
pub fn game_filter(q: &GamesQuery) -> Result<GameFilter, ApiError> {
    fn nonempty(s: &Option<String>) -> Option<&str> {
        s.as_deref().map(str::trim).filter(|s| !s.is_empty())
    }
    let kind = match nonempty(&q.kind) {
        Some(k) => Some(
            tabula_games::find(k)
                .ok_or_else(|| ApiError::bad_request(format!("no game {k:?}")))?
                .info()
                .kind
                .to_string(),
        ),
        None => None,
    };
    let user =
        |s: &str| tabula_service::users::canonical_user_id(s).map_err(|m| ApiError::from(bad_value(m)));
    let mut statuses = Vec::new();
    for word in nonempty(&q.status).unwrap_or("").split(',').map(str::trim).filter(|w| !w.is_empty()) {
        let add: &[GameStatus] = match word.to_ascii_lowercase().as_str() {
            "all" => &[],
            "running" => &[GameStatus::Proposed, GameStatus::Active],
            "over" => &[GameStatus::Finished, GameStatus::Cancelled],
            w => match GameStatus::parse(w) {
                Ok(s) => {
                    statuses.push(s);
                    &[]
                }
                Err(_) => {
                    return Err(ApiError::bad_request(format!(
                        "{word:?} is not a state: use proposed, active, finished, cancelled, running, over or all"
                    )));
                }
            },
        };
        statuses.extend_from_slice(add);
    }
    statuses.sort_by_key(|s| s.as_str());
    statuses.dedup();
    let limit = q.limit.unwrap_or(DEFAULT_LIST);
    if !(1..=MAX_LIST).contains(&limit) {
        return Err(ApiError::bad_request(format!("limit must be 1 to {MAX_LIST}")));
    }
    Ok(GameFilter {
        kind,
        player: nonempty(&q.player).map(user).transpose()?,
        statuses,
        to_move: nonempty(&q.to_move).map(user).transpose()?,
        before: q.before,
        limit,
    })
}

fn bad_value(message: String) -> tabula_service::CommandError {
    tabula_service::CommandError::new(tabula_service::ErrorCode::BadValue, message)
}

/// `GET /api/v1/games?kind=&player=&status=&to_move=&before=&limit=`:
/// games, newest first; `next` is the `before` of the next page (null on
/// the last).
async fn games(
    State(web): State<Web>,
    q: Result<Query<GamesQuery>, QueryRejection>,
) -> Result<Response, ApiError> {
    let filter = game_filter(&query(q)?)?;
    let games = web.service.games(&filter).await?;
    let next = (games.len() as i64 == filter.limit).then(|| games.last().map(|g| g.id)).flatten();
    Ok(ok(json!({ "games": games, "next": next })))
}

#[derive(Deserialize)]
struct AtQuery {
    at: Option<usize>,
}

/// `GET /api/v1/games/{id}?at=N`: the board as the caller sees it (after
/// move N: as an observer saw it then).
async fn game(
    State(web): State<Web>,
    client: ClientAddress,
    Path(id): Path<String>,
    headers: HeaderMap,
    q: Result<Query<AtQuery>, QueryRejection>,
) -> Result<Response, ApiError> {
    let board = board_id(&id)?;
    let at = query(q)?.at;
    let user = api_user(&web.service, &headers, &client.origin(), true).await?;
    // A past position is replayed from the start: counted per client.
    let _turn = at.map(|_| web.heavy.enter(client)).transpose()?;
    let snapshot = web.service.snapshot(board, user.as_deref(), at).await?;
    if let (Some(n), Some(g)) = (at, &snapshot.reply.game)
        && n > g.moves
    {
        return Err(ApiError::bad_request(format!("board {board} has only {} moves", g.moves)));
    }
    Ok(Json(snapshot_json(&snapshot)?).into_response())
}

#[derive(Deserialize)]
struct TextQuery {
    pointer: String,
    at: Option<usize>,
}

/// `GET /api/v1/games/{id}/text?pointer=/table&at=N`: one string of the
/// caller's view whole, as plain text: what a board's `cut` list names
/// (a view shows long strings cut; see `tabula_service::views`).
async fn text(
    State(web): State<Web>,
    client: ClientAddress,
    Path(id): Path<String>,
    headers: HeaderMap,
    q: Result<Query<TextQuery>, QueryRejection>,
) -> Result<Response, ApiError> {
    let board = board_id(&id)?;
    let q = query(q)?;
    let user = api_user(&web.service, &headers, &client.origin(), true).await?;
    let _turn = web.heavy.enter(client)?;
    let text = web.service.view_text(board, user.as_deref(), q.at, &q.pointer).await?;
    Ok(([(header::CONTENT_TYPE, "text/plain; charset=utf-8")], text).into_response())
}

/// `GET /api/v1/games/{id}/history`: every history line the caller may see.
async fn history(
    State(web): State<Web>,
    client: ClientAddress,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let board = board_id(&id)?;
    let user = api_user(&web.service, &headers, &client.origin(), true).await?;
    let snapshot = web.service.snapshot(board, user.as_deref(), None).await?;
    let history = snapshot.reply.game.map(|g| g.history).unwrap_or_default();
    let chat = web.service.chats(board).await?;
    Ok(ok(json!({ "board": board, "history": history, "chat": chat })))
}

/// `GET /api/v1/users/{id}`: a user's public profile and games.
async fn user(State(web): State<Web>, Path(id): Path<String>) -> Result<Response, ApiError> {
    let (profile, games) = public_user(&web, &id, MAX_LIST).await?;
    Ok(ok(json!({ "user": profile, "games": games })))
}

/// A user's public profile (id, creation time, whether the account is
/// closed, whether it is a bot and the server runs it; never addresses or
/// settings) and newest games.
///
/// # Errors
/// `unknown_user`.
pub async fn public_user(
    web: &Web,
    id: &str,
    limit: i64,
) -> Result<(Value, Vec<tabula_service::store::GameSummary>), ApiError> {
    let unknown = || {
        ApiError::from(tabula_service::CommandError::new(
            tabula_service::ErrorCode::UnknownUser,
            format!("there is no user {id}"),
        ))
    };
    let canonical = tabula_service::users::canonical_user_id(id).map_err(|_| unknown())?;
    let row = web.service.user(&canonical).await.map_err(tabula_service::CommandError::from)?;
    let profile = match row {
        Some(u) => {
            let bot = web.service.bot_account(&u.id).await?;
            json!({
                "id": u.id,
                "created": u.created,
                "signed_off": u.signed_off,
                "bot": bot.is_some(),
                "hosted": bot.is_some_and(|b| b.command.is_some()),
            })
        }
        None if canonical.starts_with("bot:") => json!({"id": canonical, "bot": true}),
        None => return Err(unknown()),
    };
    let games =
        web.service.games(&GameFilter { player: Some(canonical), limit, ..Default::default() }).await?;
    Ok((profile, games))
}

/// `GET /api/v1/me`: who the bearer token (or the browser's login) is.
async fn me(State(web): State<Web>, client: ClientAddress, headers: HeaderMap) -> Result<Response, ApiError> {
    let user = api_user(&web.service, &headers, &client.origin(), true).await?;
    Ok(ok(json!({ "user": user })))
}

#[derive(Deserialize)]
struct NewToken {
    user: String,
    password: String,
    #[serde(default)]
    name: String,
}

/// `POST /api/v1/tokens {"user", "password", "name"}`: a new bearer token.
/// The secret is in this answer and nowhere else, ever.
async fn create_token(
    State(web): State<Web>,
    client: ClientAddress,
    body: Result<Json<NewToken>, JsonRejection>,
) -> Result<Response, ApiError> {
    let body = json_body(body, r#"{"user": "ID", "password": "PASSWORD", "name": "LABEL"}"#)?;
    let (secret, row) =
        web.service.create_token(&body.user, &body.password, &body.name, &client.origin()).await?;
    let mut v =
        json!({ "token": secret, "id": row.id, "user": row.user, "name": row.name, "created": row.created });
    v["ok"] = Value::Bool(true);
    Ok((StatusCode::CREATED, [(header::CACHE_CONTROL, "no-store")], Json(v)).into_response())
}

async fn token_owner(
    web: &Web,
    client: ClientAddress,
    headers: &HeaderMap,
    allow_session: bool,
) -> Result<String, ApiError> {
    api_user(&web.service, headers, &client.origin(), allow_session)
        .await?
        .ok_or_else(|| ApiError::unauthorized("this needs `Authorization: Bearer TOKEN`"))
}

/// `GET /api/v1/tokens`: the caller's tokens (never their secrets).
async fn list_tokens(
    State(web): State<Web>,
    client: ClientAddress,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let user = token_owner(&web, client, &headers, true).await?;
    let tokens = web.service.tokens(&user).await?;
    Ok(ok(json!({ "tokens": tokens })))
}

/// `DELETE /api/v1/tokens/{id}`: revoke one of the caller's tokens.
async fn revoke_token(
    State(web): State<Web>,
    client: ClientAddress,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let user = token_owner(&web, client, &headers, false).await?;
    let id: i64 = id.parse().map_err(|_| ApiError::bad_request(format!("{id:?} is not a token id")))?;
    web.service.revoke_token(&user, id).await?;
    Ok(ok(json!({ "revoked": id })))
}
