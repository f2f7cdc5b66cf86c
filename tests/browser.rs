//! The page of `breakthrough serve` in a real browser: headless Chromium driven through
//! ChromeDriver (WebDriver over HTTP). Needs Debian's `chromium` and `chromium-driver`
//! (`.ci/run` installs them); without them the tests say so and pass, unless
//! `BROWSER_TESTS=1` demands them (as CI does). `SCREENSHOTS=DIR` saves the page's
//! screenshots there (how docs/*.png are made: `scripts/screenshots.sh`).
#![cfg(feature = "serve")]

mod common;
mod web;

use std::net::TcpListener;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use common::Scratch;
use serde_json::{Value, json};
use web::{Server, call, wait_for};

const ELEMENT: &str = "element-6066-11e4-a52e-4f735466cecf";

struct Browser {
    driver: Child,
    base: String,
    session: String,
    _profile: Scratch,
}

fn find(paths: &[&str], var: &str) -> Option<PathBuf> {
    if let Ok(p) = std::env::var(var) {
        return Some(p.into());
    }
    paths.iter().map(PathBuf::from).find(|p| p.exists())
}

impl Browser {
    /// A headless Chromium, or `None` (with a note) where there is none and none is
    /// demanded.
    fn start() -> Option<Browser> {
        let driver = find(&["/usr/bin/chromedriver"], "CHROMEDRIVER");
        let chromium = find(
            &["/usr/bin/chromium", "/usr/bin/chromium-browser"],
            "CHROMIUM",
        );
        let (Some(driver), Some(chromium)) = (driver, chromium) else {
            assert!(
                std::env::var("BROWSER_TESTS").is_err(),
                "BROWSER_TESTS is set but chromium or chromedriver is missing"
            );
            eprintln!(
                "browser tests skipped: no chromium/chromedriver (apt-get install chromium chromium-driver)"
            );
            return None;
        };
        let port = TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let profile = Scratch::new("chromium");
        // Chromium keeps scoped folders in TMPDIR and may still be removing them when the
        // driver is killed: they go in the profile's folder, which the test removes.
        let chromium_tmp = profile.dir().join("tmp");
        std::fs::create_dir_all(&chromium_tmp).expect("a temporary folder for chromium");
        let child = Command::new(driver)
            .arg(format!("--port={port}"))
            .env("TMPDIR", &chromium_tmp)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromedriver starts");
        let base = format!("http://127.0.0.1:{port}");
        wait_for("chromedriver", Duration::from_secs(20), || {
            ureq::get(&format!("{base}/status")).call().ok()
        });
        let args = [
            "--headless=new",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-dev-shm-usage",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--window-size=1100,760",
        ]
        .iter()
        .map(|a| a.to_string())
        .chain([format!("--user-data-dir={}", profile.dir().display())])
        .collect::<Vec<_>>();
        let caps = json!({"capabilities": {"alwaysMatch": {"goog:chromeOptions": {
            "binary": chromium, "args": args}}}});
        let (code, answer) = call("POST", &format!("{base}/session"), Some(caps));
        assert_eq!(code, 200, "new WebDriver session: {answer}");
        let session = answer["value"]["sessionId"].as_str().unwrap().to_string();
        Some(Browser {
            driver: child,
            base,
            session,
            _profile: profile,
        })
    }

    fn cmd(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        let url = format!("{}/session/{}{path}", self.base, self.session);
        let (code, answer) = call(method, &url, body);
        assert_eq!(code, 200, "{method} {path}: {answer}");
        answer["value"].clone()
    }

    fn open(&self, url: &str) {
        self.cmd("POST", "/url", Some(json!({"url": url})));
    }

    /// Runs `script` in the page; its `return` value.
    fn js(&self, script: &str) -> Value {
        self.cmd(
            "POST",
            "/execute/sync",
            Some(json!({"script": script, "args": []})),
        )
    }

    fn element(&self, css: &str) -> String {
        let v = self.cmd(
            "POST",
            "/element",
            Some(json!({"using": "css selector", "value": css})),
        );
        v[ELEMENT].as_str().unwrap().to_string()
    }

