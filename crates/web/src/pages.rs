//! The web pages: server-rendered HTML that works without a script, made
//! livelier by `static/app.js` (live updates, replay without reloading,
//! clicks on boards, pan and zoom).
//!
//! Every form that changes something is a POST carrying a CSRF token: the
//! login session's for a logged-in user, or the form cookie's for the login
//! and sign-up forms. A page shows a game as the logged-in user may see it,
//! and as an observer to everyone else.

use axum::Router;
use axum::extract::rejection::{FormRejection, QueryRejection};
use axum::extract::{Form, Path, Query, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{Html, IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use minijinja::context;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use tabula_model::{GameInfo, OptionKind};
use tabula_service::auth::Login;
use tabula_service::store::{GameFilter, GameStatus, GameSummary};
use tabula_service::{Caller, Command, CommandError, Context, ErrorCode, GameCommand, GameUpdate};

use crate::Web;
use crate::api::{GamesQuery, game_filter, public_user};
use crate::auth::{self, FORM_COOKIE, SESSION_COOKIE};
use crate::boards::{ClickMap, click_map};
use crate::client::ClientAddress;
use crate::error::PageError;
use crate::templates::{APP_CSS, APP_JS, ICON_SVG, render};

/// Longest move text a form may send.
const MAX_MOVE_TEXT: usize = 1000;
/// Games shown on a list page.
const LIST_GAMES: i64 = 200;
/// Games shown on one page of the games list.
const PAGE_GAMES: i64 = 50;
/// Longest chat line a form may send.
const MAX_CHAT_TEXT: usize = 4000;

/// The pages' routes.
pub fn routes() -> Router<Web> {
    Router::new()
        .route("/", get(games_page))
        .route("/games/{id}", get(game_page))
        .route("/games/{id}/move", post(move_form))
        .route("/games/{id}/answer", post(answer_form))
        .route("/games/{id}/chat", post(chat_form))
        .route("/challenge", get(challenge_list))
        .route("/challenge/{kind}", get(challenge_page).post(challenge_form))
        .route("/users/{id}", get(user_page))
        .route("/signup", get(signup_page).post(signup_form))
        .route("/login", get(login_page).post(login_form))
        .route("/logout", post(logout_form))
        .route("/account", get(account_page))
        .route("/account/tokens", post(token_form))
        .route("/account/tokens/{id}/revoke", post(revoke_form))
        .route("/static/app.js", get(|| async { asset(APP_JS, "text/javascript; charset=utf-8") }))
        .route("/static/app.css", get(|| async { asset(APP_CSS, "text/css; charset=utf-8") }))
        .route("/static/icon.svg", get(|| async { asset(ICON_SVG, "image/svg+xml") }))
        .route("/favicon.ico", get(|| async { asset(ICON_SVG, "image/svg+xml") }))
}

fn asset(body: &'static str, content_type: &'static str) -> Response {
    (
        [
            (header::CONTENT_TYPE, content_type),
            // The URL carries a digest of the content.
            (header::CACHE_CONTROL, "public, max-age=31536000, immutable"),
        ],
        body,
    )
        .into_response()
}

/// What every page's frame shows: who is logged in, the session's CSRF
/// token for the logout form, and the games on offer.
#[derive(Serialize)]
pub(crate) struct Base {
    me: Option<String>,
    csrf: Option<String>,
    kinds: Vec<KindLink>,
}

#[derive(Serialize)]
struct KindLink {
    kind: &'static str,
    title: &'static str,
    summary: &'static str,
}

fn kind_links() -> Vec<KindLink> {
    tabula_games::all()
        .iter()
        .map(|k| {
            let i = k.info();
            KindLink { kind: i.kind, title: i.title, summary: i.summary }
        })
        .collect()
}

pub(crate) fn base(login: Option<&Login>) -> Base {
    Base { me: login.map(|l| l.user.clone()), csrf: login.map(|l| l.csrf.clone()), kinds: kind_links() }
}

fn title_of(kind: &str) -> &'static str {
    tabula_games::find(kind).map_or("Unknown game", |k| k.info().title)
}

pub(crate) async fn visitor(web: &Web, headers: &HeaderMap) -> Result<Option<Login>, PageError> {
    auth::session_login(&web.service, headers).await.map_err(|e| PageError::new(e.status, e.message))
}

pub(crate) fn page(status: StatusCode, html: String) -> Response {
    (status, [(header::CACHE_CONTROL, "no-store")], Html(html)).into_response()
}

fn form<T>(f: Result<Form<T>, FormRejection>) -> Result<T, PageError> {
    f.map(|Form(v)| v)
        .map_err(|e| PageError::new(StatusCode::BAD_REQUEST, format!("bad form: {}", e.body_text())))
}

fn query<T>(q: Result<Query<T>, QueryRejection>) -> Result<T, PageError> {
    q.map(|Query(v)| v)
        .map_err(|e| PageError::new(StatusCode::BAD_REQUEST, format!("bad address: {}", e.body_text())))
}

fn check_csrf(login: &Login, sent: &str) -> Result<(), PageError> {
    if auth::same_secret(&login.csrf, sent) {
        Ok(())
    } else {
        Err(PageError::new(
            StatusCode::FORBIDDEN,
            "This form has expired or did not come from this site. Reload the page and try again.",
        ))
    }
}

/// A logged-in user for a form, or where to send the browser to log in.
fn require_login(login: Option<Login>, back_to: &str) -> Result<Login, Redirect> {
    login.ok_or_else(|| Redirect::to(&format!("/login?next={}", encode_component(back_to))))
}

/// Percent-encode a URL component.
fn encode_component(text: &str) -> String {
    let mut out = String::new();
    for b in text.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'~' | b'/') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// Where to go after logging in: only a path of this site.
fn safe_next(next: Option<&str>) -> String {
    match next {
        Some(n)
            if n.starts_with('/')
                && !n.starts_with("//")
                && n.len() <= 500
                && !n.chars().any(|c| c == '\\' || c.is_control()) =>
        {
            n.to_string()
        }
        _ => "/".to_string(),
    }
}

fn board_number(text: &str) -> Result<i64, PageError> {
    crate::api::board_id(text).map_err(|_| PageError::not_found(format!("There is no board {text:?}.")))
}

// ---------------------------------------------------------------- lists

#[derive(Serialize)]
struct GameRow {
    id: i64,
    kind: String,
    title: &'static str,
    players: Vec<String>,
    state: String,
    status: &'static str,
    moves: i64,
    updated: i64,
    my_turn: bool,
}

fn game_rows(games: &[GameSummary], me: Option<&str>) -> Vec<GameRow> {
    games
        .iter()
        .map(|g| GameRow {
            id: g.id,
            kind: g.kind.clone(),
            title: title_of(&g.kind),
            players: g.players.clone(),
            state: match g.status {
                GameStatus::Finished => g.result.clone().unwrap_or_else(|| "over".into()),
                GameStatus::Cancelled => "challenge rejected".into(),
                GameStatus::Proposed => "waiting for acceptance".into(),
                GameStatus::Active if g.to_move.is_empty() => "running".into(),
                GameStatus::Active => format!("{} to move", tabula_service::reply::and_list(&g.to_move)),
            },
            status: g.status.as_str(),
            moves: g.moves,
            updated: g.updated,
            my_turn: g.status == GameStatus::Active && me.is_some_and(|m| g.to_move.iter().any(|u| u == m)),
        })
        .collect()
}

#[derive(Deserialize, Default)]
struct ListQuery {
    game: Option<String>,
    player: Option<String>,
    state: Option<String>,
    /// Only boards numbered below this (the next page).
    before: Option<i64>,
}

/// `/`: the games, filtered by game, player and state; and the logged-in
/// user's games waiting for them.
async fn games_page(
    State(web): State<Web>,
    headers: HeaderMap,
    q: Result<Query<ListQuery>, QueryRejection>,
) -> Result<Response, PageError> {
    let login = visitor(&web, &headers).await?;
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
        Ok(f) => (web.service.store().games(&f).await.map_err(CommandError::from)?, None),
        Err(e) => (Vec::new(), Some(e.message)),
    };
    let waiting = match me {
        Some(m) => {
            let f = GameFilter {
                to_move: Some(m.to_string()),
                statuses: vec![GameStatus::Active],
                limit: LIST_GAMES,
                ..Default::default()
            };
            web.service.store().games(&f).await.map_err(CommandError::from)?
        }
        None => Vec::new(),
    };
    // A full page may have more after it: link to the boards below its last.
    let older = (games.len() as i64 == PAGE_GAMES).then(|| games.last().map(|g| g.id)).flatten();
    let html = render(
        "games.html",
        context! {
            base => base(login.as_ref()),
            games => game_rows(&games, me),
            waiting => game_rows(&waiting, me),
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
async fn user_page(
    State(web): State<Web>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> Result<Response, PageError> {
    let login = visitor(&web, &headers).await?;
    let (profile, games) =
        public_user(&web, &id, LIST_GAMES).await.map_err(|e| PageError::new(e.status, e.message))?;
    let me = login.as_ref().map(|l| l.user.as_str());
    let (running, over): (Vec<GameSummary>, Vec<GameSummary>) =
        games.into_iter().partition(|g| matches!(g.status, GameStatus::Active | GameStatus::Proposed));
    let html = render(
        "user.html",
        context! {
            base => base(login.as_ref()),
            user => profile,
            running => game_rows(&running, me),
            over => game_rows(&over, me),
        },
    )?;
    Ok(page(StatusCode::OK, html))
}

// ---------------------------------------------------------------- a game

#[derive(Deserialize)]
struct AtQuery {
    at: Option<usize>,
}

#[derive(Serialize)]
struct PlayerRow {
    name: String,
    seat: usize,
    to_move: bool,
    is_me: bool,
    accepted: bool,
}

#[derive(Serialize)]
struct MoveLine {
    number: usize,
    first_of_number: bool,
    /// The first line of a move taken back by an undo.
    taken_back: bool,
    text: String,
    seat: Option<usize>,
    /// After the position shown.
    later: bool,
}

/// What the move form showed when a move was refused: the message and the
/// text typed, so nothing has to be typed again.
struct Refused {
    status: StatusCode,
    message: String,
    text: String,
    /// A chat line was refused (not a move).
    chat: bool,
}

/// The status lines of a board reply: its first paragraph.
fn status_lines(text: &str) -> Vec<&str> {
    text.lines().take_while(|l| !l.trim().is_empty()).collect()
}

/// `/games/{id}?at=N`: a game as the visitor may see it.
async fn game_page(
    State(web): State<Web>,
    client: ClientAddress,
    headers: HeaderMap,
    Path(id): Path<String>,
    q: Result<Query<AtQuery>, QueryRejection>,
) -> Result<Response, PageError> {
    let login = visitor(&web, &headers).await?;
    let board = board_number(&id)?;
    let at = query(q)?.at;
    // A past position is replayed from the start: counted per client.
    let _turn = at.map(|_| web.heavy.enter(client)).transpose()?;
    game_view(&web, login.as_ref(), board, at, None).await
}

async fn game_view(
    web: &Web,
    login: Option<&Login>,
    board: i64,
    at: Option<usize>,
    refused: Option<Refused>,
) -> Result<Response, PageError> {
    let me = login.map(|l| l.user.as_str());
    let current = web.service.snapshot(board, me, None).await?;
    let Some(game) = current.reply.game.as_ref() else {
        return Err(PageError::not_found(format!("There is no board {board}.")));
    };
    // A past position (replay) is shown as an observer saw it then.
    let at = at.filter(|&n| n < game.moves);
    let shown = match at {
        Some(_) => web.service.snapshot(board, me, at).await?,
        None => current.clone(),
    };
    let shown_game = shown.reply.game.as_ref().unwrap_or(game);
    let info: &GameInfo = tabula_games::find(&game.kind)
        .map(|k| k.info())
        .ok_or_else(|| PageError::new(StatusCode::INTERNAL_SERVER_ERROR, "a game of an unknown kind"))?;
    let stored = web.service.store().game(board).await.map_err(CommandError::from)?;
    let accepted = stored.map(|s| s.accepted).unwrap_or_default();
    let players: Vec<PlayerRow> = game
        .players
        .iter()
        .enumerate()
        .map(|(seat, name)| PlayerRow {
            name: name.clone(),
            seat,
            to_move: game.status == GameStatus::Active && game.to_move.contains(name),
            is_me: me == Some(name.as_str()),
            accepted: accepted.get(seat).copied().unwrap_or(true),
        })
        .collect();
    let my_seat = players.iter().find(|p| p.is_me).map(|p| p.seat);
    // Real-time games have no turns: a player moves whenever they like.
    let anytime = info.dynamics == tabula_model::Dynamics::RealTime;
    // Anyone logged in may join an open game by making a first move.
    let joinable = info.open_join && game.status == GameStatus::Active && me.is_some() && my_seat.is_none();
    let my_turn = game.status == GameStatus::Active
        && (me.is_some_and(|m| game.to_move.iter().any(|u| u == m))
            || (anytime && my_seat.is_some())
            || joinable);
    let chat = web.service.store().chats(board).await.map_err(CommandError::from)?;
    let chat: Vec<Value> = chat
        .iter()
        .map(|c| serde_json::json!({ "user": c.user, "at": c.at, "text": c.text, "me": me == Some(c.user.as_str()) }))
        .collect();
    let can_answer = game.status == GameStatus::Proposed && my_seat.is_some_and(|s| !players[s].accepted);
    // The whole list as the visitor sees it now, whatever position is
    // shown, so that any move can be stepped to.
    let position = at.unwrap_or(game.moves);
    let moves: Vec<MoveLine> = game
        .history
        .iter()
        .map(|h| MoveLine {
            number: h.number,
            first_of_number: h.opens && !h.undone,
            taken_back: h.opens && h.undone,
            text: h.entry.text.clone(),
            seat: h.entry.seat,
            later: h.number > position,
        })
        .collect();
    let click: Option<ClickMap> = click_map(&game.kind, &shown_game.view);
    let click_json = serde_json::to_string(&click).unwrap_or_else(|_| "null".into());
    // The `#moveno` guard refuses a move made on a board that moved on
    // meanwhile. Only when one player is to move: where several are, the
    // others' moves (secret ones too) would make it refuse for nothing.
    let guard = (game.to_move.len() == 1).then_some(game.moves + 1);
    let (error, typed, status, chat_error, chat_typed) = match refused {
        Some(r) if r.chat => (None, String::new(), r.status, Some(r.message), r.text),
        Some(r) => (Some(r.message), r.text, r.status, None, String::new()),
        None => (None, String::new(), StatusCode::OK, None, String::new()),
    };
    let html = render(
        "game.html",
        context! {
            base => base(login),
            board,
            kind => game.kind.clone(),
            title => info.title,
            rules => info.rules,
            move_help => info.move_help,
            subject => shown.reply.subject.clone(),
            status_lines => status_lines(&shown.reply.text),
            text_board => shown.reply.text.clone(),
            svg => shown.svg.clone(),
            click => click_json,
            // Grids pan and zoom with the wheel and fingers.
            grid => matches!(click, Some(ClickMap::Grid { .. } | ClickMap::Field { .. })),
            clickable => click.is_some(),
            players,
            game_status => game.status.as_str(),
            colours => serde_json::to_string(&tabula_model::svg::PLAYER_COLOURS).unwrap_or_default(),
            options => game.options.join(" "),
            moves,
            total => game.moves,
            position,
            replaying => at.is_some(),
            my_turn,
            can_answer,
            guard,
            error,
            typed,
            anytime,
            joinable,
            chat_count => chat.len(),
            chat,
            can_chat => my_seat.is_some(),
            chat_error,
            chat_typed,
        },
    )?;
    Ok(page(status, html))
}

#[derive(Deserialize)]
struct MoveFormData {
    #[serde(default)]
    csrf: String,
    #[serde(default)]
    text: String,
    #[serde(default)]
    action: String,
    #[serde(default)]
    moveno: String,
}

/// `POST /games/{id}/move`: a move (or `resign`) by the logged-in player,
/// through the command language as `GAME move BOARD USER - TEXT#MOVENO`.
async fn move_form(
    State(web): State<Web>,
    client: ClientAddress,
    headers: HeaderMap,
    Path(id): Path<String>,
    f: Result<Form<MoveFormData>, FormRejection>,
) -> Result<Response, PageError> {
    let board = board_number(&id)?;
    let login = match require_login(visitor(&web, &headers).await?, &format!("/games/{board}")) {
        Ok(l) => l,
        Err(redirect) => return Ok(redirect.into_response()),
    };
    let f = form(f)?;
    check_csrf(&login, &f.csrf)?;
    let text = if f.action == "resign" { "resign".to_string() } else { f.text.trim().to_string() };
    let refuse =
        |status: StatusCode, message: String| Refused { status, message, text: f.text.clone(), chat: false };
    let problem = if text.is_empty() {
        Some("Write a move first.".to_string())
    } else if text.chars().count() > MAX_MOVE_TEXT {
        Some(format!("A move has at most {MAX_MOVE_TEXT} characters."))
    } else if text.chars().any(char::is_control) {
        Some("A move is one line of text.".to_string())
    } else {
        None
    };
    if let Some(message) = problem {
        let r = refuse(StatusCode::BAD_REQUEST, message);
        return game_view(&web, Some(&login), board, None, Some(r)).await;
    }
    let kind = board_kind(&web, board).await?;
    let guard = match f.moveno.trim().parse::<usize>() {
        Ok(n) if f.action != "resign" => format!("#{n}"),
        _ => String::new(),
    };
    let line = format!("{kind} move {board} {} - {text}{guard}", login.user);
    match web.service.execute(&line, Context::new(Caller::User(login.user.clone()), client.origin())).await {
        Ok(_) => Ok(Redirect::to(&format!("/games/{board}")).into_response()),
        Err(e) => {
            let r = refuse(crate::error::status_of(e.code), e.message);
            game_view(&web, Some(&login), board, None, Some(r)).await
        }
    }
}

async fn board_kind(web: &Web, board: i64) -> Result<String, PageError> {
    let stored = web.service.store().game(board).await.map_err(CommandError::from)?;
    stored.map(|g| g.summary.kind).ok_or_else(|| PageError::not_found(format!("There is no board {board}.")))
}

#[derive(Deserialize)]
struct ChatFormData {
    #[serde(default)]
    csrf: String,
    #[serde(default)]
    text: String,
}

/// `POST /games/{id}/chat`: a chat line by a player of the board, through
/// the command language as `GAME chat BOARD USER - TEXT`.
async fn chat_form(
    State(web): State<Web>,
    client: ClientAddress,
    headers: HeaderMap,
    Path(id): Path<String>,
    f: Result<Form<ChatFormData>, FormRejection>,
) -> Result<Response, PageError> {
    let board = board_number(&id)?;
    let login = match require_login(visitor(&web, &headers).await?, &format!("/games/{board}")) {
        Ok(l) => l,
        Err(redirect) => return Ok(redirect.into_response()),
    };
    let f = form(f)?;
    check_csrf(&login, &f.csrf)?;
    // A line of text: line breaks and tabs typed into the field become spaces.
    let text: String =
        f.text.chars().map(|c| if c.is_control() { ' ' } else { c }).collect::<String>().trim().to_string();
    let refuse =
        |status: StatusCode, message: String| Refused { status, message, text: f.text.clone(), chat: true };
    let problem = if text.is_empty() {
        Some("Write something first.".to_string())
    } else if text.chars().count() > MAX_CHAT_TEXT {
        Some(format!("A chat line has at most {MAX_CHAT_TEXT} characters."))
    } else {
        None
    };
    if let Some(message) = problem {
        return game_view(&web, Some(&login), board, None, Some(refuse(StatusCode::BAD_REQUEST, message)))
            .await;
    }
    let kind = board_kind(&web, board).await?;
    // Parsed already: the text goes as typed, its spaces kept.
    let auth = tabula_service::Credentials { user: login.user.clone(), password: "-".into() };
    let command = Command::Game { kind, command: GameCommand::Chat { board, auth, text } };
    match web.service.run(command, Context::new(Caller::User(login.user.clone()), client.origin())).await {
        Ok(_) => Ok(Redirect::to(&format!("/games/{board}#chat")).into_response()),
        Err(e) => {
            let r = refuse(crate::error::status_of(e.code), e.message);
            game_view(&web, Some(&login), board, None, Some(r)).await
        }
    }
}

#[derive(Deserialize)]
struct AnswerForm {
    #[serde(default)]
    csrf: String,
    #[serde(default)]
    answer: String,
}

/// `POST /games/{id}/answer`: accept or reject a challenge.
async fn answer_form(
    State(web): State<Web>,
    client: ClientAddress,
    headers: HeaderMap,
    Path(id): Path<String>,
    f: Result<Form<AnswerForm>, FormRejection>,
) -> Result<Response, PageError> {
    let board = board_number(&id)?;
    let login = match require_login(visitor(&web, &headers).await?, &format!("/games/{board}")) {
        Ok(l) => l,
        Err(redirect) => return Ok(redirect.into_response()),
    };
    let f = form(f)?;
    check_csrf(&login, &f.csrf)?;
    let verb = match f.answer.as_str() {
        "accept" => "accept",
        "reject" => "reject",
        _ => return Err(PageError::new(StatusCode::BAD_REQUEST, "answer accept or reject")),
    };
    let kind = board_kind(&web, board).await?;
    let line = format!("{kind} {verb} {board} {} -", login.user);
    match web.service.execute(&line, Context::new(Caller::User(login.user.clone()), client.origin())).await {
        Ok(reply) => {
            if let Some(g) = &reply.game {
                web.service.announce(GameUpdate { board, version: g.version as i64 });
            }
            Ok(Redirect::to(&format!("/games/{board}")).into_response())
        }
        Err(e) => {
            let r = Refused {
                status: crate::error::status_of(e.code),
                message: e.message,
                text: String::new(),
                chat: false,
            };
            game_view(&web, Some(&login), board, None, Some(r)).await
        }
    }
}

// ---------------------------------------------------------------- challenges

/// One field of a challenge form, made from one option of the game's table.
#[derive(Serialize)]
struct OptionField {
    name: &'static str,
    /// `checkbox`, `number`, `text` or `select`.
    input: &'static str,
    help: &'static str,
    default: Option<&'static str>,
    min: Option<i64>,
    max: Option<i64>,
    maxlength: Option<usize>,
    choices: Vec<&'static str>,
    /// What accepted values look like, in words.
    accepts: String,
    /// The value sent last time (a refused form keeps what was typed).
    value: String,
}

fn option_fields(info: &GameInfo, sent: &[(String, String)]) -> Vec<OptionField> {
    info.all_options()
        .map(|o| {
            let value = sent
                .iter()
                .find(|(k, _)| k.strip_prefix("opt_") == Some(o.name))
                .map(|(_, v)| v.clone())
                .unwrap_or_default();
            let mut f = OptionField {
                name: o.name,
                input: "text",
                help: o.help,
                default: o.default,
                min: None,
                max: None,
                maxlength: None,
                choices: Vec::new(),
                accepts: String::new(),
                value,
            };
            match o.kind {
                OptionKind::Flag => f.input = "checkbox",
                OptionKind::Int { min, max } => {
                    f.input = "number";
                    f.min = Some(min);
                    f.max = Some(max);
                    f.accepts = format!("{min} to {max}");
                }
                OptionKind::Text { min_len, max_len, accepts } => {
                    f.maxlength = Some(max_len);
                    f.accepts = format!("{min_len} to {max_len} characters: {accepts}");
                }
                OptionKind::Duration { min_secs, max_secs, unit } => {
                    f.maxlength = Some(12);
                    f.accepts = format!(
                        "a duration such as 30m, 12h, 7d or 2w, from {} to {} (a bare number is in {unit})",
                        tabula_model::format_duration(min_secs),
                        tabula_model::format_duration(max_secs)
                    );
                }
                OptionKind::Choice { choices } => {
                    f.input = "select";
                    f.choices = choices.to_vec();
                }
            }
            f
        })
        .collect()
}

fn find_kind(kind: &str) -> Result<&'static GameInfo, PageError> {
    tabula_games::find(kind)
        .map(|k| k.info())
        .ok_or_else(|| PageError::not_found(format!("There is no game {kind:?} here.")))
}

#[derive(Deserialize)]
struct WithQuery {
    with: Option<String>,
}

/// `/challenge?with=USER`: the games to challenge someone to.
async fn challenge_list(
    State(web): State<Web>,
    headers: HeaderMap,
    q: Result<Query<WithQuery>, QueryRejection>,
) -> Result<Response, PageError> {
    let login = visitor(&web, &headers).await?;
    let with = query(q)?.with.unwrap_or_default();
    let players = match &login {
        Some(l) if !with.is_empty() => format!("{} {with}", l.user),
        _ => with,
    };
    let html = render("challenge_list.html", context! { base => base(login.as_ref()), players })?;
    Ok(page(StatusCode::OK, html))
}

#[derive(Deserialize)]
struct ChallengeQuery {
    players: Option<String>,
}

/// `/challenge/{kind}`: the challenge form, made from the game's option table.
async fn challenge_page(
    State(web): State<Web>,
    headers: HeaderMap,
    Path(kind): Path<String>,
    q: Result<Query<ChallengeQuery>, QueryRejection>,
) -> Result<Response, PageError> {
    let login = visitor(&web, &headers).await?;
    let info = find_kind(&kind)?;
    let q = query(q)?;
    let players = match (q.players, &login) {
        (Some(p), _) => p,
        (None, Some(l)) => format!("{} ", l.user),
        (None, None) => String::new(),
    };
    challenge_view(&web, login.as_ref(), info, &players, &[], None)
}

fn challenge_view(
    web: &Web,
    login: Option<&Login>,
    info: &'static GameInfo,
    players: &str,
    sent: &[(String, String)],
    error: Option<(StatusCode, String)>,
) -> Result<Response, PageError> {
    let bot = sent.iter().find(|(k, _)| k == "bot").map(|(_, v)| v.clone()).unwrap_or_default();
    let (status, error) = match error {
        Some((s, e)) => (s, Some(e)),
        None => (StatusCode::OK, None),
    };
    let html = render(
        "challenge.html",
        context! {
            base => base(login),
            kind => info.kind,
            title => info.title,
            summary => info.summary,
            rules => info.rules,
            move_help => info.move_help,
            min_players => info.min_players,
            max_players => info.max_players,
            fields => option_fields(info, sent),
            players,
            error,
            bots => web.service.bot_names(info.kind),
            bot,
        },
    )?;
    Ok(page(status, html))
}

/// The option words a challenge form asks for, in the table's order.
fn option_words(info: &GameInfo, sent: &[(String, String)]) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    for o in info.all_options() {
        let key = format!("opt_{}", o.name);
        let Some(value) = sent.iter().find(|(k, _)| *k == key).map(|(_, v)| v.trim()) else { continue };
        if value.is_empty() {
            continue;
        }
        match o.kind {
            OptionKind::Flag => words.push(format!("-{}", o.name)),
            _ => {
                if value.chars().any(|c| c.is_whitespace() || c.is_control()) || value.len() > 200 {
                    return Err(format!("-{}: a value has no spaces", o.name));
                }
                // The default needs no word: the game uses it anyway.
                if Some(value) != o.default {
                    words.push(format!("-{}={value}", o.name));
                }
            }
        }
    }
    Ok(words)
}

/// `POST /challenge/{kind}`: start the game.
async fn challenge_form(
    State(web): State<Web>,
    client: ClientAddress,
    headers: HeaderMap,
    Path(kind): Path<String>,
    f: Result<Form<Vec<(String, String)>>, FormRejection>,
) -> Result<Response, PageError> {
    let info = find_kind(&kind)?;
    let login = match require_login(visitor(&web, &headers).await?, &format!("/challenge/{}", info.kind)) {
        Ok(l) => l,
        Err(redirect) => return Ok(redirect.into_response()),
    };
    let sent = form(f)?;
    if sent.len() > 200 {
        return Err(PageError::new(StatusCode::BAD_REQUEST, "too many form fields"));
    }
    let field = |name: &str| sent.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str()).unwrap_or("");
    check_csrf(&login, field("csrf"))?;
    let players_text = field("players").to_string();
    let mut players: Vec<String> = players_text
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|w| !w.is_empty())
        .map(str::to_string)
        .collect();
    let refuse = |status: StatusCode, message: String| {
        challenge_view(&web, Some(&login), info, &players_text, &sent, Some((status, message)))
    };
    // The bot picked from the list plays last; with nobody named, against
    // the challenger.
    let bot = field("bot").trim();
    if !bot.is_empty() {
        if !web.service.bot_names(info.kind).iter().any(|b| b == bot) {
            return refuse(
                StatusCode::BAD_REQUEST,
                format!("There is no bot {bot} for {} here.", info.title),
            );
        }
        if players.is_empty() {
            players.push(login.user.clone());
        }
        players.push(bot.to_string());
    }
    if players.is_empty() {
        return refuse(StatusCode::BAD_REQUEST, "Name the players, in turn order.".into());
    }
    let options = match option_words(info, &sent) {
        Ok(o) => o,
        Err(message) => return refuse(StatusCode::BAD_REQUEST, message),
    };
    let command =
        Command::Game { kind: info.kind.to_string(), command: GameCommand::Challenge { players, options } };
    match web.service.run(command, Context::new(Caller::User(login.user.clone()), client.origin())).await {
        Ok(reply) => match reply.game {
            Some(g) => Ok(Redirect::to(&format!("/games/{}", g.id)).into_response()),
            None => Ok(Redirect::to("/").into_response()),
        },
        Err(e) => refuse(crate::error::status_of(e.code), e.message),
    }
}

