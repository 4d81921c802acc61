//! The JSON API under `/api/v1`, described by `GET /api/openapi.json`.
//!
//! Each handler carries its `#[utoipa::path]` (method, path, parameters,
//! body, answers and refusals) and answers with a typed body whose schema
//! the document shows; [`routes`] builds the router from those annotations.
//!
//! Every answer is an object with `"ok"`. A command's answer is exactly what
//! the command line's `--json` prints. Views are the caller's own: a bearer
//! token's owner (or, for reading, the logged-in browser's user) sees their
//! secrets; everyone else sees what an observer sees.

use axum::extract::rejection::{JsonRejection, QueryRejection};
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::{Json, Router};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use tabula_model::Lang;
use tabula_service::store::{ChatRow, GameFilter, GameStatus, GameSummary, TokenRow};
use tabula_service::{Caller, Context, Reply, Snapshot};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use tabula_i18n::t;

use crate::auth::{api_user, bearer};
use crate::client::ClientAddress;
use crate::error::ApiError;
use crate::lang::current;
use crate::openapi::{ErrorBody, True};
use crate::{Web, bot_events, events, openapi, tournaments};

/// Most games one list returns.
pub const MAX_LIST: i64 = 500;
/// Games a list returns when no `limit` is given.
const DEFAULT_LIST: i64 = 100;

/// Every route under `/api` with its description: each comes from its
/// handler's `#[utoipa::path]`, which names the method and the path, so
/// the router and the OpenAPI document cannot disagree. Add a route here
/// (never with a plain `Router::route`); `openapi::text` splits off the
/// document.
pub fn routes() -> OpenApiRouter<Web> {
    OpenApiRouter::with_openapi(openapi::base())
        .routes(routes!(openapi::document))
        .routes(routes!(command))
        .routes(routes!(kinds))
        .routes(routes!(kind))
        .routes(routes!(ladder))
        .routes(routes!(games))
        .routes(routes!(game))
        .routes(routes!(history))
        .routes(routes!(text))
        .routes(routes!(events::game_events))
        .routes(routes!(user))
        .routes(routes!(bot_events::bot_events))
        .routes(routes!(me))
        .routes(routes!(create_token, list_tokens))
        .routes(routes!(revoke_token))
        .routes(routes!(tournaments::list_api))
        .routes(routes!(tournaments::tournament_api))
        .routes(routes!(tournaments::games_api))
}

/// The router of [`routes`], for serving.
pub fn router() -> Router<Web> {
    routes().split_for_parts().0
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
    serde_json::to_value(Board::of(snapshot)).map_err(internal)
}

/// A command's answer, exactly as `tabula --json COMMAND` prints it: the
/// reply's fields and `"ok": true`.
// Written straight out: going through `reply_json`'s intermediate value
// copied the whole board, view and history once more on every move.
#[derive(Serialize, ToSchema)]
pub struct Answer<'a> {
    /// The reply.
    #[serde(flatten)]
    #[schema(inline)]
    pub reply: &'a Reply,
    /// Done.
    pub ok: True,
}

/// A board as the caller may see it: a reply (as `show` answers it) with
/// the picture and its click layout.
#[derive(Serialize, ToSchema)]
pub struct Board<'a> {
    /// The reply.
    #[serde(flatten)]
    #[schema(inline)]
    pub reply: &'a Reply,
    /// The board as a standalone SVG document.
    pub svg: &'a str,
    /// For boards whose moves name points: the grid's layout in the SVG's
    /// units (`type` grid or strip); null for others.
    #[schema(value_type = Option<Object>)]
    pub click: &'a Option<tabula_model::ClickMap>,
    /// Done.
    pub ok: True,
}

impl<'a> Board<'a> {
    fn of(snapshot: &'a Snapshot) -> Self {
        Board { reply: &snapshot.reply, svg: &snapshot.svg, click: &snapshot.click, ok: True }
    }
}

