//! External bot processes: spawned confined, spoken to over pipes with
//! deadlines both ways, and killed with everything they started when they
//! fail or do not quit.
//!
//! # Confinement
//!
//! Each bot program runs in its own session and process group, with a clean
//! environment, resource limits, no descriptor of the referee's but its
//! three pipes (every other one is closed on exec, those the referee itself
//! inherited included), and, when the referee runs as root, as an
//! unprivileged user ([`BotLimits::user`]).
//!
//! A process group is not enough to find everything a bot started: a child
//! that calls `setsid` leaves it, and after a `kill -9` of the referee
//! nobody is left to kill the group anyway. So where the kernel allows it
//! ([`containment`]) the bot's children live in a PID namespace of their
//! own, whose first process is a minimal init forked by the bot process
//! just before it runs the bot program. That init holds nothing but a
//! process descriptor of the bot process and reaps orphans; when the bot
//! process ends, for whatever reason, the init exits, and the kernel kills
//! every process left in the namespace: no descendant can leave it,
//! double-forking or not. The bot process itself dies with the referee
//! (`PR_SET_PDEATHSIG`), so the chain holds after a `kill -9` of the
//! referee too: referee gone, bot process killed, init exits, namespace
//! emptied. As root the namespace is made directly; otherwise inside a new
//! user namespace that maps the bot's own user to itself (enabled by
//! default on Debian and most distributions). Where neither is allowed (a
//! container without the privilege), the process group and the parent-death
//! signal are all there is, and [`containment`] says so.
//!
//! Why a namespace rather than the alternatives: a referee that is a child
//! subreaper (`PR_SET_CHILD_SUBREAPER`) inherits a bot's orphans and can
//! kill them while it lives, but once it is killed they pass to the
//! system's init and nobody is left to find them; a cgroup per bot holds
//! the whole tree whatever happens, but needs a delegated cgroup tree
//! (root, or a systemd user slice), which a plain `tabula tournament` in a
//! terminal does not have. The PID namespace needs neither, and its end is
//! the kernel's doing, not a watchdog's that could itself be killed.
//!
//! # Deadlines
//!
//! The referee's end of a bot's input is non-blocking: a bot that does not
//! read its input cannot stall the referee once the pipe is full, since
//! every write is bounded by the deadline of the answer it is part of
//! ([`BotProcess::send`]).

use std::ffi::CString;
use std::io::{self, Write};
use std::os::fd::AsRawFd;
use std::os::unix::process::CommandExt;
use std::process::{Child, ChildStdin, ChildStdout, Command, ExitStatus, Stdio};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};
use thiserror::Error;

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
    /// The user bot programs run as, when the referee runs as root. A
    /// property of the machine that plays, not of the tournament: it is
    /// never stored with one (each worker of a distributed tournament sets
    /// its own).
    #[serde(skip)]
    pub user: Option<BotUser>,
}

impl Default for BotLimits {
    fn default() -> Self {
        BotLimits {
            cpu_seconds: 3600,
            memory_bytes: 1 << 30,
            processes: 256,
            quit_grace: Duration::from_millis(500),
            startup_time: Duration::from_secs(5),
            user: None,
        }
    }
}

/// An account bot programs run as instead of the referee's own.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BotUser {
    /// The name given (or the number, for an account without a name).
    pub name: String,
    /// Its user id.
    pub uid: u32,
    /// Its primary group id.
    pub gid: u32,
}

/// The user bots run as by default when the referee runs as root.
pub const DEFAULT_BOT_USER: &str = "nobody";

/// Why a bot user cannot be used.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum UserError {
    /// No account of that name or number.
    #[error("there is no user {0:?} on this machine")]
    Unknown(String),
    /// Only root can run programs as another user.
    #[error("bots can run as another user ({0:?}) only when tabula runs as root")]
    NotRoot(String),
    /// Running bots as root is what the option exists to avoid.
    #[error("bots may not run as root: name an unprivileged user")]
    Root,
}

impl BotUser {
    /// The account named `name` (or numbered: `65534`), looked up in the
    /// system's user database.
    ///
    /// # Errors
    ///
    /// No such account, or the root account.
    pub fn lookup(name: &str) -> Result<BotUser, UserError> {
        let name = name.trim();
        let found = match name.parse::<u32>() {
            Ok(uid) => passwd_by_uid(uid).or(Some((uid, uid))),
            Err(_) => passwd_by_name(name),
        };
        let (uid, gid) = found.ok_or_else(|| UserError::Unknown(name.to_string()))?;
        if uid == 0 {
            return Err(UserError::Root);
        }
        Ok(BotUser { name: name.to_string(), uid, gid })
    }

