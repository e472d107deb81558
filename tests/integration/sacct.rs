//! Slurm accounting dumps (`sacct --parsable2`) converted to SWF: the
//! hand-written fixtures under `tests/fixtures/sacct/` cover what a loopback
//! test cluster cannot produce (NODE_FAIL, PREEMPTED, OUT_OF_MEMORY,
//! heterogeneous jobs, a `|` in a job name, array ranges, Unknown times), each
//! converted field pinned; bad input must name file, line and column.

use crate::common;

use std::path::{Path, PathBuf};

use slasim::single::workload::{WorkloadSource, load_trace};
use slasim::trace::sacct::{SacctOptions, SacctReport, convert_file, is_sacct_file, maps_path};
use slasim::trace::swf::{LineProblem, ReadOptions, SwfTrace};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/sacct").join(name)
}

fn strict() -> SacctOptions {
    SacctOptions::default()
}

/// The SWF lines of the cluster fixture, by hand from its sacct lines
/// (submit 0 = 2024-03-04T08:00:00, job 100's submit):
/// fields job, submit, wait, run, alloc, cpu, mem, req, limit, reqmem,
/// status, user, group, executable (job name), queue, partition, -1, -1.
const CLUSTER_SWF: [&str; 16] = [
    // 100 COMPLETED: waited 30 s, ran 1 h on 16 CPUs, limit 02:00:00; alice/physics/sim/batch.
    "1 0 30 3600 16 -1 -1 16 7200 -1 1 1 1 1 1 1 -1 -1",
    // 101 FAILED (exit 3): limit 00:30:00; bob/chem/post/debug.
    "2 300 0 42 4 -1 -1 4 1800 -1 0 2 2 2 2 2 -1 -1",
    // 102 TIMEOUT: ran its limit 01:00:00 plus 5 s; status 0.
    "3 600 600 3605 8 -1 -1 8 3600 -1 0 1 1 1 1 1 -1 -1",
    // 103 NODE_FAIL: 64 CPUs on 4 nodes, limit 1-00:00:00; carol.
    "4 900 10 7200 64 -1 -1 64 86400 -1 0 3 1 3 1 1 -1 -1",
    // 104 OUT_OF_MEMORY: limit `10:00` (MM:SS) = 600 s.
    "5 1200 0 300 2 -1 -1 2 600 -1 0 2 2 4 1 1 -1 -1",
    // 105 PREEMPTED → cancelled (5): limit `90` (minutes); dave/bio/low/scavenger.
    "6 1800 60 1200 1 -1 -1 1 5400 -1 5 4 3 5 3 3 -1 -1",
    // 106 `CANCELLED by 1000` while running: limit 1-12:00:00.
    "7 2100 60 600 8 -1 -1 8 129600 -1 5 1 1 1 1 1 -1 -1",
    // 107 cancelled while pending (Start None): wait -1, run 0, allocated -1; Partition_Limit → -1.
    "8 2400 -1 0 -1 -1 -1 16 -1 -1 5 1 1 1 1 1 -1 -1",
    // 108 cancelled while pending, but sacct prints Start = End: AllocNodes 0 tells.
    "9 2700 -1 0 -1 -1 -1 4 1200 -1 5 1 1 1 1 1 -1 -1",
    // Array 200: tasks 200_1, 200_2 (raw 201, 202) completed, 200_3 failed; 200_[4-10%2] pending, skipped.
    "10 3600 5 180 1 -1 -1 1 900 -1 1 2 2 6 1 1 -1 -1",
    "11 3600 5 240 1 -1 -1 1 900 -1 1 2 2 6 1 1 -1 -1",
    "12 3600 185 10 1 -1 -1 1 900 -1 0 2 2 6 1 1 -1 -1",
    // Heterogeneous 300+0 (1 CPU, 01:00:00) and 300+1 (4 CPUs, 02:00:00): one job,
    // 5 CPUs, the longer run (602 s) and limit; erin/bio/coupled.
    "13 5400 60 602 5 -1 -1 5 7200 -1 1 5 3 7 1 1 -1 -1",
    // 400 `pre|post|run`: the `|`s stay in the job name (executable 8); debug.
    "14 5700 0 100 2 -1 -1 2 300 -1 1 5 3 8 2 2 -1 -1",
    // 402 UNLIMITED → requested time -1.
    "15 6000 0 30 2 -1 -1 2 -1 -1 1 5 3 9 2 2 -1 -1",
    // 403 FAILED with End Unknown and no Elapsed: run time from its batch step's end (120 s).
    "16 6300 0 120 4 -1 -1 4 1200 -1 0 3 1 10 1 1 -1 -1",
];