    /// Clicks `css` as a user would. A page that is analysing moves its panels as lines
    /// arrive, so the element may move between WebDriver finding its place and clicking
    /// there ("element click intercepted"): then it looks again, a few times.
    fn click(&self, css: &str) {
        let path = format!(
            "/session/{}/element/{}/click",
            self.session,
            self.element(css)
        );
        for _ in 0..10 {
            let (code, answer) = call("POST", &format!("{}{path}", self.base), Some(json!({})));
            if code == 200 {
                return;
            }
            let error = answer["value"]["error"].as_str().unwrap_or("");
            assert_eq!(error, "element click intercepted", "POST {path}: {answer}");
            std::thread::sleep(Duration::from_millis(100));
        }
        panic!("{css} stayed covered: the click never reached it");
    }

    fn text(&self, css: &str) -> String {
        let id = self.element(css);
        self.cmd("GET", &format!("/element/{id}/text"), None)
            .as_str()
            .unwrap_or("")
            .to_string()
    }

    fn fill(&self, css: &str, value: &str) {
        let script = format!(
            "const e = document.querySelector({css:?}); e.value = {value:?}; e.dispatchEvent(new Event('change')); e.dispatchEvent(new Event('input'));"
        );
        self.js(&script);
    }

    /// The game as the page holds it (the server's last state).
    fn game(&self) -> Value {
        self.js("return game;")
    }

    fn screenshot(&self, name: &str) {
        let Ok(dir) = std::env::var("SCREENSHOTS") else {
            return;
        };
        let data = self.cmd("GET", "/screenshot", None);
        let png = decode_base64(data.as_str().unwrap());
        std::fs::write(PathBuf::from(dir).join(name), png).unwrap();
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let url = format!("{}/session/{}", self.base, self.session);
        let _ = ureq::delete(&url).call();
        let _ = self.driver.kill();
        let _ = self.driver.wait();
    }
}

fn decode_base64(text: &str) -> Vec<u8> {
    let value = |c: u8| match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        _ => 63,
    };
    let bytes: Vec<u8> = text
        .bytes()
        .filter(|&c| c != b'=' && !c.is_ascii_whitespace())
        .map(value)
        .collect();
    let mut out = Vec::new();
    for chunk in bytes.chunks(4) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, &v)| n | (u32::from(v) << (18 - 6 * i)));
        out.extend_from_slice(&n.to_be_bytes()[1..chunk.len()]);
    }
    out
}

/// Drags a piece from a move's first square to its second (by viewport coordinates: the
/// board is drawn afresh when the piece is picked up).
fn drag_move(browser: &Browser, m: &str) {
    let centre = |square: &str| {
        let script = format!(
            "const r = document.querySelector(\"[data-square='{square}']\").getBoundingClientRect(); return [Math.round(r.x + r.width / 2), Math.round(r.y + r.height / 2)];"
        );
        let v = browser.js(&script);
        (v[0].as_i64().unwrap(), v[1].as_i64().unwrap())
    };
    let (from, to) = (centre(&m[..2]), centre(&m[2..4]));
    let at = |(x, y): (i64, i64)| json!({"type": "pointerMove", "duration": 50, "origin": "viewport", "x": x, "y": y});
    let actions = json!({"actions": [{"type": "pointer", "id": "mouse",
        "parameters": {"pointerType": "mouse"},
        "actions": [at(from), {"type": "pointerDown", "button": 0}, at(to),
                    {"type": "pointerUp", "button": 0}]}]});
    browser.cmd("POST", "/actions", Some(actions));
    browser.cmd("DELETE", "/actions", None);
}

/// Clicks a move's two squares on the board.
fn click_move(browser: &Browser, m: &str) {
    browser.click(&format!("[data-square='{}']", &m[..2]));
    browser.click(&format!("[data-square='{}']", &m[2..4]));
}

/// A browser on a new server's page (`fragment` after `/`), once the page has its first
/// game; `None` where there is no browser (see [`Browser::start`]).
fn open_page(fragment: &str) -> Option<(Browser, Server)> {
    let browser = Browser::start()?;
    let server = Server::start();
    browser.open(&format!("{}/{fragment}", server.url));
    if fragment != "#watch" {
        wait_for("the first game", Duration::from_secs(10), || {
            browser.game().is_object().then_some(())
        });
    }
    Some((browser, server))
}

