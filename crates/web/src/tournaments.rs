//! Tournaments between bots, as `tabula tournament` stores them: the list
//! and one page per tournament (standings, the head-to-head matrix, charts
//! of the ratings and win rates, the games), and the same figures under
//! `/api/v1/tournaments`.
//!
//! A finished tournament shows its stored report. One still running (or
//! interrupted) shows the standings of the games finished so far, computed
//! the way the final report will be.

use std::fmt::Write;
use std::time::Duration;

use axum::Router;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Json, Response};
use axum::routing::get;
use minijinja::context;
use serde::{Deserialize, Serialize};
use tabula_bots::tournament::{build_report, unique_names};
use tabula_bots::{BotStanding, GameResult, TournamentConfig, TournamentReport};
use tabula_i18n::t;
use tabula_model::svg::escape;
use tabula_service::store::TournamentRow;
use utoipa::{IntoParams, ToSchema};

use crate::Web;
use crate::client::ClientAddress;
use crate::error::{ApiError, PageError};
use crate::lang::current;
use crate::openapi::{ErrorBody, True};
use crate::pages::{base, page, visitor};
use crate::templates::render;

/// Most tournaments one list shows.
pub const MAX_TOURNAMENTS: i64 = 200;
/// Most games one page of `/api/v1/tournaments/{id}/games` returns.
pub const MAX_GAMES_PAGE: usize = 1000;
/// Games listed on a tournament's web page.
const PAGE_GAMES: usize = 200;

/// The tournament pages (the API's routes are in `crate::api::routes`).
pub fn routes() -> Router<Web> {
    Router::new().route("/tournaments", get(list_page)).route("/tournaments/{id}", get(tournament_page))
}

/// A tournament's results as far as they go, as the pages and the API
/// show them.
pub struct Results {
    /// The stored row, as stored (its settings and report name the bots'
    /// files: show `report`, not these).
    pub row: TournamentRow,
    /// The final report, or the report of the games finished so far,
    /// without server paths (see [`hide_paths`]).
    pub report: TournamentReport,
    /// Games the tournament schedules in all.
    pub total: usize,
}

impl Results {
    /// Whether the final report is stored.
    pub fn finished(&self) -> bool {
        self.row.report.is_some()
    }
}

fn corrupt(id: i64, what: impl std::fmt::Display) -> ApiError {
    tracing::error!(tournament = id, error = %what, "stored tournament does not decode");
    let message = t!(current(), "tournament-damaged", id = id.to_string());
    ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "internal", message)
}

/// Games a round robin of `bots` bots schedules: every combination of
/// `players` of them plays `games_per_pair` games.
fn scheduled_games(bots: usize, players: usize, games_per_pair: usize) -> usize {
    if players > bots {
        return 0;
    }
    let mut combinations: usize = 1;
    for i in 0..players {
        combinations = combinations.saturating_mul(bots - i) / (i + 1);
    }
    combinations.saturating_mul(games_per_pair)
}

fn tournament_id(text: &str) -> Result<i64, ApiError> {
    match text.parse::<i64>() {
        Ok(n) if n > 0 => Ok(n),
        _ => Err(ApiError::not_found(t!(current(), "tournament-not-a-number", text = format!("{text:?}")))),
    }
}

/// Tournament `id` with its report (built from the finished games when
/// the tournament is not over), the bots' file paths hidden: the one view
/// of a tournament that its page and its API resources are made from.
///
/// # Errors
/// `not_found`, or a stored row that does not decode.
pub async fn results(web: &Web, id: i64) -> Result<Results, ApiError> {
    let row = web
        .service
        .tournament(id)
        .await?
        .ok_or_else(|| ApiError::not_found(t!(current(), "tournament-none", id = id.to_string())))?;
    let config: Option<TournamentConfig> = serde_json::from_str(&row.config).ok();
    let report = match &row.report {
        Some(text) => serde_json::from_str::<TournamentReport>(text).map_err(|e| corrupt(id, e))?,
        None => {
            let config = config.as_ref().ok_or_else(|| corrupt(id, "the settings do not decode"))?;
            let mut games = Vec::new();
            for text in web.service.tournament_games(id).await? {
                games.push(serde_json::from_str::<GameResult>(&text).map_err(|e| corrupt(id, e))?);
            }
            games.sort_by_key(|g| g.index);
            build_report(config, unique_names(&config.bots), games, Duration::ZERO)
        }
    };
    let total = config
        .map(|c| scheduled_games(c.bots.len(), c.players, c.games_per_pair))
        .unwrap_or(report.games.len())
        .max(report.games.len());
    Ok(Results { row, report: without_paths(report), total })
}

