//! Bot accounts on the live server, through the real binary: an account
//! marked with `bot on`, its program run on the author's machine by
//! `tabula bot connect` against `tabula serve`, a person challenging it
//! through the HTTP API, and the server killed and started again in the
//! middle of the game.

mod common;
mod net;

use std::net::SocketAddr;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use common::{BIN, Tabula};
use net::{free_port, http, request};
use serde_json::{Value, json};

/// `tabula serve` on `t`'s database at `addr`, answering when this returns.
fn serve(t: &Tabula, addr: SocketAddr, log: &Path) -> Child {
    let log = std::fs::OpenOptions::new().create(true).append(true).open(log).expect("server log");
    let mut child = t
        .command(&["serve", "--listen", &addr.to_string()])
        .env("RUST_LOG", "warn")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(log)
        .spawn()
        .expect("tabula serve starts");
    let started = Instant::now();
    while !matches!(request(addr, "GET", "/healthz", &[], ""), Ok(r) if r.status == 200) {
        assert!(child.try_wait().expect("wait").is_none(), "the server exited");
        assert!(started.elapsed() < Duration::from_secs(60), "the server did not come up");
        std::thread::sleep(Duration::from_millis(20));
    }
    child
}

fn token(addr: SocketAddr, user: &str) -> String {
    let body = json!({"user": user, "password": format!("pw-{user}"), "name": "test"});
    let (status, v) = http(addr, "POST", "/api/v1/tokens", None, Some(&body)).expect("the server answers");
    assert_eq!(status, 201, "{v}");
    v["token"].as_str().expect("a token").to_string()
}

fn command(addr: SocketAddr, token: &str, line: &str) -> (u16, Value) {
    http(addr, "POST", "/api/v1/commands", Some(token), Some(&json!({ "line": line })))
        .expect("the server answers")
}

fn board(addr: SocketAddr, token: &str, id: i64) -> Value {
    let (status, v) = http(addr, "GET", &format!("/api/v1/games/{id}"), Some(token), None).expect("answers");
    assert_eq!(status, 200, "{v}");
    v["game"].clone()
}