#[test]
fn cluster_fixture_converts_field_by_field() {
    let c = convert_file(&fixture("cluster.sacct"), &strict()).unwrap();
    let lines: Vec<String> = c.trace.records.iter().map(ToString::to_string).collect();
    assert_eq!(lines, CLUSTER_SWF);
    // The sacct line each SWF job came from (a heterogeneous job: its +0 component).
    assert_eq!(c.lines, vec![3, 6, 8, 10, 12, 15, 16, 17, 18, 19, 21, 23, 26, 31, 32, 33]);
    let m = &c.maps;
    assert_eq!(m.users, ["alice", "bob", "carol", "dave", "erin"]);
    assert_eq!(m.groups, ["physics", "chem", "bio"]);
    assert_eq!(m.partitions, ["batch", "debug", "scavenger"]);
    assert_eq!(
        m.job_names,
        ["sim", "post", "big", "mem", "low", "sweep", "coupled", "pre|post|run", "render", "stage"]
    );
    assert_eq!(
        m.jobs,
        [
            "100", "101", "102", "103", "104", "105", "106", "107", "108", "200_1", "200_2", "200_3", "300", "400",
            "402", "403"
        ]
    );
    let expected = SacctReport {
        lines: 36,
        allocations: 17,
        steps: 14,
        orphan_steps: 1,
        skipped_steps: 1,
        steps_past_end: 1,
        runtime_from_steps: 1,
        no_runtime: 0,
        pending: 2,
        pending_array_ranges: 1,
        pending_array_tasks: 7,
        running: 1,
        requeued: 0,
        revoked: 0,
        het_jobs: 1,
        het_components: 2,
        array_tasks: 3,
        never_started: 2,
        jobs: 16,
        completed: 6,
        failed: 6,
        cancelled: 4,
        resolved: 1,
        first_resolved: Some(31),
        resolved_column: Some("JobName".into()),
        epoch_times: false,
        guessed_max_procs: Some(64),
        guessed_max_nodes: Some(4),
        skipped: Default::default(),
    };
    assert_eq!(c.report, expected);
    assert_eq!(
        c.report.warnings("--capacity sets it", "--max-nodes sets it"),
        [
            "MaxNodes not given: 4, the largest allocation in the dump (the machine may be larger; --max-nodes sets it)",
            "MaxProcs not given: 64, the largest allocation in the dump (the machine may be larger; --capacity sets it)",
        ]
    );
    let h = &c.trace.header;
    assert_eq!(h.max_procs(), Some(64));
    assert_eq!(h.max_nodes(), Some(4));
    assert_eq!(h.get("StartTime"), Some("Mon Mar 04 08:00:00 2024"));
    assert_eq!(h.get("EndTime"), Some("Mon Mar 04 10:15:10 2024"));
    assert_eq!(h.unix_start_time(), None, "local times give no UnixStartTime");
    assert_eq!(h.get_all("Partition").collect::<Vec<_>>(), ["1 batch", "2 debug", "3 scavenger"]);
    assert_eq!(h.get("MaxQueues"), Some("3"));
    assert_eq!(c.trace.skipped.total(), 0);
}

