//! `breakthrough serve`: one page to play against the engine, analyse, and watch matches
//! live, served from the binary. HTTP by axum on tokio (the `serve` feature), each
//! connection served by hyper with a header timeout; the games and the engines they share
//! live in `game.rs` as plain threads, the live matches in `live.rs`. Limits (games,
//! engines, connections, event streams, body size, time per request) are in [`Settings`]
//! and engine.md's "Limits and failure behaviour".
//!
//! The API (JSON bodies and answers; errors are `{"error": "..."}` with a 4xx status):
//! - `POST /api/games` starts a game (see `game::NewGameRequest`) and answers its
//!   state; `GET /api/games/{id}` the state; `GET /api/games/{id}/events` streams the
//!   state, the engine's `info` and the changes as server-sent events;
//! - `POST /api/games/{id}/move {"move": "a2a3"}`, `.../takeback`, `.../analyse
//!   {"lines": N, "ply": P}` (0 lines stops), `.../level {"level": L}`, `GET
//!   .../pgn`;
//! - `POST /api/live` takes a match runner's event; `GET /api/live` the snapshot,
//!   `GET /api/live/events` the stream.

mod game;
mod live;

use std::collections::HashMap;
use std::convert::Infallible;
use std::net::{IpAddr, SocketAddr};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::Router;
use axum::body::{Body, Bytes};
use axum::extract::{DefaultBodyLimit, Path, Request, State};
use axum::http::{Method, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use serde_json::{Value, json};
use tokio::sync::broadcast;
use tokio_stream::wrappers::BroadcastStream;
use tokio_stream::{Stream, StreamExt};

use crate::util::lines::outln;
pub(crate) use game::Limits;
use game::{AnalyseRequest, ApiError, LevelRequest, MoveRequest, NewGame, Sessions};
use live::Live;

const INDEX_HTML: &str = include_str!("page/index.html");
const APP_JS: &str = include_str!("page/app.js");
const STYLE_CSS: &str = include_str!("page/style.css");

/// Why the server could not start.
#[derive(Debug, thiserror::Error)]
pub(crate) enum ServeError {
    #[error("cannot start the server's runtime: {0}")]
    Runtime(std::io::Error),
    #[error("cannot listen on {addr}: {error}")]
    Bind {
        addr: SocketAddr,
        error: std::io::Error,
    },
    #[error("the server stopped: {0}")]
    Serve(std::io::Error),
    #[error("cannot start: {0}")]
    Engines(String),
}

/// How the server runs: where, for whom, and within which limits.
pub(crate) struct Settings {
    pub(crate) addr: SocketAddr,
    pub(crate) open: bool,
    pub(crate) limits: Limits,
    /// Required of every request that changes something (`None`: none required).
    pub(crate) token: Option<String>,
    /// The game store (SQLite); `:memory:` keeps nothing.
    pub(crate) db: std::path::PathBuf,
}

/// Request bodies larger than this are refused (413).
const MAX_BODY: usize = 64 << 10;
/// A request's headers must arrive within this, its handling end within [`REQUEST_TIME`].
const HEADER_TIME: Duration = Duration::from_secs(10);
const REQUEST_TIME: Duration = Duration::from_secs(10);
/// Connections served at once; more are answered 503 and closed.
const MAX_CONNECTIONS: usize = 1024;
/// Event streams one client address holds at once; more are refused (429).
const MAX_STREAMS: usize = 16;

struct App {
    sessions: Arc<Sessions>,
    live: Live,
    token: Option<String>,
    /// Open event streams per client address.
    streams: Mutex<HashMap<IpAddr, usize>>,
}

type Shared = Arc<App>;

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let status = match self {
            ApiError::BadRequest(_) => StatusCode::BAD_REQUEST,
            ApiError::NoSuchGame(_) | ApiError::NotFound(_) => StatusCode::NOT_FOUND,
            ApiError::Conflict(_) => StatusCode::CONFLICT,
            ApiError::Busy(_) | ApiError::Full(_) => StatusCode::SERVICE_UNAVAILABLE,
            ApiError::Closed(_) => StatusCode::GONE,
            ApiError::Unauthorized(_) => StatusCode::UNAUTHORIZED,
            ApiError::TooMany(_) => StatusCode::TOO_MANY_REQUESTS,
            ApiError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        };
        (status, axum::Json(json!({"error": self.to_string()}))).into_response()
    }
}

