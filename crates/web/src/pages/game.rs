//! A game's page, `/games/{id}`, and the forms sent from it: a move, the
//! controls any seated player has whatever the turn (resign, offer a draw,
//! ask to take back, answer an offer), answering a challenge, chat.
//!
//! Each form works as a plain post (the page again, with the error in place
//! and what was typed kept), and from the page script as a `fetch` answered
//! in JSON, the page then updated from the live stream.

use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Redirect, Response};
use minijinja::context;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use tabula_i18n::t;
use tabula_model::GameInfo;
use tabula_model::Lang;
use tabula_service::auth::Login;
use tabula_service::command::MoveAction;
use tabula_service::reply::StatusLine;
use tabula_service::store::GameStatus;
use tabula_service::{BoardState, Command, CommandError, Credentials, GameCommand};

use super::{Signed, base, board_number, json_answer, page, query, visitor};
use crate::Web;
use crate::client::ClientAddress;
use crate::error::PageError;
use crate::lang::current;
use crate::templates::render;
use tabula_model::ClickMap;

/// Longest move text a form may send.
const MAX_MOVE_TEXT: usize = 1000;
/// Longest chat line a form may send.
const MAX_CHAT_TEXT: usize = 4000;

#[derive(Deserialize)]
pub(super) struct AtQuery {
    /// Text, so that a bad number gets a clear answer.
    at: Option<String>,
}

#[derive(Serialize)]
struct PlayerRow {
    name: String,
    seat: usize,
    to_move: bool,
    is_me: bool,
    accepted: bool,
    bot: bool,
}

#[derive(Serialize)]
struct MoveLine {
    number: usize,
    first_of_number: bool,
    /// The first line of a move taken back by an undo.
    taken_back: bool,
    text: String,
    seat: Option<usize>,
    /// The player whose line it is.
    player: Option<String>,
    /// After the position shown.
    later: bool,
}

/// What a form showed when it was refused: the message and the text
/// typed, so nothing has to be typed again.
pub(super) struct Refused {
    status: StatusCode,
    message: String,
    text: String,
    /// A chat line was refused (not a move).
    chat: bool,
}

/// The status lines of a board, addressed to `me`: the line saying whose
/// turn it is says "It is your turn." to the player it names (the page's,
/// and the live stream's for the page script).
pub(crate) fn status_lines(status: &[StatusLine], me: Option<&str>, lang: Lang) -> Vec<String> {
    status
        .iter()
        .map(|l| match (me, &l.turn_of) {
            (Some(m), Some(user)) if m == user => t!(lang, "game-your-turn-line"),
            _ => l.text.clone(),
        })
        .collect()
}

/// The move help of a game as the web's move field takes it: the move
/// itself, without the mail command's words before it (`KIND move`, then
/// the board, user and password, whatever words the language gives them).
fn web_move_help(info: &GameInfo, lang: Lang) -> String {
    let command = format!("{} move ", info.kind);
    info.move_help(lang)
        .lines()
        .map(|l| l.strip_prefix(&command).and_then(|rest| rest.splitn(4, ' ').nth(3)).unwrap_or(l))
        .collect::<Vec<_>>()
        .join("\n")
}

/// `/games/{id}?at=N`: a game as the visitor may see it.
pub(super) async fn game_page(
    State(web): State<Web>,
    client: ClientAddress,
    headers: HeaderMap,
    Path(id): Path<String>,
    q: Result<Query<AtQuery>, QueryRejection>,
) -> Result<Response, PageError> {
    let login = visitor(&web, client, &headers).await?;
    let board = board_number(&id)?;
    let at = match query(q)?.at.as_deref().map(str::trim) {
        None | Some("") => None,
        Some(n) => Some(
            n.parse::<usize>()
                .map_err(|_| PageError::new(StatusCode::BAD_REQUEST, t!(current(), "game-bad-at", at = n)))?,
        ),
    };
    // A past position is replayed from the start: counted per client.
    let _turn = at.map(|_| web.heavy.enter(client)).transpose()?;
    game_view(&web, login.as_ref(), board, at, None).await
}

/// `GET /games/{id}/move` (a reload after a refused move): the game's page.
pub(super) async fn back_to_game(Path(id): Path<String>) -> Result<Response, PageError> {
    let board = board_number(&id)?;
    Ok(Redirect::to(&format!("/games/{board}")).into_response())
}

