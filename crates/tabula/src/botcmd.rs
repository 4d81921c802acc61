//! `tabula bot ..`: bot accounts' programs.
//!
//! - `tabula bot connect URL --token TOKEN -- COMMAND [ARGS..]` runs a
//!   protocol-v1 program on this machine for a bot account of the server
//!   at URL (http, or https with the built-in roots or `--ca FILE`): it follows the account's event stream
//!   (`GET /api/v1/bot/events`), runs one process of the program per game
//!   (confined and held to its deadlines as the tournament referee does),
//!   hands it the protocol lines the stream carries, and sends its answers
//!   as moves (`POST /api/v1/commands`). After a network error or a
//!   restart of the server it connects again, waiting longer each time
//!   (1 s, 2 s, 4 s .. 30 s), and goes on with the games in progress.
//! - `tabula bot add USERID -- COMMAND ..`, `tabula bot list` and `tabula
//!   bot remove USERID`: the programs the server runs itself for bot
//!   accounts (hosted bots), kept in its database.

use std::io::Write;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context, Result, anyhow, bail};
use clap::Parser;
use http_body_util::{BodyExt, Full};
use hyper::body::Bytes;
use serde_json::{Value, json};
use tabula_bots::protocol::Message;
use tabula_i18n::t;

use crate::botplay::{Games, Refusal, Sender};
use crate::cli::Global;
use crate::help::lang;

/// The words after `tabula bot` that are this module's (the others, `on`
/// and `off`, are the command language's).
pub const WORDS: &[&str] = &["connect", "add", "list", "remove"];

/// `tabula bot connect`.
#[derive(Parser, Debug)]
#[command(
    name = "tabula bot connect",
    about = "Play a bot account's games on a Tabula server with a program on this machine",
    after_help = "The program speaks the bot protocol, version 1 (docs/bot-protocol.md), as in a tournament; one \
process of it plays each game. Make the account a bot with `bot on USERID PASSWORD` and a token with \
POST /api/v1/tokens. Over https the server's certificate must be valid for HOST and signed by an \
authority of the built-in roots (Mozilla's list), or of --ca FILE for a private authority; an untrusted \
certificate ends the command. The token comes from --token-file FILE, else the environment variable \
TABULA_BOT_TOKEN, else --token (which every user of the machine can read in the process list). \
Examples:\n  tabula bot connect http://127.0.0.1:8080 --token T -- python3 examples/bots/center.py\n  \
tabula bot connect https://play.example.org --token-file ~/.mybot-token -- ./mybot\n  tabula bot \
connect https://tabula.internal:8443 --ca internal-ca.pem --token-file token -- ./mybot"
)]
struct ConnectArgs {
    /// The server: http://HOST[:PORT] or https://HOST[:PORT], with the path
    /// it is served under, if any
    url: String,
    /// The bot account's API token (shown to every user of this machine in
    /// the process list: prefer --token-file or TABULA_BOT_TOKEN)
    #[arg(long, conflicts_with = "token_file")]
    token: Option<String>,
    /// Read the bot account's API token from FILE (its first line)
    #[arg(long, value_name = "FILE")]
    token_file: Option<std::path::PathBuf>,
    /// Over https, trust only the certificate authorities in FILE (PEM) for
    /// the server's certificate, instead of the built-in roots: for a
    /// server whose certificate comes from a private authority
    #[arg(long, value_name = "FILE")]
    ca: Option<std::path::PathBuf>,
    /// Accept challenges (those that wait for acceptance) of this game only;
    /// repeat for several (default: every game)
    #[arg(long = "game", value_name = "KIND")]
    games: Vec<String>,
    /// When run as root: the user the program runs as
    #[arg(long, value_name = "USER")]
    bot_user: Option<String>,
    /// The program and its arguments (after `--`)
    #[arg(required = true, num_args = 1.., value_name = "COMMAND")]
    command: Vec<String>,
}

/// `tabula bot add`.
#[derive(Parser, Debug)]
#[command(
    name = "tabula bot add",
    about = "Have the server run a program for a bot account's games (a hosted bot)",
    after_help = "`tabula serve` on this database runs the program (protocol v1) for the account's games, one \
process a game, confined and held to the same deadlines as the tournament referee's bots. The account \
becomes a bot account if it was not one. Example:\n  tabula bot add centrebot -- python3 /srv/bots/center.py"
)]
struct AddArgs {
    /// The bot account
    user: String,
    /// The program and its arguments (after `--`)
    #[arg(required = true, num_args = 1.., value_name = "COMMAND")]
    command: Vec<String>,
}

