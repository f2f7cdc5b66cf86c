//! `breakthrough solve`: who wins a position with perfect play, proven by the solver of
//! the rule sets that have one; or split into jobs, and their answers merged.

use std::collections::HashMap;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use serde_json::{Value, json};

use super::{every_core, fail};
use crate::registry::{AnyMove, AnyPosition, Provable, Variant};
use crate::rulesets::Color;
use crate::solve::{self, Solution, SolveSettings};
use crate::util::lines::outln;

#[derive(clap::Args)]
pub(super) struct SolveArgs {
    /// Rule set: breakthrough or capture-only.
    #[arg(long, default_value = "breakthrough")]
    variant: Variant,
    /// Solve this position.
    #[arg(long, conflicts_with = "board")]
    fen: Option<String>,
    /// Solve the start position of this board, FILESxRANKS (3x4 to 8x8), each side on its
    /// first two ranks.
    #[arg(long, value_name = "FxR", value_parser = parse_board)]
    board: Option<(u8, u8)>,
    /// Threads (default: every core).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=1024))]
    threads: Option<u32>,
    /// The solver's table, in MB (default: by the board's squares, 16 MB up to 20, 128 up
    /// to 25, 1024 up to 30, else 4096 or half the free memory if less).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=1 << 22))]
    hash: Option<u64>,
    /// Give up after this many seconds (the answer is then `winner: null`).
    #[arg(long, value_name = "S", value_parser = parse_seconds)]
    time_limit: Option<Duration>,
    /// Prove the value of every root move.
    #[arg(long)]
    all_moves: bool,
    /// Write the winning strategy to FILE, checkable by `verify-proof`.
    #[arg(long, value_name = "FILE")]
    certificate: Option<PathBuf>,
    /// Start from the solver's table saved in FILE if it exists, and save the table there
    /// at the end, proven or not: a solve stopped by its time limit goes on from where it
    /// stopped when run again. The saved table keeps its size unless --hash gives another:
    /// its entries then move into a table of that size (the costliest where not all fit).
    #[arg(long, value_name = "FILE", conflicts_with = "merge")]
    table_file: Option<PathBuf>,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
    /// Solve nothing: print the positions DEPTH plies down that are left to solve, one FEN
    /// a line, as independent jobs (`solve --fen FEN --json` each).
    #[arg(long, value_name = "DEPTH", value_parser = clap::value_parser!(u32).range(1..=6),
          conflicts_with = "all_moves")]
    split: Option<u32>,
    /// With --split: settle the position from the jobs' answers in FILE (the JSON lines
    /// of their `solve --json` runs; `-` reads standard input).
    #[arg(long, value_name = "FILE", requires = "split", conflicts_with = "job")]
    merge: Option<PathBuf>,
    /// With --split and --answers: solve the K-th job (from 1) of the split and append its
    /// answer to the answers file, unless the file already holds a proven one (then do
    /// nothing): a job for a cluster's array task, safe to run again.
    #[arg(long, value_name = "K", requires_all = ["split", "answers"], value_parser = clap::value_parser!(u32).range(1..))]
    job: Option<u32>,
    /// The answers file --job appends to (JSON lines; --merge reads it).
    #[arg(long, value_name = "FILE", requires = "job")]
    answers: Option<PathBuf>,
}

fn parse_board(text: &str) -> Result<(u8, u8), String> {
    let bad = || format!("'{text}' is not a board: FILESxRANKS, 3x4 to 8x8");
    let (files, ranks) = text.split_once(['x', 'X']).ok_or_else(bad)?;
    let files: u8 = files.trim().parse().map_err(|_| bad())?;
    let ranks: u8 = ranks.trim().parse().map_err(|_| bad())?;
    let exists = Variant::all().any(|v| AnyPosition::start_on_board(v, files, ranks).is_some());
    exists.then_some((files, ranks)).ok_or_else(bad)
}

fn parse_seconds(text: &str) -> Result<Duration, String> {
    match text.parse::<f64>() {
        Ok(s) if s.is_finite() && s > 0.0 && s < 1e9 => Ok(Duration::from_secs_f64(s)),
        _ => Err(format!("'{text}' is not a number of seconds above 0")),
    }
}