/// `report` with every bot's name, failure and error output passed
/// through [`hide_paths`].
fn without_paths(mut report: TournamentReport) -> TournamentReport {
    let hide = |text: &mut String| *text = hide_paths(text);
    report.bots.iter_mut().for_each(|b| hide(&mut b.name));
    report.names.iter_mut().for_each(hide);
    for g in &mut report.games {
        g.seats.iter_mut().for_each(hide);
        g.winner.iter_mut().for_each(hide);
        hide(&mut g.reason);
        for f in &mut g.failures {
            hide(&mut f.bot);
            hide(&mut f.message);
            hide(&mut f.stderr);
        }
    }
    report
}

/// One line of a tournament list.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = TournamentSummary)]
pub struct ListRow {
    /// Tournament number.
    pub id: i64,
    /// The game's command word.
    pub game: String,
    /// The game's title, in the request's language.
    pub title: String,
    /// When it started (milliseconds since the epoch).
    pub created: i64,
    /// When it finished, if it has.
    pub finished: Option<i64>,
    /// Games finished.
    pub games_done: i64,
    /// Games scheduled.
    pub games_total: usize,
    /// The bots, in the order they were given, without server paths.
    pub bots: Vec<String>,
    /// Bots seated in each game.
    pub players: usize,
    /// Games each pair (or combination) plays.
    pub games_per_pair: usize,
    /// The first of the final standings, once finished.
    pub leader: Option<String>,
}

/// Just the standings of a stored report (its games are skipped unread).
#[derive(Deserialize)]
struct Standings {
    bots: Vec<BotStanding>,
}

fn list_row(row: &TournamentRow) -> ListRow {
    let config: Option<TournamentConfig> = serde_json::from_str(&row.config).ok();
    let (bots, players, games_per_pair) = match &config {
        Some(c) => {
            (unique_names(&c.bots).iter().map(|b| hide_paths(b)).collect(), c.players, c.games_per_pair)
        }
        None => (Vec::new(), 0, 0),
    };
    let leader = row
        .report
        .as_deref()
        .and_then(|r| serde_json::from_str::<Standings>(r).ok())
        .and_then(|s| s.bots.first().map(|b| hide_paths(&b.name)));
    ListRow {
        id: row.id,
        game: row.game.clone(),
        title: game_title(&row.game),
        created: row.created,
        finished: row.finished,
        games_done: row.games_done,
        games_total: scheduled_games(bots.len(), players, games_per_pair).max(row.games_done as usize),
        bots,
        players,
        games_per_pair,
        leader,
    }
}

/// Tournaments, newest first, the bots' file paths hidden: the one view
/// of the list that its page and its API resource are made from.
///
/// # Errors
/// The store failed.
pub async fn list(web: &Web, limit: i64) -> Result<Vec<ListRow>, ApiError> {
    let rows = web.service.tournaments(limit).await?;
    Ok(rows.iter().map(list_row).collect())
}

fn query<T>(q: Result<Query<T>, QueryRejection>) -> Result<T, ApiError> {
    q.map(|Query(q)| q).map_err(|e| ApiError::bad_request(t!(current(), "bad-query", error = e.body_text())))
}

/// The tournament list's query.
#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub(crate) struct LimitQuery {
    /// Most tournaments listed: 1 to 200, default 200.
    #[param(minimum = 1, maximum = 200)]
    limit: Option<i64>,
}