/// The body of [`reply_json`], serialised directly.
fn reply_response(reply: &Reply) -> Result<Response, ApiError> {
    // Room for the usual answer at once (the text, the board's view beside
    // it, the history's entries): grown from nothing, a move's answer was
    // copied at each doubling and faulted in fresh pages.
    let history = reply.game.as_ref().map_or(0, |g| g.history.get().len());
    let mut body = Vec::with_capacity(1024 + 2 * (reply.subject.len() + reply.text.len()) + history);
    serde_json::to_writer(&mut body, &Answer { reply, ok: True }).map_err(internal)?;
    Ok(([(header::CONTENT_TYPE, "application/json")], body).into_response())
}

fn internal(e: impl std::fmt::Display) -> ApiError {
    tracing::error!(error = %e, "answer does not serialise");
    ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "internal", t!(current(), "api-internal"))
}

/// `not_found` for a game no one offers.
fn no_game(kind: &str) -> ApiError {
    ApiError::not_found(t!(current(), "api-no-game", kind = format!("{kind:?}")))
}

/// A board number from a path.
pub fn board_id(text: &str) -> Result<i64, ApiError> {
    match text.parse::<i64>() {
        Ok(n) if n > 0 => Ok(n),
        _ => Err(ApiError::bad_request(t!(current(), "api-not-a-board", text = format!("{text:?}")))),
    }
}

fn json_body<T>(body: Result<Json<T>, JsonRejection>, shape: &str) -> Result<T, ApiError> {
    body.map(|Json(b)| b).map_err(|e| match e {
        JsonRejection::BytesRejection(_) if e.status() == StatusCode::PAYLOAD_TOO_LARGE => ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            "payload_too_large",
            t!(current(), "api-body-too-large", bytes = crate::MAX_BODY),
        ),
        e => ApiError::bad_request(t!(current(), "api-body-shape", shape = shape, error = e.body_text())),
    })
}

fn query<T>(q: Result<Query<T>, QueryRejection>) -> Result<T, ApiError> {
    q.map(|Query(q)| q).map_err(|e| ApiError::bad_request(t!(current(), "bad-query", error = e.body_text())))
}

/// A command to run.
#[derive(Deserialize, ToSchema)]
pub struct CommandBody {
    /// One line of the command language, as typed on the command line or
    /// in a mail.
    #[schema(max_length = 16384, examples("dna move 1 ned - AAG"))]
    line: String,
}

/// `POST /api/v1/commands {"line": "..."}`: any command of the language,
/// answered as the CLI's `--json` answers it. With a bearer token the
/// password word may be `-`.
#[utoipa::path(
    post,
    path = "/api/v1/commands",
    tag = "commands",
    summary = "Run any command of the command language",
    description = "The same commands as by mail and on the command line (`signup`, `dna challenge ned ted -manual`, `dna move 1 ned PASSWORD AAG`, `dna show 1`, `help dna` ...), with the same answers as `tabula --json`. With a bearer token, `-` may stand for the password of the token's owner.",
    security((), ("bearer" = [])),
    request_body = CommandBody,
    responses(
        (status = 200, description = "Done.", body = Answer),
        (status = 400, description = "`usage`, `malformed_move`, `bad_option`, `bad_value`: the command or the body is malformed.", body = ErrorBody),
        (status = 401, description = "`wrong_password`, `unauthorized`.", body = ErrorBody),
        (status = 403, description = "`not_a_player`.", body = ErrorBody),
        (status = 404, description = "`unknown_command`, `unknown_user`, `unknown_board`.", body = ErrorBody),
        (status = 409, description = "`not_your_turn`, `illegal_move`, `game_over`, `stale_move`, `user_exists`, `refused`, `conflict`.", body = ErrorBody),
        (status = 413, description = "`payload_too_large`.", body = ErrorBody),
        (status = 429, description = "`too_many_requests`: wait `Retry-After` seconds.", body = ErrorBody),
    )
)]
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
    // The answer in the token owner's language, else the request's.
    if let Caller::Account(account) = &caller
        && let Some(lang) = account.lang()
    {
        crate::lang::use_setting(lang);
    }
    let context = Context::new(caller, origin).in_lang(crate::lang::current());
    // The service tells live listeners of any change itself.
    let reply = web.service.execute(&body.line, context).await?;
    reply_response(&reply)
}

