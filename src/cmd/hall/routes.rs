//! The hall's routes: a page, the live stream, or the API, each a thin
//! turn of a request into a call of `hall::api::Api` and its answer into
//! JSON.

use axum::body::{Body, Bytes};
use axum::extract::{ConnectInfo, State};
use axum::http::{header, HeaderMap, Method, StatusCode, Uri};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use bingomint::hall::api::{Api, Reply, Request, Update, DEADLINE, MAX_BODY};
use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::broadcast;

/// What every route shares.
#[derive(Clone)]
pub struct App {
    pub api: Arc<Api>,
    /// Each change of the state, to every live stream.
    pub viewers: broadcast::Sender<Arc<Update>>,
    /// The live streams open, under their caps.
    pub streams: Arc<super::slots::Slots>,
}

/// A JSON answer.
fn json(status: u16, body: String) -> Response {
    let status = StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    (status, [(header::CONTENT_TYPE, "application/json")], body).into_response()
}

/// A refusal of the server's own (the body, the live streams).
fn error(status: u16, message: &str) -> Response {
    let reply = Reply::Error {
        error: message.to_string(),
    };
    json(status, reply.json())
}

/// Every path but the live stream: a page, or the API.
pub async fn route(
    State(app): State<App>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    method: Method,
    uri: Uri,
    headers: HeaderMap,
    body: Body,
) -> Response {
    if method == Method::GET {
        if let Some((kind, page)) = bingomint::hall::api::page(uri.path()) {
            return ([(header::CONTENT_TYPE, kind)], page).into_response();
        }
    }
    let bytes = match read_body(body).await {
        Ok(bytes) => bytes,
        Err(refused) => return refused,
    };
    let authorization = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .map(str::to_string);
    let content_type = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .map(str::to_string);
    let api = app.api.clone();
    let path = uri.path().to_string();
    // The hall's work (a log line fsynced, a claim judged on the card
    // files) blocks: off the server's threads.
    let answered = tokio::task::spawn_blocking(move || {
        super::status::respond(api.answer(&Request {
            method: method.as_str(),
            path: &path,
            authorization: authorization.as_deref(),
            content_type: content_type.as_deref(),
            body: &bytes,
            client: Some(peer.ip()),
        }))
    })
    .await;
    match answered {
        Ok((status, body)) => json(status, body),
        Err(_) => error(500, "the hall failed to answer"),
    }
}

/// A request's body: at most [`MAX_BODY`] bytes, within [`DEADLINE`].
async fn read_body(body: Body) -> Result<Bytes, Response> {
    match tokio::time::timeout(DEADLINE, axum::body::to_bytes(body, MAX_BODY)).await {
        Ok(Ok(bytes)) => Ok(bytes),
        Ok(Err(_)) => Err(error(
            413,
            &format!("the body is over {MAX_BODY} bytes (or was cut short)"),
        )),
        Err(_) => Err(error(
            408,
            &format!(
                "the body took longer than {} s to arrive",
                DEADLINE.as_secs()
            ),
        )),
    }
}

/// `GET /api/events`: the state now, whole, then each change as a patch
/// to it (see `hall::api::Update`); a viewer too slow for the changes is
/// sent the state whole again. A comment every 15 s keeps the stream open
/// through proxies.
pub async fn events(
    State(app): State<App>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
) -> Response {
    let Some(slot) = app.streams.take(peer.ip()) else {
        return error(
            503,
            "too many live streams from this address (or in all): close some and try again",
        );
    };
    // Listen first, then read the state: a change that falls between comes
    // again on the channel, and is passed over by its number.
    let changes = app.viewers.subscribe();
    let api = app.api.clone();
    let Ok((sent, first)) = tokio::task::spawn_blocking(move || api.first()).await else {
        return error(500, "the hall failed to answer");
    };
    // The stream holds its slot until the viewer goes.
    let stream = futures_util::stream::unfold(
        (Some(first), sent, changes, slot),
        |(first, mut sent, mut changes, slot)| async move {
            let text = match first {
                Some(text) => text,
                None => loop {
                    match changes.recv().await {
                        Ok(update) => {
                            if let Some(text) = update.for_viewer(sent) {
                                sent = update.seq;
                                break text.clone();
                            }
                        }
                        // Changes were missed: the next is sent whole.
                        Err(broadcast::error::RecvError::Lagged(_)) => {}
                        Err(broadcast::error::RecvError::Closed) => return None,
                    }
                },
            };
            let event = Ok::<_, Infallible>(Event::default().data(text.as_str()));
            Some((event, (None, sent, changes, slot)))
        },
    );
    Sse::new(stream)
        .keep_alive(KeepAlive::new().interval(Duration::from_secs(15)))
        .into_response()
}
