//! `match --publish URL`: sends the match's events (games started, moves, ends, the
//! standing) to a `breakthrough serve` page as JSON `POST`s to `URL/api/live`. A thread of
//! its own does the sending, so a slow or absent server never slows the games; what
//! cannot be delivered is logged and dropped.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream, ToSocketAddrs};
use std::sync::Mutex;
use std::sync::mpsc;
use std::thread::JoinHandle;
use std::time::Duration;

use serde_json::Value;

/// How long one delivery may take.
const TIMEOUT: Duration = Duration::from_secs(2);

/// A `--publish` address that cannot be used.
#[derive(Debug, thiserror::Error)]
pub(crate) enum PublishError {
    #[error("--publish '{0}': expected http://HOST:PORT")]
    Address(String),
    #[error("--publish '{url}': cannot resolve the host: {error}")]
    Resolve { url: String, error: std::io::Error },
}

pub(crate) struct Publisher {
    tx: Mutex<Option<mpsc::Sender<Value>>>,
    sender: Mutex<Option<JoinHandle<()>>>,
}

impl Publisher {
    /// A publisher to `url` (`http://HOST:PORT`, with or without a final `/`, and
    /// `?token=T` for a server that needs its token: the address it printed).
    pub(crate) fn start(url: &str) -> Result<Publisher, PublishError> {
        let (address, query) = url.split_once('?').unwrap_or((url, ""));
        let token: Option<String> = query
            .split('&')
            .find_map(|kv| kv.strip_prefix("token="))
            .map(str::to_string);
        let rest = address
            .strip_prefix("http://")
            .ok_or_else(|| PublishError::Address(url.into()))?
            .trim_end_matches('/');
        if rest.is_empty() || rest.contains('/') || !rest.contains(':') {
            return Err(PublishError::Address(url.into()));
        }
        let host = rest.to_string();
        let addr: SocketAddr = host
            .to_socket_addrs()
            .map_err(|error| PublishError::Resolve {
                url: url.into(),
                error,
            })?
            .next()
            .ok_or_else(|| PublishError::Address(url.into()))?;
        let (tx, rx) = mpsc::channel::<Value>();
        let sender = std::thread::spawn(move || {
            let mut failing = false;
            for event in rx {
                match post(addr, &host, token.as_deref(), &event.to_string()) {
                    Ok(()) => failing = false,
                    Err(e) if !failing => {
                        log::warn!(
                            "publish to http://{host}: {e} (events are dropped until it answers)"
                        );
                        failing = true;
                    }
                    Err(_) => {}
                }
            }
        });
        Ok(Publisher {
            tx: Mutex::new(Some(tx)),
            sender: Mutex::new(Some(sender)),
        })
    }

    pub(crate) fn send(&self, event: Value) {
        if let Some(tx) = self.tx.lock().unwrap_or_else(|e| e.into_inner()).as_ref() {
            let _ = tx.send(event);
        }
    }

    /// Delivers what is queued (each delivery bounded by its timeout) and stops.
    pub(crate) fn finish(&self) {
        self.tx.lock().unwrap_or_else(|e| e.into_inner()).take();
        if let Some(handle) = self.sender.lock().unwrap_or_else(|e| e.into_inner()).take() {
            let _ = handle.join();
        }
    }
}

/// One `POST /api/live` with a JSON body (and the server's token); an answer other than
/// 2xx is an error.
fn post(addr: SocketAddr, host: &str, token: Option<&str>, body: &str) -> Result<(), String> {
    let mut stream = TcpStream::connect_timeout(&addr, TIMEOUT).map_err(|e| e.to_string())?;
    stream
        .set_read_timeout(Some(TIMEOUT))
        .map_err(|e| e.to_string())?;
    stream
        .set_write_timeout(Some(TIMEOUT))
        .map_err(|e| e.to_string())?;
    let token = token.map_or(String::new(), |t| format!("X-Token: {t}\r\n"));
    let request = format!(
        "POST /api/live HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\n{token}Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    stream
        .write_all(request.as_bytes())
        .map_err(|e| e.to_string())?;
    let mut answer = Vec::new();
    let _ = stream.take(64 * 1024).read_to_end(&mut answer);
    let text = String::from_utf8_lossy(&answer);
    let status = text.split_whitespace().nth(1).unwrap_or("");
    if status.starts_with('2') {
        Ok(())
    } else {
        let detail = text.split("\r\n\r\n").nth(1).unwrap_or("").trim();
        Err(format!("answered '{status}' {detail}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_are_checked() {
        for bad in [
            "127.0.0.1:8080",
            "https://x:1",
            "http://",
            "http://host",
            "http://h:1/path",
        ] {
            assert!(
                matches!(Publisher::start(bad), Err(PublishError::Address(_))),
                "{bad}"
            );
        }
        let p = Publisher::start("http://127.0.0.1:9/").unwrap();
        // Nobody listens on port 9: the event is dropped, finishing does not hang.
        p.send(serde_json::json!({"type": "standing"}));
        p.finish();
    }
}