/// Tournaments, newest first.
#[derive(Serialize, ToSchema)]
pub struct Tournaments {
    /// The tournaments.
    pub tournaments: Vec<ListRow>,
    /// Done.
    pub ok: True,
}

/// `GET /api/v1/tournaments?limit=N`: tournaments, newest first.
#[utoipa::path(
    get,
    path = "/api/v1/tournaments",
    tag = "tournaments",
    summary = "Tournaments between bots, newest first",
    description = "Round robins run with `tabula tournament` on this server's database, finished or not.",
    params(LimitQuery),
    responses(
        (status = 200, description = "The tournaments.", body = Tournaments),
        (status = 400, description = "`usage`: a bad limit.", body = ErrorBody),
    )
)]
pub(crate) async fn list_api(
    State(web): State<Web>,
    q: Result<Query<LimitQuery>, QueryRejection>,
) -> Result<Json<Tournaments>, ApiError> {
    let limit = query(q)?.limit.unwrap_or(MAX_TOURNAMENTS);
    if !(1..=MAX_TOURNAMENTS).contains(&limit) {
        return Err(ApiError::bad_request(t!(current(), "limit-range", max = MAX_TOURNAMENTS.to_string())));
    }
    Ok(Json(Tournaments { tournaments: list(&web, limit).await?, ok: True }))
}

/// One tournament: its settings, progress and report, without the games
/// (they have a paged resource of their own).
#[derive(Serialize, ToSchema)]
pub struct Tournament<'a> {
    /// Tournament number.
    pub id: i64,
    /// The game's command word.
    #[schema(examples("intervalo"))]
    pub game: &'a str,
    /// The games' options.
    pub options: &'a [String],
    /// The seed the schedule's seeds come from.
    pub seed: u64,
    /// Games each pair (or combination) plays.
    pub games_per_pair: usize,
    /// Bots a game.
    pub players: usize,
    /// When it started (milliseconds since the epoch).
    pub created: i64,
    /// When it finished, if it has.
    pub finished: Option<i64>,
    /// The figures cover only the games finished so far.
    pub partial: bool,
    /// Games finished.
    pub games_done: usize,
    /// Games scheduled.
    pub games_total: usize,
    /// Standings: by games won, then rating.
    pub bots: &'a [BotStanding],
    /// Bots in the order given (paths hidden as in `name`): the matrix's
    /// rows and columns.
    pub names: &'a [String],
    /// `[i][j]`: bot i's games with bot j.
    #[schema(value_type = Vec<Vec<tabula_bots::tournament::HeadToHead>>)]
    pub head_to_head: &'a [Vec<tabula_bots::tournament::HeadToHead>],
}

impl<'a> Tournament<'a> {
    /// The API's view of `r`.
    pub fn of(r: &'a Results) -> Self {
        let rep = &r.report;
        Tournament {
            id: r.row.id,
            game: &rep.game,
            options: &rep.options,
            seed: rep.seed,
            games_per_pair: rep.games_per_pair,
            players: rep.players,
            created: r.row.created,
            finished: r.row.finished,
            partial: !r.finished(),
            games_done: rep.games.len(),
            games_total: r.total,
            bots: &rep.bots,
            names: &rep.names,
            head_to_head: &rep.head_to_head,
        }
    }
}

/// One tournament's answer.
#[derive(Serialize, ToSchema)]
pub struct OneTournament<'a> {
    /// The tournament.
    pub tournament: Tournament<'a>,
    /// Done.
    pub ok: True,
}

/// `GET /api/v1/tournaments/{id}`: standings (wins, losses, draws, win
/// rate with its 95% interval, rating), the head-to-head matrix, progress.
#[utoipa::path(
    get,
    path = "/api/v1/tournaments/{id}",
    tag = "tournaments",
    summary = "A tournament's standings and head-to-head matrix",
    description = "The final report of a finished tournament; of one still running (or stopped), the standings of the games finished so far (`partial`: true), computed the same way. The games come from /api/v1/tournaments/{id}/games.",
    params(("id" = i64, Path, description = "Tournament number.", minimum = 1)),
    responses(
        (status = 200, description = "The tournament.", body = OneTournament),
        (status = 404, description = "`not_found`: no such tournament.", body = ErrorBody),
    )
)]
pub(crate) async fn tournament_api(
    State(web): State<Web>,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let r = results(&web, tournament_id(&id)?).await?;
    Ok(Json(OneTournament { tournament: Tournament::of(&r), ok: True }).into_response())
}