async fn game_view(
    web: &Web,
    login: Option<&Login>,
    board: i64,
    at: Option<usize>,
    refused: Option<Refused>,
) -> Result<Response, PageError> {
    let me = login.map(|l| l.user.as_str());
    let lang = current();
    let current = web.service.snapshot(board, me, None, lang).await?;
    let Some(game) = current.reply.game.as_ref() else {
        return Err(PageError::not_found(t!(lang, "game-no-board", board = board.to_string())));
    };
    // A past position (replay) is shown as an observer saw it then.
    let at = at.filter(|&n| n < game.moves);
    let shown = match at {
        Some(_) => web.service.snapshot(board, me, at, lang).await?,
        None => current.clone(),
    };
    let shown_game = shown.reply.game.as_ref().unwrap_or(game);
    let clock: ViewClock = serde_json::from_str(shown_game.view.get()).unwrap_or_default();
    let info: &GameInfo = tabula_games::find(&game.kind)
        .map(|k| k.info())
        .ok_or_else(|| PageError::new(StatusCode::INTERNAL_SERVER_ERROR, t!(lang, "game-unknown-kind")))?;
    let state: BoardState = web.service.board_state(board, me).await?;
    let players: Vec<PlayerRow> = game
        .players
        .iter()
        .enumerate()
        .map(|(seat, name)| PlayerRow {
            name: name.clone(),
            seat,
            to_move: game.status == GameStatus::Active && game.to_move.contains(name),
            is_me: me == Some(name.as_str()),
            accepted: state.accepted.get(seat).copied().unwrap_or(true),
            bot: game.bots.contains(name),
        })
        .collect();
    let chat = web.service.chats(board).await?;
    let chat: Vec<Value> = chat
        .iter()
        .map(|c| serde_json::json!({ "user": c.user, "at": c.at, "text": c.text, "me": me == Some(c.user.as_str()) }))
        .collect();
    // The whole list as the visitor sees it now, whatever position is
    // shown, so that any move can be stepped to.
    let position = at.unwrap_or(game.moves);
    let moves: Vec<MoveLine> = game
        .history_entries()
        .into_iter()
        .map(|h| MoveLine {
            number: h.number,
            first_of_number: h.opens && !h.undone,
            taken_back: h.opens && h.undone,
            seat: h.entry.seat,
            text: h.entry.text,
            player: h.entry.seat.and_then(|s| game.players.get(s).cloned()),
            later: h.number > position,
        })
        .collect();
    let click = &shown.click;
    let click_json = serde_json::to_string(click).unwrap_or_else(|_| "null".into());
    // The `#moveno` guard refuses a move made on a board that moved on
    // meanwhile. Only when one player is to move: where several are, the
    // others' moves (secret ones too) would make it refuse for nothing.
    let guard = (game.to_move.len() == 1).then_some(game.moves + 1);
    let (error, typed, status, chat_error, chat_typed) = match refused {
        Some(r) if r.chat => (None, String::new(), r.status, Some(r.message), r.text),
        Some(r) => (Some(r.message), r.text, r.status, None, String::new()),
        None => (None, String::new(), StatusCode::OK, None, String::new()),
    };
    let my_turn =
        me.is_some_and(|m| game.to_move.iter().any(|u| u == m)) && game.status == GameStatus::Active;
    let html = render(
        "game.html",
        context! {
            base => base(web, login).await?,
            board,
            kind => game.kind.clone(),
            title => info.title(lang),
            rules => info.rules(lang),
            move_help => web_move_help(info, lang),
            subject => shown.reply.subject.clone(),
            // A past position is an observer's: not addressed to anyone.
            status_lines => status_lines(&shown.status, me.filter(|_| at.is_none()), lang),
            text_board => shown.reply.text.clone(),
            svg => shown.svg.clone(),
            click => click_json,
            // Games on a clock (Real-Time Life) count down to their next tick.
            next_tick => clock.next_tick,
            view_now => clock.now,
            // Grids pan and zoom with the wheel and fingers.
            grid => matches!(click, Some(ClickMap::Grid { .. } | ClickMap::Field { .. })),
            clickable => click.is_some(),
            players,
            game_status => game.status.as_str(),
            colours => serde_json::to_string(&tabula_model::svg::PLAYER_COLOURS).unwrap_or_default(),
            options => game.options.join(" "),
            moves,
            total => game.moves,
            version => game.version,
            position,
            replaying => at.is_some(),
            my_turn,
            actions => state.actions,
            actions_json => serde_json::to_string(&state.actions).unwrap_or_default(),
            offer => state.offer,
            seated => players_has(&game.players, me),
            guard,
            error,
            typed,
            chat_count => chat.len(),
            chat,
            chat_error,
            chat_typed,
        },
    )?;
    Ok(page(status, html))
}