#[test]
fn a_whole_game_against_the_engine_and_an_illegal_click() {
    let Some((browser, server)) = open_page("") else {
        return;
    };
    // A quick game: 6x5 board, level 0 (a hundred nodes a move), a minute each.
    browser.fill("#size", "6x5");
    browser.fill("#level", "0");
    browser.fill("#minutes", "1");
    browser.fill("#increment", "1");
    browser.click("#new-game");
    let first = wait_for("the new game", Duration::from_secs(10), || {
        let g = browser.game();
        (g["files"] == 6).then_some(g)
    });
    assert_eq!(first["level"], 0);
    assert_eq!(
        first["clock"]["white"].as_u64().map(|ms| ms > 50_000),
        Some(true)
    );
    // An illegal click: a2 to a4 is refused on the page and nothing is sent.
    click_move(&browser, "a2a4");
    assert!(
        browser.text("#message").contains("Illegal move: a2a4"),
        "{}",
        browser.text("#message")
    );
    assert!(browser.game()["moves"].as_array().unwrap().is_empty());
    let (_, state) = call(
        "GET",
        &format!("{}/api/games/{}", server.url, first["id"]),
        None,
    );
    assert!(state["moves"].as_array().unwrap().is_empty());
    // Play the whole game on the board: each time a legal move, chosen by the ply number.
    let mut plies = 0;
    loop {
        let g = wait_for("the person's turn", Duration::from_secs(20), || {
            let g = browser.game();
            (g["result"].is_object() || (g["side"] == "white" && g["thinking"].is_null()))
                .then_some(g)
        });
        if g["result"].is_object() {
            break;
        }
        if plies == 2 {
            browser.screenshot("play.png");
        }
        let legal = g["legal"].as_array().unwrap();
        let m = legal[plies % legal.len()].as_str().unwrap().to_string();
        let before = g["moves"].as_array().unwrap().len();
        // The first move by dragging the piece, the others by two clicks.
        if plies == 0 {
            drag_move(&browser, &m);
        } else {
            click_move(&browser, &m);
        }
        wait_for("the move to be played", Duration::from_secs(10), || {
            (browser.game()["moves"].as_array().unwrap().len() > before).then_some(())
        });
        plies += 1;
        assert!(plies < 200, "the game does not end");
    }
    let result = browser.text("#result");
    assert!(
        result.starts_with("1-0") || result.starts_with("0-1"),
        "{result}"
    );
    assert!(
        result.contains("goal rank") || result.contains("no"),
        "{result}"
    );
    // Take back restores the person's turn, and the page shows it.
    browser.click("#takeback");
    wait_for("the takeback", Duration::from_secs(10), || {
        browser.game()["result"].is_null().then_some(())
    });
    assert!(browser.js("return document.getElementById('result').hidden;") == json!(true));
}

#[test]
fn a_doorbraak_explosion_is_drawn() {
    let Some((browser, _server)) = open_page("") else {
        return;
    };
    // White's stack on b2 lands on its stone on c3: three stones where two fit, so c3
    // explodes onto b3, d3 and c4.
    browser.js("document.getElementById('variant').value = 'doorbraak';");
    browser.fill("#fen-input", "4p/5/5/5/5/5/2P2/1Q3/5 w 0");
    browser.fill("#side", "both");
    browser.click("#new-game");
    wait_for("the Doorbraak game", Duration::from_secs(10), || {
        (browser.game()["variant"] == "doorbraak").then_some(())
    });
    // The 7th ranks are marked and the stack is drawn as two.
    let marks = browser.js("return document.querySelectorAll('[data-rank7]').length;");
    assert_eq!(marks, json!(10));
    assert!(browser.text("#board").contains('2'));
    click_move(&browser, "b2c3");
    wait_for("the explosion", Duration::from_secs(10), || {
        (browser.game()["moves"].as_array().unwrap().len() == 1).then_some(())
    });
    let rings = browser.js("return [...document.querySelectorAll('[data-exploded]')].map(e => e.getAttribute('data-exploded')).sort();");
    assert_eq!(rings, json!(["b3", "c3", "c4", "d3"]));
    let pieces = browser.js("return [...document.querySelectorAll('[data-piece]')].map(e => e.getAttribute('data-piece')).sort();");
    assert_eq!(pieces, json!(["b3", "c4", "d3", "e9"]));
    browser.screenshot("doorbraak.png");
}