/// A page of a tournament's games' query.
#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub(crate) struct GamesQuery {
    /// Games skipped (default 0).
    #[param(minimum = 0)]
    offset: Option<usize>,
    /// Most games listed: 1 to 1000, default 100.
    #[param(minimum = 1, maximum = 1000)]
    limit: Option<usize>,
}

/// A page of a tournament's games.
#[derive(Serialize, ToSchema)]
pub struct TournamentGames<'a> {
    /// Tournament number.
    pub tournament: i64,
    /// Games finished.
    pub total: usize,
    /// Games skipped.
    pub offset: usize,
    /// The games, in schedule order.
    #[schema(value_type = Vec<GameResult>)]
    pub games: Vec<&'a GameResult>,
    /// Done.
    pub ok: True,
}

/// `GET /api/v1/tournaments/{id}/games?offset=&limit=`: the games in
/// schedule order.
#[utoipa::path(
    get,
    path = "/api/v1/tournaments/{id}/games",
    tag = "tournaments",
    summary = "A tournament's games, in schedule order",
    params(("id" = i64, Path, description = "Tournament number.", minimum = 1), GamesQuery),
    responses(
        (status = 200, description = "The games.", body = TournamentGames),
        (status = 400, description = "`usage`: a bad offset or limit.", body = ErrorBody),
        (status = 404, description = "`not_found`: no such tournament.", body = ErrorBody),
    )
)]
pub(crate) async fn games_api(
    State(web): State<Web>,
    Path(id): Path<String>,
    q: Result<Query<GamesQuery>, QueryRejection>,
) -> Result<Response, ApiError> {
    let q = query(q)?;
    let limit = q.limit.unwrap_or(100);
    if !(1..=MAX_GAMES_PAGE).contains(&limit) {
        return Err(ApiError::bad_request(t!(current(), "limit-range", max = MAX_GAMES_PAGE.to_string())));
    }
    let offset = q.offset.unwrap_or(0);
    let r = results(&web, tournament_id(&id)?).await?;
    let games: Vec<&GameResult> = r.report.games.iter().skip(offset).take(limit).collect();
    let page = TournamentGames { tournament: r.row.id, total: r.report.games.len(), offset, games, ok: True };
    Ok(Json(page).into_response())
}

// ---------------------------------------------------------------- pages

fn page_error(e: ApiError) -> PageError {
    PageError::new(e.status, e.message)
}

/// `/tournaments`.
async fn list_page(
    State(web): State<Web>,
    client: ClientAddress,
    headers: HeaderMap,
) -> Result<Response, PageError> {
    let login = visitor(&web, client, &headers).await?;
    let tournaments = list(&web, MAX_TOURNAMENTS).await.map_err(page_error)?;
    let html =
        render("tournaments.html", context! { base => base(&web, login.as_ref()).await?, tournaments })?;
    Ok(page(StatusCode::OK, html))
}

/// A share as a percentage with one decimal, in the request's language
/// (`62.5%`, `62,5 %`).
fn percent(x: f64) -> String {
    tabula_i18n::format_percent(current(), x, 1)
}

/// A game's title in the request's language.
fn game_title(kind: &str) -> String {
    let lang = current();
    tabula_games::find(kind).map_or_else(|| t!(lang, "unknown-game"), |k| k.info().title(lang).to_string())
}