#[test]
fn the_report_says_what_was_skipped() {
    let c = convert_file(&fixture("cluster.sacct"), &strict()).unwrap();
    assert_eq!(
        c.report.to_string(),
        "36 lines: 17 allocations, 14 steps folded into their jobs; 16 SWF jobs (6 completed, 6 failed, \
         4 cancelled, 2 of them never started); 3 array tasks; 1 heterogeneous jobs from 2 components; \
         skipped 2 pending (1 of them array ranges of 7 tasks), 1 running, 1 steps of skipped jobs, \
         1 steps without their job; 1 run times from step ends; 1 steps end after their job; 1 lines had a `|` \
         inside JobName, resolved by anchoring the other columns (first: line 31)"
    );
}

#[test]
fn given_machine_size_is_used_without_warnings() {
    let options = SacctOptions { max_procs: Some(128), max_nodes: Some(8), ..strict() };
    let c = convert_file(&fixture("cluster.sacct"), &options).unwrap();
    assert_eq!(c.trace.header.max_procs(), Some(128));
    assert_eq!(c.trace.header.max_nodes(), Some(8));
    assert_eq!((c.report.guessed_max_procs, c.report.guessed_max_nodes), (None, None));
    assert!(c.report.warnings("", "").is_empty());
}

#[test]
fn epoch_times_equal_local_times_and_give_unix_start_time() {
    let local = convert_file(&fixture("local.sacct"), &strict()).unwrap();
    let epoch = convert_file(&fixture("epoch.sacct"), &strict()).unwrap();
    assert_eq!(local.trace.records, epoch.trace.records);
    let lines: Vec<String> = epoch.trace.records.iter().map(ToString::to_string).collect();
    assert_eq!(
        lines,
        [
            "1 0 5 180 1 -1 -1 1 900 -1 1 1 1 1 1 1 -1 -1",
            "2 0 5 240 1 -1 -1 1 900 -1 1 1 1 1 1 1 -1 -1",
            "3 0 185 10 1 -1 -1 1 900 -1 0 1 1 1 1 1 -1 -1",
            "4 600 -1 0 -1 -1 -1 4 3600 -1 5 2 2 2 2 2 -1 -1",
        ]
    );
    assert!(epoch.report.epoch_times && !local.report.epoch_times);
    assert_eq!(epoch.trace.header.unix_start_time(), Some(1_709_542_800));
    assert_eq!(epoch.trace.header.get("StartTime"), Some("Mon Mar 04 09:00:00 2024 UTC"));
    assert_eq!(local.trace.header.unix_start_time(), None);
}

#[test]
fn written_files_read_back_and_are_deterministic() {
    let dir = tempfile::tempdir().unwrap();
    let c = convert_file(&fixture("cluster.sacct"), &strict()).unwrap();
    let out = dir.path().join("cluster.swf");
    let maps = c.write(&out).unwrap();
    assert_eq!(maps, dir.path().join("cluster.maps.csv"));
    assert_eq!(maps_path(&out), maps);
    let back = SwfTrace::load(&out, ReadOptions::default()).unwrap();
    assert_eq!(back.records, c.trace.records);
    assert_eq!(back.header.lines, c.trace.header.lines);
    let csv = std::fs::read_to_string(&maps).unwrap();
    assert!(
        csv.starts_with("kind,number,name\nuser,1,alice\nuser,2,bob\nuser,3,carol\nuser,4,dave\nuser,5,erin\n"),
        "{csv}"
    );
    for row in
        ["group,3,bio\n", "partition,3,scavenger\n", "job-name,8,pre|post|run\n", "job,10,200_1\n", "job,13,300\n"]
    {
        assert!(csv.contains(row), "{row} not in {csv}");
    }
    assert!(csv.ends_with("job,16,403\n"), "{csv}");
    // Again, gzip-compressed input and output: the same bytes once decompressed.
    let gz_in = dir.path().join("cluster.sacct.gz");
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    std::io::Write::write_all(&mut encoder, &std::fs::read(fixture("cluster.sacct")).unwrap()).unwrap();
    std::fs::write(&gz_in, encoder.finish().unwrap()).unwrap();
    assert!(is_sacct_file(&gz_in));
    let again = convert_file(&gz_in, &strict()).unwrap();
    let out2 = dir.path().join("again.swf.gz");
    again.write(&out2).unwrap();
    let back2 = SwfTrace::load(&out2, ReadOptions::default()).unwrap();
    assert_eq!(back2.records, back.records);
    assert_eq!(std::fs::read(dir.path().join("again.maps.csv")).unwrap(), csv.as_bytes());
    // No temporary files are left behind.
    let mut names: Vec<String> =
        std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    names.sort();
    assert_eq!(names, ["again.maps.csv", "again.swf.gz", "cluster.maps.csv", "cluster.sacct.gz", "cluster.swf"]);
}

