//! A small HTTP/1.1 server for the hall, on the standard library: a thread
//! a connection, one request a connection (`Connection: close`), bounded
//! headers and bodies, timeouts, and a cap on connections at once. Enough
//! for a hall's laptop, its projector and a few hundred phones; nothing
//! here panics on what a client sends.

use std::io::{self, BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// Largest request head (request line and headers).
const MAX_HEAD: usize = 16 * 1024;
/// Largest request body: a claim or a game's settings.
pub const MAX_BODY: usize = 16 * 1024;
/// Connections served at once; more are told to come back (503).
const MAX_CONNECTIONS: usize = 2048;

/// A request as the routes see it.
pub struct Request {
    pub method: String,
    pub path: String,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Request {
    /// A header's value (names compared without case).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// Writes a whole response and closes.
pub fn respond(
    stream: &mut TcpStream,
    status: u16,
    content_type: &str,
    body: &[u8],
) -> io::Result<()> {
    let head = format!(
        "HTTP/1.1 {status} {}\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\nCache-Control: no-store\r\n\
         X-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n",
        reason(status),
        body.len()
    );
    stream.write_all(head.as_bytes())?;
    stream.write_all(body)?;
    stream.flush()
}

fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        201 => "Created",
        400 => "Bad Request",
        401 => "Unauthorized",
        404 => "Not Found",
        405 => "Method Not Allowed",
        409 => "Conflict",
        413 => "Payload Too Large",
        431 => "Request Header Fields Too Large",
        503 => "Service Unavailable",
        _ => "Error",
    }
}

/// A JSON error body: `{"error": "…"}`.
pub fn error_body(message: &str) -> Vec<u8> {
    serde_json::json!({ "error": message })
        .to_string()
        .into_bytes()
}

/// Serves `listener` for ever, each request to `handle` on a thread of its own.
pub fn serve(listener: TcpListener, handle: Arc<dyn Fn(Request, TcpStream) + Send + Sync>) {
    let open = Arc::new(AtomicUsize::new(0));
    for stream in listener.incoming() {
        let Ok(mut stream) = stream else { continue };
        if open.load(Ordering::Relaxed) >= MAX_CONNECTIONS {
            let _ = respond(
                &mut stream,
                503,
                "application/json",
                &error_body("too many connections; try again"),
            );
            continue;
        }
        open.fetch_add(1, Ordering::Relaxed);
        let (handle, counter) = (handle.clone(), open.clone());
        let spawned = std::thread::Builder::new()
            .name("hall-connection".into())
            .spawn(move || {
                let _ = stream.set_read_timeout(Some(Duration::from_secs(10)));
                let _ = stream.set_write_timeout(Some(Duration::from_secs(10)));
                match read_request(&mut stream) {
                    Ok(request) => handle(request, stream),
                    Err((status, message)) => {
                        let _ = respond(
                            &mut stream,
                            status,
                            "application/json",
                            &error_body(&message),
                        );
                        // Read what the client still sends (a refused body),
                        // so closing does not reset the connection before it
                        // has read the answer.
                        let _ = stream.shutdown(std::net::Shutdown::Write);
                        let _ = stream.set_read_timeout(Some(Duration::from_secs(1)));
                        let _ = io::copy(&mut (&mut stream).take(1 << 20), &mut io::sink());
                    }
                }
                counter.fetch_sub(1, Ordering::Relaxed);
            });
        if spawned.is_err() {
            open.fetch_sub(1, Ordering::Relaxed);
        }
    }
}

fn read_request(stream: &mut TcpStream) -> Result<Request, (u16, String)> {
    let bad = |m: &str| (400, m.to_string());
    let mut reader = BufReader::new(
        stream
            .try_clone()
            .map_err(|e| (400, e.to_string()))?
            .take(MAX_HEAD as u64),
    );
    let mut line = String::new();
    reader
        .read_line(&mut line)
        .map_err(|_| bad("unreadable request"))?;
    let mut parts = line.split_whitespace();
    let (Some(method), Some(target), Some(_version)) = (parts.next(), parts.next(), parts.next())
    else {
        return Err(bad("not an HTTP request"));
    };
    let (method, path) = (
        method.to_string(),
        target.split('?').next().unwrap_or("/").to_string(),
    );
    let mut headers = Vec::new();
    loop {
        let mut h = String::new();
        let n = reader
            .read_line(&mut h)
            .map_err(|_| bad("unreadable headers"))?;
        if n == 0 && !h.ends_with('\n') {
            return Err((431, "request headers too large or cut short".into()));
        }
        let h = h.trim_end();
        if h.is_empty() {
            break;
        }
        let (name, value) = h
            .split_once(':')
            .ok_or_else(|| bad("a header without a colon"))?;
        headers.push((name.trim().to_string(), value.trim().to_string()));
    }
    let length = headers
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case("content-length"))
        .map(|(_, v)| {
            v.parse::<usize>()
                .map_err(|_| bad("Content-Length is not a number"))
        })
        .transpose()?
        .unwrap_or(0);
    if length > MAX_BODY {
        return Err((
            413,
            format!("a body of {length} bytes; the hall takes at most {MAX_BODY}"),
        ));
    }
    let mut body = reader.buffer().to_vec();
    let mut rest = reader.into_inner().into_inner();
    body.truncate(length);
    if body.len() < length {
        let mut more = vec![0u8; length - body.len()];
        rest.read_exact(&mut more)
            .map_err(|_| bad("the body is shorter than its Content-Length"))?;
        body.extend(more);
    }
    Ok(Request {
        method,
        path,
        headers,
        body,
    })
}