fn players_has(players: &[String], me: Option<&str>) -> bool {
    me.is_some_and(|m| players.iter().any(|p| p == m))
}

#[derive(Deserialize)]
pub(super) struct MoveFormData {
    #[serde(default)]
    text: String,
    #[serde(default)]
    action: String,
    #[serde(default)]
    moveno: String,
}

/// Send `command` for `login`: `Ok` or the error, as the page script or
/// the page wants it.
async fn send(
    web: &Web,
    login: &Login,
    client: &ClientAddress,
    command: Command,
) -> Result<(), CommandError> {
    web.service.run(command, super::form_context(login, client)).await.map(|_| ())
}

/// The credentials of a logged-in user: the session proves who they are.
fn session_credentials(login: &Login) -> Credentials {
    Credentials { user: login.user.clone(), password: "-".into() }
}

/// `POST /games/{id}/move`: a move, or one of the controls (`action` of
/// `resign`, `draw`, `undo`, `accept`, `reject`), by the logged-in player.
pub(super) async fn move_form(
    State(web): State<Web>,
    client: ClientAddress,
    Path(id): Path<String>,
    signed: Signed<MoveFormData>,
) -> Result<Response, PageError> {
    let board = board_number(&id)?;
    let Signed { login, form: f, json } = signed;
    let refuse =
        |status: StatusCode, message: String, text: String| Refused { status, message, text, chat: false };
    let action = match f.action.as_str() {
        "resign" => MoveAction::Resign,
        "draw" => MoveAction::Propose,
        "undo" => MoveAction::Undo,
        "accept" => MoveAction::Accept,
        "reject" => MoveAction::Reject,
        "move" | "" => {
            let text = f.text.trim().to_string();
            let game_kind = web.service.kind_of(board).await?;
            let lang = current();
            let problem = if text.is_empty() {
                Some(t!(lang, "game-write-move"))
            } else if text.chars().count() > MAX_MOVE_TEXT {
                Some(t!(lang, "game-move-too-long", max = MAX_MOVE_TEXT.to_string()))
            } else if text.chars().any(char::is_control) {
                Some(t!(lang, "game-move-one-line"))
            } else {
                None
            };
            // A mail command pasted whole carries a password: refused
            // without being shown again.
            let pasted = text.split_whitespace().next().is_some_and(|w| w.eq_ignore_ascii_case(&game_kind))
                && text.split_whitespace().nth(1).is_some_and(|w| w.eq_ignore_ascii_case("move"));
            let problem = problem
                .map(|m| (m, f.text.clone()))
                .or_else(|| pasted.then(|| (t!(lang, "game-move-pasted"), String::new())));
            if let Some((message, text)) = problem {
                if json {
                    return Ok(crate::ApiError::bad_request(message).into_response());
                }
                let r = refuse(StatusCode::BAD_REQUEST, message, text);
                return game_view(&web, Some(&login), board, None, Some(r)).await;
            }
            MoveAction::Play(text)
        }
        other => {
            let action = format!("{other:?}");
            return Err(PageError::new(
                StatusCode::BAD_REQUEST,
                t!(current(), "game-no-action", action = action),
            ));
        }
    };
    let guard = match (&action, f.moveno.trim().parse::<usize>()) {
        (MoveAction::Play(_), Ok(n)) => Some(n),
        _ => None,
    };
    let game_kind = web.service.kind_of(board).await?;
    let auth = session_credentials(&login);
    let command =
        Command::Game { kind: game_kind, command: GameCommand::Move { board, auth, action, guard } };
    let result = send(&web, &login, &client, command).await;
    if json {
        return Ok(json_answer(result));
    }
    match result {
        Ok(()) => Ok(Redirect::to(&format!("/games/{board}")).into_response()),
        Err(e) => {
            let r = refuse(crate::error::status_of(e.code), e.message, f.text.clone());
            game_view(&web, Some(&login), board, None, Some(r)).await
        }
    }
}

#[derive(Deserialize)]
pub(super) struct ChatFormData {
    #[serde(default)]
    text: String,
}