/// A game on offer: its rules, move help and options.
#[derive(Serialize, ToSchema)]
pub struct Kind {
    /// The game's command word.
    #[schema(examples("dna"))]
    pub kind: &'static str,
    /// Its title.
    pub title: &'static str,
    /// One sentence about it.
    pub summary: &'static str,
    /// Its rules.
    pub rules: &'static str,
    /// How moves are written.
    pub move_help: &'static str,
    /// Fewest players.
    pub min_players: usize,
    /// Most players.
    pub max_players: usize,
    /// `sequential`, `simultaneous` or `realtime`.
    #[schema(value_type = String)]
    pub dynamics: tabula_model::Dynamics,
    /// Whether players see things others do not.
    pub hidden_information: bool,
    /// Whether players may join a running game.
    pub open_join: bool,
    /// The challenge options: `name`, `kind` (`type`: flag, int (min,
    /// max), text (min_len, max_len, accepts), duration (min_secs,
    /// max_secs, unit) or choice (choices)), `default` and `help`.
    #[schema(value_type = Vec<Object>)]
    pub options: Vec<&'static tabula_model::OptionSpec>,
}

impl Kind {
    fn of(info: &'static tabula_model::GameInfo) -> Self {
        Kind {
            kind: info.kind,
            title: info.title(Lang::En),
            summary: info.summary(Lang::En),
            rules: info.rules(Lang::En),
            move_help: info.move_help(Lang::En),
            min_players: info.min_players,
            max_players: info.max_players,
            dynamics: info.dynamics,
            hidden_information: info.hidden_information,
            open_join: info.open_join,
            options: info.all_options().collect(),
        }
    }
}

/// The games on offer.
#[derive(Serialize, ToSchema)]
pub struct Kinds {
    /// The games.
    pub kinds: Vec<Kind>,
    /// Done.
    pub ok: True,
}

/// `GET /api/v1/kinds`: the games on offer with their option tables.
#[utoipa::path(
    get,
    path = "/api/v1/kinds",
    tag = "games",
    summary = "The games on offer, with rules, move help and option tables",
    responses((status = 200, description = "The games.", body = Kinds))
)]
async fn kinds() -> Json<Kinds> {
    Json(Kinds { kinds: tabula_games::all().iter().map(|k| Kind::of(k.info())).collect(), ok: True })
}

/// One game on offer.
#[derive(Serialize, ToSchema)]
pub struct OneKind {
    /// The game.
    pub kind: Kind,
    /// Done.
    pub ok: True,
}

/// `GET /api/v1/kinds/{kind}`: one game's rules, move help and options.
#[utoipa::path(
    get,
    path = "/api/v1/kinds/{kind}",
    tag = "games",
    summary = "One game's rules, move help and options",
    params(("kind" = String, Path, description = "The game's command word.", example = "dna")),
    responses(
        (status = 200, description = "The game.", body = OneKind),
        (status = 404, description = "`not_found`: no such game.", body = ErrorBody),
    )
)]
async fn kind(Path(kind): Path<String>) -> Result<Json<OneKind>, ApiError> {
    let k = tabula_games::find(&kind).ok_or_else(|| no_game(&kind))?;
    Ok(Json(OneKind { kind: Kind::of(k.info()), ok: True }))
}

/// The ladder's query.
#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
struct LadderQuery {
    /// Most players listed (1 to 1000; default 100).
    #[param(minimum = 1, maximum = 1000)]
    limit: Option<usize>,
}