// ---------------------------------------------------------------- accounts

#[derive(Deserialize)]
struct NextQuery {
    next: Option<String>,
}

/// The token of the login and sign-up forms: the form cookie's, or a new
/// one (with the cookie to set).
fn form_token(headers: &HeaderMap) -> (String, Option<HeaderValue>) {
    match auth::cookie(headers, FORM_COOKIE).filter(|t| t.starts_with("f_") && t.len() == 50) {
        Some(t) => (t.to_string(), None),
        None => {
            let t = auth::new_form_token();
            let c = auth::set_cookie(FORM_COOKIE, &t, auth::FORM_LIFETIME_SECS, auth::is_https(headers));
            (t, Some(c))
        }
    }
}

fn check_form_token(headers: &HeaderMap, sent: &str) -> bool {
    auth::cookie(headers, FORM_COOKIE).is_some_and(|c| auth::same_secret(c, sent))
}

fn account_form(
    template: &str,
    headers: &HeaderMap,
    status: StatusCode,
    next: &str,
    user: &str,
    email: &str,
    error: Option<String>,
) -> Result<Response, PageError> {
    let (token, cookie) = form_token(headers);
    let html =
        render(template, context! { base => base(None), form_token => token, next, user, email, error })?;
    let mut response = page(status, html);
    if let Some(c) = cookie {
        response.headers_mut().append(header::SET_COOKIE, c);
    }
    Ok(response)
}

