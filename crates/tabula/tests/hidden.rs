//! Hidden information through every front end at once. Each game with
//! secrets is played on one database by the real binary: moves come in
//! through the command line, the HTTP API, the web page's move form and
//! email, while `tabula serve` answers views, histories, replays, pages and
//! event streams. Before each reveal, nothing another player or an
//! observer can get (command-line answers, API views and histories, every
//! replayed position, web pages, event streams, mail replies and
//! notifications in the outbox) holds the secret; the owner does see it
//! everywhere (so the checks can fail), and after the reveal everyone does.
//!
//! Secrets: DNA's `-manual` sequences (until every sequence is set),
//! Intervalo's simultaneous choices (until both have chosen), Rewrite's
//! rules (until every player has written one for the round) and goals
//! (until the end).

mod common;
mod net;

use std::io::Write;
use std::net::SocketAddr;
use std::process::{Child, Stdio};
use std::time::Duration;

use common::{BIN, Tabula};
use net::{EventStream, Response, request};
use serde_json::json;

const WAIT: Duration = Duration::from_secs(20);

/// A logged-in browser.
struct Browser {
    cookie: String,
    csrf: String,
}

/// Someone who reads a game: a player (with every way in), or an observer.
struct Reader {
    user: Option<String>,
    token: Option<String>,
    browser: Option<Browser>,
    stream: EventStream,
}

/// The database, the command line on it and a server over it.
struct World {
    t: Tabula,
    server: Child,
    addr: SocketAddr,
}

impl Drop for World {
    fn drop(&mut self) {
        self.server.kill().ok();
        self.server.wait().ok();
    }
}

fn urlencode(text: &str) -> String {
    text.bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'~') {
                (b as char).to_string()
            } else {
                format!("%{b:02X}")
            }
        })
        .collect()
}

fn input_value(html: &str, name: &str) -> Option<String> {
    let marker = format!("name=\"{name}\" value=\"");
    let at = html.find(&marker)? + marker.len();
    Some(html[at..at + html[at..].find('"')?].to_string())
}

impl World {
    fn new(users: &[&str]) -> World {
        let t = Tabula::new();
        t.signup(users);
        let (server, addr) =
            net::start_server(BIN, &t.db.display().to_string(), &t.path().join("server.log"), &[]);
        World { t, server, addr }
    }

    fn get(&self, path: &str, headers: &[(&str, &str)]) -> Response {
        let r = request(self.addr, "GET", path, headers, "").expect("the server answers");
        assert_eq!(r.status, 200, "GET {path}: {}", r.body);
        r
    }

    fn token(&self, user: &str) -> String {
        let body = json!({"user": user, "password": format!("pw-{user}"), "name": "hidden"}).to_string();
        let r = request(self.addr, "POST", "/api/v1/tokens", &[("Content-Type", "application/json")], &body)
            .expect("the server answers");
        assert_eq!(r.status, 201, "{}", r.body);
        r.json()["token"].as_str().expect("a token").to_string()
    }

    fn browser(&self, user: &str) -> Browser {
        let form = self.get("/login", &[]);
        let form_cookie = format!("tabula_form={}", form.cookie("tabula_form").expect("a form cookie"));
        let token = input_value(&form.body, "form_token").expect("a form token");
        let body = format!("form_token={}&user={user}&password=pw-{user}&next=%2F", urlencode(&token));
        let headers =
            [("Cookie", form_cookie.as_str()), ("Content-Type", "application/x-www-form-urlencoded")];
        let done = request(self.addr, "POST", "/login", &headers, &body).expect("the server answers");
        assert_eq!(done.status, 303, "login of {user}: {}", done.body);
        let cookie = format!("tabula_session={}", done.cookie("tabula_session").expect("a session"));
        let home = self.get("/", &[("Cookie", &cookie)]);
        let csrf = input_value(&home.body, "csrf").expect("a CSRF token");
        Browser { cookie, csrf }
    }

    fn reader(&self, board: i64, user: Option<&str>) -> Reader {
        let token = user.map(|u| self.token(u));
        let path = match &token {
            Some(t) => format!("/api/v1/games/{board}/events?token={t}"),
            None => format!("/api/v1/games/{board}/events"),
        };
        let stream = EventStream::open(self.addr, &path, &[]);
        stream.wait_for(WAIT, |e| e["game"]["id"] == board);
        Reader { user: user.map(str::to_string), token, browser: user.map(|u| self.browser(u)), stream }
    }

    /// Wait until every reader's event stream has shown the game's current version.
    fn settle(&self, kind: &str, board: i64, readers: &[&Reader]) {
        let version = self.t.json(&format!("{kind} show {board}"))["game"]["version"].clone();
        for r in readers {
            r.stream.wait_for(WAIT, |e| e["game"]["version"] == version);
        }
    }

