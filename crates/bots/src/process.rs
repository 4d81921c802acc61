//! External bot processes: spawned with resource limits and a clean
//! environment in their own process group, spoken to over pipes with
//! deadlines, and killed (with everything they started) when they fail or
//! do not quit.

use std::io::{self, Write};
use std::os::fd::AsRawFd;
use std::os::unix::process::CommandExt;
use std::process::{Child, ChildStdin, ChildStdout, Command, ExitStatus, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use crate::protocol::MAX_LINE;

/// Resource limits of every bot process (where the platform has them).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BotLimits {
    /// CPU seconds over the process's whole life (`RLIMIT_CPU`); past it the
    /// process is killed and restarted for its next game.
    pub cpu_seconds: u64,
    /// Address space in bytes (`RLIMIT_AS`).
    pub memory_bytes: u64,
    /// Processes of the user the bot may run (`RLIMIT_NPROC`; the kernel
    /// counts every process of the same user, and does not apply it to root).
    pub processes: u64,
    /// How long a bot may take to exit after `quit` before it is killed.
    pub quit_grace: Duration,
    /// Extra time for the first move after a process starts (an
    /// interpreter's start-up is not thinking time).
    pub startup_time: Duration,
}

impl Default for BotLimits {
    fn default() -> Self {
        BotLimits {
            cpu_seconds: 3600,
            memory_bytes: 1 << 30,
            processes: 256,
            quit_grace: Duration::from_millis(500),
            startup_time: Duration::from_secs(5),
        }
    }
}

/// Why reading a bot's answer failed.
#[derive(Debug)]
pub enum ReadError {
    /// No complete line before the deadline.
    Timeout,
    /// The line grew past [`MAX_LINE`] bytes.
    TooLong,
    /// The process closed its output (it exited or crashed).
    Closed(Option<ExitStatus>),
    /// The pipe failed.
    Io(io::Error),
}

/// Bytes of a bot's stderr kept (the end of it), for failure reports.
const STDERR_KEPT: usize = 2048;

/// A running bot program.
pub struct BotProcess {
    child: Child,
    stdin: ChildStdin,
    stdout: ChildStdout,
    buffer: Vec<u8>,
    outgoing: Vec<u8>,
    stderr_tail: Arc<Mutex<Vec<u8>>>,
    dead: bool,
}

