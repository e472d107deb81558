//! The `slasim trace` commands as a user runs them: output and bad input.

use crate::common;

use std::io::Write;

#[test]
fn info_on_ctc_prints_the_statistics() {
    let (ok, out, err) = common::run(&["trace", "info", "CTC-SP2-1996-3.1-cln.swf.gz"]);
    assert!(ok, "{err}");
    for expected in [
        "jobs          77,222",
        "MaxProcs      338",
        "77,216 of 77,222 jobs (99.99 %)",
        "7,174 jobs (9.29 % of those with an estimate)",
        "occurrence factor 0.9801 for 200 %",
        "history 57,199 jobs, simulation input 20,000 jobs",
    ] {
        assert!(out.contains(expected), "missing `{expected}` in:\n{out}");
    }
}

#[test]
fn bad_files_give_one_line_errors_and_exit_1() {
    let dir = tempfile::tempdir().unwrap();
    let empty = dir.path().join("empty.swf");
    std::fs::File::create(&empty).unwrap();
    let bad = dir.path().join("bad.swf");
    writeln!(
        std::fs::File::create(&bad).unwrap(),
        "; h\n1 0 0 10 1 -1 -1 1 20 -1 1 1 1 1 1 1 -1 -1\n2 0 0 1O 1 -1 -1 1 20 -1 1 1 1 1 1 1 -1 -1"
    )
    .unwrap();
    let full = std::fs::read(common::traces().join("swf/KTH-SP2-1996-2.1-cln.swf.gz")).unwrap();
    let truncated = dir.path().join("cut.swf.gz");
    std::fs::write(&truncated, &full[..full.len() / 2]).unwrap();

    let cases = [
        (empty.clone(), "the file is empty"),
        (bad.clone(), ":3: field 4 (run time): `1O` is not an integer: \"2 0 0 1O"),
        (truncated, "truncated or corrupt gzip data"),
        (dir.path().to_path_buf(), "is a directory"),
        (dir.path().join("missing.swf"), "no such file"),
    ];
    for (path, message) in cases {
        let (ok, _, err) = common::run(&["trace", "info", path.to_str().unwrap()]);
        assert!(!ok, "{} should fail", path.display());
        assert!(err.contains(message), "{}: `{message}` not in {err}", path.display());
        assert_eq!(err.trim().lines().count(), 1, "one-line error expected: {err}");
        assert!(!err.contains("panicked"), "{err}");
    }
    // Lenient mode skips the bad line and says so.
    let (ok, out, err) = common::run(&["trace", "info", "--lenient", bad.to_str().unwrap()]);
    assert!(ok, "{err}");
    assert!(out.contains("skipped 1 malformed line(s): 1 non-numeric field"), "{out}");
}

#[test]
fn generate_then_info_round_trip_the_synthetic_default() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("syn.swf.gz");
    let (ok, _, err) = common::run(&["trace", "generate", "--count", "3000", "--out", path.to_str().unwrap()]);
    assert!(ok, "{err}");
    let (ok, out, err) = common::run(&["trace", "info", "--input-jobs", "1000", path.to_str().unwrap()]);
    assert!(ok, "{err}");
    assert!(out.contains("jobs          3,000"), "{out}");
    assert!(out.contains("slasim synthetic workload"), "{out}");
}

#[test]
fn prepare_exports_batteries_as_swf() {
    let dir = tempfile::tempdir().unwrap();
    let out_dir = dir.path().join("prepared");
    let (ok, out, err) = common::run(&["trace", "prepare", "--batteries", "2", "--out", out_dir.to_str().unwrap()]);
    assert!(ok, "{err}");
    assert!(out.contains("batteries     2 × 1000 jobs"), "{out}");
    let battery = slasim::trace::swf::SwfTrace::load(out_dir.join("battery-001.swf"), Default::default()).unwrap();
    assert_eq!(battery.records.len(), 1000);
    assert_eq!(battery.records[0].submit, 0);
    // A file where the directory should be is refused.
    let file = dir.path().join("plain-file");
    std::fs::write(&file, "x").unwrap();
    let (ok, _, err) = common::run(&["trace", "prepare", "--batteries", "1", "--out", file.to_str().unwrap()]);
    assert!(!ok);
    assert!(err.contains("not a directory"), "{err}");
}