/// One player's place on a ladder.
#[derive(Serialize, ToSchema)]
pub struct LadderEntry {
    /// The player's rating and results.
    #[serde(flatten)]
    #[schema(inline)]
    pub row: tabula_service::glicko::LadderRow,
    /// Whether the player is a bot.
    pub bot: bool,
}

/// A game's ladder.
#[derive(Serialize, ToSchema)]
pub struct Ladder {
    /// The game.
    pub kind: &'static str,
    /// Players on the ladder (more than listed when past the limit).
    pub total: usize,
    /// The players listed, best first.
    pub ladder: Vec<LadderEntry>,
    /// Done.
    pub ok: True,
}

/// Most players one ladder answer lists.
pub const MAX_LADDER: usize = 1000;

/// `GET /api/v1/kinds/{kind}/ladder?limit=N`: the game's ladder, best
/// first: Glicko-2 ratings of people and bots over its finished games.
#[utoipa::path(
    get,
    path = "/api/v1/kinds/{kind}/ladder",
    tag = "games",
    summary = "A game's ladder: Glicko-2 ratings of people and bots, best first",
    description = "Over every finished game of the kind, in the order they ended; each game is a rating period for its players (a game of several players counts as a match between every pair). A rating starts at 1500 with deviation 350 and volatility 0.06 (system constant 0.5). The same ratings as the `GAME ratings` command.",
    params(("kind" = String, Path, description = "The game's command word.", example = "intervalo"), LadderQuery),
    responses(
        (status = 200, description = "The ladder.", body = Ladder),
        (status = 400, description = "`usage`: a bad limit.", body = ErrorBody),
        (status = 404, description = "`not_found`: no such game.", body = ErrorBody),
    )
)]
async fn ladder(
    State(web): State<Web>,
    Path(kind): Path<String>,
    q: Result<Query<LadderQuery>, QueryRejection>,
) -> Result<Json<Ladder>, ApiError> {
    let info = tabula_games::find(&kind).ok_or_else(|| no_game(&kind))?.info();
    let limit = query(q)?.limit.unwrap_or(100);
    if !(1..=MAX_LADDER).contains(&limit) {
        return Err(ApiError::bad_request(t!(current(), "limit-range", max = MAX_LADDER)));
    }
    let (ladder, total) = ladder_rows(&web, info.kind, limit).await?;
    Ok(Json(Ladder { kind: info.kind, total, ladder, ok: True }))
}

/// The first `limit` rows of the game `kind`'s ladder, each with `bot`
/// (whether the player is one), and how many players it has.
///
/// # Errors
/// Storage failures.
pub async fn ladder_rows(web: &Web, kind: &str, limit: usize) -> Result<(Vec<LadderEntry>, usize), ApiError> {
    let mut ladder = web.service.ladder(kind).await?;
    let total = ladder.len();
    ladder.truncate(limit);
    let users: Vec<String> = ladder.iter().map(|r| r.user.clone()).collect();
    let bots = web.service.bots_among(&users).await?;
    let rows = ladder
        .into_iter()
        .map(|row| {
            let bot = bots.contains(&row.user);
            LadderEntry { row, bot }
        })
        .collect();
    Ok((rows, total))
}