pub(super) fn color_name(c: Option<Color>) -> Value {
    c.map_or(Value::Null, |c| json!(c.to_string()))
}

pub(super) fn run(args: SolveArgs) -> ExitCode {
    let root = match (&args.fen, args.board) {
        (Some(fen), _) => match AnyPosition::from_fen(fen, args.variant) {
            Ok(p) => p,
            Err(e) => return fail(format_args!("bad FEN: {e}")),
        },
        (None, Some((files, ranks))) => {
            match AnyPosition::start_on_board(args.variant, files, ranks) {
                Some(p) => p,
                None => {
                    return fail(format_args!(
                        "{} has no {files}x{ranks} board",
                        args.variant
                    ));
                }
            }
        }
        (None, None) => AnyPosition::startpos(args.variant),
    };
    let Some(provable) = root.provable() else {
        let solvable: Vec<&str> = Variant::all()
            .filter(|v| v.can_solve())
            .map(Variant::name)
            .collect();
        return fail(format_args!(
            "solve plays {}, not {}",
            solvable.join(" and "),
            args.variant
        ));
    };
    let mut root = root;
    let mut answers_file = None;
    match (args.split, &args.merge, args.job) {
        (Some(_), None, None) if args.table_file.is_some() || args.certificate.is_some() => {
            return fail(
                "--split lists jobs and solves nothing: --table-file and --certificate go with --job (or --merge)",
            );
        }
        (Some(depth), None, None) => {
            for job in provable.split(depth) {
                outln!("{}", job.to_fen());
            }
            return ExitCode::SUCCESS;
        }
        (Some(depth), Some(path), _) => return run_merge(&args, &root, &provable, depth, path),
        (Some(depth), None, Some(k)) => {
            let jobs = provable.split(depth);
            let Some(job) = jobs.get(k as usize - 1) else {
                return fail(format_args!(
                    "--job {k}: the split at depth {depth} has {} jobs",
                    jobs.len()
                ));
            };
            let path = args.answers.clone().unwrap_or_default();
            match answered(&path, args.variant, job) {
                Ok(Some(line)) => {
                    outln!("{line}");
                    eprintln!("job {k} is answered in {}: nothing to do", path.display());
                    return ExitCode::SUCCESS;
                }
                Ok(None) => {}
                Err(e) => return fail(e),
            }
            root = job.clone();
            answers_file = Some((path, k));
        }
        _ => {}
    }
    let Some(provable) = root.provable() else {
        return fail("the job's position has no solver");
    };
    let settings = SolveSettings {
        threads: every_core(args.threads),
        hash_megabytes: args.hash.map(|mb| mb as usize),
        time_limit: args.time_limit,
        all_moves: args.all_moves,
        certificate: args.certificate.is_some(),
        progress: true,
        table_file: args.table_file.clone(),
    };
    let stop = AtomicBool::new(false);
    let solution = match provable.solve(&settings, &stop) {
        Ok(s) => s,
        Err(e) => return fail(e),
    };
    let mut checked = None;
    if let (Some(path), Some(certificate)) = (&args.certificate, &solution.certificate) {
        // Check before writing: a proof that fails its own check is a bug, not a file.
        let verified = match certificate.verify() {
            Ok(v) => v,
            Err(e) => return fail(format_args!("the certificate does not check: {e}")),
        };
        if let Err(e) = write_atomically(path, &certificate.to_bytes()) {
            return fail(format_args!("cannot write {}: {e}", path.display()));
        }
        checked = Some(verified);
    }
    let peak = solve::peak_megabytes();
    if let Some((path, k)) = &answers_file {
        let mut line = solution_json(&args, &root, &solution, checked.as_ref(), peak);
        line["job"] = json!(k);
        line["split"] = json!(args.split);
        let line = line.to_string();
        if let Err(e) = append_line(path, &line) {
            return fail(format_args!("cannot append to {}: {e}", path.display()));
        }
        outln!("{line}");
        if solution.winner.is_none() {
            // A job runner should count it failed, so that running again retries it.
            return fail(format_args!("job {k} not proven within the limits"));
        }
        return ExitCode::SUCCESS;
    }
    if args.json {
        outln!(
            "{}",
            solution_json(&args, &root, &solution, checked.as_ref(), peak)
        );
    } else {
        print_solution(&args, &root, &solution, checked.as_ref(), peak);
    }
    match solution.table_save_error {
        // The answer is out; the table that would resume it is not.
        Some(e) => fail(e),
        None => ExitCode::SUCCESS,
    }
}