#[test]
fn run_and_query_the_synthetic_default() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("r.sqlite");
    let db = db.to_str().unwrap();
    let two = ["--strategy", "conservative-backfilling", "--strategy", "heuristic-planning"];
    let args = |extra: &[&'static str]| -> Vec<&str> {
        let mut v = vec!["run", "--batteries", "2", "--input-jobs", "2000", "--db", db];
        v.extend_from_slice(extra);
        v
    };
    let (ok, out, err) = common::run(&args(&two));
    assert!(ok, "{err}");
    assert!(out.contains("conservative-backfilling") && out.contains("heuristic-planning"), "{out}");
    assert!(!out.contains("heuristic-overbooking"), "{out}");
    assert!(out.contains("failures poisson"), "{out}");
    let (ok, out, err) = common::run(&[
        "query",
        "--db",
        db,
        "SELECT strategy, count(*) AS jobs, sum(fee) - sum(penalty) AS gain FROM jobs GROUP BY strategy ORDER BY strategy",
    ]);
    assert!(ok, "{err}");
    assert!(out.lines().nth(2).unwrap().starts_with("conservative-backfilling"), "{out}");
    assert!(out.contains("2000"), "{out}");
    let (ok, out, _) = common::run(&["query", "--db", db, "--csv", "SELECT count(*) AS n FROM runs"]);
    assert!(ok);
    assert_eq!(out, "n\n4\n");
    // A second identical run stores nothing new.
    let (ok, out, _) = common::run(&args(&two));
    assert!(ok);
    assert!(out.contains("4 of 4 runs were already stored"), "{out}");
    // By default every planning strategy runs (the classic queueing modes run
    // only when named), and the overbooking ones report calibration.
    let (ok, out, err) = common::run(&args(&[]));
    assert!(ok, "{err}");
    for info in slasim::single::policy::strategy_infos() {
        assert_eq!(out.contains(&format!("\n{} ", info.name)), !info.queueing, "{}:\n{out}", info.name);
    }
    assert!(out.contains("calibration of overbooked jobs"), "{out}");
    // 2 batteries × (2 strategies + 3 overbooking strategies × the PoF_max curve 0.1, 0.3, 0.5).
    assert!(out.contains("4 of 22 runs were already stored"), "{out}");
    assert!(out.contains("heuristic-overbooking @0.3"), "{out}");
}

#[test]
fn bad_queries_strategies_and_newer_stores_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("q.sqlite");
    let dbs = db.to_str().unwrap();
    slasim::store::Store::open(&db, slasim::registry().groups()).unwrap();
    for (sql, message) in [
        ("DELETE FROM job_outcomes", "only read-only statements"),
        ("UPDATE points SET gain = 0", "only read-only statements"),
        ("DROP TABLE runs", "only read-only statements"),
        ("DELETE FROM jobs", "cannot modify jobs because it is a view"),
        ("SELEC * FROM jobs", "syntax error"),
        ("SELECT nope FROM jobs", "no such column: nope"),
    ] {
        let (ok, _, err) = common::run(&["query", "--db", dbs, sql]);
        assert!(!ok, "{sql}");
        assert!(err.contains(message), "{sql}: {err}");
    }
    let (ok, _, err) = common::run(&["run", "--strategy", "easy-peasy", "--db", dbs]);
    assert!(!ok);
    assert!(err.contains("invalid value 'easy-peasy' for '--strategy"), "{err}");
    assert!(err.contains("possible values: conservative-backfilling, heuristic-planning, "), "{err}");
    let (ok, _, err) = common::run(&["run", "--placement", "worst-fit", "--db", dbs]);
    assert!(!ok);
    assert!(err.contains("possible values: first-fit, best-fit, highest-pos, last-fit"), "{err}");
    // A store from a newer slasim is refused and left as it was.
    let conn = rusqlite::Connection::open(&db).unwrap();
    conn.pragma_update(None, "user_version", 999).unwrap();
    drop(conn);
    let before = std::fs::read(&db).unwrap();
    let (ok, _, err) = common::run(&["run", "--batteries", "1", "--input-jobs", "1000", "--db", dbs]);
    assert!(!ok);
    assert!(err.contains("schema version 999 is newer"), "{err}");
    assert_eq!(std::fs::read(&db).unwrap(), before);
}

