//! Sharded work on real job runners: a match, a datagen run and a solve, each cut into
//! independent jobs (`scripts/cluster/job.sh`), run as a Slurm array on a one-machine
//! cluster started here (Debian's `slurm-wlm` and `munge`) and through GNU Parallel,
//! merged (`scripts/cluster/merge.sh`), and checked against the same work done by one
//! process: the same games move by move, the same data byte for byte, the same winner, and
//! the jobs' proofs joined into one that `verify-proof` accepts.
//!
//! Without the programs the tests say so and pass, unless `CLUSTER_TESTS=1` demands them
//! (as CI does).

mod common;

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

use common::Scratch;
use serde_json::Value;

const BIN: &str = env!("CARGO_BIN_EXE_breakthrough");

fn scripts() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("scripts")
}

fn find(name: &str) -> Option<PathBuf> {
    ["/usr/bin", "/usr/sbin", "/usr/local/bin", "/usr/local/sbin"]
        .iter()
        .map(|dir| Path::new(dir).join(name))
        .find(|p| p.exists())
}

/// Whether every program is there; a note (or, under CLUSTER_TESTS=1, a failure) if not.
fn have(what: &str, names: &[&str], install: &str) -> bool {
    let missing: Vec<&str> = names
        .iter()
        .copied()
        .filter(|n| find(n).is_none())
        .collect();
    if missing.is_empty() {
        return true;
    }
    assert!(
        std::env::var("CLUSTER_TESTS").is_err(),
        "CLUSTER_TESTS is set but {} missing",
        missing.join(", ")
    );
    eprintln!(
        "{what} test skipped: no {} (apt-get install {install})",
        missing.join(", ")
    );
    false
}