/// `text` with every file path cut to its file's name: a bot's command
/// (`python3 /srv/bots/mine.py`) and its error output name files of the
/// machine that ran the tournament, which are nobody else's business.
/// A path is a word that starts with `/`, `~` or `.` and holds a `/`, or
/// holds two `/` or more.
pub fn hide_paths(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut word = String::new();
    let flush = |word: &mut String, out: &mut String| {
        let slashes = word.matches('/').count();
        let pathlike = slashes >= 2 || (slashes == 1 && word.starts_with(['/', '~', '.']));
        match word.rsplit('/').next() {
            Some(last) if pathlike && !last.is_empty() && !word.contains("://") => out.push_str(last),
            _ => out.push_str(word),
        }
        word.clear();
    };
    for c in text.chars() {
        if c.is_whitespace() || matches!(c, '"' | '\'' | '(' | ')' | ',' | '=') {
            flush(&mut word, &mut out);
            out.push(c);
        } else {
            word.push(c);
        }
    }
    flush(&mut word, &mut out);
    out
}

fn short(name: &str, width: usize) -> String {
    if name.chars().count() <= width {
        return name.to_string();
    }
    let kept: String = name.chars().take(width.saturating_sub(1)).collect();
    format!("{kept}…")
}

#[derive(Serialize)]
struct StandingRow {
    rank: usize,
    name: String,
    games: u64,
    wins: u64,
    losses: u64,
    draws: u64,
    win_rate: String,
    interval: String,
    rating: String,
    failures: u64,
}

#[derive(Serialize)]
struct MatrixCell {
    text: String,
    title: String,
    style: String,
    own: bool,
}

#[derive(Serialize)]
struct MatrixRow {
    rank: usize,
    name: String,
    cells: Vec<MatrixCell>,
}

#[derive(Serialize)]
struct FailureLog {
    bot: String,
    message: String,
    stderr: String,
}

#[derive(Serialize)]
struct GameLine {
    index: usize,
    /// What the failed bots said: message and the end of their error output.
    logs: Vec<FailureLog>,
    seats: Vec<String>,
    winner: Option<String>,
    scores: String,
    reason: String,
    failed: bool,
    moves: usize,
}

fn standing_rows(report: &TournamentReport) -> Vec<StandingRow> {
    report
        .bots
        .iter()
        .enumerate()
        .map(|(i, b)| StandingRow {
            rank: i + 1,
            name: b.name.clone(),
            games: b.games,
            wins: b.wins,
            losses: b.losses,
            draws: b.draws,
            win_rate: percent(b.win_rate),
            interval: format!("{} – {}", percent(b.ci95[0]), percent(b.ci95[1])),
            rating: format!("{:.0}", b.rating),
            failures: b.failures,
        })
        .collect()
}

/// The head-to-head matrix in standings order, each cell shaded from red
/// (the row's bot lost every game against the column's) to green.
fn matrix_rows(report: &TournamentReport) -> Vec<MatrixRow> {
    let lang = current();
    let order: Vec<usize> = report.bots.iter().map(|b| b.index).collect();
    let name = |i: usize| report.names.get(i).cloned().unwrap_or_default();
    order
        .iter()
        .enumerate()
        .map(|(rank, &i)| MatrixRow {
            rank: rank + 1,
            name: name(i),
            cells: order
                .iter()
                .map(|&j| {
                    let c = report.head_to_head.get(i).and_then(|r| r.get(j)).copied().unwrap_or_default();
                    let games = c.wins + c.losses + c.draws;
                    if i == j || games == 0 {
                        return MatrixCell {
                            text: if i == j { "·".into() } else { String::new() },
                            title: String::new(),
                            style: String::new(),
                            own: i == j,
                        };
                    }
                    let score = (c.wins as f64 + c.draws as f64 / 2.0) / games as f64;
                    MatrixCell {
                        text: format!("{}-{}-{}", c.wins, c.losses, c.draws),
                        title: t!(
                            lang,
                            "tournament-cell",
                            row = name(i),
                            column = name(j),
                            won = c.wins,
                            lost = c.losses,
                            drawn = c.draws
                        ),
                        style: format!("background: hsl({:.0}, 65%, 88%)", 130.0 * score),
                        own: false,
                    }
                })
                .collect(),
        })
        .collect()
}