/// Isotonic calibration on CTC-SP2 (comprehensive overbooking): every
/// overbooked job stores its raw and calibrated PoF, the calibrated point is a
/// point of its own, and the outcome does not depend on the thread count.
#[test]
fn calibrated_runs_store_both_predictions_whatever_the_threads() {
    let dir = tempfile::tempdir().unwrap();
    let digest = |jobs: &str| -> (i64, i64, f64, String) {
        let db = dir.path().join(format!("cal{jobs}.sqlite"));
        let db = db.to_str().unwrap();
        let (ok, out, err) = common::run(&[
            "run",
            "--trace",
            "CTC-SP2-1996-3.1-cln.swf.gz",
            "--strategy",
            "comprehensive-overbooking",
            "--pof-calibration",
            "isotonic",
            "--batteries",
            "6",
            "--jobs",
            jobs,
            "--db",
            db,
        ]);
        assert!(ok, "{err}");
        assert!(out.contains("mean calibrated"), "{out}");
        let conn = rusqlite::Connection::open(db).unwrap();
        let (overbooked, calibrated, differ): (i64, i64, f64) = conn
            .query_row(
                "SELECT count(*), count(pof_calibrated), sum(abs(pof_calibrated - pof)) FROM job_outcomes WHERE overbooked = 1",
                [],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
            )
            .unwrap();
        let calibration: String = conn.query_row("SELECT min(calibration) FROM points", [], |r| r.get(0)).unwrap();
        let rows: String = conn
            .query_row(
                "SELECT group_concat(run_id || ':' || job || ':' || accepted || ':' || coalesce(pof_calibrated, ''), ',') \
                 FROM (SELECT * FROM job_outcomes ORDER BY run_id, job)",
                [],
                |r| r.get(0),
            )
            .unwrap();
        assert_eq!(calibration, "isotonic");
        (overbooked, calibrated, differ, rows)
    };
    let one = digest("1");
    assert!(one.0 > 50 && one.0 == one.1, "{} overbooked, {} calibrated", one.0, one.1);
    // Past the warm-up the map is in force: some predictions were changed.
    assert!(one.2 > 0.0);
    assert_eq!(one, digest("2"));
}

#[test]
fn bad_overbooking_settings_name_the_setting() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("o.sqlite");
    let db = db.to_str().unwrap();
    for (args, message) in [
        (vec!["--pof-max", "1.5"], "setting `pof_max` = 1.5: must lie in [0, 1]"),
        (vec!["--pof-max", "-0.1"], "setting `pof_max` = -0.1: must lie in [0, 1]"),
        (vec!["--pdf-step", "0"], "setting `step_seconds` = 0"),
        (vec!["--penalty-ratio", "0"], "setting `penalty_ratio` = 0"),
        (vec!["--penalty-ratio", "-1"], "setting `penalty_ratio` = -1"),
        (vec!["--pdf-source", "runtimes"], "setting `pdf_source` = runtimes"),
        (vec!["--acceptance", "risk", "--security-factor", "0"], "setting `security_factor` = 0"),
        (vec!["--pdf-update", "sometimes"], "invalid value 'sometimes' for '--pdf-update"),
        (vec!["--pdf-update", "online", "--pdf-half-life", "0"], "setting `pdf_half_life` = 0"),
        (vec!["--pdf-update", "online", "--pdf-half-life", "inf"], "setting `pdf_half_life` = inf"),
        (vec!["--pof-calibration", "beta"], "[possible values: none, isotonic, isotonic-upper, scale, logistic]"),
        (
            vec!["--whole-log", "--trace", "CTC-SP2-1996-3.1-cln.swf.gz", "--strategy", "heuristic-overbooking"],
            "has no history jobs to learn from",
        ),
    ] {
        let mut full = vec!["run", "--batteries", "1", "--input-jobs", "1000", "--db", db];
        full.extend(args.iter().copied());
        let (ok, _, err) = common::run(&full);
        assert!(!ok, "{args:?} should fail");
        assert!(err.contains(message), "{args:?}: `{message}` not in {err}");
        assert!(!err.contains("NaN") && !err.contains("panicked"), "{err}");
    }
}

