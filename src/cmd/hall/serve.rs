//! The hall's server: axum on tokio (hyper underneath), plain HTTP or TLS
//! (rustls). Routes are thin: a request becomes a call on the library's
//! `hall::api::Api`, its answer JSON. What the server adds is what faces
//! the network: a deadline for a request's head (hyper's header timeout,
//! which also closes idle kept-alive connections) and for its body, bounded
//! heads and bodies, caps on connections and live streams in all and from
//! one address (with slots kept for the console's machine), the pages'
//! security headers, and live streams (server-sent events) held as tasks,
//! not threads, sent each change of the state as a patch to it.

use super::routes::{events, route, App};
use super::slots::Slots;
use anyhow::{Context, Result};
use axum::extract::ConnectInfo;
use axum::http::HeaderValue;
use axum::response::Response;
use bingomint::hall::api::{Api, DEADLINE, ROUTES};
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;
use tokio::io::AsyncWriteExt;
use tokio::sync::broadcast;

/// The largest request head (hyper takes 8 KiB at least).
const MAX_HEAD: usize = 16 * 1024;

/// Serves `api` on `listener` until the process ends; over TLS when `tls`
/// is given.
pub fn serve(
    listener: std::net::TcpListener,
    api: Api,
    tls: Option<Arc<rustls::ServerConfig>>,
) -> Result<()> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        // More workers than cores: while some write a call to every live
        // stream, others accept and answer claims (measured in
        // docs/hall.md: p99 of claims with 200 streams 20–24 ms on 2
        // workers, 10–11 ms on 4).
        .worker_threads(4)
        .thread_name("hall")
        .build()
        .context("cannot start the hall's server")?;
    runtime.block_on(run(listener, api, tls))
}

async fn run(
    listener: std::net::TcpListener,
    api: Api,
    tls: Option<Arc<rustls::ServerConfig>>,
) -> Result<()> {
    listener.set_nonblocking(true)?;
    let listener = tokio::net::TcpListener::from_std(listener)?;
    let (viewers, _) = broadcast::channel(64);
    let app = App {
        api: Arc::new(api),
        viewers,
        streams: Slots::streams(),
    };
    let sender = app.viewers.clone();
    app.api.watch(move |update| drop(sender.send(update)));
    let router = api_routes()
        .route("/api/events", axum::routing::get(events))
        .fallback(route)
        .with_state(app)
        .layer(axum::middleware::map_response(secure));
    let tls = tls.map(tokio_rustls::TlsAcceptor::from);
    let slots = Slots::connections();
    loop {
        let Ok((tcp, peer)) = listener.accept().await else {
            // Out of descriptors, most likely: give connections time to close.
            tokio::time::sleep(Duration::from_millis(50)).await;
            continue;
        };
        let Some(slot) = slots.take(peer.ip()) else {
            tokio::spawn(turn_away(tcp, tls.is_some()));
            continue;
        };
        let (router, tls) = (router.clone(), tls.clone());
        tokio::spawn(async move {
            let _slot = slot;
            let _ = tcp.set_nodelay(true);
            match tls {
                Some(acceptor) => {
                    if let Ok(Ok(stream)) =
                        tokio::time::timeout(DEADLINE, acceptor.accept(tcp)).await
                    {
                        connection(stream, router, peer).await;
                    }
                }
                None => connection(tcp, router, peer).await,
            }
        });
    }
}

/// Serves one connection from `peer`: HTTP/1.1, its head within
/// [`DEADLINE`] and at most [`MAX_HEAD`] bytes.
async fn connection<S>(stream: S, router: axum::Router, peer: SocketAddr)
where
    S: tokio::io::AsyncRead + tokio::io::AsyncWrite + Unpin + Send + 'static,
{
    // Each request carries the client's address (for the caps on claims).
    let router = router.layer(axum::Extension(ConnectInfo(peer)));
    let service = hyper_util::service::TowerToHyperService::new(router);
    let _ = hyper::server::conn::http1::Builder::new()
        .timer(hyper_util::rt::TokioTimer::new())
        .header_read_timeout(DEADLINE)
        .max_buf_size(MAX_HEAD)
        .serve_connection(hyper_util::rt::TokioIo::new(stream), service)
        .await;
}

/// A connection past the caps: told so (in plain HTTP), and closed.
async fn turn_away(mut tcp: tokio::net::TcpStream, tls: bool) {
    if !tls {
        let body = r#"{"error":"too many connections from this address (or in all); close some and try again"}"#;
        let answer = format!(
            "HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        );
        let _ =
            tokio::time::timeout(Duration::from_secs(1), tcp.write_all(answer.as_bytes())).await;
    }
    let _ = tcp.shutdown().await;
}

/// Every answer's security headers: no caching, no sniffing, no framing,
/// and a Content-Security-Policy that runs only the hall's own script files
/// (no inline script: text a client sent can never run as code).
const SECURITY: [(&str, &str); 5] = [
    ("cache-control", "no-store"),
    ("x-content-type-options", "nosniff"),
    ("x-frame-options", "DENY"),
    ("referrer-policy", "no-referrer"),
    (
        "content-security-policy",
        "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; \
         img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    ),
];

/// Adds the security headers to every answer.
async fn secure(mut response: Response) -> Response {
    let headers = response.headers_mut();
    for (name, value) in SECURITY {
        headers.insert(name, HeaderValue::from_static(value));
    }
    response
}

/// A route for each path of the API's table. Its methods, keys and bodies
/// are the API's to check (a method a path does not take is its 405);
/// what no route takes is a page, or the API's 404.
fn api_routes() -> axum::Router<App> {
    let mut paths: Vec<&str> = ROUTES.iter().map(|r| r.path).collect();
    paths.sort_unstable();
    paths.dedup();
    (paths.into_iter()).fold(axum::Router::new(), |router, path| {
        router.route(path, axum::routing::any(route))
    })
}
