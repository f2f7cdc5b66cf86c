//! `breakthrough serve`: one page to play against the engine, analyse, and watch matches
//! live, served from the binary. HTTP by axum on tokio (the `serve` feature); the games
//! and their engines live in `game.rs` as plain threads, the live matches in `live.rs`.
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

use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::Arc;

use axum::Router;
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::{StatusCode, header};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use serde_json::{Value, json};
use tokio::sync::broadcast;
use tokio_stream::wrappers::BroadcastStream;
use tokio_stream::{Stream, StreamExt};

use crate::util::lines::outln;
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
}

struct App {
    sessions: Arc<Sessions>,
    live: Live,
}

type Shared = Arc<App>;

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let status = match self {
            ApiError::BadRequest(_) => StatusCode::BAD_REQUEST,
            ApiError::NoSuchGame(_) | ApiError::NotFound(_) => StatusCode::NOT_FOUND,
            ApiError::Conflict(_) => StatusCode::CONFLICT,
            ApiError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        };
        (status, axum::Json(json!({"error": self.to_string()}))).into_response()
    }
}

/// Serves until interrupted (Ctrl-C). Prints the page's address on stdout.
pub(crate) fn run(addr: SocketAddr, open: bool) -> Result<(), ServeError> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(ServeError::Runtime)?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(addr)
            .await
            .map_err(|error| ServeError::Bind { addr, error })?;
        let bound = listener.local_addr().map_err(ServeError::Serve)?;
        let url = format!("http://{bound}/");
        outln!("serving on {url}");
        if !bound.ip().is_loopback() {
            log::warn!("listening on {bound}: other machines can reach the page");
        }
        if open {
            open_browser(&url);
        }
        let (sessions, answers) = Sessions::new();
        let keeper = sessions.clone();
        std::thread::Builder::new()
            .name("sessions".into())
            .spawn(move || keeper.run(answers))
            .map_err(ServeError::Serve)?;
        let app = Arc::new(App {
            sessions,
            live: Live::new(),
        });
        axum::serve(listener, router(app))
            .with_graceful_shutdown(async {
                let _ = tokio::signal::ctrl_c().await;
            })
            .await
            .map_err(ServeError::Serve)
    })
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
        .with_state(app)
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

async fn health(State(app): State<Shared>) -> Response {
    axum::Json(json!({"ok": true, "games": app.sessions.len()})).into_response()
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

/// Server-sent events: `first`, then everything sent on `rx` (a page too slow to keep up
/// misses some `info`; the next `state` brings it back in step).
fn event_stream(
    first: Value,
    rx: broadcast::Receiver<String>,
) -> Sse<impl Stream<Item = Result<Event, Infallible>>> {
    let first = tokio_stream::once(Ok(Event::default().data(first.to_string())));
    let rest =
        BroadcastStream::new(rx).filter_map(|r| r.ok().map(|text| Ok(Event::default().data(text))));
    Sse::new(first.chain(rest)).keep_alive(KeepAlive::default())
}

async fn game_events(
    State(app): State<Shared>,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let session = app.sessions.get(game_id(&id)?)?;
    let rx = session.events.subscribe();
    let state = session.lock().state(session.id);
    Ok(event_stream(state, rx).into_response())
}

async fn live_publish(State(app): State<Shared>, body: Bytes) -> Result<Response, ApiError> {
    app.live.publish(body_json(&body)?)?;
    Ok(StatusCode::NO_CONTENT.into_response())
}

async fn live_snapshot(State(app): State<Shared>) -> Response {
    axum::Json(app.live.snapshot()).into_response()
}

async fn live_events(State(app): State<Shared>) -> Response {
    let rx = app.live.events.subscribe();
    event_stream(app.live.snapshot(), rx).into_response()
}
