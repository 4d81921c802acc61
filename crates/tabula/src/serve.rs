//! `tabula serve`: the web pages and the API over the store, plus the
//! scheduler that runs clock events when they are due and the programs of
//! hosted bots.

use std::io::{IsTerminal, Write};
use std::net::SocketAddr;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context, Result};
use clap::{Args, ValueEnum};

use tabula_i18n::t;

use crate::cli::{Global, open_service};
use crate::help::lang;

/// Serve the web pages and the HTTP API, and run the clocks
///
/// Serves the web pages and the JSON API over the database, and runs the
/// clock of real-time games, reminders, forfeits and digests. Prints the
/// address it serves once it listens. Stop it with Ctrl-C or SIGTERM:
/// requests in flight are finished first. Logs go to standard error, in
/// colour only on a terminal (RUST_LOG=debug for more).
#[derive(Args, Debug)]
pub struct ServeArgs {
    /// Serve HTTP on ADDR (port 0: any free port)
    #[arg(long, value_name = "ADDR", default_value = "127.0.0.1:8080")]
    listen: SocketAddr,
    /// Also receive mail over SMTP on ADDR (e.g. 127.0.0.1:2525)
    #[arg(long, value_name = "ADDR")]
    smtp: Option<SocketAddr>,
    #[command(flatten)]
    send: crate::mail::SendArgs,
    /// The address mail comes from
    #[arg(long, value_name = "ADDRESS", default_value = "tabula@localhost")]
    mail_from: String,
    /// The largest message taken over --smtp, in bytes; larger ones are
    /// refused (552) before they are read
    #[arg(long, value_name = "BYTES", default_value_t = crate::mail::DEFAULT_MAX_MESSAGE, value_parser = crate::mail::message_size)]
    max_message_size: usize,
    /// How log lines are written: text, or json (one object a line, for log collectors)
    #[arg(long, value_name = "FORMAT", value_enum, default_value_t = LogFormat::Text)]
    log_format: LogFormat,
    /// Take the client's address from Forwarded or X-Forwarded-For when the
    /// connection comes from this network (a load balancer, a reverse proxy),
    /// e.g. 127.0.0.1/32 or 10.0.0.0/8; repeatable. Failed logins are counted
    /// per client address: without it, every client behind the proxy shares
    /// the proxy's count
    #[arg(long, value_name = "CIDR")]
    trust_proxy: Vec<tabula_web::client::Cidr>,
    /// Challenges naming someone else one user may send in an hour over the
    /// network (0: no limit)
    #[arg(long, value_name = "N", default_value_t = tabula_service::throttle::DEFAULT_CHALLENGES_PER_HOUR)]
    challenges_per_hour: u32,
    /// Memory in MiB the games kept replayed between moves may hold; a
    /// game that does not fit is replayed from its record when next used
    /// (0: none is kept)
    #[arg(long, value_name = "MIB", default_value_t = (tabula_service::replays::DEFAULT_BUDGET >> 20) as u64,
          value_parser = clap::value_parser!(u64).range(0..=1 << 20))]
    replay_cache: u64,
    /// Open connections taken at most; past it new ones are answered 503
    /// [default: 10000, or fewer when the open-files limit is lower]
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    max_connections: Option<u64>,
    /// Open connections taken from one client address
    #[arg(long, value_name = "N", default_value_t = 64, value_parser = clap::value_parser!(u64).range(1..))]
    max_connections_per_address: u64,
    /// Seconds a request's headers, its body, or the next request on a
    /// kept-alive connection may take
    #[arg(long, value_name = "SECONDS", default_value_t = 20, value_parser = clap::value_parser!(u64).range(1..))]
    read_timeout: u64,
    /// Seconds a client may read nothing of an answer or an event stream
    /// before it is disconnected
    #[arg(long, value_name = "SECONDS", default_value_t = 60, value_parser = clap::value_parser!(u64).range(1..))]
    write_timeout: u64,
    /// When run as root: the user hosted bots' programs (`tabula bot add`) run as
    /// [default: nobody]
    #[arg(long, value_name = "USER")]
    bot_user: Option<String>,
    /// Run no hosted bots' programs here (by default each server on the
    /// database runs those it claims first, and takes over those of a
    /// server that stopped)
    #[arg(long)]
    no_hosted_bots: bool,
}

