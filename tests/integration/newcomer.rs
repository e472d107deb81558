//! What a new user trips over, each as the smallest command that showed it:
//! SLA classes a classic log does not have, absent values stored as
//! sentinels, a generated machine that cannot be seen, a reader's drops that
//! are not told, and `slurm conf` printing internals.

use crate::common;

fn query(db: &std::path::Path, sql: &str) -> Vec<String> {
    let (ok, out, err) = common::run(&["query", "--db", db.to_str().unwrap(), "--csv", sql]);
    assert!(ok, "{sql}: {err}");
    out.lines().skip(1).map(str::to_string).collect()
}

/// `--sla-terms qos-classes` prices a classic log (whose queues are
/// LoadLeveler classes, not QoS classes) exactly as `uniform` does; a GPU
/// trace, whose header names its queues LS, BE, …, is priced by class, and
/// its best-effort jobs have no deadline: NULL, found by `IS NULL`.
#[test]
fn qos_classes_price_a_classic_log_as_uniform_and_no_deadline_is_null() {
    let dir = tempfile::tempdir().unwrap();
    let terms = |trace: &str, rule: &str| {
        let db = dir.path().join(format!("{rule}-{}.sqlite", trace.len()));
        let (ok, out, err) = common::run(&[
            "run",
            "--trace",
            trace,
            "--strategy",
            "conservative-backfilling",
            "--batteries",
            "2",
            "--sla-terms",
            rule,
            "--db",
            db.to_str().unwrap(),
        ]);
        assert!(ok, "{out}{err}");
        db
    };
    let sums = "SELECT round(sum(fee), 3), sum(deadline), sum(deadline IS NULL) FROM jobs";
    let classic = "CTC-SP2-1996-3.1-cln";
    let (uniform, classes) = (terms(classic, "uniform"), terms(classic, "qos-classes"));
    assert_eq!(query(&uniform, sums), query(&classes, sums));
    assert_eq!(query(&classes, "SELECT count(*) FROM battery_jobs WHERE deadline IS NULL"), ["0"]);
    // The pods: classes price them otherwise, and BE pods have no deadline.
    let pods = "openb_pod_list_default";
    let (uniform, classes) = (terms(pods, "uniform"), terms(pods, "qos-classes"));
    assert_ne!(query(&uniform, sums), query(&classes, sums));
    let none = "SELECT count(*) FROM battery_jobs WHERE deadline IS NULL";
    let be = "SELECT count(*) FROM battery_jobs WHERE queue = 2";
    assert_eq!(query(&classes, none), query(&classes, be));
    assert_ne!(query(&classes, none), ["0"]);
    let largest = query(&classes, "SELECT max(deadline - release) FROM battery_jobs")[0].parse::<i64>().unwrap();
    assert!(largest < 10 * 365 * 86_400, "a deadline years away: {largest}");
}

/// The classic modes have no deadlines: every one is NULL, and a field the
/// log leaves unknown (−1) is NULL too.
#[test]
fn the_classic_modes_store_no_deadline_as_null() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("easy.sqlite");
    let (ok, out, err) =
        common::run(&["run", "--trace", "openb_pod_list_default", "--strategy", "easy", "--db", db.to_str().unwrap()]);
    assert!(ok, "{out}{err}");
    assert_eq!(query(&db, "SELECT count(*) = sum(deadline IS NULL) FROM battery_jobs"), ["1"]);
    assert_eq!(query(&db, "SELECT count(*) FROM battery_jobs WHERE user = -1 OR application = -1"), ["0"]);
}

/// The machine a GPU trace describes is printed by `slurm conf --trace` as a
/// `slurm.conf` that runs as given, and a point run on it stores its text.
#[test]
fn a_gpu_traces_generated_slurm_conf_is_printed_and_stored() {
    let dir = tempfile::tempdir().unwrap();
    let trace = "disaggregated_DLRM_trace";
    let (ok, text, err) = common::run(&["slurm", "conf", "--trace", trace]);
    assert!(ok, "{err}");
    assert!(text.contains("NodeName=") && text.contains("PartitionName=batch"), "{text}");
    let conf = dir.path().join("machine.conf");
    std::fs::write(&conf, &text).unwrap();
    // Read back, it is a conf `slurm conf` reads.
    let (ok, out, err) = common::run(&["slurm", "conf", "--slurm-conf", conf.to_str().unwrap()]);
    assert!(ok && out.contains("PartitionName=batch"), "{out}{err}");
    let db = dir.path().join("gpu.sqlite");
    let (ok, out, err) = common::run(&["slurm", "run", "--trace", trace, "--db", db.to_str().unwrap()]);
    assert!(ok, "{out}{err}");
    let stored = slasim::store::query(&db, "SELECT conf IS NULL, conf_text FROM slurm_points").unwrap().rows;
    assert_eq!(stored[0][0], "1");
    assert_eq!(stored[0][1], text);
    // Its jobs that never started, if any, have no start: NULL, never −1.
    assert_eq!(query(&db, "SELECT count(*) FROM slurm_jobs WHERE start < 0 OR \"end\" < 0 OR wait < 0"), ["0"]);
}