/// `/login?next=PATH`.
async fn login_page(
    State(web): State<Web>,
    headers: HeaderMap,
    q: Result<Query<NextQuery>, QueryRejection>,
) -> Result<Response, PageError> {
    let next = safe_next(query(q)?.next.as_deref());
    if visitor(&web, &headers).await?.is_some() {
        return Ok(Redirect::to(&next).into_response());
    }
    account_form("login.html", &headers, StatusCode::OK, &next, "", "", None)
}

/// `/signup?next=PATH`.
async fn signup_page(
    State(web): State<Web>,
    headers: HeaderMap,
    q: Result<Query<NextQuery>, QueryRejection>,
) -> Result<Response, PageError> {
    let next = safe_next(query(q)?.next.as_deref());
    if visitor(&web, &headers).await?.is_some() {
        return Ok(Redirect::to(&next).into_response());
    }
    account_form("signup.html", &headers, StatusCode::OK, &next, "", "", None)
}

#[derive(Deserialize)]
struct LoginForm {
    #[serde(default)]
    form_token: String,
    #[serde(default)]
    user: String,
    #[serde(default)]
    password: String,
    #[serde(default)]
    password2: String,
    #[serde(default)]
    email: String,
    next: Option<String>,
}

/// Answer a successful login: the session cookie, the form cookie gone,
/// and on to `next`.
fn logged_in(login: &Login, now: i64, headers: &HeaderMap, next: &str) -> Response {
    let max_age = ((login.expires - now) / 1000).max(0);
    let mut response = Redirect::to(next).into_response();
    let h = response.headers_mut();
    h.append(
        header::SET_COOKIE,
        auth::set_cookie(SESSION_COOKIE, &login.session, max_age, auth::is_https(headers)),
    );
    h.append(header::SET_COOKIE, auth::clear_cookie(FORM_COOKIE));
    response
}