/// The form of log lines.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum LogFormat {
    /// Human-readable lines; colours only when standard error is a terminal.
    Text,
    /// One JSON object a line.
    Json,
}

/// Send the process's log lines to standard error in `format`.
pub fn init_logs(format: LogFormat) {
    let filter =
        tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| "info,sqlx=warn".into());
    let logs = tracing_subscriber::fmt().with_env_filter(filter).with_writer(std::io::stderr);
    match format {
        LogFormat::Text => logs.with_ansi(std::io::stderr().is_terminal()).init(),
        LogFormat::Json => logs.json().flatten_event(true).with_current_span(false).init(),
    }
}

pub fn run(global: &Global, args: ServeArgs) -> Result<ExitCode> {
    crate::give_freed_pages_back_soon();
    // Moves by mail or by the clock before the first request count too.
    tabula_service::metrics::keep();
    init_logs(args.log_format);
    // Checked, and its files read, before anything starts.
    let relay = args.send.relay()?;
    let mail_config = tabula_mail::MailConfig {
        address: args.mail_from.clone(),
        max_message_bytes: args.max_message_size,
        ..Default::default()
    };
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .with_context(|| t!(lang(), "op-starting-runtime"))?;
    rt.block_on(async {
        let service = Arc::new(
            open_service(global)
                .await?
                .with_challenge_rate(args.challenges_per_hour)
                .with_replay_cache((args.replay_cache as usize).saturating_mul(1 << 20)),
        );
        tracing::info!(db = %crate::cli::db_name(&global.db), "database open");
        // Other servers sharing the database: their commits reach this one's live listeners.
        let relay_changes =
            service.follow_changes().await.with_context(|| t!(lang(), "op-following-changes"))?;
        let scheduler = {
            let service = service.clone();
            tokio::spawn(async move { service.run_scheduler().await })
        };
        // The programs of hosted bots (`tabula bot add`), confined as the referee's.
        let host = crate::hosted::host_name();
        let hosted = match tabula_bots::process::BotUser::for_referee(args.bot_user.as_deref()) {
            _ if args.no_hosted_bots => None,
            Ok(user) => {
                let limits = tabula_bots::BotLimits { user, ..Default::default() };
                Some(tokio::spawn(crate::hosted::run(service.clone(), limits, host.clone())))
            }
            Err(e) if args.bot_user.is_some() => return Err(anyhow::anyhow!("--bot-user: {e}")),
            // Never as root: without a user to run them as, they are not run.
            Err(e) => {
                tracing::warn!(error = %e, "hosted bots are not run (give --bot-user)");
                None
            }
        };
        let (stop_tx, stop_rx) = tokio::sync::watch::channel(false);
        let stopped = move || {
            let mut rx = stop_rx.clone();
            async move {
                let _ = rx.wait_for(|s| *s).await;
            }
        };
        // Bind before saying where: `--listen 127.0.0.1:0` gets its port here.
        let listener = tokio::net::TcpListener::bind(args.listen)
            .await
            .with_context(|| t!(lang(), "op-listening", address = args.listen.to_string()))?;
        let address = listener.local_addr().with_context(|| t!(lang(), "op-reading-address"))?;
        let mut banner = format!("{}\n", t!(lang(), "op-serving", url = format!("http://{address}/")));
        let mut mail_tasks = Vec::new();
        if let Some(addr) = args.smtp {
            let smtp = tokio::net::TcpListener::bind(addr)
                .await
                .with_context(|| t!(lang(), "op-listening-smtp", address = addr.to_string()))?;
            let smtp_address = smtp.local_addr().with_context(|| t!(lang(), "op-reading-address"))?;
            banner.push_str(&format!(
                "{}\n",
                t!(lang(), "op-receiving-smtp", address = smtp_address.to_string())
            ));
            tracing::info!(address = %smtp_address, "receiving mail over SMTP");
            let sink = Arc::new(tabula_mail::GatewaySink::new(service.clone(), mail_config.clone()));
            let (cfg, stop) = (mail_config.clone(), stopped());
            mail_tasks.push(tokio::spawn(async move {
                if let Err(e) = tabula_mail::serve_smtp_on(smtp, sink, cfg, stop).await {
                    tracing::error!(error = %e, "SMTP listener failed");
                }
            }));
        }
        if args.smtp.is_some() && relay.is_none() {
            // Not an error: another server, or `cron --relay`, may send from this database;
            // but an operator who forgot it would otherwise find out from the players.
            tracing::warn!("no --relay: the replies to mail received here wait in the outbox");
        }
        if let Some(relay) = relay {
            let relay = Arc::new(relay);
            tracing::info!(relay = %relay.describe(), "sending mail");
            mail_tasks.push(tokio::spawn(tabula_mail::send_loop(
                service.clone(),
                relay,
                mail_config.clone(),
                stopped(),
            )));
        }
        let shutdown = shutdown_signal()?;
        // The one line on standard output: where to go.
        let mut out = std::io::stdout().lock();
        out.write_all(banner.as_bytes())
            .and_then(|()| out.flush())
            .with_context(|| t!(lang(), "op-writing-stdout"))?;
        drop(out);
        let mut limits = tabula_web::connections::Limits {
            per_address: args.max_connections_per_address as usize,
            read_timeout: Duration::from_secs(args.read_timeout),
            write_timeout: Duration::from_secs(args.write_timeout),
            ..Default::default()
        };
        if let Some(n) = args.max_connections {
            limits.max_connections = n as usize;
        }
        let options = tabula_web::ServeOptions { trust_proxy: args.trust_proxy.clone(), limits };
        let service_for_release = service.clone();
        let result = tabula_web::serve_on(service, listener, options, shutdown).await;
        let _ = stop_tx.send(true);
        for t in mail_tasks {
            let _ = t.await;
        }
        scheduler.abort();
        if let Some(task) = hosted {
            task.abort();
            let _ = task.await;
            // Another server on the database takes them over at once.
            if let Err(e) = service_for_release.release_hosted_bots(&host).await {
                tracing::warn!(error = %e.message, "hosted bots: claims not given up");
            }
        }
        if let Some(task) = relay_changes {
            task.abort();
        }
        result.with_context(|| t!(lang(), "op-serving-failed", address = address.to_string()))?;
        tracing::info!("stopped");
        Ok(ExitCode::SUCCESS)
    })
}

/// Listen for SIGTERM and SIGINT from now on; the returned future ends at
/// the first of them. The handlers are installed here, not when the future
/// is first polled, so a service manager's SIGTERM that comes right after
/// the banner still stops the server cleanly instead of killing it.
fn shutdown_signal() -> Result<impl std::future::Future<Output = ()> + Send + 'static> {
    #[cfg(unix)]
    let (mut term, mut interrupt) = {
        use tokio::signal::unix::{SignalKind, signal};
        (
            signal(SignalKind::terminate())
                .with_context(|| t!(lang(), "op-listening-signal", signal = "SIGTERM"))?,
            signal(SignalKind::interrupt())
                .with_context(|| t!(lang(), "op-listening-signal", signal = "SIGINT"))?,
        )
    };
    Ok(async move {
        #[cfg(unix)]
        tokio::select! {
            _ = term.recv() => {},
            _ = interrupt.recv() => {},
        }
        #[cfg(not(unix))]
        let _ = tokio::signal::ctrl_c().await;
        tracing::info!("shutting down");
    })
}
