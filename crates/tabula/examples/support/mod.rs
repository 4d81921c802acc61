//! What the load programs of `examples/` share: a keep-alive HTTP/1.1
//! client, a way to run numbered work on many connections, starting a
//! `tabula serve` on a fresh database, and reading a process's memory.
// Each example compiles its own copy and uses only part of it.
#![allow(dead_code)]

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::Request;
use hyper::client::conn::http1::SendRequest;
use hyper_util::rt::TokioIo;
use serde_json::{Value, json};

/// A free port on the loopback interface.
pub fn free_port() -> Result<u16> {
    Ok(std::net::TcpListener::bind("127.0.0.1:0")?.local_addr()?.port())
}

/// Resident set size of a process, in KiB.
pub fn rss_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().split(' ').next()?.parse().ok())
}

/// CPU time (user + system, in seconds) a process has used so far:
/// `pid`, or this process when `None`. Read from `/proc`, in clock ticks
/// of 1/100 s (the kernel's `USER_HZ` on Linux).
pub fn cpu_seconds(pid: Option<u32>) -> Option<f64> {
    let path = pid.map_or_else(|| "/proc/self/stat".to_string(), |p| format!("/proc/{p}/stat"));
    let stat = std::fs::read_to_string(path).ok()?;
    // Fields after the command name, which is in parentheses and may hold spaces.
    let rest = &stat[stat.rfind(')')? + 2..];
    let fields: Vec<&str> = rest.split(' ').collect();
    // utime and stime are fields 14 and 15 of the line, 12 and 13 after the name.
    let ticks: u64 = fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
    Some(ticks as f64 / 100.0)
}

/// The value at fraction `p` of sorted samples (NaN when there are none).
pub fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    sorted[((sorted.len() as f64 * p) as usize).min(sorted.len() - 1)]
}

/// One keep-alive connection to the server, reopened if the server closed it.
pub struct Client {
    addr: SocketAddr,
    sender: SendRequest<Full<Bytes>>,
}

/// An answer: its status and its body.
pub struct Answer {
    /// The HTTP status code.
    pub status: u16,
    /// The whole body.
    pub body: Bytes,
}

impl Client {
    /// Opens a connection.
    pub async fn connect(addr: SocketAddr) -> Result<Self> {
        let stream = tokio::net::TcpStream::connect(addr).await?;
        stream.set_nodelay(true)?;
        let (sender, conn) = hyper::client::conn::http1::handshake(TokioIo::new(stream)).await?;
        tokio::spawn(conn);
        Ok(Client { addr, sender })
    }

    /// Sends one request and reads the whole answer.
    pub async fn send(
        &mut self,
        method: &str,
        path: &str,
        token: Option<&str>,
        body: Option<&Value>,
    ) -> Result<Answer> {
        let mut req = Request::builder().method(method).uri(path).header("host", self.addr.to_string());
        if let Some(t) = token {
            req = req.header("authorization", format!("Bearer {t}"));
        }
        let body = match body {
            Some(b) => {
                req = req.header("content-type", "application/json");
                Bytes::from(serde_json::to_vec(b)?)
            }
            None => Bytes::new(),
        };
        if self.sender.ready().await.is_err() {
            *self = Client::connect(self.addr).await?;
        }
        let resp = self.sender.send_request(req.body(Full::new(body))?).await?;
        let status = resp.status().as_u16();
        Ok(Answer { status, body: resp.into_body().collect().await?.to_bytes() })
    }

    /// Sends one request and returns the body, whatever the status.
    pub async fn request(
        &mut self,
        method: &str,
        path: &str,
        token: Option<&str>,
        body: Option<&Value>,
    ) -> Result<Bytes> {
        Ok(self.send(method, path, token, body).await?.body)
    }

    /// Runs one command line through `POST /api/v1/commands`.
    pub async fn command(&mut self, line: &str, token: Option<&str>) -> Result<Bytes> {
        self.request("POST", "/api/v1/commands", token, Some(&json!({ "line": line }))).await
    }
}