/// `tabula bot remove`.
#[derive(Parser, Debug)]
#[command(
    name = "tabula bot remove",
    about = "Stop running a program for a bot account (it stays a bot, and may connect from elsewhere)"
)]
struct RemoveArgs {
    /// The bot account
    user: String,
}

/// `tabula bot list`.
#[derive(Parser, Debug)]
#[command(name = "tabula bot list", about = "The bot accounts, and the programs the server runs for them")]
struct ListArgs {}

/// The parsers of `tabula bot WORD`, with their paths (see [`crate::help`]).
#[cfg(test)]
pub(crate) fn parsers() -> Vec<(&'static str, clap::Command)> {
    use clap::CommandFactory;
    vec![
        ("tabula-bot-connect", ConnectArgs::command()),
        ("tabula-bot-add", AddArgs::command()),
        ("tabula-bot-remove", RemoveArgs::command()),
        ("tabula-bot-list", ListArgs::command()),
    ]
}

/// `tabula bot WORD ..` for a word of [`WORDS`]: `words` are everything
/// after `bot`, `--` and the program included.
pub fn run(global: Global, words: Vec<String>) -> Result<ExitCode> {
    let (before, program) = match words.iter().position(|w| w == "--") {
        Some(i) => (words[..i].to_vec(), words[i + 1..].to_vec()),
        None => (words, Vec::new()),
    };
    let (global, before) = match crate::cli::split_globals(global, before) {
        Ok(split) => split,
        Err(e) => return Ok(crate::cli::clap_exit(e)),
    };
    let lang = global.lang();
    let (word, rest) = before.split_first().map(|(w, r)| (w.as_str(), r)).unwrap_or(("", &[]));
    let mut args: Vec<String> = rest.to_vec();
    if !program.is_empty() {
        args.push("--".into());
        args.extend(program);
    }
    let name = format!("tabula bot {word}");
    let argv = || std::iter::once(name.clone()).chain(args.iter().cloned());
    let parsed = |e: clap::Error| Ok(crate::cli::clap_exit(e));
    match word {
        "connect" => match crate::help::parse::<ConnectArgs>(argv(), "tabula-bot-connect", lang) {
            Ok(a) => connect(a),
            Err(e) => parsed(e),
        },
        "add" => match crate::help::parse::<AddArgs>(argv(), "tabula-bot-add", lang) {
            Ok(a) => host(&global, &a.user, Some(a.command)),
            Err(e) => parsed(e),
        },
        "remove" => match crate::help::parse::<RemoveArgs>(argv(), "tabula-bot-remove", lang) {
            Ok(a) => host(&global, &a.user, None),
            Err(e) => parsed(e),
        },
        _ => match crate::help::parse::<ListArgs>(argv(), "tabula-bot-list", lang) {
            Ok(_) => list(&global),
            Err(e) => parsed(e),
        },
    }
}

fn host(global: &Global, user: &str, command: Option<Vec<String>>) -> Result<ExitCode> {
    crate::cli::run_one_command(async {
        let service = crate::cli::open_one_command_service(global).await?;
        let id = tabula_service::users::canonical_user_id(user).map_err(|m| anyhow!(m))?;
        match service.host_bot(&id, command.as_deref()).await {
            Ok(()) => {
                match &command {
                    Some(c) => println!(
                        "{}",
                        t!(lang(), "bot-hosted-set", command = c.join(" "), user = id.as_str())
                    ),
                    None => println!("{}", t!(lang(), "bot-hosted-removed", user = id.as_str())),
                }
                Ok(ExitCode::SUCCESS)
            }
            Err(e) => {
                eprintln!("tabula: {}", e.message);
                Ok(ExitCode::from(1))
            }
        }
    })
}