#[test]
fn classic_modes_report_unrunnable_lines_and_skip_them_only_when_lenient() {
    let dir = tempfile::tempdir().unwrap();
    let trace = dir.path().join("small.swf");
    // Line 4: no processor count; line 6: a negative (unknown) run time.
    writeln!(
        std::fs::File::create(&trace).unwrap(),
        "; MaxProcs: 4\n\
         1 0 0 10 2 -1 -1 2 20 -1 1 1 1 1 1 1 -1 -1\n\
         2 5 0 10 2 -1 -1 2 20 -1 1 1 1 1 1 1 -1 -1\n\
         3 6 0 10 -1 -1 -1 -1 20 -1 1 1 1 1 1 1 -1 -1\n\
         4 7 0 10 4 -1 -1 4 20 -1 1 1 1 1 1 1 -1 -1\n\
         5 8 0 -1 1 -1 -1 1 20 -1 5 1 1 1 1 1 -1 -1"
    )
    .unwrap();
    let db = dir.path().join("c.sqlite");
    let (trace, db) = (trace.to_str().unwrap(), db.to_str().unwrap());
    let (ok, _, err) = common::run(&["run", "--trace", trace, "--strategy", "easy", "--db", db]);
    assert!(!ok);
    assert!(err.contains("small.swf:4: field 8 (requested processors): no processor count"), "{err}");
    assert!(err.contains("--lenient"), "{err}");
    let (ok, out, err) = common::run(&["run", "--trace", trace, "--strategy", "easy", "--lenient", "--db", db]);
    assert!(ok, "{err}");
    assert!(err.contains("skipped 2 malformed line(s): 2 job that cannot run"), "{err}");
    assert!(out.contains("queueing metrics"), "{out}");
    // Jobs 1 and 2 share the 4 processors; job 4 needs all of them and waits
    // for both to end at 15: waits 0, 0, 8; job 4 ends at 25.
    let sql = "SELECT jobs, round(wait_mean, 3), wait_max, makespan FROM points";
    let (ok, out, err) = common::run(&["query", "--db", db, "--csv", sql]);
    assert!(ok, "{err}");
    assert!(out.lines().any(|l| l == "3,2.667,8.0,25.0"), "{out}");
}

/// One concept, one flag: no command uses another name of a concept in the
/// vocabulary (`slasim list flags`), and every flag with a fixed list of
/// values shows each value with a line of help.
#[test]
fn the_command_tree_speaks_one_vocabulary() {
    use slasim::cli::options::VOCABULARY;
    fn walk(cmd: &clap::Command, path: &str, out: &mut Vec<String>) {
        for arg in cmd.get_arguments() {
            let Some(long) = arg.get_long() else { continue };
            for word in &VOCABULARY {
                if word.not.contains(&long) {
                    out.push(format!("{path}: --{long} is another name of {}; use --{}", word.concept, word.flag));
                }
            }
            let takes_value = matches!(arg.get_action(), clap::ArgAction::Set | clap::ArgAction::Append);
            let values = arg.get_possible_values();
            if takes_value && !values.is_empty() {
                for v in values.iter().filter(|v| !v.is_hide_set()) {
                    if v.get_help().is_none() {
                        out.push(format!("{path}: --{long}'s value `{}` has no help line", v.get_name()));
                    }
                }
            }
        }
        for sub in cmd.get_subcommands() {
            walk(sub, &format!("{path} {}", sub.get_name()), out);
        }
    }
    let root = slasim::cli::command(&slasim::registry());
    root.clone().debug_assert();
    let mut problems = Vec::new();
    walk(&root, "slasim", &mut problems);
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    // The walk sees the enumerated flags (the test cannot pass by finding none).
    let run = root.find_subcommand("run").unwrap();
    let placement = run.get_arguments().find(|a| a.get_long() == Some("placement")).unwrap();
    let names: Vec<String> = placement.get_possible_values().iter().map(|v| v.get_name().to_string()).collect();
    assert_eq!(names, ["first-fit", "best-fit", "highest-pos", "last-fit"]);
    let strategy = run.get_arguments().find(|a| a.get_long() == Some("strategy")).unwrap();
    assert!(strategy.get_possible_values().iter().any(|v| v.get_name() == "easy"));
}

/// `--version` names the commit the binary was built from.
#[test]
fn the_version_names_its_commit() {
    let (ok, out, err) = common::run(&["--version"]);
    assert!(ok, "{err}");
    assert!(out.starts_with(&format!("slasim {} (", env!("CARGO_PKG_VERSION"))), "{out}");
}