#[test]
fn a_sacct_trace_loads_through_the_workload_path() {
    assert!(is_sacct_file(&fixture("cluster.sacct")));
    assert!(!is_sacct_file(&common::traces().join("swf/CTC-SP2-1996-3.1-cln.swf.gz")));
    assert!(!is_sacct_file(&fixture("bad-no-header.sacct")));
    let source = WorkloadSource::Swf { path: fixture("cluster.sacct"), lenient: false };
    let trace = source.load().unwrap();
    assert_eq!(trace.records.iter().map(ToString::to_string).collect::<Vec<_>>(), CLUSTER_SWF);
    // The classic modes' runnable check passes every converted job.
    let runnable = load_trace(&fixture("cluster.sacct"), ReadOptions { lenient: false, runnable: true }).unwrap();
    assert_eq!(runnable.records.len(), 16);
}

/// (fixture, strict error, malformed lines lenient skips, jobs left).
const BAD: [(&str, &str, u64, usize); 6] = [
    (
        "bad-time.sacct",
        "bad-time.sacct:3: column Start: `2024-03-04 08:00:30` is not a time (YYYY-MM-DDTHH:MM:SS as sacct prints \
         by default, epoch seconds with SLURM_TIME_FORMAT=%s, Unknown or None): \
         \"2|2|b|alice|batch|2024-03-04T08:00:00|2024-03-04 08:00:30|2024-03-04T08:01:30|00:01:00|00:10:00|1|1|COMPLETED\"",
        1,
        1,
    ),
    (
        "bad-negative.sacct",
        "bad-negative.sacct:3: column End: ends 60 s before it starts (negative elapsed time): \
         \"2|2|b|alice|batch|2024-03-04T08:00:00|2024-03-04T08:02:30|2024-03-04T08:01:30|60|00:10:00|1|1|COMPLETED\"",
        2,
        1,
    ),
    (
        "bad-ambiguous.sacct",
        "bad-ambiguous.sacct:3: 16 fields for the 14 columns of the header: a `|` inside one of JobName, Comment \
         (free text, unescaped by --parsable2) makes the line ambiguous; ask sacct for only one of them: \
         \"2|2|b|c|see|above|alice|batch|2024-03-04T08:00:00|2024-03-04T08:00:30|2024-03-04T08:01:30|00:01:00|00:10:00|1|1|COMPLETED\"",
        1,
        1,
    ),
    (
        "bad-delimiter.sacct",
        "bad-delimiter.sacct:3: 13 fields for the 12 columns of the header, and no free-text column to hold a `|`: \
         the delimiter cannot be resolved: \
         \"2|2|alice|batch|2024-03-04T08:00:00|2024-03-04T08:00:30|2024-03-04T08:01:30|00:01:00|00:10:00|1|1|1|COMPLETED\"",
        1,
        1,
    ),
    (
        "bad-state.sacct",
        "bad-state.sacct:2: column State: `DONE` is not a Slurm job state: \
         \"1|1|a|alice|batch|2024-03-04T08:00:00|2024-03-04T08:00:30|2024-03-04T08:01:30|00:01:00|00:10:00|1|1|DONE\"",
        1,
        0,
    ),
    (
        "bad-limit.sacct",
        "bad-limit.sacct:2: column Timelimit: `1-xx` is not a time limit (D-HH:MM:SS, HH:MM:SS, MM:SS, MM, \
         UNLIMITED or Partition_Limit): \
         \"1|1|a|alice|batch|2024-03-04T08:00:00|2024-03-04T08:00:30|2024-03-04T08:01:30|00:01:00|1-xx|1|1|COMPLETED\"",
        1,
        0,
    ),
];