/// A token of 32 hex digits from the clock and the process (not a cryptographic
/// generator: good against other users of a network, not against one who can guess when
/// the server started to the nanosecond).
pub(crate) fn new_token() -> String {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    let mut rng = crate::util::rng::Rng::new(nanos ^ (u64::from(std::process::id()) << 32));
    format!("{:016x}{:016x}", rng.next_u64(), rng.next_u64())
}

/// Serves until interrupted (Ctrl-C). Prints the page's address on stdout (with the token
/// when one is required).
pub(crate) fn run(settings: Settings) -> Result<(), ServeError> {
    let Settings {
        addr,
        open,
        limits,
        token,
        db,
    } = settings;
    let store = game::Store::open(&db).map_err(|e| ServeError::Engines(e.to_string()))?;
    return_freed_memory();
    // Requests that lock a game run on the blocking pool: a few threads, soon let go,
    // so a burst of clients costs no lasting threads (or their allocator arenas).
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .max_blocking_threads(16)
        .thread_keep_alive(Duration::from_secs(1))
        .enable_all()
        .build()
        .map_err(ServeError::Runtime)?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(addr)
            .await
            .map_err(|error| ServeError::Bind { addr, error })?;
        let bound = listener.local_addr().map_err(ServeError::Serve)?;
        let url = match &token {
            Some(t) => format!("http://{bound}/?token={t}"),
            None => format!("http://{bound}/"),
        };
        outln!("serving on {url}");
        if !bound.ip().is_loopback() {
            log::warn!(
                "listening on {bound}: other machines can reach the page; changes need the token"
            );
        }
        if open {
            open_browser(&url);
        }
        let (sessions, answers) =
            Sessions::new(limits, Some(store)).map_err(|e| ServeError::Engines(e.to_string()))?;
        let keeper = sessions.clone();
        std::thread::Builder::new()
            .name("sessions".into())
            .spawn(move || keeper.run(answers))
            .map_err(ServeError::Serve)?;
        let app = Arc::new(App {
            sessions,
            live: Live::new(),
            token,
            streams: Mutex::new(HashMap::new()),
        });
        accept(listener, router(app)).await
    })
}

/// Serves each connection with hyper (HTTP/1.1, headers within [`HEADER_TIME`]), at most
/// [`MAX_CONNECTIONS`] at once, until Ctrl-C.
async fn accept(listener: tokio::net::TcpListener, router: Router) -> Result<(), ServeError> {
    use hyper_util::rt::{TokioIo, TokioTimer};
    use tower::ServiceExt;
    let permits = Arc::new(tokio::sync::Semaphore::new(MAX_CONNECTIONS));
    let mut interrupted = std::pin::pin!(tokio::signal::ctrl_c());
    loop {
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(a) => a,
                // Out of file descriptors and the like: wait, then go on serving.
                Err(e) => {
                    log::warn!("accept failed: {e}");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            _ = &mut interrupted => return Ok(()),
        };
        let Ok(permit) = permits.clone().try_acquire_owned() else {
            tokio::spawn(refuse_connection(stream));
            continue;
        };
        let _ = stream.set_nodelay(true);
        let router = router.clone();
        tokio::spawn(async move {
            let service = hyper::service::service_fn(
                move |mut request: hyper::Request<hyper::body::Incoming>| {
                    request
                        .extensions_mut()
                        .insert(axum::extract::ConnectInfo(peer));
                    router.clone().oneshot(request.map(Body::new))
                },
            );
            let served = hyper::server::conn::http1::Builder::new()
                .timer(TokioTimer::new())
                .header_read_timeout(HEADER_TIME)
                .serve_connection(TokioIo::new(stream), service)
                .await;
            if let Err(e) = served {
                log::debug!("connection from {peer}: {e}");
            }
            drop(permit);
        });
    }
}

/// A connection beyond [`MAX_CONNECTIONS`]: one 503 answer, then closed.
async fn refuse_connection(mut stream: tokio::net::TcpStream) {
    use tokio::io::AsyncWriteExt;
    let body = r#"{"error":"the server is serving its most connections: try again in a moment"}"#;
    let answer = format!(
        "HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
        body.len()
    );
    let _ = tokio::time::timeout(Duration::from_secs(2), stream.write_all(answer.as_bytes())).await;
}

fn open_browser(url: &str) {
    let command = if cfg!(target_os = "macos") {
        "open"
    } else if cfg!(windows) {
        "explorer"
    } else {
        "xdg-open"
    };
    if let Err(e) = std::process::Command::new(command)
        .arg(url)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
    {
        eprintln!("cannot open a browser ({command}: {e}); open {url} by hand");
    }
}