    /// A move through the command line.
    fn cli_move(&self, kind: &str, board: i64, user: &str, text: &str) {
        self.t.ok(&format!("{kind} move {board} {user} pw-{user} {text}"));
    }

    /// A move through the API with the player's token.
    fn api_move(&self, kind: &str, board: i64, reader: &Reader, text: &str) {
        let user = reader.user.as_deref().expect("a player");
        let line = json!({"line": format!("{kind} move {board} {user} - {text}")}).to_string();
        let auth = format!("Bearer {}", reader.token.as_deref().expect("a token"));
        let headers = [("Content-Type", "application/json"), ("Authorization", auth.as_str())];
        let r = request(self.addr, "POST", "/api/v1/commands", &headers, &line).expect("the server answers");
        assert_eq!(r.status, 200, "{line}: {}", r.body);
    }

    /// A move through the web page's move form.
    fn form_move(&self, board: i64, reader: &Reader, text: &str) {
        let b = reader.browser.as_ref().expect("a browser");
        let body = format!("csrf={}&text={}", urlencode(&b.csrf), urlencode(text));
        let headers = [("Cookie", b.cookie.as_str()), ("Content-Type", "application/x-www-form-urlencoded")];
        let r = request(self.addr, "POST", &format!("/games/{board}/move"), &headers, &body)
            .expect("the server answers");
        assert_eq!(r.status, 303, "the move form: {}", r.body);
    }

