//! A small HTTP/1.1 client over plain TCP for tests that drive the real
//! `tabula serve` binary: one request per connection, and event streams
//! read in the background.
#![allow(dead_code)]

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::Value;

/// An answer, read whole.
#[derive(Debug)]
pub struct Response {
    pub status: u16,
    /// Header names in lower case.
    pub headers: Vec<(String, String)>,
    pub body: String,
}

impl Response {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }

    /// The value a `Set-Cookie` header gives cookie `name`.
    pub fn cookie(&self, name: &str) -> Option<String> {
        self.headers
            .iter()
            .filter(|(n, _)| n == "set-cookie")
            .find_map(|(_, v)| v.strip_prefix(&format!("{name}=")))
            .map(|v| v.split(';').next().unwrap_or("").to_string())
    }

    pub fn json(&self) -> Value {
        serde_json::from_str(&self.body).unwrap_or_else(|e| panic!("not JSON ({e}): {}", self.body))
    }
}

fn invalid(what: &str) -> std::io::Error {
    std::io::Error::new(std::io::ErrorKind::InvalidData, what.to_string())
}

/// A response's status, headers and the bytes after them.
type Parts<'a> = (u16, Vec<(String, String)>, &'a [u8]);

fn head_and_body(raw: &[u8]) -> Option<Parts<'_>> {
    let split = raw.windows(4).position(|w| w == b"\r\n\r\n")?;
    let head = String::from_utf8_lossy(&raw[..split]).to_string();
    let mut lines = head.lines();
    let status = lines.next()?.split_whitespace().nth(1)?.parse().ok()?;
    let headers = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    Some((status, headers, &raw[split + 4..]))
}

/// The data of a chunked body, as far as it has arrived.
pub fn dechunk(mut data: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    while let Some(line_end) = data.windows(2).position(|w| w == b"\r\n") {
        let size = std::str::from_utf8(&data[..line_end])
            .ok()
            .and_then(|s| usize::from_str_radix(s.split(';').next().unwrap_or("").trim(), 16).ok());
        let Some(size) = size.filter(|s| *s > 0) else { break };
        data = &data[line_end + 2..];
        let Some(chunk) = data.get(..size) else {
            out.extend_from_slice(data);
            break;
        };
        out.extend_from_slice(chunk);
        data = data.get(size + 2..).unwrap_or(&[]);
    }
    out
}

/// One request on a fresh connection (`Connection: close`). An I/O error
/// means the answer is unknown: the server may have died before or after
/// doing what was asked (a body cut short counts as no answer).
pub fn request(
    addr: SocketAddr,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &str,
) -> std::io::Result<Response> {
    let mut stream = TcpStream::connect_timeout(&addr, Duration::from_secs(2))?;
    stream.set_read_timeout(Some(Duration::from_secs(60)))?;
    stream.set_write_timeout(Some(Duration::from_secs(10)))?;
    let mut text = format!("{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n");
    for (k, v) in headers {
        text.push_str(&format!("{k}: {v}\r\n"));
    }
    text.push_str(&format!("Content-Length: {}\r\n\r\n{body}", body.len()));
    stream.write_all(text.as_bytes())?;
    let mut raw = Vec::new();
    stream.read_to_end(&mut raw)?;
    let (status, headers, content) = head_and_body(&raw).ok_or_else(|| invalid("no complete head"))?;
    let header = |name: &str| headers.iter().find(|(n, _)| n == name).map(|(_, v)| v.to_ascii_lowercase());
    let content = if header("transfer-encoding").is_some_and(|v| v.contains("chunked")) {
        if !content.ends_with(b"0\r\n\r\n") {
            return Err(invalid("chunked body cut off"));
        }
        dechunk(content)
    } else {
        if let Some(n) = header("content-length").and_then(|v| v.parse::<usize>().ok())
            && content.len() < n
        {
            return Err(invalid("body cut off"));
        }
        content.to_vec()
    };
    Ok(Response { status, headers, body: String::from_utf8_lossy(&content).into_owned() })
}