/// Filters of a games list.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
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
    /// At most this many (newest first): 1 to 500, default 100.
    #[param(minimum = 1, maximum = 500)]
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
                .ok_or_else(|| ApiError::bad_request(t!(current(), "api-no-game", kind = format!("{k:?}"))))?
                .info()
                .kind
                .to_string(),
        ),
        None => None,
    };
    let user = |s: &str| {
        tabula_service::users::canonical_user_id(s).map_err(|m| ApiError::from(bad_value(m.to_string())))
    };
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
                    let word = format!("{word:?}");
                    return Err(ApiError::bad_request(t!(current(), "api-not-a-state", word = word)));
                }
            },
        };
        statuses.extend_from_slice(add);
    }
    statuses.sort_by_key(|s| s.as_str());
    statuses.dedup();
    let limit = q.limit.unwrap_or(DEFAULT_LIST);
    if !(1..=MAX_LIST).contains(&limit) {
        return Err(ApiError::bad_request(t!(current(), "limit-range", max = MAX_LIST)));
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

/// A page of games.
#[derive(Serialize, ToSchema)]
pub struct Games {
    /// The games, newest first.
    pub games: Vec<GameSummary>,
    /// `before` for the next page; null when this page is the last.
    pub next: Option<i64>,
    /// Done.
    pub ok: True,
}

/// `GET /api/v1/games?kind=&player=&status=&to_move=&before=&limit=`:
/// games, newest first; `next` is the `before` of the next page (null on
/// the last).
#[utoipa::path(
    get,
    path = "/api/v1/games",
    tag = "games",
    summary = "List games, newest first",
    params(GamesQuery),
    responses(
        (status = 200, description = "The games.", body = Games),
        (status = 400, description = "`usage`, `bad_value`: an unknown game or state, a bad user id or limit.", body = ErrorBody),
    )
)]
async fn games(
    State(web): State<Web>,
    q: Result<Query<GamesQuery>, QueryRejection>,
) -> Result<Json<Games>, ApiError> {
    let filter = game_filter(&query(q)?)?;
    let games = web.service.games(&filter).await?;
    let next = (games.len() as i64 == filter.limit).then(|| games.last().map(|g| g.id)).flatten();
    Ok(Json(Games { games, next, ok: True }))
}

/// A board's query.
#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
struct AtQuery {
    /// Show the position after this many moves, as an observer saw it.
    #[param(minimum = 0)]
    at: Option<usize>,
}

/// `GET /api/v1/games/{id}?at=N`: the board as the caller sees it (after
/// move N: as an observer saw it then).
#[utoipa::path(
    get,
    path = "/api/v1/games/{id}",
    tag = "games",
    summary = "A game as the caller may see it",
    description = "A player (by bearer token or web login) sees their own secrets; anyone else sees an observer's view. With `at`, the position after that many moves, as an observer saw it then. The texts people read (`subject`, `text`) are in the caller's language: their account's setting, else the browser's `Accept-Language`; English otherwise.",
    security((), ("bearer" = []), ("session" = [])),
    params(("id" = i64, Path, description = "Board number.", minimum = 1), AtQuery),
    responses(
        (status = 200, description = "The board.", body = Board),
        (status = 400, description = "`usage`: a bad board number or `at`.", body = ErrorBody),
        (status = 401, description = "`unauthorized`: an unknown or revoked token.", body = ErrorBody),
        (status = 404, description = "`unknown_board`.", body = ErrorBody),
        (status = 429, description = "`too_many_requests`: too many past positions at once.", body = ErrorBody),
    )
)]
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
    let snapshot = web.service.snapshot(board, user.as_deref(), at, crate::lang::current()).await?;
    if let (Some(n), Some(g)) = (at, &snapshot.reply.game)
        && n > g.moves
    {
        return Err(ApiError::bad_request(t!(
            current(),
            "api-too-few-moves",
            board = board,
            moves = g.moves
        )));
    }
    let body = serde_json::to_vec(&Board::of(&snapshot)).map_err(internal)?;
    Ok(([(header::CONTENT_TYPE, "application/json")], body).into_response())
}

/// The query of one string of a view.
#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
struct TextQuery {
    /// Where the string is in the view, as a JSON pointer (RFC 6901),
    /// e.g. `/table`.
    pointer: String,
    /// As after this many moves, seen as an observer saw it then.
    #[param(minimum = 0)]
    at: Option<usize>,
}