fn list(global: &Global) -> Result<ExitCode> {
    crate::cli::run_one_command(async {
        let service = crate::cli::open_one_command_service(global).await?;
        let bots = service.bot_accounts().await?;
        let now = service.now();
        let mut out = std::io::stdout().lock();
        if global.json {
            let rows: Vec<Value> = bots
                .iter()
                .map(|b| json!({"user": b.user_id, "since": b.since, "hosted": b.argv(), "host": b.host_at(now)}))
                .collect();
            writeln!(out, "{}", serde_json::to_string_pretty(&rows)?)?;
        } else if bots.is_empty() {
            writeln!(out, "{}", t!(lang(), "bot-list-empty"))?;
        } else {
            for b in &bots {
                match b.argv() {
                    Some(argv) => {
                        let host = match b.host_at(now) {
                            Some(host) => t!(lang(), "bot-list-run-by", host = host),
                            None => t!(lang(), "bot-list-not-run"),
                        };
                        let hosted = t!(lang(), "bot-list-hosted", command = argv.join(" "));
                        writeln!(out, "{:<20} {hosted} {host}", b.user_id)?
                    }
                    None => writeln!(out, "{:<20} {}", b.user_id, t!(lang(), "bot-list-remote"))?,
                }
            }
        }
        Ok(ExitCode::SUCCESS)
    })
}

/// The environment variable holding the bot's token when neither
/// `--token` nor `--token-file` is given.
const TOKEN_VARIABLE: &str = "TABULA_BOT_TOKEN";

/// The longest wait between two attempts to reach the server.
const MAX_BACKOFF: Duration = Duration::from_secs(30);
/// The longest event accepted from the server.
const MAX_EVENT: usize = 8 * 1024 * 1024;

/// The server at the other end: its address, how to secure the
/// connection, and the bot's token.
#[derive(Clone)]
struct Api {
    /// HOST:PORT, as connected to and sent in `Host`.
    authority: String,
    prefix: String,
    token: String,
    /// For https: the TLS client and the name the certificate must carry.
    tls: Option<(tokio_rustls::TlsConnector, rustls::pki_types::ServerName<'static>)>,
}

/// Why a request failed.
#[derive(Debug)]
enum Failed {
    /// No answer: the network, or the server is down (try again).
    Network(String),
    /// The server's certificate is not trusted, or the TLS handshake failed.
    Tls(String),
    /// The server answered with an error.
    Refused { status: u16, code: String, message: String },
}

impl std::fmt::Display for Failed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Failed::Network(e) | Failed::Tls(e) => write!(f, "{e}"),
            Failed::Refused { status, message, .. } => write!(f, "{message} (HTTP {status})"),
        }
    }
}

/// A connection to the server, plain or TLS.
trait Connection: tokio::io::AsyncRead + tokio::io::AsyncWrite + Unpin + Send {}
impl<T: tokio::io::AsyncRead + tokio::io::AsyncWrite + Unpin + Send> Connection for T {}

impl Api {
    /// The server at `url`; `ca`: the authorities (PEM) trusted for an
    /// https server instead of the built-in roots.
    fn new(url: &str, token: &str, ca: Option<&std::path::Path>) -> Result<Api> {
        let (https, rest) = if let Some(rest) = url.strip_prefix("https://") {
            (true, rest)
        } else if let Some(rest) = url.strip_prefix("http://") {
            (false, rest)
        } else {
            bail!(t!(lang(), "bot-url-scheme"));
        };
        let (authority, path) = rest.split_once('/').unwrap_or((rest, ""));
        let host = match authority.strip_prefix('[') {
            Some(v6) => v6.split_once(']').map(|(h, _)| h),
            None => Some(authority.rsplit_once(':').map_or(authority, |(h, _)| h)),
        };
        let host = match host {
            Some(h) if !h.is_empty() && !authority.contains('@') && !authority.contains('?') => h,
            _ => bail!(t!(lang(), "bot-url-bad", url = format!("{url:?}"))),
        };
        let has_port = authority.rsplit_once(':').is_some_and(|(_, p)| !p.ends_with(']'));
        let authority = if has_port {
            authority.to_string()
        } else {
            format!("{authority}:{}", if https { 443 } else { 80 })
        };
        let prefix = format!("/{}", path.trim_end_matches('/')).trim_end_matches('/').to_string();
        if token.trim().is_empty() {
            bail!(t!(lang(), "bot-token-empty"));
        }
        let tls = match (https, ca) {
            (false, Some(_)) => bail!(t!(lang(), "bot-ca-plain", url = url)),
            (false, None) => None,
            (true, ca) => {
                let name = rustls::pki_types::ServerName::try_from(host.to_string())
                    .map_err(|_| anyhow!(t!(lang(), "bot-bad-host", host = format!("{host:?}"))))?;
                Some((tls_client(ca)?, name))
            }
        };
        Ok(Api { authority, prefix, token: token.trim().to_string(), tls })
    }