const EXPIRED_FORM: &str = "This form has expired or did not come from this site. Please try again.";

/// `POST /login`.
async fn login_form(
    State(web): State<Web>,
    client: ClientAddress,
    headers: HeaderMap,
    f: Result<Form<LoginForm>, FormRejection>,
) -> Result<Response, PageError> {
    let f = form(f)?;
    let next = safe_next(f.next.as_deref());
    if !check_form_token(&headers, &f.form_token) {
        let (s, e) = (StatusCode::FORBIDDEN, Some(EXPIRED_FORM.to_string()));
        return account_form("login.html", &headers, s, &next, &f.user, "", e);
    }
    match web.service.login(f.user.trim(), &f.password, &client.origin()).await {
        Ok(login) => Ok(logged_in(&login, web.service.now(), &headers, &next)),
        Err(e) => {
            let status = crate::error::status_of(e.code);
            let message = match e.code {
                // One answer for a wrong id and a wrong password.
                ErrorCode::UnknownUser | ErrorCode::WrongPassword => "Wrong user id or password.".to_string(),
                _ => e.message,
            };
            let status = if status == StatusCode::NOT_FOUND { StatusCode::UNAUTHORIZED } else { status };
            account_form("login.html", &headers, status, &next, &f.user, "", Some(message))
        }
    }
}