#[test]
fn bad_lines_name_file_line_and_column_and_lenient_skips_them() {
    for (name, message, skipped, jobs) in BAD {
        let path = fixture(name);
        let err = convert_file(&path, &strict()).unwrap_err().to_string();
        let shown = err.replace(&format!("{}", path.parent().unwrap().display()), "").replacen('/', "", 1);
        assert_eq!(shown, message);
        let lenient = convert_file(&path, &SacctOptions { lenient: true, ..strict() });
        match lenient {
            Ok(c) => {
                assert_eq!(c.trace.skipped.total(), skipped, "{name}");
                assert_eq!(c.trace.records.len(), jobs, "{name}");
                assert!(c.trace.header.notes().any(|n| n.starts_with("skipped")), "{name}");
            }
            Err(e) => {
                assert_eq!(jobs, 0, "{name}: {e}");
                assert!(e.to_string().contains(&format!("skipped {skipped} malformed line(s)")), "{name}: {e}");
            }
        }
    }
    // The negative elapsed time of line 4 is the second skipped line.
    let c = convert_file(&fixture("bad-negative.sacct"), &SacctOptions { lenient: true, ..strict() }).unwrap();
    assert_eq!(c.trace.skipped.by_problem[&LineProblem::Negative], 2);
}

#[test]
fn header_problems_are_errors_even_when_lenient() {
    let lenient = SacctOptions { lenient: true, ..strict() };
    let err = convert_file(&fixture("bad-missing-column.sacct"), &lenient).unwrap_err().to_string();
    assert!(
        err.ends_with(
            "bad-missing-column.sacct:1: column Start missing from the header (required: JobIDRaw or JobID, Submit, \
             Start, State, AllocCPUS or NCPUS; ask sacct for --format=JobIDRaw,JobID,JobName,User,Group,Partition,\
             Submit,Start,End,Elapsed,Timelimit,AllocCPUS,ReqCPUS,AllocNodes,State)"
        ),
        "{err}"
    );
    let err = convert_file(&fixture("bad-no-header.sacct"), &lenient).unwrap_err().to_string();
    assert!(err.contains("bad-no-header.sacct:1: not a sacct header: expected field names separated by `|`"), "{err}");
}