    async fn send(
        &self,
        method: hyper::Method,
        path: &str,
        body: Option<Value>,
    ) -> Result<hyper::Response<hyper::body::Incoming>, Failed> {
        let net = |e: &dyn std::fmt::Display| Failed::Network(format!("{}: {e}", self.authority));
        let stream =
            tokio::time::timeout(Duration::from_secs(10), tokio::net::TcpStream::connect(&self.authority))
                .await
                .map_err(|_| net(&t!(lang(), "bot-no-connection", seconds = 10)))?
                .map_err(|e| net(&e))?;
        let stream: Box<dyn Connection> = match &self.tls {
            None => Box::new(stream),
            Some((connector, name)) => {
                let handshake = connector.connect(name.clone(), stream);
                match tokio::time::timeout(Duration::from_secs(10), handshake).await {
                    Err(_) => return Err(net(&t!(lang(), "bot-no-handshake", seconds = 10))),
                    Ok(Ok(tls)) => Box::new(tls),
                    Ok(Err(e)) => return Err(tls_failure(&self.authority, e)),
                }
            }
        };
        let (mut sender, connection) =
            hyper::client::conn::http1::handshake(hyper_util::rt::TokioIo::new(stream))
                .await
                .map_err(|e| net(&e))?;
        tokio::spawn(async move {
            let _ = connection.await;
        });
        let request = hyper::Request::builder()
            .method(method)
            .uri(format!("{}{path}", self.prefix))
            .header(hyper::header::HOST, &self.authority)
            .header(hyper::header::AUTHORIZATION, format!("Bearer {}", self.token))
            .header(hyper::header::CONTENT_TYPE, "application/json")
            .body(Full::new(Bytes::from(body.map(|b| b.to_string()).unwrap_or_default())))
            .map_err(|e| net(&e))?;
        let response = sender.send_request(request).await.map_err(|e| net(&e))?;
        if response.status().is_success() {
            return Ok(response);
        }
        let status = response.status().as_u16();
        let body = tokio::time::timeout(Duration::from_secs(30), response.into_body().collect())
            .await
            .map_err(|_| net(&t!(lang(), "bot-no-answer", seconds = 30)))?
            .map_err(|e| net(&e))?
            .to_bytes();
        let error: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
        Err(Failed::Refused {
            status,
            code: error["error"]["code"].as_str().unwrap_or("").to_string(),
            message: error["error"]["message"]
                .as_str()
                .map_or_else(|| String::from_utf8_lossy(&body).chars().take(200).collect(), str::to_string),
        })
    }

    /// A JSON request's answer.
    async fn json(&self, method: hyper::Method, path: &str, body: Option<Value>) -> Result<Value, Failed> {
        let response = self.send(method, path, body).await?;
        let body = tokio::time::timeout(Duration::from_secs(60), response.into_body().collect())
            .await
            .map_err(|_| Failed::Network(t!(lang(), "bot-no-answer", seconds = 60)))?
            .map_err(|e| Failed::Network(e.to_string()))?
            .to_bytes();
        serde_json::from_slice(&body)
            .map_err(|e| Failed::Network(t!(lang(), "bot-not-json", error = e.to_string())))
    }

    /// Run a command of the command language as the bot.
    async fn command(&self, line: &str) -> Result<Value, Failed> {
        self.json(hyper::Method::POST, "/api/v1/commands", Some(json!({ "line": line }))).await
    }
}

/// The TLS client for https servers: the built-in roots (Mozilla's list),
/// or only the certificates in the PEM file `ca`.
fn tls_client(ca: Option<&std::path::Path>) -> Result<tokio_rustls::TlsConnector> {
    use rustls::pki_types::CertificateDer;
    use rustls::pki_types::pem::PemObject;
    let mut roots = rustls::RootCertStore::empty();
    match ca {
        None => roots.extend(webpki_roots::TLS_SERVER_ROOTS.iter().cloned()),
        Some(file) => {
            let pem = std::fs::read(file)
                .with_context(|| t!(lang(), "bot-ca-reading", file = file.display().to_string()))?;
            for certificate in CertificateDer::pem_slice_iter(&pem) {
                let certificate = certificate.map_err(|e| {
                    let file = file.display().to_string();
                    anyhow!(t!(lang(), "bot-ca-not-pem", file = file, error = e.to_string()))
                })?;
                roots.add(certificate).map_err(|e| anyhow!("--ca: {}: {e}", file.display()))?;
            }
            if roots.is_empty() {
                bail!(t!(lang(), "bot-ca-no-certificate", file = file.display().to_string()));
            }
        }
    }
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let config = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .with_context(|| t!(lang(), "bot-tls-settings"))?
        .with_root_certificates(roots)
        .with_no_client_auth();
    Ok(tokio_rustls::TlsConnector::from(Arc::new(config)))
}