/// Wait until `pred` holds of board `id`.
fn wait_for(
    addr: SocketAddr,
    token: &str,
    id: i64,
    what: &str,
    log: &Path,
    pred: impl Fn(&Value) -> bool,
) -> Value {
    let started = Instant::now();
    loop {
        let game = board(addr, token, id);
        if pred(&game) {
            return game;
        }
        assert!(
            started.elapsed() < Duration::from_secs(90),
            "{what} did not happen; the board: {game}\nthe bridge's log:\n{}",
            std::fs::read_to_string(log).unwrap_or_default()
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Ned plays Intervalo board `id` of `cells` cells against a bot to its
/// end, the lowest cell he may each turn, once the bot has chosen;
/// `after(turns)` runs after each of his moves. The turns played.
fn play_to_end(
    addr: SocketAddr,
    ned: &str,
    id: i64,
    cells: u32,
    log: &Path,
    mut after: impl FnMut(u32),
) -> u32 {
    let mut turns = 0;
    loop {
        // The bot has chosen: only ned is left to move (or the game is over).
        let game = wait_for(addr, ned, id, "the bot's move", log, |g| {
            g["status"] == "finished" || g["to_move"] == json!(["ned"])
        });
        if game["status"] == "finished" {
            assert!(game["outcome"]["winners"].as_array().is_some_and(|w| !w.is_empty()), "{game}");
            return turns;
        }
        let moved =
            (1..=cells).any(|cell| command(addr, ned, &format!("intervalo move {id} ned - {cell}")).0 == 200);
        assert!(moved, "ned found no cell: {game}");
        turns += 1;
        after(turns);
    }
}

struct Killed(Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[test]
fn a_remote_bot_plays_a_challenge_to_its_end_across_a_server_restart() {
    let t = Tabula::new();
    t.signup(&["ned", "centre"]);
    let out = t.ok("bot on centre pw-centre");
    assert!(out.contains("centre is a bot account now"), "{out}");
    // A token does not make an account a bot: the password does.
    t.fails("bot on ned -", 1);

    let addr = free_port();
    let server_log = t.path().join("server.log");
    let mut server = Killed(serve(&t, addr, &server_log));
    let ned = token(addr, "ned");
    let bot = token(addr, "centre");

    // Shown as a bot in the API.
    let (_, profile) = http(addr, "GET", "/api/v1/users/centre", None, None).unwrap();
    assert_eq!(profile["user"]["bot"], true, "{profile}");
    let (_, profile) = http(addr, "GET", "/api/v1/users/ned", None, None).unwrap();
    assert_eq!(profile["user"]["bot"], false, "{profile}");
    // A person's token opens no bot stream.
    let r = request(addr, "GET", "/api/v1/bot/events", &[("Authorization", &format!("Bearer {ned}"))], "")
        .unwrap();
    assert_eq!(r.status, 403, "{}", r.body);
    let r = request(
        addr,
        "GET",
        "/api/v1/bot/events?boards=x",
        &[("Authorization", &format!("Bearer {bot}"))],
        "",
    )
    .unwrap();
    assert_eq!(r.status, 400, "{}", r.body);

    let bridge_log = t.path().join("bridge.log");
    let centre = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/bots/center.py");
    let _bridge = Killed(
        Command::new(BIN)
            .args(["bot", "connect", &format!("http://{addr}"), "--token", &bot, "--", "python3", centre])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(&bridge_log).unwrap())
            .spawn()
            .expect("tabula bot connect starts"),
    );

    let (status, v) = command(addr, &ned, "intervalo challenge ned centre -cells=9");
    assert_eq!(status, 200, "{v}");
    let id = v["game"]["id"].as_i64().expect("a board");
    assert_eq!(v["game"]["bots"], json!(["centre"]), "{v}");

    let mut turns = 0;
    loop {
        // The bot has chosen: only ned is left to move (or the game is over).
        let game = wait_for(addr, &ned, id, "the bot's move", &bridge_log, |g| {
            g["status"] == "finished" || g["to_move"] == json!(["ned"])
        });
        if game["status"] == "finished" {
            break;
        }
        // Ned takes the lowest cell he may.
        let moved =
            (1..=9).any(|cell| command(addr, &ned, &format!("intervalo move {id} ned - {cell}")).0 == 200);
        assert!(moved, "ned found no cell: {game}");
        turns += 1;
        if turns == 2 {
            // The server dies between two moves and comes back on the same
            // database and port: the bridge connects again and plays on.
            let _ = server.0.kill();
            let _ = server.0.wait();
            server = Killed(serve(&t, addr, &server_log));
        }
    }
    assert!(turns >= 3, "the game had {turns} turns");
    let game = board(addr, &ned, id);
    assert!(game["outcome"]["winners"].as_array().is_some_and(|w| !w.is_empty()), "{game}");
    let log = std::fs::read_to_string(&bridge_log).unwrap();
    assert!(log.contains("connecting again"), "the bridge never lost the server:\n{log}");
    let started = Instant::now();
    while !std::fs::read_to_string(&bridge_log).unwrap().contains(&format!("board {id} is over")) {
        assert!(started.elapsed() < Duration::from_secs(30), "the bridge never heard of the end");
        std::thread::sleep(Duration::from_millis(50));
    }
    // No move of the bot's was refused, and it never resigned.
    let log = std::fs::read_to_string(&bridge_log).unwrap();
    assert!(!log.contains("refused") && !log.contains("resigning"), "{log}");

    // The game counts on the ladder, the bot's rating beside the person's.
    let (status, ladder) = http(addr, "GET", "/api/v1/kinds/intervalo/ladder", None, None).unwrap();
    assert_eq!(status, 200, "{ladder}");
    let rows = ladder["ladder"].as_array().expect("rows");
    assert_eq!(rows.len(), 2, "{ladder}");
    let winner = game["outcome"]["winners"].as_array().unwrap().clone();
    for row in rows {
        let won = winner.contains(&row["user"]) && winner.len() == 1;
        let rating = row["rating"].as_f64().unwrap();
        assert!(if won { rating > 1500.0 } else { rating <= 1500.0 }, "{ladder}");
        assert!(row["deviation"].as_f64().unwrap() < 350.0, "{ladder}");
        assert_eq!(row["bot"], row["user"] == "centre", "{ladder}");
    }
    let page = request(addr, "GET", "/ladder/intervalo", &[], "").unwrap();
    assert_eq!(page.status, 200);
    assert!(page.body.contains("Intervalo ladder") && page.body.contains("/users/centre"), "{}", page.body);
    let (status, _) = http(addr, "GET", "/api/v1/kinds/nosuch/ladder", None, None).unwrap();
    assert_eq!(status, 404);
    let (status, _) = http(addr, "GET", "/api/v1/kinds/intervalo/ladder?limit=0", None, None).unwrap();
    assert_eq!(status, 400);
    assert!(t.ok("intervalo ratings").contains("Glicko-2"));

    // `bot off` makes it a person's account again.
    t.ok("bot off centre pw-centre");
    let (_, profile) = http(addr, "GET", "/api/v1/users/centre", None, None).unwrap();
    assert_eq!(profile["user"]["bot"], false, "{profile}");
}

#[test]
fn a_hosted_bot_plays_its_accounts_games_in_the_server() {
    let t = Tabula::new();
    t.signup(&["ned", "hostbot"]);
    let centre = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/bots/center.py");
    let run = |words: &[&str]| t.command(words).output().expect("tabula runs");
    // Bad input changes nothing.
    let out = run(&["bot", "add", "nosuch", "--", "python3", centre]);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("there is no user nosuch"), "{out:?}");
    let out = run(&["bot", "add", "hostbot"]);
    assert_eq!(out.status.code(), Some(2), "a command is required: {out:?}");
    let out = run(&["bot", "remove", "hostbot"]);
    assert_eq!(out.status.code(), Some(1), "not a bot yet: {out:?}");
    assert!(t.ok("bot list").contains("No bot accounts."));

    let out = run(&["bot", "add", "hostbot", "--", "python3", centre]);
    assert!(out.status.success(), "{out:?}");
    let list = t.ok("bot list");
    assert!(list.contains("hostbot") && list.contains(&format!("hosted: python3 {centre}")), "{list}");

    let addr = free_port();
    let server_log = t.path().join("server.log");
    let _server = Killed(serve(&t, addr, &server_log));
    let ned = token(addr, "ned");
    let (_, profile) = http(addr, "GET", "/api/v1/users/hostbot", None, None).unwrap();
    assert_eq!(
        (profile["user"]["bot"].clone(), profile["user"]["hosted"].clone()),
        (json!(true), json!(true))
    );
    // Its program is the server's: no stream for another.
    let bot = token(addr, "hostbot");
    let r = request(addr, "GET", "/api/v1/bot/events", &[("Authorization", &format!("Bearer {bot}"))], "")
        .unwrap();
    assert_eq!(r.status, 409, "{}", r.body);

    let (status, v) = command(addr, &ned, "intervalo challenge ned hostbot -cells=7");
    assert_eq!(status, 200, "{v}");
    let id = v["game"]["id"].as_i64().expect("a board");
    let turns = play_to_end(addr, &ned, id, 7, &server_log, |_| {});
    assert!(turns >= 2, "the game had {turns} turns");

    t.ok("bot remove hostbot");
    assert!(t.ok("bot list").contains("remote"), "still a bot, played from elsewhere");
}

/// A TLS-terminating proxy on loopback in front of `backend`, showing
/// `cert`: what an operator puts before `tabula serve` (a web server or a
/// load balancer that holds the certificate). Stopped when dropped.
struct TlsProxy {
    addr: SocketAddr,
    _runtime: tokio::runtime::Runtime,
}

impl TlsProxy {
    fn start(backend: SocketAddr, cert: &common::tls::ServerCert) -> TlsProxy {
        use rustls::pki_types::pem::PemObject;
        use rustls::pki_types::{CertificateDer, PrivateKeyDer};
        let chain: Vec<CertificateDer<'static>> = CertificateDer::pem_slice_iter(cert.cert_pem.as_bytes())
            .collect::<Result<_, _>>()
            .expect("the certificate");
        let key = PrivateKeyDer::from_pem_slice(cert.key_pem.as_bytes()).expect("the key");
        let provider = std::sync::Arc::new(rustls::crypto::ring::default_provider());
        let config = rustls::ServerConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()
            .unwrap()
            .with_no_client_auth()
            .with_single_cert(chain, key)
            .expect("a TLS server configuration");
        let acceptor = tokio_rustls::TlsAcceptor::from(std::sync::Arc::new(config));
        let runtime =
            tokio::runtime::Builder::new_multi_thread().worker_threads(1).enable_all().build().unwrap();
        let listener = runtime.block_on(tokio::net::TcpListener::bind("127.0.0.1:0")).expect("a port");
        let addr = listener.local_addr().unwrap();
        runtime.spawn(async move {
            while let Ok((client, _)) = listener.accept().await {
                let acceptor = acceptor.clone();
                tokio::spawn(async move {
                    // A client that does not trust the certificate ends the handshake here.
                    let Ok(mut client) = acceptor.accept(client).await else { return };
                    let Ok(mut server) = tokio::net::TcpStream::connect(backend).await else { return };
                    let _ = tokio::io::copy_bidirectional(&mut client, &mut server).await;
                });
            }
        });
        TlsProxy { addr, _runtime: runtime }
    }
}

/// `tabula bot connect` with `args` that must fail by itself within a
/// minute: its exit code and standard error.
fn connect_fails(args: &[&str]) -> (Option<i32>, String) {
    let mut child = Command::new(BIN)
        .args(["bot", "connect"])
        .args(args)
        .env_remove("TABULA_BOT_TOKEN")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("tabula bot connect starts");
    let started = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if started.elapsed() > Duration::from_secs(60) {
            let _ = child.kill();
            let out = child.wait_with_output().unwrap();
            panic!("`bot connect {args:?}` did not stop: {}", String::from_utf8_lossy(&out.stderr));
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let out = child.wait_with_output().unwrap();
    (out.status.code(), String::from_utf8_lossy(&out.stderr).into_owned())
}

#[test]
fn a_remote_bot_plays_over_https_with_a_private_authority_and_refuses_an_untrusted_server() {
    let t = Tabula::new();
    t.signup(&["ned", "centre"]);
    t.ok("bot on centre pw-centre");
    let addr = free_port();
    let server_log = t.path().join("server.log");
    let _server = Killed(serve(&t, addr, &server_log));
    let ned = token(addr, "ned");
    let bot = token(addr, "centre");

    let ca = common::tls::TestCa::new("Tabula bot test CA");
    let proxy = TlsProxy::start(addr, &ca.server(&["127.0.0.1", "localhost"]));
    let ca_file = t.path().join("ca.pem");
    std::fs::write(&ca_file, ca.cert_pem()).unwrap();
    let other_file = t.path().join("other-ca.pem");
    std::fs::write(&other_file, common::tls::TestCa::new("Another CA").cert_pem()).unwrap();
    let https = format!("https://127.0.0.1:{}", proxy.addr.port());
    let centre = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/bots/center.py");

    // Not trusted: the built-in roots, or another authority. The command
    // stops at once and says why; the token never crossed the connection.
    for ca in [None, Some(&other_file)] {
        let mut args = vec![https.as_str(), "--token", &bot];
        if let Some(file) = ca {
            args.extend(["--ca", file.to_str().unwrap()]);
        }
        args.extend(["--", "python3", centre]);
        let (code, err) = connect_fails(&args);
        assert_eq!(code, Some(1), "{err}");
        assert!(err.contains("certificate is not trusted") && err.contains("--ca FILE"), "{ca:?}: {err}");
    }
    // Bad options are refused before anything is tried.
    let (code, err) = connect_fails(&[
        &format!("http://{addr}"),
        "--token",
        &bot,
        "--ca",
        ca_file.to_str().unwrap(),
        "--",
        "python3",
        centre,
    ]);
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("--ca is for https://"), "{err}");
    let (code, err) = connect_fails(&[
        &https,
        "--token",
        &bot,
        "--ca",
        other_file.parent().unwrap().to_str().unwrap(),
        "--",
        "x",
    ]);
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("--ca: reading"), "{err}");

    let (code, err) = connect_fails(&[&https, "--ca", ca_file.to_str().unwrap(), "--", "x"]);
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("the bot's token is missing: --token-file FILE"), "{err}");

    // Trusted through --ca: the bot plays a whole game over https, its
    // token read from a file (out of the process list).
    let token_file = t.path().join("token");
    std::fs::write(&token_file, format!("{bot}\n")).unwrap();
    let bridge_log = t.path().join("bridge.log");
    let _bridge = Killed(
        Command::new(BIN)
            .args(["bot", "connect", &https, "--ca"])
            .arg(&ca_file)
            .arg("--token-file")
            .arg(&token_file)
            .args(["--", "python3", centre])
            .env_remove("TABULA_BOT_TOKEN")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(&bridge_log).unwrap())
            .spawn()
            .expect("tabula bot connect starts"),
    );
    let (status, v) = command(addr, &ned, "intervalo challenge ned centre -cells=9");
    assert_eq!(status, 200, "{v}");
    let id = v["game"]["id"].as_i64().expect("a board");
    let turns = play_to_end(addr, &ned, id, 9, &bridge_log, |_| {});
    assert!(turns >= 3, "the game had {turns} turns");
    let log = std::fs::read_to_string(&bridge_log).unwrap();
    assert!(log.contains(&format!("playing as centre on {https}")), "{log}");
    assert!(!log.contains("refused") && !log.contains("resigning"), "{log}");
}

