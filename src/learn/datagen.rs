//! `breakthrough datagen`: the engine plays itself and writes training positions, each with
//! its search's score and the game's result (the file format is in `datafile.rs`).
//!
//! Every thread plays its own games: random legal plies from the start, then a search of
//! fixed nodes or depth per move for both sides, one thread and a table of its own each.
//! Kept are the quiet positions (the game goes on, no win in one for either side), whose
//! score is no proven win or loss and whose best move is no capture: positions whose value
//! the evaluation, not the next move, must judge. A position already in the file is not
//! written again.
//!
//! Game `k` is seeded by the seed and `k` alone, and games are written in the order of
//! `k` whatever the threads, so a run's file is the same on any machine. A progress file
//! beside the data (`OUT.progress`) records the next game and the positions written, so a
//! killed run goes on where it stopped, and a shard (`--shard I/N`, the I-th contiguous
//! slice of the games `0..G`) is one job of a cluster: the shards' files read in order,
//! repeats dropped (as `train` reads them), are the file of one run of the G games.

use std::collections::{BTreeMap, HashSet};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::sync_channel;
use std::time::{Duration, Instant};

use crate::learn::datafile::{self, DataError, Record, Writer};
use crate::registry::{AnyPosition, Evaluation, FenError, History, Mismatch, SearchSetup, Variant};
use crate::search::tt::{TableError, TranspositionTable};
use crate::search::{Budget, Control, Score, SearchLimits};
use crate::util::progress;
use crate::util::rng::Rng;
use crate::util::shard::Shard;

/// What to play and where to write it.
#[derive(Clone, Debug)]
pub(crate) struct DatagenSettings {
    pub(crate) variant: Variant,
    /// The start of every game (the variant's start when `None`): sets the board size.
    pub(crate) start: Option<String>,
    pub(crate) out: PathBuf,
    pub(crate) nodes: Option<u64>,
    pub(crate) depth: Option<u32>,
    pub(crate) random_plies: u32,
    /// Stop when the file holds this many positions, or the games `0..games` (this shard's
    /// slice of them) are played, whichever comes first; the same command again completes
    /// an interrupted run.
    pub(crate) positions: Option<u64>,
    pub(crate) games: Option<u64>,
    /// The slice of the games this run plays (needs `games`).
    pub(crate) shard: Shard,
    pub(crate) threads: usize,
    pub(crate) seed: u64,
    pub(crate) hash_mb: usize,
    pub(crate) evaluation: Evaluation,
    /// Play a game on after the search has proven its result (the data is the same: no
    /// position with a proven score is kept), instead of ending it there.
    pub(crate) play_out: bool,
    /// Each search labels two positions: the one searched and the one after its best
    /// move (the score from the other side: the same tree's value one ply down); the game
    /// goes on with the search's expected reply, which is not searched.
    pub(crate) reply_labels: bool,
}