/// `GET /api/v1/games/{id}/text?pointer=/table&at=N`: one string of the
/// caller's view whole, as plain text: what a board's `cut` list names
/// (a view shows long strings cut; see `tabula_model::window`).
#[utoipa::path(
    get,
    path = "/api/v1/games/{id}/text",
    tag = "games",
    summary = "One string of the caller's view, whole",
    description = "A view shows each string of at most 65,536 bytes whole and cuts longer ones (a Rewrite table string reaches 16 MiB) to their first 65,536 bytes; the board's `game.cut` lists each cut string by its JSON pointer in the view, with its whole `length` and the bytes `shown`. This answers one of them whole, as plain text.",
    security((), ("bearer" = []), ("session" = [])),
    params(("id" = i64, Path, description = "Board number.", minimum = 1), TextQuery),
    responses(
        (status = 200, description = "The string.", content_type = "text/plain", body = String),
        (status = 400, description = "`usage`: a bad board number, pointer or `at`.", body = ErrorBody),
        (status = 404, description = "`unknown_board`, or no string at the pointer.", body = ErrorBody),
        (status = 429, description = "`too_many_requests`.", body = ErrorBody),
    )
)]
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

/// A board's history and chat.
#[derive(Serialize, ToSchema)]
pub struct History {
    /// The board.
    pub board: i64,
    /// Every history line the caller may see.
    #[schema(value_type = Vec<tabula_model::HistoryEntry>)]
    pub history: Box<serde_json::value::RawValue>,
    /// The board's chat, oldest first.
    pub chat: Vec<ChatRow>,
    /// Done.
    pub ok: True,
}

/// `GET /api/v1/games/{id}/history`: every history line the caller may see.
#[utoipa::path(
    get,
    path = "/api/v1/games/{id}/history",
    tag = "games",
    summary = "Every history line the caller may see, and the board's chat",
    security((), ("bearer" = []), ("session" = [])),
    params(("id" = i64, Path, description = "Board number.", minimum = 1)),
    responses(
        (status = 200, description = "The history.", body = History),
        (status = 400, description = "`usage`: a bad board number.", body = ErrorBody),
        (status = 404, description = "`unknown_board`.", body = ErrorBody),
    )
)]
async fn history(
    State(web): State<Web>,
    client: ClientAddress,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Json<History>, ApiError> {
    let board = board_id(&id)?;
    let user = api_user(&web.service, &headers, &client.origin(), true).await?;
    let snapshot = web.service.snapshot(board, user.as_deref(), None, Lang::En).await?;
    let Some(game) = snapshot.reply.game else {
        let message = t!(current(), "game-no-board", board = board.to_string());
        return Err(ApiError::new(StatusCode::NOT_FOUND, "unknown_board", message));
    };
    let history = game.history;
    let chat = web.service.chats(board).await?;
    Ok(Json(History { board, history, chat, ok: True }))
}

/// A user's public profile: never addresses or settings.
#[derive(Serialize, ToSchema)]
pub struct Profile {
    /// The user id.
    pub id: String,
    /// When the account was made (absent for a built-in bot).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<i64>)]
    pub created: Option<tabula_model::Timestamp>,
    /// Whether the account is closed (absent for a built-in bot).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub signed_off: Option<bool>,
    /// A bot: a built-in one (`bot:NAME`) or a bot account, played by a
    /// program.
    pub bot: bool,
    /// A bot account whose program the server runs (absent for a
    /// built-in bot).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hosted: Option<bool>,
}

/// A user's public profile and games.
#[derive(Serialize, ToSchema)]
pub struct UserPage {
    /// The profile.
    pub user: Profile,
    /// The user's newest games.
    pub games: Vec<GameSummary>,
    /// Done.
    pub ok: True,
}

/// `GET /api/v1/users/{id}`: a user's public profile and games.
#[utoipa::path(
    get,
    path = "/api/v1/users/{id}",
    tag = "users",
    summary = "A user's public profile and games",
    description = "Only the id, when the account was made, whether it is closed and whether it is a bot; never addresses or settings.",
    params(("id" = String, Path, description = "The user id.")),
    responses(
        (status = 200, description = "The user.", body = UserPage),
        (status = 404, description = "`unknown_user`.", body = ErrorBody),
    )
)]
async fn user(State(web): State<Web>, Path(id): Path<String>) -> Result<Json<UserPage>, ApiError> {
    let (user, games) = public_user(&web, &id, MAX_LIST).await?;
    Ok(Json(UserPage { user, games, ok: True }))
}