    /// Commands by email from `user` (the reply goes to the outbox).
    fn mail(&self, user: &str, lines: &[String]) {
        let message = format!(
            "From: {user} <{user}@example.org>\r\nTo: tabula@localhost\r\nSubject: moves\r\n\
             Message-ID: <{}.{user}@example.org>\r\nDate: Sun, 22 Nov 2026 04:00:00 +0000\r\n\
             Content-Type: text/plain; charset=utf-8\r\n\r\n{}\r\n",
            rand::random::<u64>(),
            lines.join("\r\n")
        );
        let mut child = self
            .t
            .command(&["mail"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("tabula mail runs");
        child.stdin.take().unwrap().write_all(message.as_bytes()).unwrap();
        let out = child.wait_with_output().unwrap();
        assert!(out.status.success(), "tabula mail: {}", String::from_utf8_lossy(&out.stderr));
    }

    /// Every mail in the outbox to `user`: subject and body, oldest first.
    fn outbox(&self, user: &str) -> Vec<String> {
        let rows = self.t.json("outbox --limit 10000");
        let address = format!("{user}@example.org");
        let mut mails: Vec<(i64, String)> = rows
            .as_array()
            .expect("outbox rows")
            .iter()
            .filter(|r| r["message"]["recipient"].as_str().is_some_and(|a| a.contains(&address)))
            .map(|r| {
                let id = r["id"].as_i64().expect("an outbox id");
                (id, format!("{}\n{}", r["message"]["subject"], r["message"]["body"]))
            })
            .collect();
        mails.sort();
        mails.into_iter().map(|(_, m)| m).collect()
    }

    /// Everything `reader` can get about `board` now, each with where it came from.
    fn everything(&self, kind: &str, board: i64, reader: &Reader) -> Vec<(String, String)> {
        let mut out = Vec::new();
        let mut cli = |line: String| {
            let text = self.t.ok(&format!("--json {line}"));
            out.push((format!("command line `{line}`"), text));
        };
        cli(format!("{kind} show {board}"));
        cli(format!("{kind} history {board}"));
        let moves = self.t.json(&format!("{kind} show {board}"))["game"]["moves"].as_u64().expect("moves");
        for at in 0..=moves {
            cli(format!("{kind} show {board}#{at}"));
        }
        if let Some(u) = &reader.user {
            cli(format!("{kind} showas {board} {u} pw-{u}"));
        }
        let auth = reader.token.as_ref().map(|t| format!("Bearer {t}"));
        let api_headers: Vec<(&str, &str)> = auth.iter().map(|a| ("Authorization", a.as_str())).collect();
        let page_headers: Vec<(&str, &str)> =
            reader.browser.iter().map(|b| ("Cookie", b.cookie.as_str())).collect();
        let mut paths = vec![
            (format!("/api/v1/games/{board}"), &api_headers),
            (format!("/api/v1/games/{board}/history"), &api_headers),
            (format!("/games/{board}"), &page_headers),
        ];
        for at in 0..=moves {
            paths.push((format!("/api/v1/games/{board}?at={at}"), &api_headers));
            paths.push((format!("/games/{board}?at={at}"), &page_headers));
        }
        for (path, headers) in paths {
            out.push((format!("GET {path}"), self.get(&path, headers).body));
        }
        out.push(("the event stream".into(), reader.stream.text()));
        if let Some(u) = &reader.user {
            self.mail(u, &[format!("{kind} showas {board} {u} pw-{u}")]);
            for (i, m) in self.outbox(u).into_iter().enumerate() {
                out.push((format!("mail {i} to {u}"), m));
            }
        }
        out
    }
}

impl World {
    /// What `reader` (a player) is told on previewing and submitting
    /// `text`, a move that completes the step, through the command line,
    /// the API and email.
    fn previews(&self, kind: &str, board: i64, reader: &Reader, text: &str) -> Vec<(String, String)> {
        let user = reader.user.as_deref().expect("a player");
        let mut out = Vec::new();
        let earlier = self.outbox(user).len();
        for verb in ["preview", "submit"] {
            let line = format!("{kind} {verb} {board} {user} pw-{user} {text}");
            out.push((format!("command line `{line}`"), self.t.ok(&format!("--json {line}"))));
            let api = json!({"line": format!("{kind} {verb} {board} {user} - {text}")}).to_string();
            let auth = format!("Bearer {}", reader.token.as_deref().expect("a token"));
            let headers = [("Content-Type", "application/json"), ("Authorization", auth.as_str())];
            let r =
                request(self.addr, "POST", "/api/v1/commands", &headers, &api).expect("the server answers");
            assert_eq!(r.status, 200, "{api}: {}", r.body);
            out.push((format!("POST /api/v1/commands {api}"), r.body));
            self.mail(user, &[line]);
        }
        let replies = self.outbox(user).split_off(earlier);
        assert_eq!(replies.len(), 2, "a reply to each mail");
        for (i, m) in replies.into_iter().enumerate() {
            out.push((format!("mail reply {i} to {user}"), m));
        }
        out
    }
}

/// None of `markers` in what `reader` is told on previewing or submitting `text`.
fn assert_preview_hidden(w: &World, kind: &str, board: i64, reader: &Reader, text: &str, markers: &[&str]) {
    for (place, said) in w.previews(kind, board, reader, text) {
        for m in markers.iter().flat_map(|m| forms(m)) {
            if let Some(i) = said.find(&m) {
                let context = &said[i.saturating_sub(200)..(i + 100).min(said.len())];
                panic!(
                    "{kind}: {} previewing {text} sees the secret {m:?} in {place}: ...{context}...",
                    who(reader)
                );
            }
        }
        assert!(said.contains("your part alone"), "{kind}: {place} does not say why: {said}");
    }
}

fn who(reader: &Reader) -> &str {
    reader.user.as_deref().unwrap_or("an observer")
}

/// A secret as it may be written: as it is, and escaped for HTML.
fn forms(marker: &str) -> Vec<String> {
    let escaped =
        marker.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;");
    vec![marker.to_string(), escaped]
}

/// None of `markers` in anything `reader` can get.
fn assert_hidden(w: &World, kind: &str, board: i64, reader: &Reader, markers: &[&str]) {
    for (place, text) in w.everything(kind, board, reader) {
        for m in markers.iter().flat_map(|m| forms(m)) {
            if let Some(i) = text.find(&m) {
                let context = &text[i.saturating_sub(200)..(i + 100).min(text.len())];
                panic!("{kind}: {} sees the secret {m:?} in {place}: ...{context}...", who(reader));
            }
        }
    }
}

/// `marker` in each of the places (by prefix) `reader` can get.
fn assert_shown(w: &World, kind: &str, board: i64, reader: &Reader, marker: &str, places: &[&str]) {
    let all = w.everything(kind, board, reader);
    for place in places {
        assert!(
            all.iter().any(|(p, t)| p.starts_with(place) && forms(marker).iter().any(|m| t.contains(m))),
            "{kind}: {} does not see {marker:?} in {place}",
            who(reader)
        );
    }
}

const EVERYWHERE: [&str; 4] = ["command line", "GET /api", "GET /games", "the event stream"];

#[test]
fn dna_manual_sequences_are_hidden_in_every_front_end_until_all_are_set() {
    let w = World::new(&["ned", "ted"]);
    let board = w.t.json("dna challenge -manual -length=14 ned ted")["game"]["id"].as_i64().unwrap();
    let ned = w.reader(board, Some("ned"));
    let ted = w.reader(board, Some("ted"));
    let observer = w.reader(board, None);
    let secret = "GATTACAGATTACA";
    w.form_move(board, &ned, secret);
    w.settle("dna", board, &[&ned, &ted, &observer]);
    assert_hidden(&w, "dna", board, &ted, &[secret]);
    assert_hidden(&w, "dna", board, &observer, &[secret]);
    assert_preview_hidden(&w, "dna", board, &ted, "CCCCCCCCCCCCCC", &[secret]);
    let mut own = EVERYWHERE.to_vec();
    own.push("mail");
    assert_shown(&w, "dna", board, &ned, secret, &own);
    // Ted sets his by email: every sequence is set, both are shown to all.
    w.mail("ted", &[format!("dna move {board} ted pw-ted CCCCCCCCCCCCCC")]);
    w.settle("dna", board, &[&ned, &ted, &observer]);
    assert_shown(&w, "dna", board, &ted, secret, &own);
    assert_shown(&w, "dna", board, &observer, secret, &EVERYWHERE);
}

#[test]
fn intervalo_choices_are_hidden_in_every_front_end_until_both_have_chosen() {
    let w = World::new(&["ann", "bob"]);
    let board = w.t.json("intervalo challenge ann bob -cells=20")["game"]["id"].as_i64().unwrap();
    let ann = w.reader(board, Some("ann"));
    let bob = w.reader(board, Some("bob"));
    let observer = w.reader(board, None);
    w.api_move("intervalo", board, &ann, "17");
    w.settle("intervalo", board, &[&ann, &bob, &observer]);
    // Every picture names its cells ("cell 17: empty"): the secret is the
    // choice as its chooser reads it, the view's field, and the cell drawn
    // as ann's (the first turn: nothing is on the strip yet).
    let markers = ["chose cell 17", "\"my_choice\":17", "cell 17: X"];
    assert_hidden(&w, "intervalo", board, &bob, &markers);
    assert_hidden(&w, "intervalo", board, &observer, &markers);
    assert_preview_hidden(&w, "intervalo", board, &bob, "3", &["chose cell 17", "ann 17"]);
    assert_shown(
        &w,
        "intervalo",
        board,
        &ann,
        "you chose cell 17",
        &["command line", "GET /api", "GET /games", "mail"],
    );
    // Bob chooses on the command line: the turn is revealed to both.
    w.cli_move("intervalo", board, "bob", "3");
    w.settle("intervalo", board, &[&ann, &bob, &observer]);
    let revealed = "ann chooses cell 17";
    assert_shown(
        &w,
        "intervalo",
        board,
        &bob,
        revealed,
        &["command line", "GET /api", "GET /games", "the event stream"],
    );
    assert_shown(&w, "intervalo", board, &observer, revealed, &["command line", "GET /api"]);
}

#[test]
fn rewrite_rules_and_goals_are_hidden_in_every_front_end_until_revealed() {
    let w = World::new(&["ann", "bob"]);
    let board =
        w.t.json("rewrite challenge ann bob -rounds=2 -goal_length=5")["game"]["id"].as_i64().unwrap();
    let ann = w.reader(board, Some("ann"));
    let bob = w.reader(board, Some("bob"));
    let observer = w.reader(board, None);
    let goal = "ttgta";
    let rule = "c=>g";
    // Ann's goal by email, bob's on the command line, ann's first rule on the page.
    w.mail("ann", &[format!("rewrite move {board} ann pw-ann goal {goal}")]);
    w.cli_move("rewrite", board, "bob", "goal aacga");
    w.form_move(board, &ann, rule);
    w.settle("rewrite", board, &[&ann, &bob, &observer]);
    for r in [&bob, &observer] {
        assert_hidden(&w, "rewrite", board, r, &[goal, rule]);
    }
    assert_preview_hidden(&w, "rewrite", board, &bob, "t=>a", &[goal, rule]);
    let own = ["command line", "GET /api", "GET /games", "mail"];
    assert_shown(&w, "rewrite", board, &ann, goal, &own);
    assert_shown(&w, "rewrite", board, &ann, rule, &own);
    // Bob's rule through the API: the round's rules are revealed, the goals are not.
    w.api_move("rewrite", board, &bob, "t=>a");
    w.settle("rewrite", board, &[&ann, &bob, &observer]);
    for r in [&bob, &observer] {
        assert_hidden(&w, "rewrite", board, r, &[goal]);
        assert_shown(&w, "rewrite", board, r, rule, &["command line", "GET /api", "GET /games"]);
    }
    // The last round ends the game: the goals are revealed to all, but
    // not by a preview of its last rule.
    w.cli_move("rewrite", board, "ann", "g=>t");
    assert_preview_hidden(&w, "rewrite", board, &bob, "a=>c", &[goal, "g=>t"]);
    w.mail("bob", &[format!("rewrite move {board} bob pw-bob a=>c")]);
    w.settle("rewrite", board, &[&ann, &bob, &observer]);
    assert_shown(&w, "rewrite", board, &bob, goal, &["command line", "GET /api", "GET /games", "mail"]);
    assert_shown(&w, "rewrite", board, &observer, goal, &["command line", "GET /api", "GET /games"]);
    let over = w.t.json(&format!("rewrite show {board}"));
    assert_eq!(over["game"]["status"], "finished", "{over}");
}