/// Whether a command's JSON reply says it succeeded.
pub fn ok(body: &[u8]) -> bool {
    body.windows(9).any(|w| w == b"\"ok\":true")
}

/// Runs `work(client, i)` for i in 0..n on `clients` connections and
/// returns the results in the order of i.
pub async fn parallel<F, Fut, T>(addr: SocketAddr, clients: usize, n: usize, work: F) -> Result<Vec<T>>
where
    F: Fn(Client, usize) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = Result<(Client, T)>> + Send,
    T: Send + 'static,
{
    let work = Arc::new(work);
    let next = Arc::new(AtomicU64::new(0));
    let mut tasks = Vec::new();
    for _ in 0..clients.min(n) {
        let (work, next) = (work.clone(), next.clone());
        tasks.push(tokio::spawn(async move {
            let mut client = Client::connect(addr).await?;
            let mut out = Vec::new();
            loop {
                let i = next.fetch_add(1, Ordering::Relaxed) as usize;
                if i >= n {
                    return Ok::<_, anyhow::Error>(out);
                }
                let (c, t) = work(client, i).await?;
                client = c;
                out.push((i, t));
            }
        }));
    }
    let mut all = Vec::new();
    for t in tasks {
        all.extend(t.await??);
    }
    all.sort_by_key(|(i, _)| *i);
    Ok(all.into_iter().map(|(_, t)| t).collect())
}

/// A `tabula serve` child process, killed when dropped.
pub struct Server {
    /// The process.
    pub child: Child,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Starts `tabula serve` on a fresh `server.db` in `dir` and waits until
/// it answers `/healthz`.
pub async fn start_server(tabula: &Path, dir: &Path, addr: SocketAddr) -> Result<Server> {
    let db: PathBuf = dir.join("server.db");
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(dir.join(format!("server.db{suffix}")));
    }
    let child = Command::new(tabula)
        .arg("--db")
        .arg(&db)
        // The load's users challenge each other far more often than people
        // do; its clients all come from one address, more of them than a
        // browser opens, and some sit idle through the setup's sign-ups
        // (whose password hashes take seconds on a loaded machine).
        .args(["serve", "--listen", &addr.to_string(), "--challenges-per-hour", "0"])
        .args(["--max-connections-per-address", "4096", "--read-timeout", "3600"])
        .env("RUST_LOG", "warn")
        .stdout(Stdio::null())
        .stderr(Stdio::inherit())
        .spawn()
        .with_context(|| format!("starting {}", tabula.display()))?;
    let server = Server { child };
    let start = Instant::now();
    loop {
        if let Ok(mut client) = Client::connect(addr).await
            && client.request("GET", "/healthz", None, None).await.is_ok()
        {
            return Ok(server);
        }
        if start.elapsed() > Duration::from_secs(30) {
            bail!("the server did not answer within 30 s");
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// Signs up users `u0`, `u1`, ... (`n` of them, address `uK@example.org`)
/// and makes a bearer token for each, so no password is hashed per request.
pub async fn signup_with_tokens(addr: SocketAddr, clients: usize, n: usize) -> Result<Vec<String>> {
    parallel(addr, clients, n, |mut client, i| async move {
        let user = format!("u{i}");
        let pw = format!("pw-{user}-secret");
        let r = client.command(&format!("signup {user} {pw} {user}@example.org"), None).await?;
        if !ok(&r) {
            bail!("signup {user}: {}", String::from_utf8_lossy(&r));
        }
        let r = client
            .request(
                "POST",
                "/api/v1/tokens",
                None,
                Some(&json!({"user": user, "password": pw, "name": "bench"})),
            )
            .await?;
        let v: Value = serde_json::from_slice(&r)?;
        let token = v["token"].as_str().with_context(|| format!("token for {user}: {v}"))?.to_string();
        Ok((client, token))
    })
    .await
}
