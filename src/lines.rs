//! Text lines from a pipe, read on their own thread and handed over a channel, so
//! the reader of the channel can wait with a deadline and is never blocked by I/O.

use std::io::{BufRead, BufReader, Read};
use std::sync::mpsc::{Receiver, channel};

/// Starts a thread that sends every line of `input` (without its line ending; bytes
/// that are not UTF-8 replaced). The channel disconnects at the end of input.
pub(crate) fn spawn_reader<R: Read + Send + 'static>(input: R) -> Receiver<String> {
    let (tx, rx) = channel();
    std::thread::spawn(move || {
        let mut reader = BufReader::new(input);
        let mut buf = Vec::new();
        loop {
            buf.clear();
            match reader.read_until(b'\n', &mut buf) {
                Ok(0) | Err(_) => break,
                Ok(_) => {
                    let line = String::from_utf8_lossy(&buf).trim_end().to_string();
                    if tx.send(line).is_err() {
                        break;
                    }
                }
            }
        }
    });
    rx
}