fn router(app: Shared) -> Router {
    Router::new()
        .route(
            "/",
            get(|| async { page(INDEX_HTML, "text/html; charset=utf-8") }),
        )
        .route(
            "/app.js",
            get(|| async { page(APP_JS, "text/javascript; charset=utf-8") }),
        )
        .route(
            "/style.css",
            get(|| async { page(STYLE_CSS, "text/css; charset=utf-8") }),
        )
        .route("/api/health", get(health))
        .route("/api/games", post(new_game))
        .route("/api/games/{id}", get(game_state))
        .route("/api/games/{id}/events", get(game_events))
        .route("/api/games/{id}/move", post(play_move))
        .route("/api/games/{id}/takeback", post(takeback))
        .route("/api/games/{id}/analyse", post(analyse))
        .route("/api/games/{id}/level", post(set_level))
        .route("/api/games/{id}/pgn", get(game_pgn))
        .route("/api/live", get(live_snapshot).post(live_publish))
        .route("/api/live/events", get(live_events))
        .fallback(|uri: axum::http::Uri| async move {
            ApiError::NotFound(format!("no such page or API call: {uri}"))
        })
        .method_not_allowed_fallback(
            |method: axum::http::Method, uri: axum::http::Uri| async move {
                let error = json!({"error": format!("{method} is not how {uri} is called")});
                (StatusCode::METHOD_NOT_ALLOWED, axum::Json(error))
            },
        )
        .layer(middleware::from_fn_with_state(app.clone(), guard))
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .with_state(app)
}

/// Every request: the token where one is required for changes, a time limit, and errors
/// as one line of JSON (a body over the limit is 413, a request too slow 408).
async fn guard(State(app): State<Shared>, request: Request, next: Next) -> Response {
    if request.method() != Method::GET
        && request.method() != Method::HEAD
        && let Some(token) = &app.token
        && !carries_token(&request, token)
    {
        return ApiError::Unauthorized(
            "this server needs its token for changes: open the page by the address it printed (…/?token=…)"
                .into(),
        )
        .into_response();
    }
    let answer = match tokio::time::timeout(REQUEST_TIME, next.run(request)).await {
        Ok(answer) => answer,
        Err(_) => {
            let error = json!({"error": format!("the request took longer than {} s", REQUEST_TIME.as_secs())});
            return (StatusCode::REQUEST_TIMEOUT, axum::Json(error)).into_response();
        }
    };
    let is_json = answer.headers().get(header::CONTENT_TYPE).is_some_and(|v| {
        v.as_bytes().starts_with(b"application/json")
            || v.as_bytes().starts_with(b"text/event-stream")
    });
    let status = answer.status();
    if status.is_success() || is_json || !(status.is_client_error() || status.is_server_error()) {
        return answer;
    }
    // axum's own refusals (a body too large, a bad header) come as plain text.
    let text = match status {
        StatusCode::PAYLOAD_TOO_LARGE => {
            format!("the request body is larger than {} bytes", MAX_BODY)
        }
        other => format!("the request was refused ({other})"),
    };
    let mut json = axum::Json(json!({"error": text})).into_response();
    *json.status_mut() = status;
    json
}

/// Whether `request` carries `token`: `X-Token: T`, `Authorization: Bearer T` or `?token=T`.
fn carries_token(request: &Request, token: &str) -> bool {
    let headers = request.headers();
    let header_is = |name: header::HeaderName, prefix: &str| {
        headers
            .get(name)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.strip_prefix(prefix))
            .is_some_and(|v| v == token)
    };
    let query = request.uri().query().unwrap_or("");
    header_is(header::HeaderName::from_static("x-token"), "")
        || header_is(header::AUTHORIZATION, "Bearer ")
        || query
            .split('&')
            .any(|kv| kv.strip_prefix("token=") == Some(token))
}

fn page(body: &'static str, kind: &'static str) -> Response {
    (
        [
            (header::CONTENT_TYPE, kind),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        body,
    )
        .into_response()
}

/// The request body as a JSON object (an empty body is an empty object).
fn body_json(body: &Bytes) -> Result<Value, ApiError> {
    if body.iter().all(u8::is_ascii_whitespace) {
        return Ok(json!({}));
    }
    match serde_json::from_slice::<Value>(body) {
        Ok(v @ Value::Object(_)) => Ok(v),
        Ok(_) => Err(ApiError::BadRequest(
            "the request body must be a JSON object".into(),
        )),
        Err(e) => Err(ApiError::BadRequest(format!(
            "the request body is not JSON: {e}"
        ))),
    }
}

fn game_id(text: &str) -> Result<u64, ApiError> {
    text.parse()
        .map_err(|_| ApiError::BadRequest(format!("'{text}' is not a game number")))
}

/// Runs `work` off the async threads: it may wait for a search to stop.
async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    tokio::task::spawn_blocking(work)
        .await
        .map_err(|e| ApiError::Internal(format!("the request failed: {e}")))?
}