/// A failed TLS handshake with the server at `authority`, said plainly.
fn tls_failure(authority: &str, e: std::io::Error) -> Failed {
    match e.get_ref().and_then(|inner| inner.downcast_ref::<rustls::Error>()) {
        Some(rustls::Error::InvalidCertificate(why)) => {
            Failed::Tls(t!(lang(), "bot-untrusted", server = authority, why = why.to_string()))
        }
        Some(other) => {
            Failed::Tls(t!(lang(), "bot-handshake-failed", server = authority, error = other.to_string()))
        }
        None => Failed::Network(format!("{authority}: {e}")),
    }
}

struct Bridge {
    api: Arc<Api>,
    games: Games,
}

fn connect(args: ConnectArgs) -> Result<ExitCode> {
    for kind in &args.games {
        if tabula_games::find(kind).is_none() {
            let games = tabula_service::Service::game_words().join(", ");
            bail!(t!(lang(), "bot-no-game", game = format!("{kind:?}"), games = games));
        }
    }
    let token = match (&args.token, &args.token_file) {
        (Some(token), _) => token.clone(),
        (None, Some(file)) => {
            let text = std::fs::read_to_string(file)
                .with_context(|| t!(lang(), "bot-reading-token-file", file = file.display().to_string()))?;
            text.lines().next().unwrap_or("").to_string()
        }
        (None, None) => std::env::var(TOKEN_VARIABLE)
            .map_err(|_| anyhow!(t!(lang(), "bot-token-missing", variable = TOKEN_VARIABLE)))?,
    };
    let api = Arc::new(Api::new(&args.url, &token, args.ca.as_deref())?);
    let limits = tabula_bots::BotLimits {
        user: tabula_bots::process::BotUser::for_referee(args.bot_user.as_deref())?,
        ..Default::default()
    };
    if let Some(warning) = tabula_bots::process::containment_warning() {
        eprintln!("tabula: {warning}");
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .with_context(|| t!(lang(), "op-starting-runtime"))?;
    runtime.block_on(async move {
        let user = who_am_i(&api).await?;
        let command = args.command.join(" ");
        eprintln!(
            "tabula: {}",
            t!(lang(), "bot-playing", user = user.as_str(), url = args.url.as_str(), command = command)
        );
        let sender = command_sender(api.clone(), tokio::runtime::Handle::current());
        let games = Games::new(&user, args.command, limits, args.games, sender, |_, text| {
            eprintln!("tabula: {text}")
        });
        Bridge { api, games }.run().await
    })
}

/// Commands sent over HTTP, again and again while the server cannot be
/// reached (a move waits as long as it takes: games on the server last days).
fn command_sender(api: Arc<Api>, runtime: tokio::runtime::Handle) -> Sender {
    Arc::new(move |line: &str| {
        let mut wait = Duration::from_secs(1);
        loop {
            match runtime.block_on(api.command(line)) {
                Ok(_) => return Ok(()),
                Err(Failed::Refused { status, code, message }) if status != 503 && status != 429 => {
                    return Err(Refusal { code, message });
                }
                Err(e) => {
                    let (error, seconds) = (e.to_string(), wait.as_secs());
                    let again = t!(
                        lang(),
                        "bot-sending-again",
                        error = error,
                        command = masked(line),
                        seconds = seconds
                    );
                    eprintln!("tabula: {again}");
                    std::thread::sleep(wait);
                    wait = (wait * 2).min(MAX_BACKOFF);
                }
            }
        }
    })
}

/// A command line as printed: its words up to the move.
fn masked(line: &str) -> String {
    line.split_whitespace().take(4).collect::<Vec<_>>().join(" ")
}

/// The token's account: waits for a server that is not up yet, fails at
/// once on a refused token.
async fn who_am_i(api: &Api) -> Result<String> {
    let mut wait = Duration::from_secs(1);
    loop {
        match api.json(hyper::Method::GET, "/api/v1/me", None).await {
            Ok(v) => match v["user"].as_str() {
                Some(user) => return Ok(user.to_string()),
                None => bail!(t!(lang(), "bot-unknown-token")),
            },
            Err(Failed::Refused { message, .. }) => bail!(t!(lang(), "bot-token-refused", message = message)),
            // Not a passing fault: waiting would not make the certificate trusted.
            Err(Failed::Tls(message)) => bail!("{message}"),
            Err(e) => {
                let (error, seconds) = (e.to_string(), wait.as_secs());
                eprintln!("tabula: {}", t!(lang(), "bot-unreachable", error = error, seconds = seconds));
                tokio::time::sleep(wait).await;
                wait = (wait * 2).min(MAX_BACKOFF);
            }
        }
    }
}

impl Bridge {
    async fn run(&mut self) -> Result<ExitCode> {
        let mut wait = Duration::from_secs(1);
        loop {
            match self.follow().await {
                Ok(()) => {
                    eprintln!("tabula: {}", t!(lang(), "bot-stream-ended"));
                    wait = Duration::from_secs(1);
                }
                Err(Failed::Refused { status, code, message }) if status != 503 && status != 429 => {
                    bail!(t!(lang(), "bot-stream-refused", message = message, code = code))
                }
                Err(e) => {
                    let (error, seconds) = (e.to_string(), wait.as_secs());
                    eprintln!(
                        "tabula: {}",
                        t!(lang(), "bot-connection-lost", error = error, seconds = seconds)
                    );
                    tokio::time::sleep(wait).await;
                    wait = (wait * 2).min(MAX_BACKOFF);
                }
            }
        }
    }

    /// Follow the event stream until it ends or fails.
    async fn follow(&mut self) -> Result<(), Failed> {
        let held: Vec<String> = self.games.held().iter().map(i64::to_string).collect();
        let path = format!("/api/v1/bot/events?boards={}", held.join(","));
        let response = self.api.send(hyper::Method::GET, &path, None).await?;
        let mut body = response.into_body();
        let mut buffer: Vec<u8> = Vec::new();
        loop {
            // The server sends a comment every 15 s: a minute of silence is a dead connection.
            let frame = match tokio::time::timeout(Duration::from_secs(60), body.frame()).await {
                Err(_) => return Err(Failed::Network(t!(lang(), "bot-stream-silent"))),
                Ok(None) => return Ok(()),
                Ok(Some(Err(e))) => return Err(Failed::Network(e.to_string())),
                Ok(Some(Ok(frame))) => frame,
            };
            let Ok(data) = frame.into_data() else { continue };
            buffer.extend_from_slice(&data);
            while let Some((text_end, next)) = find_blank_line(&buffer) {
                let block: Vec<u8> = buffer.drain(..next).collect();
                self.event(&String::from_utf8_lossy(&block[..text_end]));
            }
            if buffer.len() > MAX_EVENT {
                return Err(Failed::Network(t!(lang(), "bot-event-too-long")));
            }
        }
    }

    /// One event block of the stream.
    fn event(&mut self, block: &str) {
        let mut name = String::new();
        let mut data = String::new();
        for line in block.lines() {
            if let Some(v) = line.strip_prefix("event:") {
                name = v.trim().to_string();
            } else if let Some(v) = line.strip_prefix("data:") {
                if !data.is_empty() {
                    data.push('\n');
                }
                data.push_str(v.strip_prefix(' ').unwrap_or(v));
            }
        }
        let Ok(event) = serde_json::from_str::<Value>(&data) else { return };
        let Some(board) = event["board"].as_i64() else { return };
        let kind = event["kind"].as_str().unwrap_or("");
        let version = event["version"].as_i64().unwrap_or(0);
        let message = serde_json::from_value::<Message>(event["message"].clone()).ok();
        self.games.event(&name, board, kind, version, message);
    }
}

/// The end of the first event block in `buffer`: (where its text ends,
/// where the next block begins).
fn find_blank_line(buffer: &[u8]) -> Option<(usize, usize)> {
    let lf = buffer.windows(2).position(|w| w == b"\n\n").map(|i| (i, i + 2));
    let crlf = buffer.windows(4).position(|w| w == b"\r\n\r\n").map(|i| (i, i + 4));
    match (lf, crlf) {
        (Some(a), Some(b)) => Some(if a.0 < b.0 { a } else { b }),
        (a, b) => a.or(b),
    }
}
