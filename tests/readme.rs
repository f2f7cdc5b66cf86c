//! README.md stays true: its sample session is what the engine prints
//! (`scripts/readme-sample.py` makes it), and every shell command it shows runs.

use std::path::Path;
use std::process::Command;

fn readme() -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md")).unwrap()
}

/// The text with the numbers that vary from run to run (speed, time) left out.
fn steady(text: &str) -> String {
    text.lines()
        .map(|line| {
            let mut words: Vec<&str> = line.split(' ').collect();
            for i in 1..words.len() {
                if matches!(words[i - 1], "nps" | "time") {
                    words[i] = "N";
                }
            }
            words.join(" ")
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn the_sample_session_is_what_the_engine_prints() {
    let text = readme();
    let begin = "<!-- sample: scripts/readme-sample.py -->\n```\n";
    let start = text
        .find(begin)
        .expect("README.md has the sample's markers")
        + begin.len();
    let end = start + text[start..].find("```\n<!-- end of sample -->").unwrap();
    let shown = &text[start..end];
    let out = Command::new("python3")
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/readme-sample.py"))
        .arg(env!("CARGO_BIN_EXE_breakthrough"))
        .output()
        .expect("python3 runs the sample script");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let made = String::from_utf8(out.stdout).unwrap();
    assert_eq!(
        steady(shown.trim_end()),
        steady(made.trim_end()),
        "README.md's sample is stale: run scripts/readme-sample.py --write"
    );
    assert!(shown.contains("bestmove "), "{shown}");
}

/// The commands of the README's `sh` blocks, continuation lines joined.
fn shell_commands(text: &str) -> Vec<String> {
    let mut commands = Vec::new();
    for block in text.split("```sh\n").skip(1) {
        let body = &block[..block.find("```").unwrap_or(block.len())];
        let mut command = String::new();
        for line in body.lines() {
            match line.strip_suffix('\\') {
                Some(part) => command.push_str(part),
                None => {
                    command.push_str(line);
                    commands.push(std::mem::take(&mut command));
                }
            }
        }
    }
    commands
}

#[test]
fn every_command_the_readme_shows_runs() {
    let binary = env!("CARGO_BIN_EXE_breakthrough");
    let mut ran = 0;
    for command in shell_commands(&readme()) {
        // Building and testing are what runs this; the page serves until stopped, and
        // XBoard needs a screen (tests/xboard.rs plays its games).
        let skip = command.starts_with("cargo ")
            || command.contains(" serve")
            || command.starts_with("xboard ")
            // tests/openspiel.rs runs this one, where OpenSpiel is installed.
            || command.contains("tests/openspiel/play.py");
        if skip || !command.contains("./target/release/breakthrough") {
            continue;
        }
        let command = command.replace("./target/release/breakthrough", binary);
        let out = Command::new("bash")
            .args(["-c", &command])
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .output()
            .unwrap();
        let (stdout, stderr) = (
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr),
        );
        assert!(out.status.success(), "{command}\n{stderr}");
        assert!(!stdout.trim().is_empty(), "{command}: no output");
        assert!(!stderr.contains("error"), "{command}\n{stderr}");
        ran += 1;
    }
    assert!(ran >= 4, "only {ran} commands found in README.md");
}