fn slasim(args: &[&str]) -> (bool, String, String) {
    let out = common::slasim().args(args).output().unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn trace_convert_command() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("cluster.swf");
    let input = fixture("cluster.sacct");
    let (ok, stdout, stderr) = slasim(&[
        "trace",
        "convert",
        "--from",
        "sacct",
        input.to_str().unwrap(),
        "--to",
        "swf",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(ok, "{stderr}");
    assert!(stderr.contains("warning: MaxProcs not given: 64, the largest allocation"), "{stderr}");
    assert!(stdout.contains("16 SWF jobs (6 completed, 6 failed, 4 cancelled"), "{stdout}");
    assert!(stdout.contains(&format!("wrote      {}: 16 jobs, MaxProcs 64, MaxNodes 4", out.display())), "{stdout}");
    assert!(stdout.contains("5 users, 3 groups, 3 partitions, 10 job names, 16 jobs"), "{stdout}");
    let swf = SwfTrace::load(&out, ReadOptions::default()).unwrap();
    assert_eq!(swf.records.iter().map(ToString::to_string).collect::<Vec<_>>(), CLUSTER_SWF);

    // Detected without --from, and --capacity silences the warning.
    let out2 = dir.path().join("sized.swf");
    let (ok, _, stderr) = slasim(&[
        "trace",
        "convert",
        input.to_str().unwrap(),
        "--out",
        out2.to_str().unwrap(),
        "--capacity",
        "128",
        "--max-nodes",
        "8",
    ]);
    assert!(ok && !stderr.contains("warning"), "{stderr}");
    assert_eq!(SwfTrace::load(&out2, ReadOptions::default()).unwrap().header.max_procs(), Some(128));

    // `trace info` reads the dump directly.
    let (ok, stdout, stderr) = slasim(&["trace", "info", input.to_str().unwrap(), "--capacity", "64"]);
    assert!(ok, "{stderr}");
    assert!(stdout.contains("jobs          16"), "{stdout}");
}

#[test]
fn trace_convert_refuses_bad_input_with_exit_1_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.swf");
    let swf = common::traces().join("swf/KTH-SP2-1996-2.1-cln.swf.gz");
    for (input, message) in [
        (fixture("bad-time.sacct"), "bad-time.sacct:3: column Start: `2024-03-04 08:00:30` is not a time"),
        (fixture("bad-missing-column.sacct"), "bad-missing-column.sacct:1: column Start missing from the header"),
        (swf, "not a sacct dump: its first line is no `|`-separated header"),
        (dir.path().join("missing.sacct"), "missing.sacct: cannot open"),
    ] {
        let output = common::slasim()
            .args(["trace", "convert", input.to_str().unwrap(), "--out", out.to_str().unwrap()])
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(1), "{stderr}");
        assert!(stderr.contains(message), "`{message}` not in {stderr}");
        assert!(!stderr.contains("panicked"), "{stderr}");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0, "{}: something was written", input.display());
    }
    // --lenient converts what it can and says what it skipped.
    let (ok, stdout, stderr) = slasim(&[
        "trace",
        "convert",
        "--lenient",
        fixture("bad-negative.sacct").to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(ok, "{stderr}");
    assert!(stdout.contains("malformed  skipped 2 malformed line(s): 2 impossible negative value"), "{stdout}");
}

#[test]
fn runs_on_the_dump_equal_runs_on_its_conversion() {
    let dir = tempfile::tempdir().unwrap();
    let input = fixture("cluster.sacct");
    let converted = dir.path().join("cluster.swf");
    convert_file(&input, &strict()).unwrap().write(&converted).unwrap();
    let mut rows = Vec::new();
    for (trace, db) in [(input.as_path(), "a.sqlite"), (converted.as_path(), "b.sqlite")] {
        let db = dir.path().join(db);
        let (ok, stdout, stderr) = slasim(&[
            "run",
            "--trace",
            trace.to_str().unwrap(),
            "--whole-log",
            "--strategy",
            "easy",
            "--failures",
            "none",
            "--db",
            db.to_str().unwrap(),
        ]);
        assert!(ok, "{stderr}\n{stdout}");
        let (ok, table, stderr) =
            slasim(&["query", "--db", db.to_str().unwrap(), "--csv", "SELECT * FROM jobs ORDER BY run_id, job"]);
        assert!(ok, "{stderr}");
        // run_id hashes the trace's name, which differs; every other column must not.
        let without_run_id: Vec<String> =
            table.lines().map(|l| l.split_once(',').map_or(l, |(_, rest)| rest).to_string()).collect();
        rows.push(without_run_id.join("\n"));
    }
    assert_eq!(rows[0].lines().count(), 17, "{}", rows[0]);
    assert_eq!(rows[0], rows[1]);
}

/// A converted sacct workload is a trace like any other: every single-cluster
/// strategy runs on the dump itself (`--trace FILE.sacct`, detected by its
/// header), each storing every job of the dump.
#[test]
fn every_single_cluster_strategy_runs_on_a_sacct_dump() {
    let dir = tempfile::tempdir().unwrap();
    let input = fixture("cluster.sacct");
    let db = dir.path().join("all.sqlite");
    // A strategy whose decisions come from an external scheduler (batsim)
    // needs one running: tests/batsim*.rs run those.
    let strategies: Vec<_> =
        slasim::single::policy::strategy_infos().into_iter().filter(|i| !i.reads.scheduler).collect();
    assert!(strategies.len() >= 8, "{}", strategies.len());
    for info in &strategies {
        // Oracle PDFs: a whole-log run has no history to learn them from.
        let (ok, stdout, stderr) = slasim(&[
            "run",
            "--trace",
            input.to_str().unwrap(),
            "--whole-log",
            "--capacity",
            "64",
            "--oracle-pdfs",
            "--pof-max",
            "0.3",
            "--failures",
            "none",
            "--strategy",
            info.name,
            "--db",
            db.to_str().unwrap(),
        ]);
        assert!(ok, "{}: {stderr}\n{stdout}", info.name);
        assert!(!stderr.contains("panicked"), "{}: {stderr}", info.name);
    }
    let (ok, table, stderr) = slasim(&[
        "query",
        "--db",
        db.to_str().unwrap(),
        "--csv",
        "SELECT strategy, count(*) FROM jobs GROUP BY strategy ORDER BY strategy",
    ]);
    assert!(ok, "{stderr}");
    let rows: Vec<&str> = table.lines().skip(1).collect();
    assert_eq!(rows.len(), strategies.len(), "{table}");
    for row in rows {
        let (strategy, jobs) = row.rsplit_once(',').unwrap();
        // The classic queueing modes replay all 16 SWF jobs of the dump; the
        // planning-based ones run what the preparation keeps: not the two
        // jobs cancelled with run time 0, nor the one without a time limit
        // (UNLIMITED, no estimate to plan with).
        let queueing = slasim::single::policy::strategy(strategy).unwrap().queueing;
        assert_eq!(jobs, if queueing { "16" } else { "13" }, "{strategy}\n{table}");
    }
}

/// A sweep config names a sacct dump as its trace, as it names an SWF log.
#[test]
fn a_sweep_config_runs_on_a_sacct_dump() {
    let dir = tempfile::tempdir().unwrap();
    let input = fixture("cluster.sacct");
    let config = dir.path().join("sacct.toml");
    std::fs::write(
        &config,
        format!(
            r#"name = "sacct-sweep"
[workload]
trace = "{}"
[prepare]
whole_log = true
capacity = 64
[failures]
model = "none"
[overbooking.pdf]
learn_from = "input"
[[sweep]]
[sweep.axes]
strategy = ["easy", "conservative-backfilling", "heuristic-overbooking"]
pof_max = [0.1, 0.3]
"#,
            input.display()
        ),
    )
    .unwrap();
    let db = dir.path().join("sweep.sqlite");
    let (ok, stdout, stderr) =
        slasim(&["sweep", config.to_str().unwrap(), "--db", db.to_str().unwrap(), "--no-progress"]);
    assert!(ok, "{stderr}\n{stdout}");
    let (ok, table, stderr) = slasim(&["query", "--db", db.to_str().unwrap(), "--csv", "SELECT count(*) FROM runs"]);
    assert!(ok, "{stderr}");
    let runs: usize = table.lines().nth(1).unwrap().parse().unwrap();
    // easy reads no PoF_max: 1 point; the two planning strategies 2 each.
    assert!((3..=6).contains(&runs), "{table}");
    let (ok, table, _) =
        slasim(&["query", "--db", db.to_str().unwrap(), "--csv", "SELECT count(DISTINCT strategy) FROM jobs"]);
    assert!(ok);
    assert_eq!(table.lines().nth(1), Some("3"), "{table}");
}