fn solution_json(
    args: &SolveArgs,
    root: &AnyPosition,
    s: &Solution<AnyMove>,
    checked: Option<&solve::Verified>,
    peak: Option<u64>,
) -> Value {
    let mut object = json!({
        "fen": root.to_fen(),
        "variant": args.variant.name(),
        "board": board_text(root),
        "winner": color_name(s.winner),
        "move": s.best.map(|m| m.to_string()),
        "nodes": s.nodes,
        "seconds": (s.seconds * 1000.0).round() / 1000.0,
        "peak_mb": peak,
        "proof": s.numbers.0,
        "disproof": s.numbers.1,
    });
    if let Some(path) = &args.table_file {
        object["table_file"] = json!({
            "file": path.display().to_string(),
            "loaded": s.table_loaded,
            "saved": s.table_save_error.is_none(),
        });
    }
    if args.all_moves {
        object["moves"] = s
            .moves
            .iter()
            .map(|v| json!({ "move": v.m.to_string(), "winner": color_name(v.winner) }))
            .collect();
    }
    if let (Some(path), Some(v)) = (&args.certificate, checked) {
        object["certificate"] = json!({
            "file": path.display().to_string(),
            "positions": v.positions,
            "longest_plies": v.longest,
            "seconds": (s.certificate_seconds * 1000.0).round() / 1000.0,
        });
    }
    object
}

fn print_solution(
    args: &SolveArgs,
    root: &AnyPosition,
    s: &Solution<AnyMove>,
    checked: Option<&solve::Verified>,
    peak: Option<u64>,
) {
    outln!("position  {}", root.to_fen());
    outln!("variant   {} ({})", args.variant, board_text(root));
    match s.winner {
        Some(w) => outln!("winner    {} (proven)", w.name()),
        None => outln!(
            "winner    not proven within the limits (proof number {}, disproof number {})",
            s.numbers.0,
            s.numbers.1
        ),
    }
    if let Some(m) = s.best {
        outln!("move      {m} wins");
    }
    if args.all_moves {
        let values: Vec<String> = s
            .moves
            .iter()
            .map(|v| match v.winner {
                Some(w) => format!(
                    "{} {}",
                    v.m,
                    if w == root.side_to_move() {
                        "wins"
                    } else {
                        "loses"
                    }
                ),
                None => format!("{} ?", v.m),
            })
            .collect();
        outln!("moves     {}", values.join(", "));
    }
    outln!("nodes     {}", s.nodes);
    outln!(
        "time      {:.3} s ({:.0} nodes/s)",
        s.seconds,
        s.nodes as f64 / s.seconds.max(1e-9)
    );
    if let Some(mb) = peak {
        outln!("memory    {mb} MB at most");
    }
    if let Some(path) = &args.table_file {
        outln!(
            "table     {}: {}, {}",
            path.display(),
            if s.table_loaded {
                "went on from the saved table"
            } else {
                "a new table"
            },
            if s.table_save_error.is_none() {
                "saved"
            } else {
                "NOT saved (see the error)"
            }
        );
    }
    if let (Some(path), Some(v)) = (&args.certificate, checked) {
        outln!(
            "proof     {}: {} positions, checked; the loser lasts at most {} plies against it ({:.3} s)",
            path.display(),
            v.positions,
            v.longest,
            s.certificate_seconds
        );
    } else if args.certificate.is_some() {
        outln!("proof     none written: nothing proven");
    }
}