    /// The user bots should run as here: `requested` if given (which only
    /// root may ask for, unless it is the referee's own user), else
    /// [`DEFAULT_BOT_USER`] when the referee runs as root, else none (bots
    /// run as the referee's user).
    ///
    /// # Errors
    ///
    /// An unknown user, root, or another user asked for without root.
    pub fn for_referee(requested: Option<&str>) -> Result<Option<BotUser>, UserError> {
        // SAFETY: plain system call.
        let euid = unsafe { libc::geteuid() };
        match requested {
            Some(name) => {
                let user = BotUser::lookup(name)?;
                if euid == 0 {
                    Ok(Some(user))
                } else if user.uid == euid {
                    Ok(None)
                } else {
                    Err(UserError::NotRoot(name.to_string()))
                }
            }
            None if euid == 0 => BotUser::lookup(DEFAULT_BOT_USER).map(Some),
            None => Ok(None),
        }
    }
}

fn passwd_by_name(name: &str) -> Option<(u32, u32)> {
    let name = CString::new(name).ok()?;
    passwd_lookup(|pwd, buf, result| {
        // SAFETY: valid pointers for the duration of the call.
        unsafe { libc::getpwnam_r(name.as_ptr(), pwd, buf.as_mut_ptr(), buf.len(), result) }
    })
}

fn passwd_by_uid(uid: u32) -> Option<(u32, u32)> {
    passwd_lookup(|pwd, buf, result| {
        // SAFETY: valid pointers for the duration of the call.
        unsafe { libc::getpwuid_r(uid, pwd, buf.as_mut_ptr(), buf.len(), result) }
    })
}

fn passwd_lookup(
    call: impl Fn(*mut libc::passwd, &mut [libc::c_char], *mut *mut libc::passwd) -> libc::c_int,
) -> Option<(u32, u32)> {
    let mut buf = vec![0 as libc::c_char; 16 * 1024];
    // SAFETY: an all-zero passwd is a valid value to be overwritten.
    let mut pwd: libc::passwd = unsafe { std::mem::zeroed() };
    let mut result: *mut libc::passwd = std::ptr::null_mut();
    if call(&mut pwd, &mut buf, &mut result) != 0 || result.is_null() {
        return None;
    }
    Some((pwd.pw_uid, pwd.pw_gid))
}

/// How well everything a bot starts can be found and killed here.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Containment {
    /// The bot's descendants live in a PID namespace of their own, made
    /// directly (the referee has the privilege): none outlives the bot
    /// process, even after a `kill -9` of the referee.
    PidNamespace,
    /// The same, inside a new user namespace (an unprivileged referee).
    UserPidNamespace,
    /// Only the process group: a descendant that leaves it (`setsid`)
    /// survives its bot.
    ProcessGroup,
}

impl Containment {
    /// In words, for a warning or a status line.
    pub fn describe(self) -> &'static str {
        match self {
            Containment::PidNamespace => "every bot's processes in a PID namespace of their own",
            Containment::UserPidNamespace => {
                "every bot's processes in a PID namespace of their own (inside a user namespace)"
            }
            Containment::ProcessGroup => {
                "bots in their own process group only (this system allows no PID namespace): a process \
                 a bot starts that leaves its group can survive it"
            }
        }
    }
}

/// A warning for whoever runs external bots here, when their processes
/// cannot be fully contained.
pub fn containment_warning() -> Option<String> {
    let c = containment();
    (c == Containment::ProcessGroup).then(|| format!("warning: {}", c.describe()))
}

/// What this system allows, probed once (in a throwaway child process)
/// the first time it is asked.
pub fn containment() -> Containment {
    static PROBED: OnceLock<Containment> = OnceLock::new();
    *PROBED.get_or_init(probe_containment)
}