#[derive(Debug, thiserror::Error)]
pub(crate) enum DatagenError {
    #[error(transparent)]
    Data(#[from] DataError),
    #[error("bad start FEN: {0}")]
    Fen(#[from] FenError),
    #[error(transparent)]
    Table(#[from] TableError),
    #[error("found no {0}-ply random opening that leaves a game to play")]
    NoOpening(u32),
    #[error(transparent)]
    Network(#[from] Mismatch),
    #[error("--shard needs --games: a shard is a slice of the games 0..G")]
    ShardNeedsGames,
    #[error("{0}")]
    Progress(String),
}

/// Plies after which a game is given up as a draw (Doorbraak shuffles can be long).
const MAX_PLIES: usize = 600;

/// One game played: its kept positions with their labels, and where it ended at a proven
/// result (the position and the search's mate distance in moves, as UCI gives it).
struct Played {
    records: Vec<Record>,
    /// Positions the engine searched.
    searched: u64,
    proof: Option<(AnyPosition, i32)>,
}

/// Plays one game and returns its kept positions with their labels.
fn play_game(
    settings: &DatagenSettings,
    start: &AnyPosition,
    game_index: u64,
    tt: &TranspositionTable,
) -> Result<Played, DatagenError> {
    let mut rng = Rng::new(settings.seed ^ game_index.wrapping_mul(0x9e37_79b9_7f4a_7c15));
    let line = (0..100)
        .find_map(|_| start.random_line(settings.random_plies, &mut rng))
        .ok_or(DatagenError::NoOpening(settings.random_plies))?;
    let mut game = History::new(start.clone());
    for m in line {
        game.try_play(m).expect("random_line plays legal moves");
    }
    let limits = SearchLimits {
        depth: settings.depth,
        nodes: settings.nodes,
        ..SearchLimits::default()
    };
    tt.clear();
    let mut kept: Vec<(AnyPosition, i16)> = Vec::new();
    let mut proof = None;
    let mut searched = 0;
    let outcome = loop {
        if let Some(outcome) = game.outcome() {
            break outcome;
        }
        if game.moves().len() >= MAX_PLIES {
            break crate::rulesets::Outcome::draw(crate::rulesets::EndReason::Repetition);
        }
        let pos = game.position().clone();
        let control = Control::new(Budget {
            nodes: settings.nodes,
            ..Budget::default()
        });
        let setup = SearchSetup {
            control: &control,
            tt,
            threads: 1,
            earlier: game.earlier_hashes(),
            memory: None,
        };
        let result = pos.search(&limits, &setup, &|_| {});
        searched += 1;
        let Some(best) = result.best else {
            break game.outcome().unwrap_or(crate::rulesets::Outcome::draw(
                crate::rulesets::EndReason::NoMoves,
            ));
        };
        match Score::from_internal(result.score) {
            Score::Centipawns(cp) if pos.is_quiet() && !pos.is_tactical(best) => {
                kept.push((pos, cp.clamp(i16::MIN as i32, i16::MAX as i32) as i16));
            }
            // A proven win or loss decides the game's result: the rest of it would give
            // no position to keep.
            // (Not a search stopped before its first iteration: its score means nothing.)
            Score::Mate(moves) if !settings.play_out && result.depth >= 1 => {
                let us = pos.side_to_move();
                let winner = if moves > 0 { us } else { us.opponent() };
                proof = Some((pos, moves));
                break crate::rulesets::Outcome::win(
                    winner,
                    crate::rulesets::EndReason::GoalReached,
                );
            }
            _ => {}
        }
        game.try_play(best).expect("the search plays legal moves");
        if settings.reply_labels
            && let (Score::Centipawns(cp), Some(reply)) =
                (Score::from_internal(result.score), result.ponder)
            && game.outcome().is_none()
        {
            let child = game.position().clone();
            if child.is_quiet() && !child.is_tactical(reply) {
                kept.push((child, (-cp).clamp(i16::MIN as i32, i16::MAX as i32) as i16));
            }
            // A reply that is not legal here (never from a sound search) is searched for
            // instead, as without the option.
            let _ = game.try_play(reply);
        }
    };
    let records = kept
        .into_iter()
        .map(|(position, score)| {
            let result = match outcome.winner {
                None => 0,
                Some(w) if w == position.side_to_move() => 1,
                Some(_) => -1,
            };
            Record {
                position,
                score,
                result,
            }
        })
        .collect();
    Ok(Played {
        records,
        searched,
        proof,
    })
}

/// `datagen --merge`: the files read in order with repeats dropped (the first kept),
/// written to `out`, which must hold nothing yet. Shards merged in order give the file of
/// one run of all their games. Returns the positions written and the repeats dropped.
pub(crate) fn merge(out: &std::path::Path, files: &[PathBuf]) -> Result<(u64, u64), DatagenError> {
    let first = datafile::read(
        files
            .first()
            .ok_or(DatagenError::Progress("--merge needs files".into()))?,
    )?;
    let variant = first.variant();
    drop(first);
    let (mut writer, existing) = Writer::open(out, variant)?;
    if existing.len() > 0 {
        return Err(DatagenError::Progress(format!(
            "{} already holds {} positions: merge into a new file",
            out.display(),
            existing.len()
        )));
    }
    let mut seen = HashSet::new();
    let (mut written, mut repeats) = (0, 0);
    for path in files {
        let records = datafile::read(path)?;
        if records.variant() != variant {
            return Err(DataError::OtherVariant {
                path: path.display().to_string(),
                found: records.variant().name().to_string(),
                wanted: variant,
            }
            .into());
        }
        let mut kept = Vec::new();
        for i in 0..records.len() {
            if seen.insert(datafile::fingerprint(records.position_bytes(i))) {
                kept.push(i);
            } else {
                repeats += 1;
            }
        }
        writer.append_raw(&records, &kept)?;
        written += kept.len() as u64;
    }
    Ok((written, repeats))
}

/// What a run did.
pub(crate) struct Summary {
    pub(crate) games: u64,
    /// Games ended at a proven result.
    pub(crate) proven: u64,
    /// Positions searched.
    pub(crate) searched: u64,
    pub(crate) written: u64,
    pub(crate) repeats: u64,
    /// Positions in the file before the run.
    pub(crate) in_file: u64,
    pub(crate) seconds: f64,
}

/// What makes two runs the same data: a resumed run and every shard must agree on it.
fn identity(settings: &DatagenSettings, start: &AnyPosition) -> serde_json::Value {
    let mut identity = serde_json::json!({
        "variant": settings.variant.name(),
        "start": start.to_fen(),
        "nodes": settings.nodes,
        "depth": settings.depth,
        "random_plies": settings.random_plies,
        "seed": settings.seed,
        "hash_mb": settings.hash_mb,
        "evaluation": start.network().map_or("hand".to_string(), |n| n.digest()),
        "play_out": settings.play_out,
        "games": settings.games.filter(|_| settings.shard != Shard::WHOLE),
        "shard": settings.shard.text(),
    });
    // Only when set, so that the progress files of runs made before it still match.
    if settings.reply_labels {
        identity["reply_labels"] = true.into();
    }
    identity
}

/// `OUT.progress`: where a run stands, rewritten after each game it writes.
struct Progress {
    path: PathBuf,
    identity: serde_json::Value,
}

impl Progress {
    fn path(out: &std::path::Path) -> PathBuf {
        let mut p = out.as_os_str().to_owned();
        p.push(".progress");
        PathBuf::from(p)
    }

    /// The next game and the positions written by an earlier run of the same data, if any.
    fn read(&self) -> Result<Option<(u64, u64)>, DatagenError> {
        let Ok(text) = std::fs::read_to_string(&self.path) else {
            return Ok(None);
        };
        let shown = self.path.display();
        let v: serde_json::Value = serde_json::from_str(&text)
            .map_err(|e| DatagenError::Progress(format!("{shown}: not a progress file ({e})")))?;
        if let Some(d) = crate::util::json_difference(&v["identity"], &self.identity) {
            return Err(DatagenError::Progress(format!(
                "{shown}: the file was made with other settings (they differ in {d}); use another --out"
            )));
        }
        match (v["next_game"].as_u64(), v["positions"].as_u64()) {
            (Some(g), Some(p)) => Ok(Some((g, p))),
            _ => Err(DatagenError::Progress(format!(
                "{shown}: no next_game or positions"
            ))),
        }
    }

    fn write(&self, next_game: u64, positions: u64, done: bool) -> Result<(), DatagenError> {
        let text = serde_json::json!({
            "identity": self.identity, "next_game": next_game, "positions": positions, "done": done,
        })
        .to_string();
        let mut temporary = self.path.as_os_str().to_owned();
        temporary.push(".partial");
        let io = |error| {
            DatagenError::Data(DataError::Io {
                path: self.path.display().to_string(),
                error,
            })
        };
        std::fs::write(&temporary, text + "\n").map_err(io)?;
        std::fs::rename(&temporary, &self.path).map_err(io)
    }
}

/// Plays games on `settings.threads` threads until enough positions or games, writing
/// each game's new positions in game order. `stop` ends the run early (the file stays
/// whole, and the same settings go on from there).
pub(crate) fn run(
    settings: &DatagenSettings,
    stop: Arc<AtomicBool>,
) -> Result<Summary, DatagenError> {
    let mut start = match &settings.start {
        Some(fen) => AnyPosition::from_fen(fen, settings.variant)?,
        None => AnyPosition::startpos(settings.variant),
    };
    start.use_evaluation(settings.evaluation)?;
    let games = match (settings.games, settings.shard) {
        (None, Shard::WHOLE) => u64::MAX,
        (None, _) => return Err(DatagenError::ShardNeedsGames),
        (Some(g), _) => g.min(u64::MAX - 1),
    };
    let slice = if games == u64::MAX {
        0..u64::MAX
    } else {
        settings.shard.range(games)
    };
    let progress = Progress {
        path: Progress::path(&settings.out),
        identity: identity(settings, &start),
    };
    let earlier = progress.read()?;
    let (mut writer, existing) = Writer::open(&settings.out, settings.variant)?;
    let (first_game, existing) = match earlier {
        // Positions past the progress file's count are a game whose progress was not
        // recorded (a kill between the two writes): it is played again.
        Some((next, positions)) if (positions as usize) <= existing.len() => {
            drop(existing);
            writer.truncate(positions as usize)?;
            (next, datafile::read(&settings.out)?)
        }
        Some((_, positions)) => {
            return Err(DatagenError::Progress(format!(
                "{}: holds fewer positions than its progress file records ({positions})",
                settings.out.display()
            )));
        }
        // A file written before progress files: new games after as many as it holds.
        None if existing.len() > 0 => (existing.len() as u64, existing),
        None => (slice.start, existing),
    };
    let mut seen: HashSet<u64> = (0..existing.len())
        .map(|i| datafile::fingerprint(existing.position_bytes(i)))
        .collect();
    let in_file_before = existing.len() as u64;
    drop(existing);
    let target = settings
        .positions
        .map_or(u64::MAX, |p| p.saturating_sub(in_file_before));
    let first_game = first_game.max(slice.start);
    let mut summary = Summary {
        games: 0,
        proven: 0,
        searched: 0,
        written: 0,
        repeats: 0,
        in_file: in_file_before,
        seconds: 0.0,
    };
    if target == 0 || first_game >= slice.end {
        progress.write(first_game, in_file_before, true)?;
        return Ok(summary);
    }
    let next_game = Arc::new(AtomicU64::new(first_game));
    let (tx, rx) = sync_channel::<(u64, Result<Played, DatagenError>)>(64);
    let mut workers = Vec::new();
    for _ in 0..settings.threads.max(1) {
        let tt = TranspositionTable::new(settings.hash_mb)?;
        let (settings, start, next_game, stop, tx) = (
            settings.clone(),
            start.clone(),
            next_game.clone(),
            stop.clone(),
            tx.clone(),
        );
        let end = slice.end;
        workers.push(std::thread::spawn(move || {
            while !stop.load(Ordering::Relaxed) {
                let index = next_game.fetch_add(1, Ordering::Relaxed);
                if index >= end {
                    break;
                }
                if tx
                    .send((index, play_game(&settings, &start, index, &tt)))
                    .is_err()
                {
                    break;
                }
            }
        }));
    }
    drop(tx);
    let bar = progress::bar(
        settings.positions.map_or(0, |_| target),
        "{bar:40} {pos}/{len} positions, {per_sec}, {eta} left  {msg}",
    );
    let started = Instant::now();
    let mut last_line = started;
    // Games that ended before an earlier one: written when their turn comes.
    let mut waiting: BTreeMap<u64, Played> = BTreeMap::new();
    let mut next_to_write = first_game;
    'receive: for (index, game) in rx.iter() {
        waiting.insert(index, game?);
        while let Some(played) = waiting.remove(&next_to_write) {
            next_to_write += 1;
            summary.proven += u64::from(played.proof.is_some());
            summary.searched += played.searched;
            let records: Vec<Record> = played
                .records
                .into_iter()
                .filter(|r| {
                    let mut packed = Vec::new();
                    r.position.pack(&mut packed);
                    let new = seen.insert(datafile::fingerprint(&packed));
                    summary.repeats += u64::from(!new);
                    new
                })
                .collect();
            // A game cut short by --positions is played again by a run that goes on
            // (its positions written already are then repeats): the file stays a prefix
            // of what one longer run writes.
            let room = (target - summary.written) as usize;
            let cut = records.len() > room;
            let records = &records[..records.len().min(room)];
            writer.append(records)?;
            summary.games += 1;
            summary.written += records.len() as u64;
            let done = summary.written >= target || next_to_write >= slice.end;
            let next = if cut {
                next_to_write - 1
            } else {
                next_to_write
            };
            progress.write(next, in_file_before + summary.written, done)?;
            bar.inc(records.len() as u64);
            bar.set_message(format!("{} games", summary.games));
            if bar.is_hidden() && last_line.elapsed() >= Duration::from_secs(10) {
                last_line = Instant::now();
                log::warn!("{}", summary.line(started.elapsed().as_secs_f64()));
            }
            if done {
                stop.store(true, Ordering::Relaxed);
                break 'receive;
            }
        }
        if stop.load(Ordering::Relaxed) {
            break;
        }
    }
    drop(rx);
    for worker in workers {
        let _ = worker.join();
    }
    bar.finish_and_clear();
    summary.seconds = started.elapsed().as_secs_f64();
    Ok(summary)
}

impl Summary {
    /// One line: what was written and how fast.
    pub(crate) fn line(&self, seconds: f64) -> String {
        format!(
            "{} games ({} ended at a proof), {} new positions of {} searched ({} repeats left out), {:.0} positions/s, {} in the file",
            self.games,
            self.proven,
            self.written,
            self.searched,
            self.repeats,
            self.written as f64 / seconds.max(1e-9),
            self.in_file + self.written
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::util::scratch::Scratch;

    fn settings(scratch: &Scratch, variant: &str, out: &str) -> DatagenSettings {
        let out = scratch.path(out);
        DatagenSettings {
            variant: variant.parse().unwrap(),
            start: None,
            out,
            nodes: Some(300),
            depth: None,
            random_plies: 4,
            positions: None,
            games: Some(6),
            shard: Shard::WHOLE,
            threads: 2,
            seed: 1,
            hash_mb: 1,
            evaluation: Evaluation::BuiltIn,
            play_out: false,
            reply_labels: false,
        }
    }

    /// With reply labels a search labels its position and the one after its best move
    /// (the same value from the other side), so a game keeps more positions than it
    /// searches, and every position kept is one the game reached.
    #[test]
    fn reply_labels_give_two_positions_a_search() {
        let scratch = Scratch::new("datagen");
        let start = AnyPosition::startpos("breakthrough".parse().unwrap());
        let tt = TranspositionTable::new(1).unwrap();
        let plain = DatagenSettings {
            nodes: Some(3000),
            ..settings(&scratch, "breakthrough", "x")
        };
        let replies = DatagenSettings {
            reply_labels: true,
            ..plain.clone()
        };
        let (mut searched, mut kept, mut pairs) = (0, 0, 0);
        for game in 0..6 {
            let played = play_game(&replies, &start, game, &tt).unwrap();
            searched += played.searched;
            kept += played.records.len() as u64;
            for pair in played.records.windows(2) {
                let (parent, child) = (&pair[0], &pair[1]);
                let is_child = parent
                    .position
                    .legal_moves()
                    .into_iter()
                    .any(|m| parent.position.child(m) == child.position);
                if is_child {
                    // The parent's search labelled both, or the child was searched
                    // itself: then it began a new pair.
                    pairs += u64::from(child.score == -parent.score);
                    assert_eq!(child.result, -parent.result);
                }
            }
            let alone = play_game(&plain, &start, game, &tt).unwrap();
            assert!(alone.records.len() as u64 <= alone.searched);
        }
        assert!(
            kept > searched * 11 / 10,
            "{kept} positions from {searched} searches"
        );
        assert!(
            pairs * 3 > kept,
            "{pairs} labelled pairs of {kept} positions"
        );
    }

    /// Whether `moves` (UCI's mate distance for the side to move) is proven in `pos` by the
    /// mate search: a win within that many moves, or a win for the opponent within it
    /// after every move.
    fn mate_is_proven(pos: &AnyPosition, moves: i32) -> bool {
        let wins_within = |pos: &AnyPosition, moves: u32| {
            let tt = TranspositionTable::new(1).unwrap();
            let control = Control::unlimited();
            let setup = SearchSetup {
                control: &control,
                tt: &tt,
                threads: 1,
                earlier: &[],
                memory: None,
            };
            let limits = SearchLimits {
                mate: Some(moves),
                ..SearchLimits::default()
            };
            let result = pos.search(&limits, &setup, &|_| {});
            matches!(Score::from_internal(result.score), Score::Mate(m) if m > 0)
        };
        if moves > 0 {
            return wins_within(pos, moves as u32);
        }
        let within = moves.unsigned_abs().max(1);
        pos.legal_moves().into_iter().all(|m| {
            let child = pos.child(m);
            child
                .outcome()
                .is_some_and(|o| o.winner != Some(pos.side_to_move()))
                || wins_within(&child, within)
        })
    }

    /// A game ended at its proven result keeps the positions that playing it out keeps
    /// (none after the proof was kept), and the proof holds: the mate search confirms it.
    #[test]
    fn a_game_ended_at_its_proof_keeps_what_playing_it_out_keeps() {
        for variant in ["breakthrough", "capture-only", "doorbraak"] {
            let scratch = Scratch::new("datagen");
            let start = AnyPosition::startpos(variant.parse().unwrap());
            let tt = TranspositionTable::new(1).unwrap();
            let ended = settings(&scratch, variant, "x");
            let played = DatagenSettings {
                play_out: true,
                ..ended.clone()
            };
            let (mut proofs, mut kept_after) = (0, 0);
            for game in 0..8 {
                let short = play_game(&ended, &start, game, &tt).unwrap();
                let long = play_game(&played, &start, game, &tt).unwrap();
                let key = |r: &Record| (r.position.to_fen(), r.score);
                let short_keys: Vec<_> = short.records.iter().map(key).collect();
                let long_keys: Vec<_> = long.records.iter().map(key).collect();
                assert_eq!(
                    short_keys[..],
                    long_keys[..short_keys.len()],
                    "{variant} {game}"
                );
                kept_after += usize::from(short_keys.len() < long_keys.len());
                if let Some((pos, moves)) = &short.proof {
                    assert!(
                        mate_is_proven(pos, *moves),
                        "{variant} {game}: {pos:?} {moves}"
                    );
                    proofs += 1;
                }
            }
            assert!(
                proofs >= 4,
                "{variant}: only {proofs} games ended at a proof"
            );
            assert!(
                kept_after <= 2,
                "{variant}: {kept_after} games kept positions after a proof"
            );
        }
    }

    #[test]
    fn games_of_every_rule_set_give_labelled_quiet_positions() {
        for variant in ["breakthrough", "capture-only", "doorbraak"] {
            let scratch = Scratch::new("datagen");
            let settings = settings(&scratch, variant, &format!("{variant}.data"));
            let summary = run(&settings, Arc::default()).unwrap();
            assert_eq!(summary.games, 6);
            let records = datafile::read(&settings.out).unwrap();
            assert_eq!(records.len() as u64, summary.written);
            assert!(summary.written > 20, "{variant}: {}", summary.written);
            let mut fingerprints = HashSet::new();
            for i in 0..records.len() {
                let r = records.get(i).unwrap();
                assert!(r.position.is_quiet(), "{variant}: {:?}", r.position);
                assert!((-1..=1).contains(&r.result));
                assert!(r.score.abs() < 20_000);
                assert!(fingerprints.insert(datafile::fingerprint(records.position_bytes(i))));
            }
        }
    }

    #[test]
    fn a_second_run_appends_new_games_and_stops_at_its_count() {
        let scratch = Scratch::new("datagen");
        let mut settings = settings(&scratch, "breakthrough", "resume.data");
        let first = run(&settings, Arc::default()).unwrap();
        settings.games = None;
        settings.positions = Some(first.written + 25);
        let second = run(&settings, Arc::default()).unwrap();
        assert_eq!(second.written, 25);
        assert_eq!(second.in_file, first.written);
        let records = datafile::read(&settings.out).unwrap();
        assert_eq!(records.len() as u64, first.written + 25);
        // The file holds what was asked: the same command again adds nothing.
        let third = run(&settings, Arc::default()).unwrap();
        assert_eq!((third.written, third.games), (0, 0));
        let distinct: HashSet<u64> = (0..records.len())
            .map(|i| datafile::fingerprint(records.position_bytes(i)))
            .collect();
        assert_eq!(distinct.len(), records.len(), "no position twice");
    }

    /// Shards of a run, merged in order, are the run's file byte for byte; a killed shard
    /// goes on to the same file, and a finished one does nothing.
    #[test]
    fn shards_merged_are_one_run_and_a_killed_shard_goes_on() {
        let scratch = Scratch::new("datagen");
        let mut whole = settings(&scratch, "breakthrough", "whole.data");
        whole.games = Some(12);
        whole.threads = 2;
        run(&whole, Arc::default()).unwrap();
        let mut files = Vec::new();
        for index in 1..=3 {
            let shard = DatagenSettings {
                out: scratch.path(&format!("shard-{index}.data")),
                shard: Shard { index, count: 3 },
                threads: 1,
                ..whole.clone()
            };
            if index == 2 {
                // Stopped after its first game, with a game's records past its progress
                // (as a kill between the two writes leaves them): it goes on from there.
                let first = DatagenSettings {
                    games: Some(12),
                    positions: Some(1),
                    ..shard.clone()
                };
                run(&first, Arc::default()).unwrap();
                let extra = datafile::read(&whole.out).unwrap();
                let (mut writer, _) = Writer::open(&shard.out, shard.variant).unwrap();
                writer.append(&[extra.get(0).unwrap()]).unwrap();
            }
            let summary = run(&shard, Arc::default()).unwrap();
            assert!(summary.games > 0);
            assert_eq!(run(&shard, Arc::default()).unwrap().games, 0, "finished");
            files.push(shard.out);
        }
        let merged = scratch.path("merged.data");
        let (written, _) = merge(&merged, &files).unwrap();
        assert!(written > 50);
        assert_eq!(
            std::fs::read(&merged).unwrap(),
            std::fs::read(&whole.out).unwrap()
        );
        // Other settings on a shard's file are refused.
        let other = DatagenSettings {
            out: files[0].clone(),
            shard: Shard { index: 1, count: 3 },
            nodes: Some(301),
            ..whole.clone()
        };
        let error = run(&other, Arc::default()).err().unwrap().to_string();
        assert!(error.contains("differ in nodes"), "{error}");
    }
}