/// The server running `user`'s hosted program, by `tabula bot list`.
fn host_of(t: &Tabula, user: &str) -> Option<String> {
    let list: Value = serde_json::from_str(&t.ok("bot list --json")).expect("JSON");
    let row = list.as_array()?.iter().find(|b| b["user"] == user)?;
    row["host"].as_str().map(str::to_string)
}

/// Whether `host` (as `tabula bot list` names it) is the process `pid`.
fn is_process(host: &str, pid: u32) -> bool {
    host.split(':').nth(1) == Some(&pid.to_string())
}

/// Of two servers on one database, one runs a hosted bot's program; when
/// it is killed, the other takes the bot over once the claim runs out, and
/// the game plays on to its end.
#[test]
fn of_two_servers_on_one_database_one_runs_a_hosted_bot_and_the_other_takes_it_over() {
    let t = Tabula::new();
    t.signup(&["ned", "hostbot"]);
    let centre = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/bots/center.py");
    let out = t.command(&["bot", "add", "hostbot", "--", "python3", centre]).output().expect("tabula runs");
    assert!(out.status.success(), "{out:?}");
    assert!(t.ok("bot list").contains("(no server runs it now)"), "{}", t.ok("bot list"));

    let (first, second) = (free_port(), free_port());
    let (first_log, second_log) = (t.path().join("first.log"), t.path().join("second.log"));
    let mut first_server = Killed(serve(&t, first, &first_log));
    let started = Instant::now();
    let holder = loop {
        if let Some(host) = host_of(&t, "hostbot") {
            break host;
        }
        assert!(started.elapsed() < Duration::from_secs(30), "no server claimed the bot");
        std::thread::sleep(Duration::from_millis(50));
    };
    assert!(is_process(&holder, first_server.0.id()), "{holder}");
    let second_server = Killed(serve(&t, second, &second_log));

    // Ned plays through the second server; the first runs the bot.
    let ned = token(second, "ned");
    let (status, v) = command(second, &ned, "intervalo challenge ned hostbot -cells=9");
    assert_eq!(status, 200, "{v}");
    let id = v["game"]["id"].as_i64().expect("a board");
    let mut killed = false;
    let turns = play_to_end(second, &ned, id, 9, &second_log, |turns| {
        if turns == 1 {
            assert!(is_process(&host_of(&t, "hostbot").expect("held"), first_server.0.id()));
            first_server.0.kill().expect("kill -9 of the first server");
            first_server.0.wait().expect("it ends");
            killed = true;
        }
    });
    assert!(killed && turns >= 2, "the game had {turns} turns");
    let holder = host_of(&t, "hostbot").expect("the second server holds the bot");
    assert!(is_process(&holder, second_server.0.id()), "{holder}");
    assert_eq!(t.ok("bot list").matches("run by").count(), 1, "{}", t.ok("bot list"));
}