/// How long jemalloc keeps a freed page before giving it back to the system, in ms (its
/// default is 10 s): a burst of clients that leaves costs its memory about a second longer.
const FREED_PAGES_KEPT_MS: isize = 1000;

/// Has jemalloc give freed pages back to the system after [`FREED_PAGES_KEPT_MS`], from its
/// background thread (not only when the server next allocates): once clients leave and
/// their games close, memory comes back down to where it started.
fn return_freed_memory() {
    use tikv_jemalloc_ctl::{Access, AsName};
    let set = || -> Result<(), tikv_jemalloc_ctl::Error> {
        // Arenas made from now on, and arena 0, which the main thread has made already.
        b"arenas.dirty_decay_ms\0"
            .name()
            .write(FREED_PAGES_KEPT_MS)?;
        b"arena.0.dirty_decay_ms\0"
            .name()
            .write(FREED_PAGES_KEPT_MS)?;
        // Pages past that go back at once (MADV_DONTNEED), not lazily (MADV_FREE, still
        // counted in the process's memory until the system wants them).
        b"arenas.muzzy_decay_ms\0".name().write(0isize)?;
        b"arena.0.muzzy_decay_ms\0".name().write(0isize)?;
        tikv_jemalloc_ctl::background_thread::write(true)
    };
    if let Err(e) = set() {
        log::warn!("allocator: freed memory is given back slowly ({e})");
    }
}

/// What the allocator holds: bytes in use by the server and bytes resident for it (the
/// difference is freed memory not yet given back).
fn allocator_memory() -> Value {
    use tikv_jemalloc_ctl::{epoch, stats};
    let read = || -> Result<(usize, usize), tikv_jemalloc_ctl::Error> {
        epoch::advance()?;
        Ok((stats::allocated::read()?, stats::resident::read()?))
    };
    match read() {
        Ok((allocated, resident)) => json!({"allocated": allocated, "resident": resident}),
        Err(_) => Value::Null,
    }
}

async fn health(State(app): State<Shared>) -> Response {
    let (engines, searching) = app.sessions.engines();
    let limits = app.sessions.limits;
    let streams: usize = app.streams.lock().map_or(0, |s| s.values().sum());
    axum::Json(json!({
        "ok": true, "games": app.sessions.len(), "max_games": limits.games,
        "engines": engines, "searching": searching, "event_streams": streams,
        "token_required": app.token.is_some(), "memory": allocator_memory(),
    }))
    .into_response()
}

async fn new_game(State(app): State<Shared>, body: Bytes) -> Result<Response, ApiError> {
    let spec = NewGame::from_request(game::read(body_json(&body)?)?)?;
    let sessions = app.sessions.clone();
    let state = blocking(move || {
        let session = sessions.create(spec)?;
        let state = session.lock().state(session.id);
        Ok(state)
    })
    .await?;
    Ok((StatusCode::CREATED, axum::Json(state)).into_response())
}

async fn game_state(
    State(app): State<Shared>,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let session = app.sessions.get(game_id(&id)?)?;
    let state = session.lock().state(session.id);
    Ok(axum::Json(state).into_response())
}

async fn game_pgn(State(app): State<Shared>, Path(id): Path<String>) -> Result<Response, ApiError> {
    let session = app.sessions.get(game_id(&id)?)?;
    let pgn = session.lock().pgn();
    Ok((
        [(
            header::CONTENT_TYPE,
            "application/x-chess-pgn; charset=utf-8",
        )],
        pgn,
    )
        .into_response())
}

/// Runs a change to a game and answers its state afterwards.
async fn change(
    app: Shared,
    id: String,
    work: impl FnOnce(&Sessions, &game::Session) -> Result<(), ApiError> + Send + 'static,
) -> Result<Response, ApiError> {
    let session = app.sessions.get(game_id(&id)?)?;
    let sessions = app.sessions.clone();
    let state = blocking(move || {
        work(&sessions, &session)?;
        let state = session.lock().state(session.id);
        Ok(state)
    })
    .await?;
    Ok(axum::Json(state).into_response())
}