#[test]
fn analysis_shows_lines_and_the_evaluation() {
    let Some((browser, _server)) = open_page("#analyse") else {
        return;
    };
    browser.fill(
        "#pgn-input",
        "[Variant \"breakthrough\"]\n\n1. e2e3 d7d6 2. e3e4 *",
    );
    browser.click("#load");
    wait_for("the loaded game", Duration::from_secs(10), || {
        (browser.game()["moves"].as_array().unwrap().len() == 3).then_some(())
    });
    browser.click("#analyse-toggle");
    let lines = wait_for("three lines", Duration::from_secs(20), || {
        let n = browser.js("return document.querySelectorAll('#pv-lines li').length;");
        (n == json!(3)).then_some(n)
    });
    assert_eq!(lines, json!(3));
    let bar = browser.js("return document.getElementById('evalbar-white').style.height;");
    assert!(bar.as_str().unwrap().ends_with('%'), "{bar}");
    // Stepping back shows the earlier position and analyses it.
    browser.click("#prev");
    let fen = browser.js("return document.getElementById('fen-out').value;");
    assert_eq!(fen, browser.game()["fens"][2]);
    std::thread::sleep(Duration::from_millis(1500));
    browser.screenshot("analysis.png");
    browser.click("#analyse-toggle");
    wait_for("the analysis to stop", Duration::from_secs(10), || {
        browser.game()["analysis"].is_null().then_some(())
    });
}

#[test]
fn a_live_match_is_followed() {
    let Some((browser, server)) = open_page("#watch") else {
        return;
    };
    let bin = env!("CARGO_BIN_EXE_breakthrough");
    let mut runner = web::published_match(
        &format!("cmd={bin} name=searcher option.Hash=8"),
        &format!("cmd={bin} args=greedy name=greedy"),
        "4+0.04",
        &server.url,
    )
    .stdout(Stdio::null())
    .spawn()
    .unwrap();
    // The page follows a game in progress: its board changes as moves arrive.
    let first = wait_for("a game on the page", Duration::from_secs(20), || {
        let fen = browser.js("return document.getElementById('board-svg') && document.getElementById('board-svg').getAttribute('data-fen');");
        fen.as_str().map(str::to_string)
    });
    wait_for("a move on the page", Duration::from_secs(20), || {
        let fen =
            browser.js("return document.getElementById('board-svg').getAttribute('data-fen');");
        (fen.as_str() != Some(first.as_str())).then_some(())
    });
    browser.screenshot("watch.png");
    assert!(browser.text("#live-match").contains("searcher vs greedy"));
    assert!(runner.wait().unwrap().success());
    let standing = wait_for("the final standing", Duration::from_secs(10), || {
        let t = browser.text("#live-standing");
        t.contains("] 2").then_some(t)
    });
    assert!(
        standing.contains("score of searcher vs greedy"),
        "{standing}"
    );
    let options = browser.js("return document.querySelectorAll('#live-games option').length;");
    assert_eq!(options, json!(2));
}

/// A server that needs its token: the page opened by the address it printed starts a game
/// and takes a move (each change carries the token); opened without it, the page still
/// shows a board (the start position) and says what is missing.
#[test]
fn the_page_carries_the_token_and_opens_on_a_board() {
    let Some(browser) = Browser::start() else {
        return;
    };
    let server = Server::start_with(&["--token", "page-token"]);
    browser.open(&format!("{}/", server.url));
    let message = wait_for("the refusal", Duration::from_secs(10), || {
        let m = browser.text("#message");
        m.contains("token").then_some(m)
    });
    assert!(message.contains("needs its token"), "{message}");
    assert!(browser.game().is_null());
    let fen = browser.js("return document.querySelector('#board-svg').dataset.fen;");
    assert!(
        fen.as_str()
            .unwrap()
            .starts_with("pppppppp/pppppppp/8/8/8/8/PPPPPPPP/PPPPPPPP"),
        "{fen}"
    );
    browser.open(&format!("{}/?token=page-token", server.url));
    let first = wait_for("the first game", Duration::from_secs(10), || {
        let g = browser.game();
        g.is_object().then_some(g)
    });
    assert!(first["moves"].as_array().unwrap().is_empty());
    click_move(&browser, "b2b3");
    wait_for("the move", Duration::from_secs(10), || {
        (browser.game()["moves"][0] == "b2b3").then_some(())
    });
}