fn game_lines(report: &TournamentReport, limit: usize) -> Vec<GameLine> {
    report
        .games
        .iter()
        .take(limit)
        .map(|g| GameLine {
            index: g.index,
            logs: g
                .failures
                .iter()
                .map(|f| FailureLog {
                    bot: f.bot.clone(),
                    // The fault's own figures may name a path (a program not found).
                    message: hide_paths(&f.describe(current())),
                    stderr: f.stderr.clone(),
                })
                .collect(),
            seats: g.seats.clone(),
            winner: g.winner.clone(),
            // A game lost by failures gives them as its reason, in the page's language.
            reason: if g.failures.is_empty() {
                g.reason.clone()
            } else {
                hide_paths(&g.failures.iter().map(|f| f.describe(current())).collect::<Vec<_>>().join("; "))
            },
            scores: g.scores.iter().map(|s| s.decimal()).collect::<Vec<_>>().join(" : "),
            failed: !g.failures.is_empty(),
            moves: g.moves,
        })
        .collect()
}

/// `/tournaments/{id}`.
async fn tournament_page(
    State(web): State<Web>,
    client: ClientAddress,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> Result<Response, PageError> {
    let login = visitor(&web, client, &headers).await?;
    let id = tournament_id(&id).map_err(page_error)?;
    let r = results(&web, id).await.map_err(page_error)?;
    let rep = &r.report;
    let title = game_title(&rep.game);
    let failures = rep.games.iter().filter(|g| !g.failures.is_empty()).count();
    let html = render(
        "tournament.html",
        context! {
            base => base(&web, login.as_ref()).await?,
            id,
            title,
            game => rep.game.clone(),
            options => rep.options.join(" "),
            seed => rep.seed,
            games_per_pair => rep.games_per_pair,
            players => rep.players,
            created => r.row.created,
            finished => r.row.finished,
            games_done => rep.games.len(),
            games_total => r.total,
            standings => standing_rows(rep),
            matrix => matrix_rows(rep),
            rating_chart => rating_chart(&rep.bots),
            win_chart => win_rate_chart(&rep.bots),
            games => game_lines(rep, PAGE_GAMES),
            more_games => rep.games.len().saturating_sub(PAGE_GAMES),
            failures,
        },
    )?;
    Ok(page(StatusCode::OK, html))
}

// ---------------------------------------------------------------- charts

/// A round step for about five ticks over `range`.
fn nice_step(range: f64) -> f64 {
    let raw = (range / 5.0).max(1e-9);
    let magnitude = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0].into_iter().map(|m| m * magnitude).find(|s| *s >= raw);
    step.unwrap_or(10.0 * magnitude)
}

const PLOT_WIDTH: f64 = 300.0;
const ROW_HEIGHT: f64 = 28.0;
const CHART_TOP: f64 = 10.0;
const CHART_BOTTOM: f64 = 30.0;
const VALUE_ROOM: f64 = 60.0;
/// Longest bot name a chart prints (longer ones are cut with `…`).
const CHART_NAME: usize = 20;
const FONT: &str = "font-family=\"system-ui, sans-serif\" font-size=\"14\"";

/// Room for the names left of a chart: as much as the longest needs.
fn label_width(bots: &[BotStanding]) -> f64 {
    let longest = bots.iter().map(|b| b.name.chars().count().min(CHART_NAME)).max().unwrap_or(4);
    (longest as f64 * 8.0 + 14.0).clamp(50.0, 180.0)
}

fn chart_open(out: &mut String, rows: usize, left: f64, label: &str) -> f64 {
    let height = CHART_TOP + ROW_HEIGHT * rows.max(1) as f64 + CHART_BOTTOM;
    let width = left + PLOT_WIDTH + VALUE_ROOM;
    let _ = write!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {width} {height}\" width=\"{width}\" \
         height=\"{height}\" role=\"img\" aria-label=\"{}\" {FONT}><title>{}</title>",
        escape(label),
        escape(label)
    );
    height
}

