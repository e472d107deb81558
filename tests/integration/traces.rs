//! Integration tests on the real PWA logs and LANL failure records in
//! `../shared/data/traces` (see its SOURCES.md for the figures checked here).

use crate::common;

use slasim::single::workload::failures::{LANL_FILE, LanlLog};
use slasim::single::workload::info::TraceInfo;
use slasim::single::workload::prepare::PrepareConfig;
use slasim::trace::swf::{ReadOptions, SwfTrace};

/// What SOURCES.md says about a log's runtime estimates (field 9).
#[derive(Clone, Copy)]
enum Estimates {
    /// Populated; this many jobs "ran longer than requested".
    Overruns(usize),
    /// "not populated".
    Absent,
    /// Populated, over-runs not stated (LCG's coarse queue limits).
    Unstated,
}
use Estimates::{Absent, Overruns, Unstated};

/// Job counts and estimate facts from SOURCES.md.
const LOGS: [(&str, usize, Estimates); 17] = [
    ("swf/RICC-2010-2.swf.gz", 447_794, Overruns(7_092)),
    ("swf/UniLu-Gaia-2014-2.swf.gz", 51_987, Overruns(1_500)),
    ("swf/NASA-iPSC-1993-3.1-cln.swf.gz", 18_239, Absent),
    ("other/LCG.swf.gz", 188_041, Unstated),
    ("swf/CTC-SP2-1996-3.1-cln.swf.gz", 77_222, Overruns(7_174)),
    ("swf/SDSC-SP2-1998-4.2-cln.swf.gz", 59_715, Overruns(4_134)),
    ("swf/KTH-SP2-1996-2.1-cln.swf.gz", 28_476, Overruns(475)),
    ("swf/LANL-CM5-1994-4.1-cln.swf.gz", 122_060, Overruns(40_180)),
    ("swf/HPC2N-2002-2.2-cln.swf.gz", 202_871, Overruns(14_817)),
    ("swf/SDSC-BLUE-2000-4.2-cln.swf.gz", 243_306, Overruns(23_434)),
    ("swf/SDSC-DS-2004-2.1-cln.swf.gz", 96_069, Overruns(10_658)),
    ("swf/CEA-Curie-2011-2.1-cln.swf.gz", 312_826, Overruns(5_416)),
    ("swf/LLNL-Atlas-2006-2.1-cln.swf.gz", 43_778, Overruns(3_351)),
    ("swf/LLNL-Thunder-2007-1.1-cln.swf.gz", 121_039, Overruns(1_101)),
    ("swf/OSC-Clust-2000-3.1-cln.swf.gz", 36_097, Absent),
    ("swf/SDSC-Par-1996-3.1-cln.swf.gz", 32_135, Absent),
    ("swf/Sandia-Ross-2001-1.1-cln.swf.gz", 57_882, Overruns(3_688)),
];

#[test]
fn every_log_loads_strictly_with_the_job_count_of_sources_md() {
    let dir = common::traces();
    // Every .swf.gz in the directory is covered by the table above.
    for sub in ["swf", "other"] {
        for entry in std::fs::read_dir(dir.join(sub)).unwrap() {
            let name = format!("{sub}/{}", entry.unwrap().file_name().to_string_lossy());
            assert!(LOGS.iter().any(|(f, _, _)| *f == name), "{name} is not in the expected-count table");
        }
    }
    for (file, jobs, overruns) in LOGS {
        let trace = SwfTrace::load(dir.join(file), ReadOptions::default()).unwrap();
        assert_eq!(trace.records.len(), jobs, "{file}");
        assert_eq!(trace.skipped.total(), 0, "{file}");
        let info = TraceInfo::of(&trace, &PrepareConfig::default());
        match overruns {
            Overruns(n) => assert_eq!(info.overruns, n, "{file}: over-runs"),
            Absent => assert_eq!(info.with_estimate, 0, "{file}: SOURCES.md says no estimates"),
            Unstated => assert_eq!(info.with_estimate, jobs, "{file}: every job has an estimate"),
        }
    }
}