/// `POST /signup`: make the account and log in.
async fn signup_form(
    State(web): State<Web>,
    client: ClientAddress,
    headers: HeaderMap,
    f: Result<Form<LoginForm>, FormRejection>,
) -> Result<Response, PageError> {
    let f = form(f)?;
    let next = safe_next(f.next.as_deref());
    let again = |status: StatusCode, message: String| {
        account_form("signup.html", &headers, status, &next, &f.user, &f.email, Some(message))
    };
    if !check_form_token(&headers, &f.form_token) {
        return again(StatusCode::FORBIDDEN, EXPIRED_FORM.into());
    }
    if f.password != f.password2 {
        return again(StatusCode::BAD_REQUEST, "The two passwords differ.".into());
    }
    let email = f.email.trim();
    let id = match web.service.signup_user(f.user.trim(), &f.password, Some(email)).await {
        Ok(id) => id,
        Err(e) => return again(crate::error::status_of(e.code), e.message),
    };
    match web.service.login(&id, &f.password, &client.origin()).await {
        Ok(login) => Ok(logged_in(&login, web.service.now(), &headers, &next)),
        Err(e) => Err(e.into()),
    }
}

#[derive(Deserialize)]
struct CsrfForm {
    #[serde(default)]
    csrf: String,
}

/// `POST /logout`: end the session.
async fn logout_form(
    State(web): State<Web>,
    headers: HeaderMap,
    f: Result<Form<CsrfForm>, FormRejection>,
) -> Result<Response, PageError> {
    let f = form(f)?;
    if let Some(login) = visitor(&web, &headers).await? {
        check_csrf(&login, &f.csrf)?;
        web.service.logout(&login.session).await?;
    }
    let mut response = Redirect::to("/").into_response();
    response.headers_mut().append(header::SET_COOKIE, auth::clear_cookie(SESSION_COOKIE));
    Ok(response)
}