/// `POST /games/{id}/chat`: a chat line by a player of the board.
pub(super) async fn chat_form(
    State(web): State<Web>,
    client: ClientAddress,
    Path(id): Path<String>,
    signed: Signed<ChatFormData>,
) -> Result<Response, PageError> {
    let board = board_number(&id)?;
    let Signed { login, form: f, json } = signed;
    // A line of text: line breaks and tabs typed into the field become spaces.
    let text: String =
        f.text.chars().map(|c| if c.is_control() { ' ' } else { c }).collect::<String>().trim().to_string();
    let refuse =
        |status: StatusCode, message: String| Refused { status, message, text: f.text.clone(), chat: true };
    let problem = if text.is_empty() {
        Some(t!(current(), "game-write-chat"))
    } else if text.chars().count() > MAX_CHAT_TEXT {
        Some(t!(current(), "game-chat-too-long", max = MAX_CHAT_TEXT.to_string()))
    } else {
        None
    };
    if let Some(message) = problem {
        if json {
            return Ok(crate::ApiError::bad_request(message).into_response());
        }
        return game_view(&web, Some(&login), board, None, Some(refuse(StatusCode::BAD_REQUEST, message)))
            .await;
    }
    let kind = web.service.kind_of(board).await?;
    let auth = session_credentials(&login);
    let command = Command::Game { kind, command: GameCommand::Chat { board, auth, text } };
    let result = send(&web, &login, &client, command).await;
    if json {
        return Ok(json_answer(result));
    }
    match result {
        Ok(()) => Ok(Redirect::to(&format!("/games/{board}#chat")).into_response()),
        Err(e) => {
            let r = refuse(crate::error::status_of(e.code), e.message);
            game_view(&web, Some(&login), board, None, Some(r)).await
        }
    }
}

#[derive(Deserialize)]
pub(super) struct AnswerForm {
    #[serde(default)]
    answer: String,
}

/// `POST /games/{id}/answer`: accept or reject a challenge.
pub(super) async fn answer_form(
    State(web): State<Web>,
    client: ClientAddress,
    Path(id): Path<String>,
    signed: Signed<AnswerForm>,
) -> Result<Response, PageError> {
    let board = board_number(&id)?;
    let Signed { login, form: f, json } = signed;
    let accept = match f.answer.as_str() {
        "accept" => true,
        "reject" => false,
        _ => return Err(PageError::new(StatusCode::BAD_REQUEST, t!(current(), "game-answer"))),
    };
    let kind = web.service.kind_of(board).await?;
    let auth = session_credentials(&login);
    let command = Command::Game { kind, command: GameCommand::Answer { board, auth, accept } };
    let result = send(&web, &login, &client, command).await;
    if json {
        return Ok(json_answer(result));
    }
    match result {
        Ok(()) => Ok(Redirect::to(&format!("/games/{board}")).into_response()),
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn status_lines_are_addressed_to_the_player_on_move() {
        let lines = |text: &str| {
            vec![
                StatusLine { text: text.to_string(), turn_of: Some("ned".into()) },
                StatusLine::from("ann proposes a draw.".to_string()),
            ]
        };
        let en = lines("It is ned's turn.");
        assert_eq!(status_lines(&en, None, Lang::En), vec!["It is ned's turn.", "ann proposes a draw."]);
        assert_eq!(
            status_lines(&en, Some("ned"), Lang::En),
            vec!["It is your turn.", "ann proposes a draw."]
        );
        assert_eq!(
            status_lines(&en, Some("ann"), Lang::En),
            vec!["It is ned's turn.", "ann proposes a draw."]
        );
        // Whatever the language says: the line is known by what it says.
        let fi = lines("Vuorossa on ned.");
        assert_eq!(status_lines(&fi, Some("ned"), Lang::Fi)[0], "On sinun vuorosi.");
        assert_eq!(status_lines(&fi, Some("ann"), Lang::Fi)[0], "Vuorossa on ned.");
    }

    #[test]
    fn move_help_shows_the_move_alone() {
        let info = tabula_games::find("conway").unwrap().info();
        for lang in Lang::ALL {
            let help = web_move_help(info, lang);
            assert!(!help.contains("conway move"), "{help}");
            assert!(help.lines().any(|l| l.starts_with("a1,b2,c3   ")), "{help}");
            assert!(help.lines().any(|l| l.starts_with("random     ")), "{help}");
        }
        // A line that is not a command stays whole.
        let rtlife = web_move_help(tabula_games::find("rtlife").unwrap().info(), Lang::En);
        assert!(rtlife.contains("\nThe words place and move may stand before the points"), "{rtlife}");
    }
}

/// The clock of a view that has one (Real-Time Life counts down to its
/// next tick); both `None` for the others.
#[derive(Default, serde::Deserialize)]
struct ViewClock {
    next_tick: Option<i64>,
    now: Option<i64>,
}