/// A user's own SWF log outside the repository, with the default failure
/// model (the LANL replay, whose file lives under the traces directory): the
/// dry run that promises a clean sweep catches the missing LANL log, and the
/// error names the ways out. With `failures = ["none"]` the same dry run is
/// clean.
#[test]
fn a_dry_run_catches_the_lanl_log_a_user_trace_outside_the_repository_lacks() {
    let dir = tempfile::tempdir().unwrap();
    let empty = dir.path().join("no-traces");
    std::fs::create_dir(&empty).unwrap();
    let jobs: Vec<(i64, u32, i64, i64)> = (0..40).map(|i| (600 * i, 1 + (i as u32 % 4), 3600, 1800)).collect();
    let swf = common::write_swf(dir.path(), 8, &jobs);
    let config = |failures: &str| {
        format!(
            "name = \"mine\"\n[workload]\ntrace = \"{}\"\n[[sweep]]\nname = \"s\"\n[sweep.axes]\n\
             strategy = [\"conservative-backfilling\"]\n{failures}",
            swf.display()
        )
    };
    let file = dir.path().join("mine.toml");
    let db = dir.path().join("mine.sqlite");
    // Run from a folder with no `../shared` beside it, and with a home of
    // its own: neither the legacy directory nor the per-user cache of this
    // machine may hold the LANL log for the run.
    let cwd = dir.path().join("home/work");
    std::fs::create_dir_all(&cwd).unwrap();
    let dry = |env: Option<&std::path::Path>| {
        let mut cmd = common::slasim();
        cmd.current_dir(&cwd).env("HOME", dir.path().join("home")).env_remove("XDG_CACHE_HOME");
        match env {
            Some(path) => cmd.env("SLASIM_TRACE_DIR", path),
            None => cmd.env_remove("SLASIM_TRACE_DIR"),
        };
        let out =
            cmd.args(["sweep", file.to_str().unwrap(), "--dry-run", "--db", db.to_str().unwrap()]).output().unwrap();
        (
            out.status.success(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    std::fs::write(&file, config("")).unwrap();
    // The traces directory set to an empty one, and not set at all (then it
    // is the per-user cache, then ../shared/data/traces from the working
    // directory: both empty here).
    for env in [Some(empty.as_path()), None] {
        let (ok, out, err) = dry(env);
        assert!(!ok, "the dry run passed without the LANL log:\n{out}");
        assert!(out.contains("to run"), "the points are still listed:\n{out}");
        for expected in
            ["LA-UR-05-7318-failure-data-1996-2005.csv.gz: no such file", "--failures none|poisson", "SLASIM_TRACE_DIR"]
        {
            assert!(err.contains(expected), "`{expected}` not in:\n{err}");
        }
        assert!(!err.contains("panicked"), "{err}");
    }
    assert!(!db.exists(), "a dry run wrote the store");
    std::fs::write(&file, config("failures = [\"none\"]\n")).unwrap();
    let (ok, out, err) = dry(Some(&empty));
    assert!(ok, "{err}");
    assert!(out.contains("1 points, 0 already in"), "{out}");
    // A trace that is not there is caught as well.
    std::fs::remove_file(&swf).unwrap();
    let (ok, _, err) = dry(Some(&empty));
    assert!(!ok && err.contains("small.swf: no such file"), "{err}");
}

/// A Slurm accounting dump has no header of its own: `--capacity` is its
/// machine's size, so `trace info` neither warns that it is missing nor
/// prints the largest allocation as MaxProcs.
#[test]
fn trace_info_takes_the_capacity_of_a_sacct_dump() {
    let dump = "tests/fixtures/sacct/cluster.sacct";
    let (ok, out, err) = common::run(&["trace", "info", dump]);
    assert!(ok, "{err}");
    assert!(out.contains("MaxProcs      64\n"), "{out}");
    assert!(err.contains("MaxProcs not given: 64"), "{err}");
    let (ok, out, err) = common::run(&["trace", "info", dump, "--capacity", "512"]);
    assert!(ok, "{err}");
    assert!(out.contains("MaxProcs      512\n"), "{out}");
    assert!(out.contains("capacity 512\n"), "{out}");
    assert!(!err.contains("not given"), "{err}");
    // In whole nodes, --capacity is the node count.
    let (ok, out, err) = common::run(&["trace", "info", dump, "--capacity", "6", "--node-unit", "nodes"]);
    assert!(ok, "{err}");
    assert!(out.contains("MaxNodes      6\n") && out.contains("MaxProcs      64\n"), "{out}");
    assert!(!err.contains("MaxNodes not given"), "{err}");
}

/// `--strategy batsim` without a scheduler names the command-line flags that
/// give one, and the config keys.
#[test]
fn batsim_without_a_scheduler_names_the_flags() {
    let (ok, _, err) = common::run(&["run", "--strategy", "batsim", "--failures", "none"]);
    assert!(!ok);
    for expected in ["--scheduler-command", "--scheduler-endpoint", "[batsim] command", "neither command nor endpoint"]
    {
        assert!(err.contains(expected), "`{expected}` not in:\n{err}");
    }
    assert_eq!(err.trim().lines().count(), 1, "{err}");
}

/// Flags whose value's form and default are the command's by nature; only
/// switch against value is compared for them.
const BY_COMMAND: [(&str, &str); 7] = [
    ("out", "what a command writes: a directory, a file, a chart"),
    ("format", "the format of what a command writes: a trace export's workload, a recording's dataset"),
    ("capacity", "each kind's default machine (the trace's header, the Grid's sites, a generated log's)"),
    ("db", "`sweep` names its store after the config when none is given"),
    ("strategy", "a Grid's clusters run EASY unless told otherwise; a single run takes the config's"),
    ("failures", "`trace failures` draws the LANL replay; a run takes its config's"),
    (
        "estimates",
        "provisioning plans with exact run times; the RL environment observes logged requests, as RLScheduler does",
    ),
];

/// Per long flag, what it is wherever it appears: a switch or a value, the
/// value's name (one of a list is named as one), and its default. A flag
/// name with two of them is a second meaning (`--csv` a switch here and a
/// file there), listed with the commands that use each.
fn second_meanings(root: &clap::Command) -> Vec<String> {
    use std::collections::BTreeMap;
    fn walk(cmd: &clap::Command, path: &str, seen: &mut BTreeMap<String, BTreeMap<String, Vec<String>>>) {
        // Long flags only, clap's own `--help` and `--version` aside.
        let flags = cmd.get_arguments().filter_map(|arg| Some((arg, arg.get_long()?)));
        for (arg, long) in flags.filter(|(_, long)| !matches!(*long, "help" | "version")) {
            let takes_value = matches!(arg.get_action(), clap::ArgAction::Set | clap::ArgAction::Append);
            let what = if takes_value && BY_COMMAND.iter().any(|(flag, _)| *flag == long) {
                "a value".to_string()
            } else if takes_value {
                let name = arg.get_value_names().map(|v| v.iter().map(|s| s.to_string()).collect::<Vec<_>>().join(" "));
                let mut name = name.unwrap_or_else(|| long.replace('-', "_").to_uppercase());
                if matches!(arg.get_action(), clap::ArgAction::Append)
                    || arg.get_num_args().is_some_and(|n| n.max_values() > 1)
                {
                    name = name.trim_end_matches('S').to_string();
                }
                let default: Vec<String> =
                    arg.get_default_values().iter().map(|v| v.to_string_lossy().into_owned()).collect();
                format!("a value {name} (default {default:?})")
            } else {
                format!("a switch ({:?})", arg.get_action())
            };
            seen.entry(long.to_string()).or_default().entry(what).or_default().push(path.to_string());
        }
        for sub in cmd.get_subcommands() {
            walk(sub, &format!("{path} {}", sub.get_name()), seen);
        }
    }
    let mut seen = BTreeMap::new();
    walk(root, root.get_name(), &mut seen);
    seen.into_iter()
        .filter(|(_, meanings)| meanings.len() > 1)
        .map(|(flag, meanings)| {
            let each: Vec<String> = meanings.iter().map(|(what, at)| format!("{what} in {}", at.join(", "))).collect();
            format!("--{flag}: {}", each.join("; "))
        })
        .collect()
}

/// One flag name, one meaning and one default in every command; the check
/// finds a planted second meaning.
#[test]
fn a_flag_name_means_one_thing_in_every_command() {
    let root = slasim::cli::command(&slasim::registry());
    let found = second_meanings(&root);
    assert!(found.is_empty(), "{}", found.join("\n"));
    // Planted: `--csv` a switch in one command and a file in another.
    let planted = clap::Command::new("planted")
        .subcommand(clap::Command::new("query").arg(clap::Arg::new("csv").long("csv").action(clap::ArgAction::SetTrue)))
        .subcommand(clap::Command::new("compare").arg(clap::Arg::new("csv").long("csv").value_name("FILE")));
    let found = second_meanings(&planted);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(
        found[0].starts_with("--csv: ") && found[0].contains("planted query") && found[0].contains("planted compare")
    );
}