/// `/account`: the user's API tokens.
async fn account_page(State(web): State<Web>, headers: HeaderMap) -> Result<Response, PageError> {
    let login = match require_login(visitor(&web, &headers).await?, "/account") {
        Ok(l) => l,
        Err(redirect) => return Ok(redirect.into_response()),
    };
    account_view(&web, &login, StatusCode::OK, None, None).await
}

async fn account_view(
    web: &Web,
    login: &Login,
    status: StatusCode,
    new_token: Option<String>,
    error: Option<String>,
) -> Result<Response, PageError> {
    let tokens = web.service.store().tokens(&login.user).await.map_err(CommandError::from)?;
    let tokens: Vec<Value> = tokens
        .iter()
        .map(|t| {
            serde_json::json!({
                "id": t.id, "name": t.name, "created": t.created,
                "last_used": t.last_used, "revoked": t.revoked,
            })
        })
        .collect();
    let html = render("account.html", context! { base => base(Some(login)), tokens, new_token, error })?;
    Ok(page(status, html))
}

#[derive(Deserialize)]
struct TokenForm {
    #[serde(default)]
    csrf: String,
    #[serde(default)]
    name: String,
    #[serde(default)]
    password: String,
}

/// `POST /account/tokens`: a new API token, shown once.
async fn token_form(
    State(web): State<Web>,
    client: ClientAddress,
    headers: HeaderMap,
    f: Result<Form<TokenForm>, FormRejection>,
) -> Result<Response, PageError> {
    let login = match require_login(visitor(&web, &headers).await?, "/account") {
        Ok(l) => l,
        Err(redirect) => return Ok(redirect.into_response()),
    };
    let f = form(f)?;
    check_csrf(&login, &f.csrf)?;
    match web.service.create_token(&login.user, &f.password, f.name.trim(), &client.origin()).await {
        Ok((secret, _)) => account_view(&web, &login, StatusCode::OK, Some(secret), None).await,
        Err(e) => account_view(&web, &login, crate::error::status_of(e.code), None, Some(e.message)).await,
    }
}