/// A user's public profile (id, creation time, whether the account is
/// closed, whether it is a bot and the server runs it; never addresses or
/// settings) and newest games.
///
/// # Errors
/// `unknown_user`.
pub async fn public_user(web: &Web, id: &str, limit: i64) -> Result<(Profile, Vec<GameSummary>), ApiError> {
    let unknown = || {
        ApiError::from(tabula_service::CommandError::says(
            tabula_service::ErrorCode::UnknownUser,
            tabula_i18n::msg!("error-no-user", user = id),
        ))
    };
    let canonical = tabula_service::users::canonical_user_id(id).map_err(|_| unknown())?;
    let row = web.service.user(&canonical).await.map_err(tabula_service::CommandError::from)?;
    let profile = match row {
        Some(u) => {
            let bot = web.service.bot_account(&u.id).await?;
            Profile {
                id: u.id,
                created: Some(u.created),
                signed_off: Some(u.signed_off),
                bot: bot.is_some(),
                hosted: Some(bot.is_some_and(|b| b.command.is_some())),
            }
        }
        None if canonical.starts_with("bot:") => {
            Profile { id: canonical.clone(), created: None, signed_off: None, bot: true, hosted: None }
        }
        None => return Err(unknown()),
    };
    let games =
        web.service.games(&GameFilter { player: Some(canonical), limit, ..Default::default() }).await?;
    Ok((profile, games))
}

/// Who the caller is.
#[derive(Serialize, ToSchema)]
pub struct Me {
    /// The user, or null for an observer.
    pub user: Option<String>,
    /// Done.
    pub ok: True,
}

/// `GET /api/v1/me`: who the bearer token (or the browser's login) is.
#[utoipa::path(
    get,
    path = "/api/v1/me",
    tag = "users",
    summary = "Who the caller is",
    security((), ("bearer" = []), ("session" = [])),
    responses(
        (status = 200, description = "The user, or null for an observer.", body = Me),
        (status = 401, description = "`unauthorized`: an unknown or revoked token.", body = ErrorBody),
    )
)]
async fn me(State(web): State<Web>, client: ClientAddress, headers: HeaderMap) -> Result<Json<Me>, ApiError> {
    let user = api_user(&web.service, &headers, &client.origin(), true).await?;
    Ok(Json(Me { user, ok: True }))
}

/// A request for a bearer token.
#[derive(Deserialize, ToSchema)]
pub struct NewToken {
    /// The account.
    user: String,
    /// Its password.
    password: String,
    /// A label of the owner's choice.
    #[serde(default)]
    #[schema(max_length = 100)]
    name: String,
}

/// A new bearer token, its secret included.
#[derive(Serialize, ToSchema)]
pub struct NewTokenAnswer {
    /// The secret: shown here only, ever.
    pub token: String,
    /// The token's id (for revoking).
    pub id: i64,
    /// Its owner.
    pub user: String,
    /// Its label.
    pub name: String,
    /// When it was made.
    #[schema(value_type = i64)]
    pub created: tabula_model::Timestamp,
    /// Done.
    pub ok: True,
}