fn row_label(out: &mut String, row: usize, left: f64, name: &str) {
    let y = CHART_TOP + ROW_HEIGHT * (row as f64 + 0.5);
    let _ = write!(
        out,
        "<text x=\"{}\" y=\"{y}\" text-anchor=\"end\" dominant-baseline=\"middle\" fill=\"#1d2329\">{}</text>",
        left - 8.0,
        escape(&short(name, CHART_NAME))
    );
}

/// Each bot's rating as a bar from the mean (1500) on the Elo scale, in
/// standings order.
pub fn rating_chart(bots: &[BotStanding]) -> String {
    let rating = |b: &BotStanding| if b.rating.is_finite() { b.rating } else { 1500.0 };
    let lo = bots.iter().map(rating).fold(1500.0, f64::min);
    let hi = bots.iter().map(rating).fold(1500.0, f64::max);
    let step = nice_step((hi - lo).max(100.0));
    let axis_lo = ((lo - step / 4.0) / step).floor() * step;
    let axis_hi = ((hi + step / 4.0) / step).ceil() * step;
    let left = label_width(bots);
    let x = |v: f64| left + (v - axis_lo) / (axis_hi - axis_lo) * PLOT_WIDTH;
    let mut out = String::new();
    let label = t!(current(), "tournament-rating-chart");
    let height = chart_open(&mut out, bots.len(), left, &label);
    let bottom = height - CHART_BOTTOM;
    let mut tick = axis_lo;
    while tick <= axis_hi + step / 2.0 {
        let _ = write!(
            out,
            "<line x1=\"{0:.1}\" y1=\"{CHART_TOP}\" x2=\"{0:.1}\" y2=\"{bottom}\" stroke=\"#e1e5ea\"/>\
             <text x=\"{0:.1}\" y=\"{1}\" text-anchor=\"middle\" fill=\"#5b6670\">{2:.0}</text>",
            x(tick),
            bottom + 16.0,
            tick
        );
        tick += step;
    }
    for (row, b) in bots.iter().enumerate() {
        row_label(&mut out, row, left, &b.name);
        let (a, z) = (x(1500.0), x(rating(b)));
        let y = CHART_TOP + ROW_HEIGHT * row as f64 + ROW_HEIGHT * 0.2;
        let colour = if rating(b) >= 1500.0 { "#1f7a4d" } else { "#b5523b" };
        let _ = write!(
            out,
            "<rect x=\"{:.1}\" y=\"{y:.1}\" width=\"{:.1}\" height=\"{:.1}\" fill=\"{colour}\" rx=\"2\"/>\
             <text x=\"{:.1}\" y=\"{:.1}\" dominant-baseline=\"middle\" fill=\"#1d2329\">{:.0}</text>",
            a.min(z),
            (z - a).abs().max(1.0),
            ROW_HEIGHT * 0.6,
            a.max(z) + 6.0,
            y + ROW_HEIGHT * 0.3,
            rating(b)
        );
    }
    let _ = write!(
        out,
        "<line x1=\"{0:.1}\" y1=\"{CHART_TOP}\" x2=\"{0:.1}\" y2=\"{bottom}\" stroke=\"#5b6670\"/></svg>",
        x(1500.0)
    );
    out
}

