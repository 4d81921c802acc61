//! `tabula serve`: the web pages and the API over the store, plus the
//! scheduler that runs clock events when they are due.

use std::net::SocketAddr;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context, Result};

use crate::cli::{Global, open_service};

const USAGE: &str = "\
usage: tabula [--db PATH] serve [--listen ADDR] [--smtp ADDR] [--relay HOST:PORT] [--mail-from ADDRESS]

Serves the web pages and the HTTP API (default http://127.0.0.1:8080) over
the database (default ./tabula.db, created if missing), and runs the clock
of real-time games, reminders and forfeits.

  --smtp ADDR          also receive mail over SMTP on ADDR (e.g. 127.0.0.1:2525)
  --relay HOST:PORT    send replies and notifications through this SMTP relay
  --mail-from ADDRESS  the address mail comes from (default tabula@localhost) Stop it with Ctrl-C or SIGTERM: requests in flight are
finished first. Logs go to stderr (RUST_LOG=debug for more).";

pub fn run(global: &Global, args: &[String]) -> Result<ExitCode> {
    let mut listen: SocketAddr = "127.0.0.1:8080".parse().expect("valid default address");
    let mut smtp: Option<SocketAddr> = None;
    let mut relay: Option<(String, u16)> = None;
    let mut mail_config = tabula_mail::MailConfig::default();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--listen" => {
                let v = it.next().context("--listen needs an address such as 127.0.0.1:8080")?;
                listen = v
                    .parse()
                    .with_context(|| format!("--listen {v:?} is not an address such as 127.0.0.1:8080"))?;
            }
            "--smtp" => {
                let v = it.next().context("--smtp needs an address such as 127.0.0.1:2525")?;
                smtp = Some(
                    v.parse()
                        .with_context(|| format!("--smtp {v:?} is not an address such as 127.0.0.1:2525"))?,
                );
            }
            "--relay" => {
                let v = it.next().context("--relay needs HOST:PORT")?;
                let (host, port) = v.rsplit_once(':').context("--relay needs HOST:PORT")?;
                let port: u16 =
                    port.parse().with_context(|| format!("--relay {v:?}: the port is not a number"))?;
                relay = Some((host.to_string(), port));
            }
            "--mail-from" => mail_config.address = it.next().context("--mail-from needs an address")?.clone(),
            "-h" | "--help" => {
                println!("{USAGE}");
                return Ok(ExitCode::SUCCESS);
            }
            other => {
                eprintln!("tabula: unknown argument {other:?}\n\n{USAGE}");
                return Ok(ExitCode::from(2));
            }
        }
    }
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| "info,sqlx=warn".into()),
        )
        .with_writer(std::io::stderr)
        .init();
    let rt =
        tokio::runtime::Builder::new_multi_thread().enable_all().build().context("starting the runtime")?;
    rt.block_on(async {
        let service = Arc::new(open_service(global).await?);
        tracing::info!(db = %crate::cli::db_name(&global.db), "database open");
        // Other servers sharing the database: their commits reach this one's live listeners.
        let relay_changes = match service.store().changes().await.context("listening for changes")? {
            Some(mut changes) => {
                let service = service.clone();
                Some(tokio::spawn(async move {
                    while let Some(change) = changes.recv().await {
                        service.announce(tabula_service::GameUpdate {
                            board: change.board,
                            version: change.version,
                        });
                    }
                }))
            }
            None => None,
        };
        let scheduler = {
            let service = service.clone();
            tokio::spawn(async move {
                let mut tick = tokio::time::interval(Duration::from_millis(500));
                let mut limits_due = std::time::Instant::now() - Duration::from_secs(60);
                loop {
                    tick.tick().await;
                    if let Err(e) = service.run_due_clocks().await {
                        tracing::warn!(error = %e, "clock catch-up failed");
                    }
                    // Time limits are measured in days: once a minute is plenty.
                    if limits_due.elapsed() >= Duration::from_secs(60) {
                        limits_due = std::time::Instant::now();
                        match service.run_time_limits().await {
                            Ok(r) if r.nags + r.warnings + r.forfeits + r.digests > 0 || r.pruned > 0 => {
                                tracing::info!(
                                    nags = r.nags,
                                    warnings = r.warnings,
                                    forfeits = r.forfeits,
                                    digests = r.digests,
                                    pruned = r.pruned,
                                    "time limits"
                                )
                            }
                            Ok(_) => {}
                            Err(e) => tracing::warn!(error = %e, "time limits failed"),
                        }
                    }
                }
            })
        };
        let (stop_tx, stop_rx) = tokio::sync::watch::channel(false);
        let stopped = move || {
            let mut rx = stop_rx.clone();
            async move {
                let _ = rx.wait_for(|s| *s).await;
            }
        };
        let mut mail_tasks = Vec::new();
        if let Some(addr) = smtp {
            let (svc, cfg, stop) = (service.clone(), mail_config.clone(), stopped());
            tracing::info!(address = %addr, "receiving mail over SMTP");
            mail_tasks.push(tokio::spawn(async move {
                if let Err(e) = tabula_mail::serve_smtp(svc, addr, cfg, stop).await {
                    tracing::error!(error = %e, "SMTP listener failed");
                }
            }));
        }
        if let Some((host, port)) = relay {
            let relay = Arc::new(
                tabula_mail::SmtpRelay::new(&tabula_mail::RelayConfig::plain(host.clone(), port))
                    .map_err(|e| anyhow::anyhow!("--relay {host}:{port}: {e}"))?,
            );
            tracing::info!(relay = %format!("{host}:{port}"), "sending mail");
            mail_tasks.push(tokio::spawn(tabula_mail::send_loop(
                service.clone(),
                relay,
                mail_config.clone(),
                stopped(),
            )));
        }
        let result = tabula_web::serve(service, listen, shutdown_signal()).await;
        let _ = stop_tx.send(true);
        for t in mail_tasks {
            let _ = t.await;
        }
        scheduler.abort();
        if let Some(task) = relay_changes {
            task.abort();
        }
        result.with_context(|| format!("serving on {listen}"))?;
        tracing::info!("stopped");
        Ok(ExitCode::SUCCESS)
    })
}

async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        _ = ctrl_c => {},
        _ = term => {},
    }
    tracing::info!("shutting down");
}