/// A JSON request (optionally with a bearer token): the status and the body.
pub fn http(
    addr: SocketAddr,
    method: &str,
    path: &str,
    token: Option<&str>,
    body: Option<&Value>,
) -> std::io::Result<(u16, Value)> {
    let auth = token.map(|t| format!("Bearer {t}"));
    let mut headers = vec![("Content-Type", "application/json")];
    if let Some(a) = &auth {
        headers.push(("Authorization", a));
    }
    let r = request(addr, method, path, &headers, &body.map(|b| b.to_string()).unwrap_or_default())?;
    let value = serde_json::from_str(&r.body).map_err(|_| invalid("body is not JSON"))?;
    Ok((r.status, value))
}

/// An event stream read into memory by a background thread until the
/// server closes it.
pub struct EventStream {
    raw: Arc<Mutex<Vec<u8>>>,
}

impl EventStream {
    pub fn open(addr: SocketAddr, path: &str, headers: &[(&str, &str)]) -> EventStream {
        let mut stream = TcpStream::connect(addr).expect("connect for events");
        let mut text = format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\nAccept: text/event-stream\r\n");
        for (k, v) in headers {
            text.push_str(&format!("{k}: {v}\r\n"));
        }
        text.push_str("\r\n");
        stream.write_all(text.as_bytes()).expect("send");
        let raw = Arc::new(Mutex::new(Vec::new()));
        let sink = raw.clone();
        std::thread::spawn(move || {
            let mut chunk = [0u8; 8192];
            while let Ok(n) = stream.read(&mut chunk) {
                if n == 0 {
                    break;
                }
                sink.lock().unwrap().extend_from_slice(&chunk[..n]);
            }
        });
        EventStream { raw }
    }

    /// Everything received so far, decoded.
    pub fn text(&self) -> String {
        let raw = self.raw.lock().unwrap().clone();
        match head_and_body(&raw) {
            Some((status, headers, body)) => {
                assert_eq!(status, 200, "the event stream was refused: {}", String::from_utf8_lossy(body));
                let chunked = headers.iter().any(|(n, v)| n == "transfer-encoding" && v.contains("chunked"));
                let body = if chunked { dechunk(body) } else { body.to_vec() };
                String::from_utf8_lossy(&body).into_owned()
            }
            None => String::new(),
        }
    }

    /// The `data:` of every event received so far, as JSON.
    pub fn events(&self) -> Vec<Value> {
        let text = self.text();
        let mut out = Vec::new();
        for block in text.split("\n\n") {
            let data: Vec<&str> =
                block.lines().filter_map(|l| l.strip_prefix("data:")).map(str::trim_start).collect();
            if let Ok(v) = serde_json::from_str(&data.join("\n")) {
                out.push(v);
            }
        }
        out
    }

    /// Wait until an event satisfies `pred` (or fail after `wait`).
    pub fn wait_for(&self, wait: Duration, pred: impl Fn(&Value) -> bool) {
        let started = Instant::now();
        while !self.events().iter().any(&pred) {
            if started.elapsed() > wait {
                let seen: Vec<String> = self
                    .events()
                    .iter()
                    .map(|e| format!("version {} moves {}", e["game"]["version"], e["game"]["moves"]))
                    .collect();
                panic!("no matching event came; got {seen:?} in:\n{}", self.text());
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

/// A free port on loopback.
pub fn free_port() -> SocketAddr {
    let l = TcpListener::bind("127.0.0.1:0").expect("a free port");
    l.local_addr().expect("its address")
}

/// `tabula serve` on `db` (a file path or a URL) with `extra` flags after
/// `serve`, logging to `log`, ready to answer when this returns.
pub fn start_server(bin: &str, db: &str, log: &Path, extra: &[&str]) -> (Child, SocketAddr) {
    let addr = free_port();
    let log_file = std::fs::OpenOptions::new().create(true).append(true).open(log).expect("server log");
    let mut child = Command::new(bin)
        .arg("--db")
        .arg(db)
        .args(["serve", "--listen", &addr.to_string()])
        .args(extra)
        .env("RUST_LOG", "warn")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(log_file)
        .spawn()
        .expect("tabula serve starts");
    let started = Instant::now();
    while !matches!(request(addr, "GET", "/healthz", &[], ""), Ok(r) if r.status == 200) {
        if let Ok(Some(status)) = child.try_wait() {
            panic!(
                "the server exited ({status}); its log:\n{}",
                std::fs::read_to_string(log).unwrap_or_default()
            );
        }
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "the server did not come up; its log:\n{}",
            std::fs::read_to_string(log).unwrap_or_default()
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    (child, addr)
}