#[test]
fn headers_are_parsed() {
    let dir = common::traces();
    let ctc = SwfTrace::load(dir.join("swf/CTC-SP2-1996-3.1-cln.swf.gz"), ReadOptions::default()).unwrap();
    assert_eq!(ctc.header.max_nodes(), Some(338));
    assert_eq!(ctc.header.max_procs(), Some(338));
    assert_eq!(ctc.header.unix_start_time(), Some(835_823_160));
    assert_eq!(ctc.header.time_zone_string(), Some("US/Eastern"));
    assert!(ctc.header.notes().any(|n| n.contains("EASY")));
    let ricc = SwfTrace::load(dir.join("swf/RICC-2010-2.swf.gz"), ReadOptions::default()).unwrap();
    assert_eq!((ricc.header.max_nodes(), ricc.header.max_procs()), (Some(1024), Some(8192)));
    // LCG has no MaxNodes line.
    let lcg = SwfTrace::load(dir.join("other/LCG.swf.gz"), ReadOptions::default()).unwrap();
    assert_eq!((lcg.header.max_nodes(), lcg.header.max_procs()), (None, Some(24_515)));
}

#[test]
fn ctc_prepares_into_the_dissertations_batteries() {
    let dir = common::traces();
    let trace = SwfTrace::load(dir.join("swf/CTC-SP2-1996-3.1-cln.swf.gz"), ReadOptions::default()).unwrap();
    let p = PrepareConfig::default().prepare(&trace).unwrap();
    assert_eq!(p.capacity, 338);
    assert_eq!(p.batteries.len(), 20);
    assert!(p.batteries.iter().all(|b| b.jobs.len() == 1000 && b.jobs[0].occurrence == 0));
    assert_eq!(p.history.len() + 20_000, p.filter.usable);
    // 17 zero-runtime and 6 estimate-less jobs are dropped.
    assert_eq!(p.filter.dropped_total(), 23);
    // The factor brings the input's estimated load to 200 %.
    let scaled = p.input_load / p.occurrence_factor;
    assert!((scaled - 2.0).abs() < 1e-12);
    // Jobs keep CTC's processors (requested is −1 there, so allocated is used).
    assert!(p.batteries.iter().flat_map(|b| b.jobs.iter()).all(|j| (1..=338).contains(&j.nodes)));
}

#[test]
fn lanl_record_counts_match_sources_md() {
    let dir = common::traces();
    let log = LanlLog::load(dir.join(LANL_FILE)).unwrap();
    assert_eq!(log.records.len(), 23_739);
    assert_eq!(log.system_records(18).count(), 3_997);
    assert_eq!(log.system_records(19).count(), 3_284);
    assert_eq!(log.system_records(20).count(), 2_478);
    // The system-18 stream replays every one of its records on 1024 nodes.
    let stream = log.replay(&[18], 0.0, 1024, None).unwrap();
    assert_eq!(stream.source_records, 3_997);
    // Systems 18+19+20 cover 2560 nodes; node 2560 wraps onto system 18 node 0.
    let all = log.replay(&[18, 19, 20], 0.0, 2561, None).unwrap();
    assert_eq!(all.source_records, 3_997 + 3_284 + 2_478);
    let node0: Vec<_> = all.events.iter().filter(|e| e.node == 0).map(|e| (e.time, e.kind)).collect();
    let wrapped: Vec<_> = all.events.iter().filter(|e| e.node == 2560).map(|e| (e.time, e.kind)).collect();
    assert!(!node0.is_empty());
    assert_eq!(node0, wrapped);
    // Time 0 is the first failure of the chosen systems.
    assert_eq!(all.events[0].time, 0);
}

/// A store keeps the trace's name as the user gave it, not where this
/// machine found it: with the traces directory given as an absolute path,
/// `runs.trace` is the catalogue name, for `slasim run` (a classic mode,
/// whose trace is read before the sweep) and for a planning strategy alike.
#[test]
fn the_store_keeps_the_trace_name_the_user_gave() {
    let dir = tempfile::tempdir().unwrap();
    let traces = std::fs::canonicalize(common::traces()).unwrap();
    for strategy in ["easy", "conservative-backfilling"] {
        let db = dir.path().join(format!("{strategy}.sqlite"));
        let out = common::slasim()
            .env("SLASIM_TRACE_DIR", &traces)
            .args(["run", "--trace", "CTC-SP2-1996-3.1-cln", "--strategy", strategy, "--batteries", "1", "--db"])
            .arg(&db)
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let conn = rusqlite::Connection::open(&db).unwrap();
        let stored: String = conn.query_row("SELECT trace FROM runs", [], |r| r.get(0)).unwrap();
        assert_eq!(stored, "CTC-SP2-1996-3.1-cln", "{strategy}");
    }
}