/// `trace info` on a GPU trace says how many rows the reader left out, and why.
#[test]
fn trace_info_tells_a_gpu_traces_dropped_rows() {
    let (ok, out, err) = common::run(&["trace", "info", "openb_pod_list_default"]);
    assert!(ok, "{err}");
    let jobs = out.lines().find(|l| l.starts_with("jobs")).expect("a jobs line");
    assert!(jobs.contains("of 8,152 rows; the reader left out"), "{out}");
    assert!(jobs.contains("never scheduled") && jobs.contains("CPU-only"), "{out}");
}

/// `slurm conf` writes what it read as `slurm.conf` lines, never Rust's debug
/// form, and with `--qos` the limits it read.
#[test]
fn slurm_conf_prints_settings_as_a_slurm_conf_and_the_qos_limits_read() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let conf = root.join("configs/slurm/centre/slurm.conf");
    let qos = root.join("configs/slurm/centre/qos.txt");
    let (ok, out, err) =
        common::run(&["slurm", "conf", "--slurm-conf", conf.to_str().unwrap(), "--qos", qos.to_str().unwrap()]);
    assert!(ok, "{err}");
    for line in [
        "NodeName=c[001-100] CPUs=64 RealMemory=262144",
        "PartitionName=cpu Nodes=c[001-100] Default=YES MaxTime=2-00:00:00",
        "PriorityType=priority/multifactor",
        "PriorityWeightTRES=CPU=500,GRES/gpu=2000",
        "PriorityDecayHalfLife=7-00:00:00",
        "SchedulerParameters=bf_window=2880,bf_resolution=60,bf_interval=30,bf_max_job_test=500",
        "PreemptType=preempt/partition_prio",
        "PreemptMode=REQUEUE",
        "Name=normal Priority=0 MaxJobsPU=40",
    ] {
        assert!(out.lines().any(|l| l.starts_with(line)), "{line}: {out}");
    }
    for internal in ["Settings {", "[(", "Some(", "None", "PartitionPrio"] {
        assert!(!out.contains(internal), "{internal}: {out}");
    }
}

/// `slasim sweep CONFIG | cat`: the header comes out before the point has
/// run, not with the summary at the end (times taken as each line arrives).
#[test]
fn a_sweep_prints_its_header_before_its_point_finishes() {
    use std::io::{BufRead, BufReader};
    use std::time::Instant;
    let dir = tempfile::tempdir().unwrap();
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let config = root.join("configs/slurm-month-centre.toml");
    let db = dir.path().join("centre.sqlite");
    let started = Instant::now();
    let mut child = common::slasim()
        .args(["sweep", config.to_str().unwrap(), "--db", db.to_str().unwrap()])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let lines: Vec<(f64, String)> = BufReader::new(child.stdout.take().unwrap())
        .lines()
        .map(|l| (started.elapsed().as_secs_f64(), l.unwrap()))
        .collect();
    assert!(child.wait().unwrap().success(), "{lines:?}");
    let at = |start: &str| lines.iter().find(|(_, l)| l.starts_with(start)).map(|(t, _)| *t);
    let (header, stored) = (at("experiment ").expect("a header"), at("stored in ").expect("a summary"));
    // The month takes seconds: the header is out well before the summary.
    assert!(stored - header > 0.5, "header at {header:.2} s, summary at {stored:.2} s: {lines:?}");
}

