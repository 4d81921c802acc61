//! Starting games: the list of games to challenge someone to, a game's
//! challenge form (made from its option table, with human labels), and a
//! rematch of a finished game.

use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Redirect, Response};
use minijinja::context;
use serde::{Deserialize, Serialize};
use tabula_i18n::t;
use tabula_model::{GameInfo, OptionKind};
use tabula_service::auth::Login;
use tabula_service::{Command, GameCommand};

use super::{Signed, base, board_number, page, query, visitor};
use crate::Web;
use crate::client::ClientAddress;
use crate::error::PageError;
use crate::lang::current;
use crate::templates::render;

/// One field of a challenge form, made from one option of the game's table.
#[derive(Serialize)]
pub(super) struct OptionField {
    name: &'static str,
    /// What the option is, in words: the first clause of its help.
    label: String,
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

pub(super) fn option_fields(info: &GameInfo, sent: &[(String, String)]) -> Vec<OptionField> {
    let lang = current();
    info.all_options()
        .map(|o| {
            let value = sent
                .iter()
                .find(|(k, _)| k.strip_prefix("opt_") == Some(o.name))
                .map(|(_, v)| v.clone())
                .unwrap_or_default();
            let mut f = OptionField {
                name: o.name,
                label: option_label(info.option_help(o, lang)),
                input: "text",
                help: info.option_help(o, lang),
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
                    f.accepts =
                        t!(lang, "challenge-accepts-range", min = min.to_string(), max = max.to_string());
                }
                OptionKind::Text { min_len, max_len, .. } => {
                    f.maxlength = Some(max_len);
                    f.accepts = t!(
                        lang,
                        "challenge-accepts-text",
                        min = min_len.to_string(),
                        max = max_len.to_string(),
                        accepts = info.option_accepts(o, lang).unwrap_or_default()
                    );
                }
                OptionKind::Duration { min_secs, max_secs, unit } => {
                    f.maxlength = Some(12);
                    f.accepts = t!(
                        lang,
                        "challenge-accepts-duration",
                        min = tabula_model::format_duration(min_secs),
                        max = tabula_model::format_duration(max_secs),
                        unit = unit.to_string()
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
        .ok_or_else(|| PageError::not_found(t!(current(), "challenge-no-game", kind = format!("{kind:?}"))))
}

#[derive(Deserialize)]
pub(super) struct WithQuery {
    with: Option<String>,
}

/// `/challenge?with=USER`: the games to challenge someone to.
pub(super) async fn challenge_list(
    State(web): State<Web>,
    client: ClientAddress,
    headers: HeaderMap,
    q: Result<Query<WithQuery>, QueryRejection>,
) -> Result<Response, PageError> {
    let login = visitor(&web, client, &headers).await?;
    let with = query(q)?.with.unwrap_or_default();
    let players = match &login {
        Some(l) if !with.is_empty() => format!("{} {with}", l.user),
        _ => with,
    };
    let html =
        render("challenge_list.html", context! { base => base(&web, login.as_ref()).await?, players })?;
    Ok(page(StatusCode::OK, html))
}

#[derive(Deserialize)]
pub(super) struct ChallengeQuery {
    players: Option<String>,
}

/// `/challenge/{kind}`: the challenge form, made from the game's option table.
pub(super) async fn challenge_page(
    State(web): State<Web>,
    client: ClientAddress,
    headers: HeaderMap,
    Path(kind): Path<String>,
    q: Result<Query<ChallengeQuery>, QueryRejection>,
) -> Result<Response, PageError> {
    let login = visitor(&web, client, &headers).await?;
    let info = find_kind(&kind)?;
    let q = query(q)?;
    let players = match (q.players, &login) {
        (Some(p), _) => p,
        (None, Some(l)) => format!("{} ", l.user),
        (None, None) => String::new(),
    };
    challenge_view(&web, login.as_ref(), info, &players, &[], None).await
}

async fn challenge_view(
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
    let lang = current();
    let html = render(
        "challenge.html",
        context! {
            base => base(web, login).await?,
            kind => info.kind,
            title => info.title(lang),
            summary => info.summary(lang),
            rules => info.rules(lang),
            move_help => info.move_help(lang),
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
pub(super) fn option_words(info: &GameInfo, sent: &[(String, String)]) -> Result<Vec<String>, String> {
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
                    return Err(t!(current(), "challenge-option-spaces", option = o.name));
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
pub(super) async fn challenge_form(
    State(web): State<Web>,
    client: ClientAddress,
    Path(kind): Path<String>,
    signed: Signed<Vec<(String, String)>>,
) -> Result<Response, PageError> {
    let info = find_kind(&kind)?;
    let Signed { login, form: sent, .. } = signed;
    if sent.len() > 200 {
        return Err(PageError::new(StatusCode::BAD_REQUEST, t!(current(), "challenge-too-many-fields")));
    }
    let field = |name: &str| sent.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str()).unwrap_or("");
    let players_text = field("players").to_string();
    let mut players: Vec<String> = players_text
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|w| !w.is_empty())
        .map(str::to_string)
        .collect();
    let refuse = async |status: StatusCode, message: String| {
        challenge_view(&web, Some(&login), info, &players_text, &sent, Some((status, message))).await
    };
    // The bot picked from the list plays last; with nobody named, against
    // the challenger.
    let bot = field("bot").trim();
    if !bot.is_empty() {
        if !web.service.bot_names(info.kind).iter().any(|b| b == bot) {
            let message = t!(current(), "challenge-no-such-bot", bot = bot, title = info.title(current()));
            return refuse(StatusCode::BAD_REQUEST, message).await;
        }
        if players.is_empty() {
            players.push(login.user.clone());
        }
        players.push(bot.to_string());
    }
    if players.is_empty() {
        return refuse(StatusCode::BAD_REQUEST, t!(current(), "challenge-name-players")).await;
    }
    let options = match option_words(info, &sent) {
        Ok(o) => o,
        Err(message) => return refuse(StatusCode::BAD_REQUEST, message).await,
    };
    let command =
        Command::Game { kind: info.kind.to_string(), command: GameCommand::Challenge { players, options } };
    match web.service.run(command, super::form_context(&login, &client)).await {
        Ok(reply) => match reply.game {
            Some(g) => Ok(Redirect::to(&format!("/games/{}", g.id)).into_response()),
            None => Ok(Redirect::to("/").into_response()),
        },
        Err(e) => refuse(crate::error::status_of(e.code), e.message).await,
    }
}

/// `POST /games/{id}/rematch`: the same players, the same options (a
/// fixed deal's seed left out), a new board; the players in the order
/// after the first (the second player starts).
pub(super) async fn rematch_form(
    State(web): State<Web>,
    client: ClientAddress,
    Path(id): Path<String>,
    signed: Signed<super::CsrfField>,
) -> Result<Response, PageError> {
    let board = board_number(&id)?;
    let login = signed.login;
    let snapshot = web.service.snapshot(board, Some(&login.user), None, current()).await?;
    let Some(game) = snapshot.reply.game else {
        return Err(PageError::not_found(t!(current(), "game-no-board", board = board.to_string())));
    };
    if !web.service.board_state(board, Some(&login.user)).await?.actions.rematch {
        return Err(PageError::new(StatusCode::CONFLICT, t!(current(), "challenge-rematch-refused")));
    }
    let mut players = game.players.clone();
    players.rotate_left(1);
    let options = game.options.iter().filter(|o| !is_seed(o)).cloned().collect();
    let command =
        Command::Game { kind: game.kind.clone(), command: GameCommand::Challenge { players, options } };
    match web.service.run(command, super::form_context(&login, &client)).await {
        Ok(reply) => match reply.game {
            Some(g) => Ok(Redirect::to(&format!("/games/{}", g.id)).into_response()),
            None => Ok(Redirect::to("/").into_response()),
        },
        Err(e) => Err(e.into()),
    }
}

/// The `-seed=N` option, which deals a known game: a rematch is a new deal.
fn is_seed(option: &str) -> bool {
    option.strip_prefix('-').is_some_and(|o| o == "seed" || o.starts_with("seed="))
}

/// A human label from an option's help: its first clause, capitalised.
fn option_label(help: &str) -> String {
    let clause = help.split([';', '(', ':']).next().unwrap_or(help).trim().trim_end_matches(',');
    let mut chars = clause.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn options_have_human_labels() {
        assert_eq!(option_label("sequence length"), "Sequence length");
        assert_eq!(option_label("chunk size (3 if no chunk option is given); sets both"), "Chunk size");
        assert_eq!(option_label(""), "");
        assert!(is_seed("-seed=4") && is_seed("-seed") && !is_seed("-seeds=2") && !is_seed("-length=6"));
    }
}