/// `solve --split D --merge FILE`: the root's value from the jobs' answers.
fn run_merge(
    args: &SolveArgs,
    root: &AnyPosition,
    provable: &Provable,
    depth: u32,
    path: &std::path::Path,
) -> ExitCode {
    let text = if path.as_os_str() == "-" {
        std::io::read_to_string(std::io::stdin())
    } else {
        std::fs::read_to_string(path)
    };
    let text = match text {
        Ok(t) => t,
        Err(e) => return fail(format_args!("cannot read {}: {e}", path.display())),
    };
    let mut answers = HashMap::new();
    let mut proofs: HashMap<u64, std::path::PathBuf> = HashMap::new();
    let (mut nodes, mut seconds) = (0u64, 0f64);
    let mut cut = 0;
    for (number, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        if line.starts_with('{') && serde_json::from_str::<Value>(line).is_err() {
            // A job killed while writing its line: that job is still to run.
            cut += 1;
            continue;
        }
        let answer = match read_answer(line, args.variant) {
            Ok(a) => a,
            Err(e) => {
                return fail(format_args!("{}:{}: {e}", path.display(), number + 1));
            }
        };
        nodes += answer.nodes;
        seconds += answer.seconds;
        if let (Some(file), Some(_)) = (&answer.certificate, answer.winner) {
            proofs.insert(answer.hash, std::path::PathBuf::from(file));
        }
        // A job run twice (a retry) counts once proven.
        let known: &mut Option<Color> = answers.entry(answer.hash).or_default();
        *known = known.or(answer.winner);
    }
    if cut > 0 {
        log::warn!(
            "{cut} lines of {} cut short (jobs killed mid-write) left out",
            path.display()
        );
    }
    let merged = provable.merge(depth, &answers);
    let open: Vec<String> = merged.open.iter().map(AnyPosition::to_fen).collect();
    // A proven root with --certificate: the jobs' proofs joined, checked, written.
    let mut joined = None;
    if let (Some(out), Some(winner)) = (&args.certificate, merged.winner) {
        let mut bytes = HashMap::new();
        for (key, file) in &proofs {
            match std::fs::read(file) {
                Ok(b) => {
                    bytes.insert(*key, b);
                }
                Err(e) => log::warn!("cannot read the job certificate {}: {e}", file.display()),
            }
        }
        let started = std::time::Instant::now();
        let (proof, verified) = match provable.joined_certificate(depth, &answers, winner, &bytes) {
            Ok(j) => j,
            Err(e) => return fail(e),
        };
        if let Err(e) = write_atomically(out, &proof) {
            return fail(format_args!("cannot write {}: {e}", out.display()));
        }
        joined = Some((verified, started.elapsed().as_secs_f64()));
    }
    if args.json {
        outln!(
            "{}",
            json!({
                "fen": root.to_fen(),
                "variant": args.variant.name(),
                "board": board_text(root),
                "winner": color_name(merged.winner),
                "move": merged.best.map(|m| m.to_string()),
                "nodes": nodes,
                "seconds": (seconds * 1000.0).round() / 1000.0,
                "jobs_read": answers.len(),
                "open_jobs": open,
                "certificate": joined.as_ref().map(|(v, s)| json!({
                    "file": args.certificate.as_ref().map(|p| p.display().to_string()),
                    "positions": v.positions, "longest_plies": v.longest,
                    "seconds": (s * 1000.0).round() / 1000.0,
                })),
            })
        );
    } else {
        outln!("position  {}", root.to_fen());
        outln!("variant   {} ({})", args.variant, board_text(root));
        match merged.winner {
            Some(w) => outln!("winner    {} (proven by the jobs' answers)", w.name()),
            None => outln!(
                "winner    not proven: {} needed jobs missing or unproven",
                open.len()
            ),
        }
        if let Some(m) = merged.best {
            outln!("move      {m} wins");
        }
        outln!(
            "jobs      {} answers read, {nodes} nodes, {seconds:.3} s in all",
            answers.len()
        );
        for fen in &open {
            outln!("open      {fen}");
        }
        if let (Some(path), Some((v, s))) = (&args.certificate, &joined) {
            outln!(
                "proof     {}: {} positions, joined from the jobs' proofs and checked; the loser lasts at most {} plies against it ({s:.3} s)",
                path.display(),
                v.positions,
                v.longest
            );
        } else if args.certificate.is_some() {
            outln!("proof     none written: the root is not proven yet");
        }
    }
    ExitCode::SUCCESS
}