/// Hints name what the user typed (a flag), a file that cannot be read is
/// named without a made-up line, and a missing store is a store everywhere.
#[test]
fn hints_name_flags_and_files_as_given() {
    let (ok, _, err) = common::run(&["sweep", "no/such/config.toml"]);
    assert!(!ok && err.contains("no/such/config.toml: cannot read") && !err.contains(":0:0:"), "{err}");
    for command in
        [&["query", "--db", "no-such.sqlite", "SELECT 1"][..], &["export", "--db", "no-such.sqlite", "--out", "x"]]
    {
        let (ok, _, err) = common::run(command);
        assert!(!ok && err.contains("no-such.sqlite: no such store"), "{command:?}: {err}");
    }
    // A GPU file whose reader documents no machine size: the flag to give it.
    let (ok, out, _) = common::run(&["trace", "info", "disaggregated_DLRM_trace"]);
    assert!(ok, "{out}");
    assert!(out.contains("--capacity N") && !out.contains("preparation settings"), "{out}");
}

/// Unit symbols a figure may carry; each is printed through
/// `slasim_sim::units`.
const UNIT_SYMBOLS: [&str; 8] = ["%", "s", "min", "h", "d", "W", "kWh", "MiB"];

/// Format placeholders followed by a unit symbol (`{:.1} %`, `{t} s`) in a
/// source file's code: a unit written by hand, outside `units.rs`. Comments
/// and the test module at the end of a file are left out.
fn units_by_hand(file: &str, text: &str) -> Vec<String> {
    let mut found = Vec::new();
    let code = text.lines().enumerate().take_while(|(_, line)| !line.trim_start().starts_with("#[cfg(test)]"));
    for (n, line) in code.filter(|(_, line)| !line.trim_start().starts_with("//")) {
        let bytes = line.as_bytes();
        let mut open = None;
        for (i, &b) in bytes.iter().enumerate() {
            match b {
                b'{' => open = Some(i),
                // A placeholder holds no space, quote or brace: `{}`, `{x}`, `{:>6.2}`, `{0:.1}`.
                b'}' if open.is_some_and(|o| !line[o + 1..i].contains([' ', '"', '{'])) => {
                    open = None;
                    let rest = line[i + 1..].strip_prefix(' ').unwrap_or(&line[i + 1..]);
                    let unit = UNIT_SYMBOLS.iter().find(|u| {
                        rest.strip_prefix(**u).is_some_and(|after| {
                            !after.starts_with(|c: char| c.is_alphanumeric() || c == '_' || c == '%')
                        })
                    });
                    if let Some(unit) = unit {
                        found.push(format!("{file}:{}: `{unit}` after a placeholder: {}", n + 1, line.trim()));
                    }
                }
                b' ' | b'"' => open = None,
                _ => {}
            }
        }
    }
    found
}

fn rust_files(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// Every unit printed comes from one place (`slasim_sim::units`): no
/// source of the workspace writes a unit symbol after a placeholder itself,
/// and the check finds a planted one.
#[test]
fn every_printed_unit_comes_from_the_units_module() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    rust_files(&root.join("src"), &mut files);
    rust_files(&root.join("python/src"), &mut files);
    // Every crate has its sources in src/ (rust_files fails naming a missing one).
    for krate in std::fs::read_dir(root.join("crates")).unwrap() {
        rust_files(&krate.unwrap().path().join("src"), &mut files);
    }
    files.sort();
    assert!(files.len() > 100, "found only {} source files under {}", files.len(), root.display());
    let units = root.join("crates/sim/src/units.rs");
    assert!(files.contains(&units), "the units module moved: {}", units.display());
    let mut found = Vec::new();
    let tests = |p: &std::path::Path| {
        p.file_name().is_some_and(|n| n == "tests.rs") || p.components().any(|c| c.as_os_str() == "tests")
    };
    for file in files.iter().filter(|f| **f != units && !tests(f)) {
        let text = std::fs::read_to_string(file).unwrap();
        found.extend(units_by_hand(&file.strip_prefix(root).unwrap().display().to_string(), &text));
    }
    assert!(
        found.is_empty(),
        "{} units written by hand; print them through slasim_sim::units:\n{}",
        found.len(),
        found.join("\n")
    );
    // Planted: a second source of percentages and of seconds.
    let planted = "fn f(u: f64, t: i64) -> String {\n    format!(\"{:.1} % busy after {t} s\", 100.0 * u)\n}\n";
    let found = units_by_hand("planted.rs", planted);
    assert_eq!(found.len(), 2, "{found:?}");
    assert!(found[0].starts_with("planted.rs:2: `%`") && found[1].starts_with("planted.rs:2: `s`"), "{found:?}");
    // Not units: a closure's block, a struct literal, `{:.4e}/h` rates.
    assert!(units_by_hand("fine.rs", "let x = |a| { a } + s;\nformat!(\"{:.4e}/h {}\", r, n)\n").is_empty());
}