/// `POST /api/v1/tokens {"user", "password", "name"}`: a new bearer token.
/// The secret is in this answer and nowhere else, ever.
#[utoipa::path(
    post,
    path = "/api/v1/tokens",
    tag = "tokens",
    summary = "Make a bearer token",
    description = "The secret is in this answer only: it is stored as a hash and can never be shown again. At most 50 live tokens per user.",
    request_body = NewToken,
    responses(
        (status = 201, description = "The token.", body = NewTokenAnswer),
        (status = 400, description = "`usage`, `bad_value`: a malformed body or label.", body = ErrorBody),
        (status = 401, description = "`wrong_password`.", body = ErrorBody),
        (status = 404, description = "`unknown_user`.", body = ErrorBody),
        (status = 409, description = "`refused`: too many live tokens.", body = ErrorBody),
        (status = 429, description = "`too_many_requests`.", body = ErrorBody),
    )
)]
async fn create_token(
    State(web): State<Web>,
    client: ClientAddress,
    body: Result<Json<NewToken>, JsonRejection>,
) -> Result<Response, ApiError> {
    let body = json_body(body, r#"{"user": "ID", "password": "PASSWORD", "name": "LABEL"}"#)?;
    let (token, row) =
        web.service.create_token(&body.user, &body.password, &body.name, &client.origin()).await?;
    let answer =
        NewTokenAnswer { token, id: row.id, user: row.user, name: row.name, created: row.created, ok: True };
    Ok((StatusCode::CREATED, [(header::CACHE_CONTROL, "no-store")], Json(answer)).into_response())
}

async fn token_owner(
    web: &Web,
    client: ClientAddress,
    headers: &HeaderMap,
    allow_session: bool,
) -> Result<String, ApiError> {
    api_user(&web.service, headers, &client.origin(), allow_session)
        .await?
        .ok_or_else(|| ApiError::unauthorized(t!(current(), "api-needs-token")))
}

/// The caller's tokens.
#[derive(Serialize, ToSchema)]
pub struct Tokens {
    /// The tokens, without their secrets.
    pub tokens: Vec<TokenRow>,
    /// Done.
    pub ok: True,
}

/// `GET /api/v1/tokens`: the caller's tokens (never their secrets).
#[utoipa::path(
    get,
    path = "/api/v1/tokens",
    tag = "tokens",
    summary = "The caller's tokens (never their secrets)",
    security(("bearer" = []), ("session" = [])),
    responses(
        (status = 200, description = "The tokens.", body = Tokens),
        (status = 401, description = "`unauthorized`: no token or login.", body = ErrorBody),
    )
)]
async fn list_tokens(
    State(web): State<Web>,
    client: ClientAddress,
    headers: HeaderMap,
) -> Result<Json<Tokens>, ApiError> {
    let user = token_owner(&web, client, &headers, true).await?;
    let tokens = web.service.tokens(&user).await?;
    Ok(Json(Tokens { tokens, ok: True }))
}

/// A revoked token.
#[derive(Serialize, ToSchema)]
pub struct Revoked {
    /// The token's id.
    pub revoked: i64,
    /// Done.
    pub ok: True,
}

/// `DELETE /api/v1/tokens/{id}`: revoke one of the caller's tokens.
#[utoipa::path(
    delete,
    path = "/api/v1/tokens/{id}",
    tag = "tokens",
    summary = "Revoke one of the caller's tokens",
    security(("bearer" = [])),
    params(("id" = i64, Path, description = "The token's id.")),
    responses(
        (status = 200, description = "Revoked.", body = Revoked),
        (status = 400, description = "`usage`: not a token id.", body = ErrorBody),
        (status = 401, description = "`unauthorized`: no token.", body = ErrorBody),
        (status = 404, description = "`not_found`: no such token of the caller's.", body = ErrorBody),
    )
)]
async fn revoke_token(
    State(web): State<Web>,
    client: ClientAddress,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Json<Revoked>, ApiError> {
    let user = token_owner(&web, client, &headers, false).await?;
    let id: i64 = id
        .parse()
        .map_err(|_| ApiError::bad_request(t!(current(), "api-not-a-token-id", id = format!("{id:?}"))))?;
    web.service.revoke_token(&user, id).await?;
    Ok(Json(Revoked { revoked: id, ok: True }))
}
