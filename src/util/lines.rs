//! Text lines from a pipe, read on their own thread and handed over a bounded channel,
//! so the reader of the channel can wait with a deadline and is never blocked by I/O.
//! Memory stays bounded whatever arrives: a line longer than [`MAX_LINE`] bytes is
//! skipped (its length reported in its place), and the channel holds at most
//! [`QUEUED`] lines before the reading thread waits.
//!
//! And lines to stdout for the tools ([`outln!`]): a closed pipe (`solve --split 4 |
//! head`) ends the program with one error line, where `println!` would panic.

use std::io::{BufRead, BufReader, Read, Write};
use std::sync::mpsc::{Receiver, sync_channel};

/// Longest line kept, in bytes (a `position` command of a 100,000-ply game fits).
pub(crate) const MAX_LINE: usize = 1 << 20;
/// Lines the channel holds before the reading thread waits for them to be taken.
const QUEUED: usize = 1024;

/// What the reader saw.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Input {
    /// A line without its line ending; bytes that are not UTF-8 are replaced by U+FFFD.
    Line(String),
    /// A line of this many bytes, longer than [`MAX_LINE`]: skipped.
    TooLong(usize),
}

/// Starts a thread that sends every line of `input`. The channel disconnects at the end
/// of input (or on a read error).
pub(crate) fn spawn_reader<R: Read + Send + 'static>(input: R) -> Receiver<Input> {
    let (tx, rx) = sync_channel(QUEUED);
    std::thread::spawn(move || {
        let mut reader = BufReader::new(input);
        while let Some(item) = read_line(&mut reader) {
            if tx.send(item).is_err() {
                break;
            }
        }
    });
    rx
}

/// The next line, or `None` at the end of input.
fn read_line(reader: &mut impl BufRead) -> Option<Input> {
    let mut line = Vec::new();
    let mut length = 0usize;
    loop {
        let chunk = match reader.fill_buf() {
            Ok(chunk) => chunk,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => return None,
        };
        if chunk.is_empty() {
            // End of input: a last line without a line ending still counts.
            return (length > 0).then(|| finish(line, length));
        }
        let (take, done) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (i + 1, true),
            None => (chunk.len(), false),
        };
        length += take;
        if length <= MAX_LINE + 1 {
            line.extend_from_slice(&chunk[..take]);
        }
        reader.consume(take);
        if done {
            return Some(finish(line, length));
        }
    }
}

fn finish(line: Vec<u8>, length: usize) -> Input {
    let text = String::from_utf8_lossy(&line);
    let text = text.trim_end_matches(['\n', '\r']);
    if length > MAX_LINE + 1 {
        Input::TooLong(length)
    } else {
        Input::Line(text.trim_end().to_string())
    }
}

/// `println!` for the tools' output: see [`write_line`].
macro_rules! outln {
    () => {
        $crate::util::lines::write_line(format_args!(""))
    };
    ($($arg:tt)*) => {
        $crate::util::lines::write_line(format_args!($($arg)*))
    };
}
pub(crate) use outln;

/// Writes one line to stdout. Where that fails (the reader has gone: a closed pipe), says
/// so on stderr and ends the process with status 1: nobody is left to read what follows.
pub(crate) fn write_line(args: std::fmt::Arguments) {
    let mut out = std::io::stdout().lock();
    if let Err(e) = out.write_fmt(args).and_then(|()| out.write_all(b"\n")) {
        let _ = writeln!(std::io::stderr(), "error: cannot write the output: {e}");
        std::process::exit(1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(bytes: &[u8]) -> Vec<Input> {
        let rx = spawn_reader(std::io::Cursor::new(bytes.to_vec()));
        rx.iter().collect()
    }

    #[test]
    fn lines_long_lines_and_bad_bytes() {
        let line = |s: &str| Input::Line(s.to_string());
        assert_eq!(
            all(b"uci\r\nisready\n\nquit"),
            [line("uci"), line("isready"), line(""), line("quit")]
        );
        assert_eq!(
            all(b"go \xff\xfe depth 3\n"),
            [line("go \u{fffd}\u{fffd} depth 3")]
        );
        let mut huge = vec![b'x'; MAX_LINE + 10];
        huge.extend_from_slice(b"\nisready\n");
        assert_eq!(all(&huge), [Input::TooLong(MAX_LINE + 11), line("isready")]);
        let exact = vec![b'y'; MAX_LINE];
        assert_eq!(all(&exact), [line(&"y".repeat(MAX_LINE))]);
    }
}