/// `POST /account/tokens/{id}/revoke`.
async fn revoke_form(
    State(web): State<Web>,
    headers: HeaderMap,
    Path(id): Path<String>,
    f: Result<Form<CsrfForm>, FormRejection>,
) -> Result<Response, PageError> {
    let login = match require_login(visitor(&web, &headers).await?, "/account") {
        Ok(l) => l,
        Err(redirect) => return Ok(redirect.into_response()),
    };
    let f = form(f)?;
    check_csrf(&login, &f.csrf)?;
    let id: i64 = id.parse().map_err(|_| PageError::not_found("There is no such token."))?;
    match web.service.revoke_token(&login.user, id).await {
        Ok(()) => Ok(Redirect::to("/account").into_response()),
        Err(e) => account_view(&web, &login, crate::error::status_of(e.code), None, Some(e.message)).await,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn next_is_a_local_path_only() {
        assert_eq!(safe_next(Some("/games/3")), "/games/3");
        assert_eq!(safe_next(Some("//evil.example/x")), "/");
        assert_eq!(safe_next(Some("https://evil.example/")), "/");
        assert_eq!(safe_next(Some("/\\evil")), "/");
        assert_eq!(safe_next(None), "/");
    }

    #[test]
    fn challenge_options_come_from_the_table() {
        let info = tabula_games::find("dna").unwrap().info();
        let sent = vec![
            ("opt_length".to_string(), "6".to_string()),
            ("opt_manual".to_string(), "on".to_string()),
            ("opt_base".to_string(), "4".to_string()),
            ("opt_chunk".to_string(), String::new()),
        ];
        assert_eq!(option_words(info, &sent).unwrap(), vec!["-length=6", "-manual"]);
        let bad = vec![("opt_length".to_string(), "6 -manual".to_string())];
        assert!(option_words(info, &bad).unwrap_err().contains("-length"));
        let fields = option_fields(info, &sent);
        assert_eq!(fields.len(), info.all_options().count());
        let manual = fields.iter().find(|f| f.name == "manual").unwrap();
        assert_eq!((manual.input, manual.value.as_str()), ("checkbox", "on"));
        let length = fields.iter().find(|f| f.name == "length").unwrap();
        assert_eq!((length.input, length.min, length.max), ("number", Some(2), Some(200)));
    }

    #[test]
    fn status_lines_are_the_first_paragraph() {
        assert_eq!(status_lines("It is ned's turn.\n\nMoves:\n 1. x\n"), vec!["It is ned's turn."]);
    }
}