#[cfg(target_os = "linux")]
fn probe_containment() -> Containment {
    // SAFETY: the child makes only system calls and exits; the parent
    // waits for it.
    let works = |flags: libc::c_int| unsafe {
        let pid = libc::fork();
        if pid < 0 {
            return false;
        }
        if pid == 0 {
            let pidfd = libc::syscall(libc::SYS_pidfd_open, libc::getpid(), 0);
            let ok = pidfd >= 0 && libc::unshare(flags) == 0;
            libc::_exit(if ok { 0 } else { 1 });
        }
        let mut status = 0;
        while libc::waitpid(pid, &mut status, 0) < 0 {
            if io::Error::last_os_error().kind() != io::ErrorKind::Interrupted {
                return false;
            }
        }
        libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0
    };
    if works(libc::CLONE_NEWPID) {
        Containment::PidNamespace
    } else if works(libc::CLONE_NEWUSER | libc::CLONE_NEWPID) {
        Containment::UserPidNamespace
    } else {
        Containment::ProcessGroup
    }
}

#[cfg(not(target_os = "linux"))]
fn probe_containment() -> Containment {
    Containment::ProcessGroup
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

/// Why writing to a bot failed.
#[derive(Debug)]
pub enum WriteError {
    /// The bot did not take its input before the deadline (the pipe stayed
    /// full).
    Timeout,
    /// The bot closed its input (it exited or crashed).
    Closed,
    /// The pipe failed.
    Io(io::Error),
}

/// Bytes of a bot's stderr kept (the end of it), for failure reports.
const STDERR_KEPT: usize = 2048;

/// Bot programs started by this process and not yet dropped (`/metrics`).
static RUNNING: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// How many bot programs this process is running now.
pub fn running() -> usize {
    RUNNING.load(std::sync::atomic::Ordering::Relaxed)
}

/// A running bot program.
pub struct BotProcess {
    child: Child,
    stdin: ChildStdin,
    stdout: ChildStdout,
    buffer: Vec<u8>,
    outgoing: Vec<u8>,
    stderr_tail: Arc<Mutex<Vec<u8>>>,
    /// The thread reading stderr, until it has read to its end.
    stderr_reader: Option<std::thread::JoinHandle<()>>,
    dead: bool,
}

/// How long a bot that has failed may take to have its last stderr read:
/// the pipe ends once its descendants holding it are gone too.
const STDERR_DRAIN: std::time::Duration = std::time::Duration::from_millis(500);

/// What the child does between fork and exec, prepared before the fork
/// (nothing may be allocated after it).
struct Confinement {
    limits: BotLimits,
    containment: Containment,
    referee: libc::pid_t,
    user: Option<BotUser>,
    /// `"ID ID 1\n"` for the uid and gid maps of a user namespace.
    uid_map: Vec<u8>,
    gid_map: Vec<u8>,
}

impl BotProcess {
    /// Start `argv` confined (see the module's documentation) with
    /// `limits` and a clean environment (only `PATH`, `LANG` and
    /// `PYTHONUNBUFFERED=1`).
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
        // SAFETY: plain system calls.
        let (euid, egid) = unsafe { (libc::geteuid(), libc::getegid()) };
        let (uid, gid) = limits.user.as_ref().map_or((euid, egid), |u| (u.uid, u.gid));
        let plan = Confinement {
            limits: limits.clone(),
            containment: containment(),
            referee: std::process::id() as libc::pid_t,
            user: limits.user.clone(),
            uid_map: format!("{uid} {uid} 1\n").into_bytes(),
            gid_map: format!("{gid} {gid} 1\n").into_bytes(),
        };
        // SAFETY: the closure runs in the child between fork and exec and
        // makes only async-signal-safe system calls on memory prepared
        // before the fork; it allocates nothing.
        unsafe {
            command.pre_exec(move || confine(&plan));
        }
        reap_inits();
        let mut child = command.spawn()?;
        let stdin = child.stdin.take().ok_or_else(|| io::Error::other("no stdin pipe"))?;
        let stdout = child.stdout.take().ok_or_else(|| io::Error::other("no stdout pipe"))?;
        // The referee never waits on a bot's input: writes go as far as the
        // pipe takes them, and the rest waits for room until a deadline.
        // SAFETY: plain fcntl calls on a descriptor this process owns.
        unsafe {
            let fd = stdin.as_raw_fd();
            let flags = libc::fcntl(fd, libc::F_GETFL);
            if flags < 0 || libc::fcntl(fd, libc::F_SETFL, flags | libc::O_NONBLOCK) < 0 {
                return Err(io::Error::last_os_error());
            }
        }
        let stderr_tail = Arc::new(Mutex::new(Vec::new()));
        let stderr_reader = child.stderr.take().map(|mut stderr| {
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
            })
        });
        RUNNING.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        Ok(BotProcess {
            child,
            stdin,
            stdout,
            buffer: Vec::new(),
            outgoing: Vec::new(),
            stderr_tail,
            stderr_reader,
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

    /// Whether the process has ended (reaped or not), without reaping it.
    fn has_exited(&self) -> bool {
        // SAFETY: waitid on this process's own child, into a zeroed
        // siginfo_t it owns; WNOWAIT leaves the child to be reaped later.
        unsafe {
            let mut info: libc::siginfo_t = std::mem::zeroed();
            let flags = libc::WEXITED | libc::WNOHANG | libc::WNOWAIT;
            match libc::waitid(libc::P_PID, self.child.id() as libc::id_t, &mut info, flags) {
                0 => info.si_pid() != 0,
                // ECHILD: reaped already.
                _ => true,
            }
        }
    }

    /// The last lines the bot wrote to stderr. Of a bot that has failed,
    /// what it wrote before it ended: its end can be seen before the
    /// reading thread has read its last words (a loaded machine showed a
    /// crash reported without them).
    pub fn stderr_tail(&self) -> String {
        if self.dead && self.has_exited() {
            let deadline = Instant::now() + STDERR_DRAIN;
            while self.stderr_reader.as_ref().is_some_and(|r| !r.is_finished()) && Instant::now() < deadline {
                std::thread::sleep(std::time::Duration::from_millis(2));
            }
        }
        self.stderr_tail.lock().map(|t| String::from_utf8_lossy(&t).into_owned()).unwrap_or_default()
    }

    /// Write one line (a newline is added), waiting for room in the pipe
    /// until `deadline` at most. A failed write leaves the process dead (a
    /// line may have been cut short).
    pub fn send(&mut self, line: &str, deadline: Instant) -> Result<(), WriteError> {
        self.outgoing.clear();
        self.outgoing.extend_from_slice(line.as_bytes());
        self.outgoing.push(b'\n');
        let result = self.write_outgoing(deadline);
        if result.is_err() {
            self.dead = true;
        }
        result
    }

    fn write_outgoing(&mut self, deadline: Instant) -> Result<(), WriteError> {
        let fd = self.stdin.as_raw_fd();
        let mut written = 0;
        while written < self.outgoing.len() {
            match self.stdin.write(&self.outgoing[written..]) {
                Ok(0) => return Err(WriteError::Closed),
                Ok(n) => written += n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) if e.kind() == io::ErrorKind::BrokenPipe => return Err(WriteError::Closed),
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => {
                    match wait_for(fd, libc::POLLOUT, deadline) {
                        Ok(true) => {}
                        Ok(false) => return Err(WriteError::Timeout),
                        Err(e) => return Err(WriteError::Io(e)),
                    }
                }
                Err(e) => return Err(WriteError::Io(e)),
            }
        }
        Ok(())
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
            match wait_for(self.stdout.as_raw_fd(), libc::POLLIN, deadline) {
                Ok(true) => {}
                Ok(false) => {
                    self.dead = true;
                    return Err(ReadError::Timeout);
                }
                Err(e) => {
                    self.dead = true;
                    return Err(ReadError::Io(e));
                }
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

    /// Kill the process and its whole process group, and reap it (its
    /// PID namespace, if it has one, goes with it).
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
        reap_inits();
    }

    /// Ask the process to exit (`quit`), then kill it if it has not
    /// exited within `grace`.
    pub fn quit(mut self, quit_line: &str, grace: Duration) {
        if !self.dead {
            let until = Instant::now() + grace;
            if self.send(quit_line, until).is_ok()
                && self.wait_exit(until.saturating_duration_since(Instant::now())).is_some()
            {
                // Whatever it started goes too.
                // SAFETY: see `kill`.
                unsafe {
                    libc::kill(-(self.child.id() as libc::pid_t), libc::SIGKILL);
                }
                reap_inits();
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
        RUNNING.fetch_sub(1, std::sync::atomic::Ordering::Relaxed);
    }
}

/// Wait until `fd` is ready for `events` or `deadline` passes: true when
/// ready (or hung up: the next read or write tells how).
fn wait_for(fd: libc::c_int, events: libc::c_short, deadline: Instant) -> io::Result<bool> {
    loop {
        let now = Instant::now();
        if now >= deadline {
            return Ok(false);
        }
        let ms = (deadline - now).as_millis().clamp(1, i32::MAX as u128) as i32;
        let mut pollfd = libc::pollfd { fd, events, revents: 0 };
        // SAFETY: one valid pollfd for the duration of the call.
        let ready = unsafe { libc::poll(&mut pollfd, 1, ms) };
        if ready < 0 {
            let error = io::Error::last_os_error();
            if error.kind() == io::ErrorKind::Interrupted {
                continue;
            }
            return Err(error);
        }
        if ready > 0 {
            return Ok(true);
        }
    }
}

/// In the child before exec: a new session (so the group can be killed as
/// one), every inherited descriptor but the three pipes closed on exec, the
/// PID namespace for the bot's children with its init, the bot user, death
/// with the referee, and the resource limits.
fn confine(plan: &Confinement) -> io::Result<()> {
    // SAFETY: async-signal-safe system calls on plain values and on memory
    // prepared before the fork.
    unsafe {
        if libc::setsid() < 0 {
            return Err(io::Error::last_os_error());
        }
        close_on_exec_from(3);
        #[cfg(target_os = "linux")]
        if plan.containment == Containment::PidNamespace && libc::unshare(libc::CLONE_NEWPID) < 0 {
            return Err(io::Error::last_os_error());
        }
        if let Some(user) = &plan.user {
            let gid = user.gid as libc::gid_t;
            if libc::setgroups(1, &gid) < 0
                || libc::setgid(gid) < 0
                || libc::setuid(user.uid as libc::uid_t) < 0
            {
                return Err(io::Error::last_os_error());
            }
            // The bot starts where the referee runs (so that `python3
            // bot.py` finds its script there), unless its user may not
            // enter that directory: then at the root, where every user may.
            if libc::access(c".".as_ptr(), libc::X_OK) != 0 && libc::chdir(c"/".as_ptr()) < 0 {
                return Err(io::Error::last_os_error());
            }
        }
        #[cfg(target_os = "linux")]
        if plan.containment == Containment::UserPidNamespace {
            if libc::unshare(libc::CLONE_NEWUSER | libc::CLONE_NEWPID) < 0 {
                return Err(io::Error::last_os_error());
            }
            // The bot keeps its own ids inside (unmapped, it would see
            // itself as the overflow user); without these writes it still
            // runs, with the kernel's checks unchanged.
            write_file(c"/proc/self/setgroups", b"deny\n");
            write_file(c"/proc/self/uid_map", &plan.uid_map);
            write_file(c"/proc/self/gid_map", &plan.gid_map);
        }
        // After the changes of user: a change of credentials clears it.
        #[cfg(target_os = "linux")]
        {
            libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL as libc::c_ulong);
            if libc::getppid() != plan.referee {
                // The referee died before the line above took effect.
                libc::_exit(1);
            }
            if plan.containment != Containment::ProcessGroup {
                start_namespace_init()?;
            }
        }
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
        if set(libc::RLIMIT_CPU, plan.limits.cpu_seconds) < 0
            || set(libc::RLIMIT_AS, plan.limits.memory_bytes) < 0
            || set(libc::RLIMIT_NPROC, plan.limits.processes) < 0
        {
            return Err(io::Error::last_os_error());
        }
    }
    Ok(())
}

/// Mark every descriptor from `first` on close-on-exec (descriptors the
/// referee inherited without the flag would otherwise reach the bot).
unsafe fn close_on_exec_from(first: libc::c_int) {
    // SAFETY: plain system calls.
    unsafe {
        #[cfg(target_os = "linux")]
        if libc::syscall(
            libc::SYS_close_range,
            first as libc::c_uint,
            libc::c_uint::MAX,
            libc::CLOSE_RANGE_CLOEXEC,
        ) == 0
        {
            return;
        }
        // Kernels before 5.11: one by one, up to the descriptor limit.
        for fd in first..open_limit() {
            libc::fcntl(fd, libc::F_SETFD, libc::FD_CLOEXEC);
        }
    }
}

/// Close every descriptor but `keep`.
#[cfg(target_os = "linux")]
unsafe fn close_all_but(keep: libc::c_int) {
    // SAFETY: plain system calls.
    unsafe {
        let close_range = |from: libc::c_int, to: libc::c_uint| {
            libc::syscall(libc::SYS_close_range, from as libc::c_uint, to, 0 as libc::c_uint) == 0
        };
        let below = keep == 0 || close_range(0, (keep - 1) as libc::c_uint);
        if below && close_range(keep + 1, libc::c_uint::MAX) {
            return;
        }
        for fd in (0..open_limit()).filter(|&fd| fd != keep) {
            libc::close(fd);
        }
    }
}

/// The descriptor limit, capped to keep a loop over it short.
unsafe fn open_limit() -> libc::c_int {
    let mut limit = libc::rlimit { rlim_cur: 0, rlim_max: 0 };
    // SAFETY: a valid rlimit to fill.
    let got = unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) };
    if got == 0 { limit.rlim_cur.min(65_536) as libc::c_int } else { 1024 }
}