fn run(cmd: &mut Command) -> Output {
    let out = cmd.output().expect("the command starts");
    assert!(
        out.status.success(),
        "{cmd:?} failed: {}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// The three pieces of work, their job counts, and what one process makes of each.
struct Work {
    match_args: Vec<String>,
    datagen_args: Vec<String>,
    solve_args: Vec<String>,
}

impl Work {
    fn new() -> Work {
        let words = |s: &str| s.split(' ').map(str::to_string).collect::<Vec<_>>();
        let mut match_args = vec![
            "--engine".to_string(),
            format!("cmd={BIN} name=small nodes=1500"),
            "--engine".to_string(),
            format!("cmd={BIN} name=large nodes=2500"),
        ];
        match_args.extend(words(
            "--games 8 --random-plies 4 --seed 3 --sprt elo0=0 elo1=10",
        ));
        Work {
            match_args,
            datagen_args: words("--games 16 --nodes 400 --hash 1 --seed 4 --threads 1"),
            solve_args: words("--board 5x5 --split 2 --threads 1 --hash 16 --json"),
        }
    }

    /// Checks the merged results in `out` against one process doing the same work.
    fn check(&self, kind: &str, out: &Path, scratch: &Scratch) {
        match kind {
            "match" => {
                let one = scratch.text("one-match.json");
                run(Command::new(BIN)
                    .arg("match")
                    .args(&self.match_args)
                    .args(["--json", &one]));
                let read = |p: &Path| -> Value {
                    serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap()
                };
                let (one, merged) = (read(Path::new(&one)), read(&out.join("match.json")));
                let games = |v: &Value| -> Vec<(Value, Value, Value)> {
                    v["games"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|g| (g["round"].clone(), g["moves"].clone(), g["result"].clone()))
                        .collect()
                };
                assert_eq!(games(&one).len(), 8);
                assert_eq!(
                    games(&one),
                    games(&merged),
                    "the shards' games are one run's"
                );
                for key in ["wins", "losses", "draws"] {
                    assert_eq!(one["engines"][0][key], merged["engines"][0][key]);
                }
                assert_eq!(one["sprt"]["llr"], merged["sprt"]["llr"]);
                assert_eq!(one["sprt"]["pairs"], merged["sprt"]["pairs"]);
            }
            "datagen" => {
                let one = scratch.path("one.data");
                run(Command::new(BIN)
                    .arg("datagen")
                    .args(&self.datagen_args)
                    .arg("--out")
                    .arg(&one));
                let (a, b) = (
                    std::fs::read(&one).unwrap(),
                    std::fs::read(out.join("merged.data")).unwrap(),
                );
                assert!(a.len() > 32 + 100 * 20, "{} bytes", a.len());
                assert!(
                    a == b,
                    "the merged shards are one run's file, byte for byte"
                );
            }
            "solve" => {
                let whole = run(Command::new(BIN).args([
                    "solve",
                    "--board",
                    "5x5",
                    "--threads",
                    "1",
                    "--json",
                ]));
                let whole: Value = serde_json::from_slice(&whole.stdout).unwrap();
                let merged = std::fs::read_to_string(out.join("merge.out")).unwrap();
                let merged: Value = serde_json::from_str(merged.lines().last().unwrap()).unwrap();
                assert_eq!(whole["winner"], "black");
                assert_eq!(merged["winner"], whole["winner"], "{merged}");
                assert_eq!(merged["open_jobs"], serde_json::json!([]));
                // The jobs' proofs joined into the root's, which the checker accepts.
                let proof = out.join("root.proof");
                let checked = run(Command::new(BIN).arg("verify-proof").arg(&proof));
                let text = String::from_utf8_lossy(&checked.stdout);
                assert!(text.starts_with("valid: Black wins"), "{text}");
            }
            _ => unreachable!(),
        }
    }

    fn args(&self, kind: &str) -> &[String] {
        match kind {
            "match" => &self.match_args,
            "datagen" => &self.datagen_args,
            _ => &self.solve_args,
        }
    }
}

fn shards(kind: &str) -> &'static str {
    if kind == "solve" { "-" } else { "4" }
}

/// A one-machine Slurm cluster (munged, slurmctld, slurmd) in a scratch folder, on free
/// ports; stopped when dropped.
struct Cluster {
    dir: PathBuf,
    conf: PathBuf,
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

impl Cluster {
    fn start(dir: &Path) -> Cluster {
        let path = |name: &str| dir.join(name).display().to_string();
        for sub in ["state", "spool", "munge"] {
            std::fs::create_dir_all(dir.join(sub)).unwrap();
        }
        let key: Vec<u8> = (0..1024u32)
            .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
            .collect();
        std::fs::write(dir.join("munge.key"), key).unwrap();
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(
            dir.join("munge.key"),
            std::fs::Permissions::from_mode(0o400),
        )
        .unwrap();
        std::fs::set_permissions(dir.join("munge"), std::fs::Permissions::from_mode(0o700))
            .unwrap();
        let cluster = Cluster {
            dir: dir.to_path_buf(),
            conf: dir.join("slurm.conf"),
        };
        run(Command::new(find("munged").unwrap()).args([
            "--force",
            &format!("--socket={}", path("munge.sock")),
            &format!("--key-file={}", path("munge.key")),
            &format!("--pid-file={}", path("munged.pid")),
            &format!("--log-file={}", path("munged.log")),
            &format!("--seed-file={}", path("munge/seed")),
        ]));
        let user = String::from_utf8(run(Command::new("id").arg("-un")).stdout).unwrap();
        let host = String::from_utf8(run(Command::new("hostname").arg("-s")).stdout).unwrap();
        let conf = format!(
            "ClusterName=bttest\nSlurmctldHost=localhost(127.0.0.1)\nSlurmUser={user}\nSlurmdUser={user}\n\
             AuthType=auth/munge\nAuthInfo=socket={sock}\nCredType=cred/munge\n\
             StateSaveLocation={state}\nSlurmdSpoolDir={spool}\n\
             SlurmctldPidFile={cpid}\nSlurmdPidFile={dpid}\nSlurmctldPort={p1}\nSlurmdPort={p2}\n\
             SlurmctldLogFile={clog}\nSlurmdLogFile={dlog}\n\
             SlurmdParameters=config_overrides\nProctrackType=proctrack/linuxproc\nTaskPlugin=task/none\nSchedulerType=sched/builtin\n\
             SelectType=select/cons_tres\nSelectTypeParameters=CR_Core\nMpiDefault=none\nReturnToService=2\n\
             JobCompType=jobcomp/none\nAccountingStorageType=accounting_storage/none\n\
             NodeName=node1 NodeAddr=127.0.0.1 NodeHostname={host} CPUs=8 State=UNKNOWN\n\
             PartitionName=main Nodes=ALL Default=YES MaxTime=INFINITE State=UP\n",
            user = user.trim(),
            host = host.trim(),
            sock = path("munge.sock"),
            state = path("state"),
            spool = path("spool"),
            cpid = path("slurmctld.pid"),
            dpid = path("slurmd.pid"),
            clog = path("slurmctld.log"),
            dlog = path("slurmd.log"),
            p1 = free_port(),
            p2 = free_port(),
        );
        std::fs::write(&cluster.conf, conf).unwrap();
        run(Command::new(find("slurmctld").unwrap())
            .arg("-f")
            .arg(&cluster.conf));
        run(Command::new(find("slurmd").unwrap())
            .arg("-f")
            .arg(&cluster.conf)
            .args(["-N", "node1"]));
        let started = Instant::now();
        loop {
            let out = Command::new("sinfo")
                .env("SLURM_CONF", &cluster.conf)
                .args(["-h", "-o", "%t"])
                .output()
                .unwrap();
            if String::from_utf8_lossy(&out.stdout).trim() == "idle" {
                break;
            }
            assert!(
                started.elapsed() < Duration::from_secs(30),
                "the cluster did not come up: {}",
                std::fs::read_to_string(dir.join("slurmctld.log")).unwrap_or_default()
            );
            std::thread::sleep(Duration::from_millis(200));
        }
        cluster
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        for pid in ["slurmd.pid", "slurmctld.pid", "munged.pid"] {
            if let Ok(text) = std::fs::read_to_string(self.dir.join(pid)) {
                let _ = Command::new("kill").arg(text.trim()).status();
            }
        }
        // The daemons write into the folder until they are gone.
        std::thread::sleep(Duration::from_millis(500));
    }
}

#[test]
fn a_match_datagen_and_solve_through_slurm_give_what_one_process_gives() {
    if !have(
        "Slurm",
        &["slurmctld", "slurmd", "munged", "sbatch", "sinfo"],
        "slurm-wlm munge",
    ) {
        return;
    }
    let scratch = Scratch::new("slurm");
    let cluster = Cluster::start(&scratch.path("cluster"));
    let work = Work::new();
    for kind in ["match", "datagen", "solve"] {
        let out = scratch.path(kind);
        let started = Instant::now();
        let submitted = Command::new(scripts().join("slurm/submit.sh"))
            .arg(kind)
            .arg(shards(kind))
            .arg(&out)
            .args(work.args(kind))
            .env("SLURM_CONF", &cluster.conf)
            .env("BREAKTHROUGH", BIN)
            .env("CERTIFICATES", "1")
            .env("WAIT", "1")
            .output()
            .unwrap();
        let merge = std::fs::read_to_string(out.join("merge.out")).unwrap_or_default();
        assert!(
            submitted.status.success(),
            "{kind}: {}{}\nmerge: {merge}",
            String::from_utf8_lossy(&submitted.stdout),
            String::from_utf8_lossy(&submitted.stderr)
        );
        eprintln!(
            "{kind} through Slurm in {:.1} s",
            started.elapsed().as_secs_f64()
        );
        work.check(kind, &out, &scratch);
    }
    // A finished array task run again does nothing: the match's shard keeps its games.
    let again = run(Command::new(scripts().join("cluster/job.sh"))
        .args(["match", "2", "4"])
        .arg(scratch.path("match"))
        .args(work.args("match"))
        .env("BREAKTHROUGH", BIN));
    assert!(String::from_utf8_lossy(&again.stdout).contains("Nothing to play"));
    drop(cluster);
}

#[test]
fn a_match_datagen_and_solve_through_gnu_parallel_give_what_one_process_gives() {
    if !have("GNU Parallel", &["parallel"], "parallel") {
        return;
    }
    let scratch = Scratch::new("parallel");
    let work = Work::new();
    for kind in ["match", "datagen", "solve"] {
        let out = scratch.path(kind);
        let mut runner = Command::new(scripts().join("parallel/run.sh"));
        runner
            .arg(kind)
            .arg(shards(kind))
            .arg(&out)
            .args(work.args(kind))
            .env("BREAKTHROUGH", BIN)
            .env("CERTIFICATES", "1")
            .env("JOBS", "2");
        run(&mut runner);
        work.check(kind, &out, &scratch);
        // The same command again finds every job done in the job log and only merges.
        let log_before = std::fs::read_to_string(out.join("joblog")).unwrap();
        run(&mut runner);
        assert_eq!(
            std::fs::read_to_string(out.join("joblog")).unwrap(),
            log_before
        );
        work.check(kind, &out, &scratch);
    }
}
