//! Listening, and stopping on a signal.

use crate::app::App;
use crate::store::Store;
use crate::{routes, Config};
use rand::rngs::StdRng;
use rand::SeedableRng;
use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::Arc;
use tokio::sync::Semaphore;

pub async fn serve(config: Config, ready: impl FnOnce(SocketAddr)) -> Result<(), String> {
    let store = Store::open(&config.data_dir, config.sync)?;
    let listener = tokio::net::TcpListener::bind((config.bind, config.port))
        .await
        .map_err(|e| format!("cannot listen on {}:{}: {e}", config.bind, config.port))?;
    let addr = listener
        .local_addr()
        .map_err(|e| format!("cannot read the listening address: {e}"))?;
    let app = Arc::new(App {
        ai_permits: Arc::new(Semaphore::new(config.ai_workers.max(1))),
        config,
        store,
        games: std::sync::Mutex::new(HashMap::new()),
        rng: std::sync::Mutex::new(StdRng::from_os_rng()),
        stopping: tokio::sync::watch::channel(false).0,
    });
    crate::ai::resume_ai_games(&app).await;
    ready(addr);
    let stopping = app.stopping.clone();
    // Small messages (an ack, then a state) go out at once, not after
    // Nagle's wait for the peer's acknowledgement.
    let listener = axum::serve::ListenerExt::tap_io(listener, |tcp| {
        let _ = tcp.set_nodelay(true);
    });
    axum::serve(
        listener,
        routes::router(app).into_make_service_with_connect_info::<SocketAddr>(),
    )
    .with_graceful_shutdown(async move {
        shutdown_signal().await;
        let _ = stopping.send(true);
    })
    .await
    .map_err(|e| format!("server error: {e}"))
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