async fn play_move(
    State(app): State<Shared>,
    Path(id): Path<String>,
    body: Bytes,
) -> Result<Response, ApiError> {
    let request: MoveRequest = game::read(body_json(&body)?)?;
    change(app, id, move |sessions, session| {
        sessions.play(session, &request.text)
    })
    .await
}

async fn takeback(State(app): State<Shared>, Path(id): Path<String>) -> Result<Response, ApiError> {
    change(app, id, |sessions, session| sessions.takeback(session)).await
}

async fn analyse(
    State(app): State<Shared>,
    Path(id): Path<String>,
    body: Bytes,
) -> Result<Response, ApiError> {
    let request: AnalyseRequest = game::read(body_json(&body)?)?;
    let lines = request.lines.unwrap_or(1);
    let ply = request.ply.map(|p| p as usize);
    change(app, id, move |sessions, session| {
        sessions.analyse(session, lines, ply)
    })
    .await
}

async fn set_level(
    State(app): State<Shared>,
    Path(id): Path<String>,
    body: Bytes,
) -> Result<Response, ApiError> {
    let request: LevelRequest = game::read(body_json(&body)?)?;
    change(app, id, move |sessions, session| {
        sessions.set_level(session, request.level)
    })
    .await
}

/// One open event stream of a client address, counted while it lives.
struct StreamPass {
    app: Shared,
    ip: IpAddr,
}

impl StreamPass {
    /// A pass for `ip`, unless it holds [`MAX_STREAMS`] already.
    fn new(app: &Shared, ip: IpAddr) -> Result<StreamPass, ApiError> {
        let mut streams = app.streams.lock().unwrap_or_else(|e| e.into_inner());
        let open = streams.entry(ip).or_default();
        if *open >= MAX_STREAMS {
            return Err(ApiError::TooMany(format!(
                "{MAX_STREAMS} event streams are open from {ip} already: close one"
            )));
        }
        *open += 1;
        Ok(StreamPass {
            app: app.clone(),
            ip,
        })
    }
}

impl Drop for StreamPass {
    fn drop(&mut self) {
        let mut streams = self.app.streams.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(open) = streams.get_mut(&self.ip) {
            *open -= 1;
            if *open == 0 {
                streams.remove(&self.ip);
            }
        }
    }
}

/// Server-sent events: `first`, then everything sent on `rx`. The channel keeps at most
/// its last 256 events for a reader that does not keep up (a page too slow misses some
/// `info`; the next `state` brings it back in step), so a client that never reads costs
/// that and its socket's buffers, no more.
fn event_stream(
    first: Value,
    rx: broadcast::Receiver<String>,
    pass: StreamPass,
) -> Sse<impl Stream<Item = Result<Event, Infallible>>> {
    let first = tokio_stream::once(Ok(Event::default().data(first.to_string())));
    let rest = BroadcastStream::new(rx).filter_map(move |r| {
        let _held = &pass;
        r.ok().map(|text| Ok(Event::default().data(text)))
    });
    Sse::new(first.chain(rest)).keep_alive(KeepAlive::default())
}

/// The client's address (the connection's peer).
fn client(request_peer: Option<axum::Extension<axum::extract::ConnectInfo<SocketAddr>>>) -> IpAddr {
    request_peer.map_or(IpAddr::from([127, 0, 0, 1]), |c| c.0.0.ip())
}

async fn game_events(
    State(app): State<Shared>,
    peer: Option<axum::Extension<axum::extract::ConnectInfo<SocketAddr>>>,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let session = app.sessions.get(game_id(&id)?)?;
    let pass = StreamPass::new(&app, client(peer))?;
    let rx = session.events.subscribe();
    let state = session.lock().state(session.id);
    Ok(event_stream(state, rx, pass).into_response())
}

async fn live_publish(State(app): State<Shared>, body: Bytes) -> Result<Response, ApiError> {
    app.live.publish(body_json(&body)?)?;
    Ok(StatusCode::NO_CONTENT.into_response())
}

async fn live_snapshot(State(app): State<Shared>) -> Response {
    axum::Json(app.live.snapshot()).into_response()
}

async fn live_events(
    State(app): State<Shared>,
    peer: Option<axum::Extension<axum::extract::ConnectInfo<SocketAddr>>>,
) -> Response {
    let pass = match StreamPass::new(&app, client(peer)) {
        Ok(p) => p,
        Err(refused) => return refused.into_response(),
    };
    let rx = app.live.events.subscribe();
    event_stream(app.live.snapshot(), rx, pass).into_response()
}