#[cfg(target_os = "linux")]
unsafe fn write_file(path: &std::ffi::CStr, bytes: &[u8]) {
    // SAFETY: a valid path and buffer for the duration of the calls.
    unsafe {
        let fd = libc::open(path.as_ptr(), libc::O_WRONLY | libc::O_CLOEXEC);
        if fd >= 0 {
            libc::write(fd, bytes.as_ptr().cast(), bytes.len());
            libc::close(fd);
        }
    }
}

/// Start the init of the bot's PID namespace (the first process created
/// after the namespace was made, so its process 1), as a sibling of the bot
/// process (`CLONE_PARENT`: the bot program has no child it did not make,
/// and one that waits for all its children is not kept waiting by it). It
/// holds a process descriptor of the bot process and nothing else, reaps
/// the orphans the namespace hands it, and exits when the bot process ends,
/// which makes the kernel kill whatever is left in the namespace. It exits
/// with no signal to the referee, which reaps it with [`reap_inits`].
#[cfg(target_os = "linux")]
unsafe fn start_namespace_init() -> io::Result<()> {
    // SAFETY: system calls only; the child never returns. Without
    // CLONE_VM the raw clone is a fork: the child runs on a copy of this
    // stack.
    unsafe {
        let pidfd = libc::syscall(libc::SYS_pidfd_open, libc::getpid(), 0) as libc::c_int;
        if pidfd < 0 {
            return Err(io::Error::last_os_error());
        }
        let flags = libc::CLONE_PARENT as libc::c_ulong;
        let pid = libc::syscall(libc::SYS_clone, flags, 0usize, 0usize, 0usize, 0usize);
        if pid < 0 {
            return Err(io::Error::last_os_error());
        }
        if pid == 0 {
            close_all_but(pidfd);
            libc::prctl(libc::PR_SET_NAME, c"tabula-bot-init".as_ptr() as libc::c_ulong);
            loop {
                let mut pollfd = libc::pollfd { fd: pidfd, events: libc::POLLIN, revents: 0 };
                let ready = libc::poll(&mut pollfd, 1, 1000);
                while libc::waitpid(-1, std::ptr::null_mut(), libc::WNOHANG | libc::__WALL) > 0 {}
                if ready > 0 {
                    libc::_exit(0);
                }
            }
        }
        libc::close(pidfd);
    }
    Ok(())
}

