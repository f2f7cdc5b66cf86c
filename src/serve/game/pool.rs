//! The engines all games share: a fixed number (the server's `--engines`), each searching
//! for one game at a time. A game holds none while nobody searches for it, so a game costs
//! a few kilobytes and starts in microseconds, and the searches of all games together use
//! at most the pool's engines (one thread each).

use std::sync::mpsc::Sender;
use std::sync::{Mutex, MutexGuard};

use crate::engine::{Engine, EngineError, Player};

use super::sessions::Message;

pub(crate) struct Pool {
    engines: Vec<Mutex<Engine>>,
    free: Mutex<Vec<usize>>,
    /// Told when an engine is given back, so a game waiting for one gets it.
    wake: Sender<Message>,
}

impl Pool {
    pub(crate) fn new(size: usize, wake: Sender<Message>) -> Result<Pool, EngineError> {
        let engines = (0..size.max(1))
            .map(|_| Engine::new(Player::Search).map(Mutex::new))
            .collect::<Result<Vec<_>, _>>()?;
        let free = (0..engines.len()).rev().collect();
        Ok(Pool {
            engines,
            free: Mutex::new(free),
            wake,
        })
    }

    pub(crate) fn size(&self) -> usize {
        self.engines.len()
    }

    fn free(&self) -> MutexGuard<'_, Vec<usize>> {
        self.free.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Engines not searching now.
    pub(crate) fn idle(&self) -> usize {
        self.free().len()
    }

    /// An engine, if one is free and `keep` more stay free after it.
    pub(crate) fn take(&self, keep: usize) -> Option<usize> {
        let mut free = self.free();
        if free.len() > keep { free.pop() } else { None }
    }

    /// Gives engine `i` back (its search stopped or ended).
    pub(crate) fn give_back(&self, i: usize) {
        self.engine(i).stop();
        self.free().push(i);
        let _ = self.wake.send(Message::Wake);
    }

    pub(crate) fn engine(&self, i: usize) -> MutexGuard<'_, Engine> {
        self.engines[i].lock().unwrap_or_else(|e| e.into_inner())
    }
}