/// The proven answer `path` holds for `job` (by its job key), if any; a missing file holds none.
fn answered(
    path: &std::path::Path,
    variant: Variant,
    job: &AnyPosition,
) -> Result<Option<String>, String> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(format!("cannot read {}: {e}", path.display())),
    };
    let key = job.provable().map(|p| p.job_key());
    for (number, line) in text.lines().enumerate() {
        // A line cut short by a kill mid-write is no answer: its job runs again.
        if line.trim().is_empty() || serde_json::from_str::<Value>(line).is_err() {
            continue;
        }
        let answer = read_answer(line, variant)
            .map_err(|e| format!("{}:{}: {e}", path.display(), number + 1))?;
        if Some(answer.hash) == key && answer.winner.is_some() {
            return Ok(Some(line.to_string()));
        }
    }
    Ok(None)
}

/// Appends `line` to `path` under an exclusive lock, so jobs sharing the file on one
/// machine (or a file system with locks) never interleave their lines.
fn append_line(path: &std::path::Path, line: &str) -> std::io::Result<()> {
    use std::io::Write;
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)?;
    file.lock()?;
    // A line cut short by a job killed mid-write ends here, and the next starts afresh.
    let len = file.metadata()?.len();
    let mut text = String::new();
    if len > 0 {
        use std::io::{Read, Seek, SeekFrom};
        let mut last = [0u8; 1];
        let mut reader = std::fs::File::open(path)?;
        reader.seek(SeekFrom::Start(len - 1))?;
        reader.read_exact(&mut last)?;
        if last[0] != b'\n' {
            text.push('\n');
        }
    }
    text.push_str(line);
    text.push('\n');
    file.write_all(text.as_bytes())?;
    file.sync_data()?;
    file.unlock()
}

/// One job's answer, as `solve --json` printed it.
struct JobAnswer {
    hash: u64,
    winner: Option<Color>,
    /// The job's certificate file, when it wrote one.
    certificate: Option<String>,
    nodes: u64,
    seconds: f64,
}

fn read_answer(line: &str, variant: Variant) -> Result<JobAnswer, String> {
    let value: Value = serde_json::from_str(line).map_err(|e| format!("not JSON: {e}"))?;
    let field = |name: &str| value.get(name).ok_or_else(|| format!("no '{name}'"));
    let named = field("variant")?.as_str().ok_or("'variant' is not text")?;
    if named != variant.name() {
        return Err(format!("a {named} answer, not {}", variant.name()));
    }
    let fen = field("fen")?.as_str().ok_or("'fen' is not text")?;
    let pos = AnyPosition::from_fen(fen, variant).map_err(|e| format!("bad FEN: {e}"))?;
    let pos = pos
        .provable()
        .ok_or_else(|| format!("{variant} has no solver"))?;
    let winner = match field("winner")? {
        Value::Null => None,
        Value::String(s) if s == "white" => Some(Color::White),
        Value::String(s) if s == "black" => Some(Color::Black),
        other => {
            return Err(format!(
                "'winner' is {other}, not \"white\", \"black\" or null"
            ));
        }
    };
    Ok(JobAnswer {
        hash: pos.job_key(),
        winner,
        certificate: value["certificate"]["file"].as_str().map(str::to_string),
        nodes: field("nodes")?.as_u64().ok_or("'nodes' is not a count")?,
        seconds: field("seconds")?
            .as_f64()
            .ok_or("'seconds' is not a number")?,
    })
}

/// Writes `bytes` to a temporary file beside `path`, then renames it over `path`: a
/// killed run never leaves half a proof.
fn write_atomically(path: &std::path::Path, bytes: &[u8]) -> std::io::Result<()> {
    let mut temporary = path.as_os_str().to_owned();
    temporary.push(".partial");
    std::fs::write(&temporary, bytes)?;
    std::fs::rename(&temporary, path)
}

/// `FILESxRANKS` of the position's board.
fn board_text(pos: &AnyPosition) -> String {
    let (files, ranks) = pos.board_size();
    format!("{files}x{ranks}")
}