/// Reap the namespace inits that have exited. They are the referee's
/// children that signal nothing when they exit (`__WCLONE` children), so
/// this never takes the exit status of a bot process (or of any other
/// child) from whoever waits for it.
pub fn reap_inits() {
    #[cfg(target_os = "linux")]
    // SAFETY: plain system call, no status kept.
    unsafe {
        while libc::waitpid(-1, std::ptr::null_mut(), libc::WNOHANG | libc::__WCLONE) > 0 {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bot_users_are_looked_up_by_name_or_number_and_never_root() {
        let nobody = BotUser::lookup(DEFAULT_BOT_USER).unwrap();
        assert_ne!(nobody.uid, 0);
        assert_eq!(BotUser::lookup(&nobody.uid.to_string()).unwrap().uid, nobody.uid);
        // A number without an account is still a user to run as (its own group).
        assert_eq!(
            BotUser::lookup("54321").unwrap(),
            BotUser { name: "54321".into(), uid: 54321, gid: 54321 }
        );
        assert_eq!(BotUser::lookup("root"), Err(UserError::Root));
        assert_eq!(BotUser::lookup("0"), Err(UserError::Root));
        assert_eq!(BotUser::lookup("no-such-user-here"), Err(UserError::Unknown("no-such-user-here".into())));
        assert_eq!(UserError::Unknown("x".into()).to_string(), "there is no user \"x\" on this machine",);
    }
}
