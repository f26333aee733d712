//! Listening, and stopping on a signal.

use crate::app::App;
use crate::limits::{ClientCounts, Connections, RateLimits};
use crate::security::Hosts;
use crate::{conn, limits, security, Config};
use rand::rngs::StdRng;
use rand::SeedableRng;
use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::Arc;

/// Serves until a signal; the instant by which the process must be gone
/// (the signal's time plus the grace period).
pub async fn serve(
    config: Config,
    ready: impl FnOnce(SocketAddr),
) -> Result<std::time::Instant, String> {
    let hosts = Arc::new(Hosts::new(&config)?);
    let metrics = Arc::new(crate::metrics::Metrics::new());
    let store = punct_store::open(&config.location(), config.sync)
        .await
        .map_err(|e| e.to_string())?;
    // Every database call timed for the metrics.
    let store = Arc::new(crate::metrics::Timed::new(
        store,
        &metrics,
        config.db_timeout,
    ));
    let store_for_accounts: Arc<dyn punct_store::Storage> = store.clone();
    let listener = tokio::net::TcpListener::bind((config.bind, config.port))
        .await
        .map_err(|e| format!("cannot listen on {}:{}: {e}", config.bind, config.port))?;
    let addr = listener
        .local_addr()
        .map_err(|e| format!("cannot read the listening address: {e}"))?;
    let rates = Arc::new(RateLimits::new(&config.rates));
    let connections = Arc::new(Connections {
        counts: Arc::new(ClientCounts::default()),
        per_client: config.max_connections_per_client,
    });
    let options = conn::Options {
        max_connections: config.max_connections,
        clients: connections.clone(),
        header_timeout: config.header_timeout,
        body: conn::BodyLimits {
            timeout: config.body_timeout,
            min_rate: config.body_min_rate,
        },
        shutdown_grace: config.shutdown_grace,
        trust_proxy: config.trust_proxy,
    };
    let (reviews, review_queue) = tokio::sync::mpsc::channel(crate::review::QUEUE);
    let mut rng = StdRng::from_os_rng();
    let jobs = crate::jobs::Jobs::new(instance_name(&mut rng), config.job_lease);
    let app = Arc::new(App {
        ai: crate::scheduler::Scheduler::new(&config, metrics.ai_wait.clone()),
        config,
        store,
        games: std::sync::Mutex::new(HashMap::new()),
        rng: std::sync::Mutex::new(rng),
        stopping: tokio::sync::watch::channel(false).0,
        rates: rates.clone(),
        sockets: Arc::new(ClientCounts::default()),
        hosts: hosts.clone(),
        reviews,
        metrics,
        jobs: Arc::new(jobs),
        readiness: crate::health::Readiness::default(),
        // Half the cores may hash passwords at once: the AI and the
        // games keep the rest.
        accounts: crate::accounts::Accounts::new(store_for_accounts, cores().div_ceil(2)),
        lobby: crate::lobby::Hub::new(),
        bot_hub: Default::default(),
        notes: Default::default(),
    });
    crate::bots::ensure_all(app.store.as_ref()).await;
    crate::change::resume_ai_games(&app).await;
    tokio::spawn(crate::app::housekeeping(app.clone()));
    tokio::spawn(crate::app::share_presence(app.clone()));
    // Other instances' changes, where the database is shared.
    if let Some(changes) = app.store.changes() {
        tokio::spawn(crate::app::follow_changes(app.clone(), changes));
    }
    // The AI's jobs, where instances share them.
    tokio::spawn(crate::jobs::keep_claims(
        app.store.clone(),
        app.jobs.clone(),
        app.stopping.subscribe(),
    ));
    tokio::spawn(crate::change::take_over(app.clone()));
    // Running clocks in the database: their flags fall on time.
    tokio::spawn(crate::change::keep_clocks(app.clone()));
    tokio::spawn(crate::review::review_worker(app.clone(), review_queue));
    tokio::spawn(crate::lobby::upkeep(app.clone()));
    tokio::spawn(crate::notes::sweep(app.clone()));
    let stopping = app.stopping.clone();
    // Outermost first: the host check and headers, then (behind a proxy)
    // the client's requests in progress; each route takes its rate
    // limit's token itself (api::routes).
    let router = crate::api::router(app.clone())
        .layer(axum::middleware::from_fn_with_state(
            connections,
            limits::hold,
        ))
        .layer(axum::middleware::from_fn_with_state(hosts, security::guard))
        // Outermost: refusals of the layers above are counted too.
        .layer(axum::middleware::from_fn_with_state(
            app.clone(),
            crate::api::ops::count_requests,
        ));
    ready(addr);
    Ok(conn::serve(listener, router, options, shutdown_signal(), stopping).await)
}
fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// This instance's name in the job table: host, process and a few random
/// letters (a restarted process with the same id is another instance).
fn instance_name(rng: &mut StdRng) -> String {
    use rand::Rng;
    let host = std::fs::read_to_string("/proc/sys/kernel/hostname")
        .ok()
        .map(|h| h.trim().to_string())
        .filter(|h| !h.is_empty())
        .unwrap_or_else(|| "punct".to_string());
    let salt: u32 = rng.random();
    format!("{host}-{}-{salt:08x}", std::process::id())
}

pub(crate) async fn shutdown_signal() {
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
}