/// Each bot's win rate as a dot on its 95% interval, from 0 to 100%.
pub fn win_rate_chart(bots: &[BotStanding]) -> String {
    let left = label_width(bots);
    let x = |v: f64| left + v.clamp(0.0, 1.0) * PLOT_WIDTH;
    let mut out = String::new();
    let label = t!(current(), "tournament-win-chart");
    let height = chart_open(&mut out, bots.len(), left, &label);
    let bottom = height - CHART_BOTTOM;
    for tenth in 0..=10 {
        let v = f64::from(tenth) / 10.0;
        let stroke = if tenth == 5 { "#9aa4ad" } else { "#e1e5ea" };
        let _ = write!(
            out,
            "<line x1=\"{0:.1}\" y1=\"{CHART_TOP}\" x2=\"{0:.1}\" y2=\"{bottom}\" stroke=\"{stroke}\"/>",
            x(v)
        );
        if tenth % 2 == 0 {
            let _ = write!(
                out,
                "<text x=\"{:.1}\" y=\"{}\" text-anchor=\"middle\" fill=\"#5b6670\">{}</text>",
                x(v),
                bottom + 16.0,
                tabula_i18n::format_percent(current(), f64::from(tenth) / 10.0, 0)
            );
        }
    }
    for (row, b) in bots.iter().enumerate() {
        row_label(&mut out, row, left, &b.name);
        let y = CHART_TOP + ROW_HEIGHT * (row as f64 + 0.5);
        let (lo, hi) = (x(b.ci95[0]), x(b.ci95[1]));
        let _ = write!(
            out,
            "<line x1=\"{lo:.1}\" y1=\"{y:.1}\" x2=\"{hi:.1}\" y2=\"{y:.1}\" stroke=\"#1f6f9f\" stroke-width=\"2\"/>\
             <line x1=\"{lo:.1}\" y1=\"{:.1}\" x2=\"{lo:.1}\" y2=\"{:.1}\" stroke=\"#1f6f9f\" stroke-width=\"2\"/>\
             <line x1=\"{hi:.1}\" y1=\"{:.1}\" x2=\"{hi:.1}\" y2=\"{:.1}\" stroke=\"#1f6f9f\" stroke-width=\"2\"/>\
             <circle cx=\"{:.1}\" cy=\"{y:.1}\" r=\"5\" fill=\"#1f6f9f\"/>\
             <text x=\"{:.1}\" y=\"{y:.1}\" dominant-baseline=\"middle\" fill=\"#1d2329\">{}</text>",
            y - 5.0,
            y + 5.0,
            y - 5.0,
            y + 5.0,
            x(b.win_rate),
            hi + 6.0,
            percent(b.win_rate)
        );
    }
    out.push_str("</svg>");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scheduled_games_count_every_combination() {
        assert_eq!(scheduled_games(3, 2, 10), 30);
        assert_eq!(scheduled_games(4, 3, 2), 8);
        assert_eq!(scheduled_games(2, 3, 5), 0);
    }

    #[test]
    fn paths_are_cut_to_file_names() {
        assert_eq!(hide_paths("python3 /srv/bots/mine.py --depth=3"), "python3 mine.py --depth=3");
        assert_eq!(hide_paths("./bots/x.sh"), "x.sh");
        assert_eq!(hide_paths("File \"/home/ann/bot.py\", line 3"), "File \"bot.py\", line 3");
        assert_eq!(hide_paths("greedy 1/2 won"), "greedy 1/2 won");
        assert_eq!(hide_paths("see https://example.org/a/b"), "see https://example.org/a/b");
        assert_eq!(hide_paths("a/b/c/"), "a/b/c/");
    }

    #[test]
    fn steps_are_round() {
        assert_eq!(nice_step(100.0), 20.0);
        assert_eq!(nice_step(430.0), 100.0);
        assert_eq!(nice_step(1200.0), 500.0);
    }

    #[test]
    fn charts_escape_names_and_place_bars_from_the_mean() {
        let bot = |name: &str, rating: f64, win_rate: f64| BotStanding {
            name: name.into(),
            index: 0,
            games: 10,
            wins: 5,
            losses: 5,
            draws: 0,
            win_rate,
            ci95: [win_rate - 0.2, win_rate + 0.2],
            rating,
            failures: 0,
        };
        let bots = [bot("mcts", 1700.0, 0.8), bot("<b>", 1300.0, 0.2)];
        let svg = rating_chart(&bots);
        assert!(svg.contains("&lt;b&gt;") && !svg.contains("<b>"), "{svg}");
        assert!(svg.contains(">1700</text>") && svg.contains(">1300</text>"), "{svg}");
        assert!(svg.contains("fill=\"#1f7a4d\"") && svg.contains("fill=\"#b5523b\""));
        let svg = win_rate_chart(&bots);
        assert!(svg.contains(">80.0%</text>") && svg.contains(">20.0%</text>"), "{svg}");
    }
}