impl BotProcess {
    /// Start `argv` with `limits`, a clean environment (only `PATH`,
    /// `LANG` and `PYTHONUNBUFFERED=1`) and its own process group.
    pub fn spawn(argv: &[String], limits: &BotLimits) -> io::Result<BotProcess> {
        let (program, args) =
            argv.split_first().ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "empty command"))?;
        let mut command = Command::new(program);
        command
            .args(args)
            .env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap_or_else(|| "/usr/local/bin:/usr/bin:/bin".into()))
            .env("LANG", "C.UTF-8")
            .env("PYTHONUNBUFFERED", "1")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let limits = limits.clone();
        // SAFETY: the closure runs in the child between fork and exec and
        // calls only async-signal-safe system calls, touching no memory
        // shared with the parent.
        unsafe {
            command.pre_exec(move || confine(&limits));
        }
        let mut child = command.spawn()?;
        let stdin = child.stdin.take().ok_or_else(|| io::Error::other("no stdin pipe"))?;
        let stdout = child.stdout.take().ok_or_else(|| io::Error::other("no stdout pipe"))?;
        let stderr_tail = Arc::new(Mutex::new(Vec::new()));
        if let Some(mut stderr) = child.stderr.take() {
            let tail = Arc::clone(&stderr_tail);
            std::thread::spawn(move || {
                let mut chunk = [0u8; 4096];
                while let Ok(n) = io::Read::read(&mut stderr, &mut chunk) {
                    if n == 0 {
                        break;
                    }
                    if let Ok(mut t) = tail.lock() {
                        t.extend_from_slice(&chunk[..n]);
                        if t.len() > STDERR_KEPT {
                            let cut = t.len() - STDERR_KEPT;
                            t.drain(..cut);
                        }
                    }
                }
            });
        }
        Ok(BotProcess {
            child,
            stdin,
            stdout,
            buffer: Vec::new(),
            outgoing: Vec::new(),
            stderr_tail,
            dead: false,
        })
    }

    /// The process id.
    pub fn id(&self) -> u32 {
        self.child.id()
    }

    /// Whether the process has failed or been killed (it must be replaced).
    pub fn is_dead(&self) -> bool {
        self.dead
    }

    /// The last lines the bot wrote to stderr.
    pub fn stderr_tail(&self) -> String {
        self.stderr_tail.lock().map(|t| String::from_utf8_lossy(&t).into_owned()).unwrap_or_default()
    }

    /// Write one line (a newline is added).
    pub fn send(&mut self, line: &str) -> io::Result<()> {
        // One write for the line and its newline: one system call.
        self.outgoing.clear();
        self.outgoing.extend_from_slice(line.as_bytes());
        self.outgoing.push(b'\n');
        let result = self.stdin.write_all(&self.outgoing).and_then(|()| self.stdin.flush());
        if result.is_err() {
            self.dead = true;
        }
        result
    }

    /// Read the next line, waiting until `deadline` at most.
    pub fn receive(&mut self, deadline: Instant) -> Result<String, ReadError> {
        loop {
            if let Some(end) = self.buffer.iter().position(|&b| b == b'\n') {
                if end > MAX_LINE {
                    self.dead = true;
                    return Err(ReadError::TooLong);
                }
                let mut line: Vec<u8> = self.buffer.drain(..=end).collect();
                line.pop();
                if line.last() == Some(&b'\r') {
                    line.pop();
                }
                return Ok(String::from_utf8_lossy(&line).into_owned());
            }
            if self.buffer.len() > MAX_LINE {
                self.dead = true;
                return Err(ReadError::TooLong);
            }
            let now = Instant::now();
            if now >= deadline {
                self.dead = true;
                return Err(ReadError::Timeout);
            }
            let wait = deadline - now;
            let ms = wait.as_millis().clamp(1, i32::MAX as u128) as i32;
            let mut pollfd = libc::pollfd { fd: self.stdout.as_raw_fd(), events: libc::POLLIN, revents: 0 };
            // SAFETY: one valid pollfd for the duration of the call.
            let ready = unsafe { libc::poll(&mut pollfd, 1, ms) };
            if ready < 0 {
                let error = io::Error::last_os_error();
                if error.kind() == io::ErrorKind::Interrupted {
                    continue;
                }
                self.dead = true;
                return Err(ReadError::Io(error));
            }
            if ready == 0 {
                continue;
            }
            let mut chunk = [0u8; 8 * 1024];
            match io::Read::read(&mut self.stdout, &mut chunk) {
                Ok(0) => {
                    self.dead = true;
                    return Err(ReadError::Closed(self.wait_exit(Duration::from_millis(200))));
                }
                Ok(n) => self.buffer.extend_from_slice(&chunk[..n]),
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => {
                    self.dead = true;
                    return Err(ReadError::Io(e));
                }
            }
        }
    }

    /// The exit status once the process has exited, waiting up to `grace`.
    fn wait_exit(&mut self, grace: Duration) -> Option<ExitStatus> {
        let until = Instant::now() + grace;
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => return Some(status),
                Ok(None) if Instant::now() < until => std::thread::sleep(Duration::from_millis(2)),
                _ => return None,
            }
        }
    }

    /// Kill the process and its whole process group, and reap it.
    pub fn kill(&mut self) {
        self.dead = true;
        let pid = self.child.id() as libc::pid_t;
        // SAFETY: plain system calls; the group id is the bot's own pid
        // (it called setsid), so nothing else is signalled.
        unsafe {
            libc::kill(-pid, libc::SIGKILL);
            libc::kill(pid, libc::SIGKILL);
        }
        let _ = self.child.wait();
    }

    /// Ask the process to exit (`quit`), then kill it if it has not
    /// exited within `grace`.
    pub fn quit(mut self, quit_line: &str, grace: Duration) {
        if !self.dead {
            let _ = self.send(quit_line);
            if self.wait_exit(grace).is_some() {
                // Whatever it started goes too.
                // SAFETY: see `kill`.
                unsafe {
                    libc::kill(-(self.child.id() as libc::pid_t), libc::SIGKILL);
                }
                return;
            }
        }
        self.kill();
    }
}

impl Drop for BotProcess {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            self.kill();
        }
    }
}

/// In the child before exec: a new session (so the group can be killed as
/// one), death with the parent, and the resource limits.
fn confine(limits: &BotLimits) -> io::Result<()> {
    // SAFETY: async-signal-safe system calls on plain values.
    unsafe {
        if libc::setsid() < 0 {
            return Err(io::Error::last_os_error());
        }
        #[cfg(target_os = "linux")]
        libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL as libc::c_ulong);
        // Never above the hard limit already in force: only root may raise it.
        let set = |resource, value: u64| {
            let mut current = libc::rlimit { rlim_cur: 0, rlim_max: 0 };
            let mut value = value as libc::rlim_t;
            if libc::getrlimit(resource, &mut current) == 0 && current.rlim_max < value {
                value = current.rlim_max;
            }
            let limit = libc::rlimit { rlim_cur: value, rlim_max: value };
            libc::setrlimit(resource, &limit)
        };
        if set(libc::RLIMIT_CPU, limits.cpu_seconds) < 0
            || set(libc::RLIMIT_AS, limits.memory_bytes) < 0
            || set(libc::RLIMIT_NPROC, limits.processes) < 0
        {
            return Err(io::Error::last_os_error());
        }
    }
    Ok(())
}
