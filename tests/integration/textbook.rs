//! `fcfs`, `easy` and `conservative` against independent textbook references
//! (`common/reference.rs`, written from the definitions, sharing no code with
//! the engine): start for start on hand-checked cases and on the whole
//! CTC-SP2, SDSC-SP2 and KTH-SP2 logs.

use crate::common;
use crate::common::reference;

use std::collections::HashMap;
use std::path::Path;

use reference::Mode;

const MODES: [(&str, Mode); 3] = [("fcfs", Mode::Fcfs), ("easy", Mode::Easy), ("conservative", Mode::Conservative)];

/// Runs every mode on `trace` with `slasim run` and returns each mode's
/// starts by SWF job number, on the log's clock (the engine counts time
/// from the first submission).
fn engine_starts(trace: &Path) -> HashMap<String, HashMap<i64, Option<i64>>> {
    let log = reference::read_swf(trace);
    let submit: HashMap<i64, i64> = log.jobs.iter().map(|j| (j.swf_id, j.submit)).collect();
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("classic.sqlite");
    let mut cmd = common::slasim();
    cmd.arg("run").arg("--trace").arg(trace).args(["--lenient", "--failures", "none", "--db"]).arg(&db);
    for (name, _) in MODES {
        cmd.args(["--strategy", name]);
    }
    let out = cmd.output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let rows = slasim::store::query(&db, "SELECT strategy, swf_id, occurrence, actual_start FROM jobs").unwrap().rows;
    let shift = log.jobs[0].submit;
    let mut starts: HashMap<String, HashMap<i64, Option<i64>>> = HashMap::new();
    for row in rows {
        let id: i64 = row[1].parse().unwrap();
        let occurrence: i64 = row[2].parse().unwrap();
        assert_eq!(occurrence + shift, submit[&id], "job {id}: submitted at another time");
        let start = (!row[3].is_empty()).then(|| row[3].parse::<i64>().unwrap() + shift);
        starts.entry(row[0].clone()).or_default().insert(id, start);
    }
    starts
}

/// One mode's starts from `engine_starts`, in the log's order.
fn in_log_order(
    engine: &HashMap<String, HashMap<i64, Option<i64>>>,
    mode: &str,
    log: &reference::Log,
) -> Vec<Option<i64>> {
    log.jobs.iter().map(|j| engine[mode][&j.swf_id]).collect()
}

/// Compares the engine and the references on `trace`, start for start.
fn compare(trace: &Path) {
    let log = reference::read_swf(trace);
    let engine = engine_starts(trace);
    let name = trace.file_name().unwrap().to_string_lossy();
    for (mode, reference_mode) in MODES {
        let expected = reference::simulate(reference_mode, &log);
        let got = &engine[mode];
        assert_eq!(got.len(), log.jobs.len(), "{name} {mode}: jobs stored");
        let differ: Vec<(i64, Option<i64>, Option<i64>)> = log
            .jobs
            .iter()
            .zip(&expected)
            .filter(|(j, s)| got.get(&j.swf_id) != Some(s))
            .map(|(j, &s)| (j.swf_id, got.get(&j.swf_id).copied().flatten(), s))
            .collect();
        assert!(
            differ.is_empty(),
            "{name} {mode}: {} of {} jobs start at another time than the textbook's; first (job, engine, reference): {:?}",
            differ.len(),
            log.jobs.len(),
            &differ[..differ.len().min(5)]
        );
    }
}

fn swf(name: &str) -> std::path::PathBuf {
    common::traces().join("swf").join(name)
}

/// The extra nodes count every job ending at the shadow time. Six
/// processors: J1 (2) and J2 (1) run [0, 10); the head J3 needs 4 of the 3
/// free, so its shadow time is 10, where all 6 are free: 2 extra. J4 (2 for
/// 100 s) fits the 3 free now and the 2 extra: it starts at 2, and J3 still
/// starts at 10. (Counting only J1 and stopping once the head's need is met
/// gives 1 extra node, and J4 would wait until 10.)
#[test]
fn easy_counts_every_node_free_at_the_shadow_time() {
    let dir = tempfile::tempdir().unwrap();
    let trace = common::write_swf(dir.path(), 6, &[(0, 2, 10, 10), (0, 1, 10, 10), (1, 4, 10, 10), (2, 2, 100, 100)]);
    let log = reference::read_swf(&trace);
    let easy = reference::simulate(Mode::Easy, &log);
    assert_eq!(easy, [Some(0), Some(0), Some(10), Some(2)]);
    let engine = engine_starts(&trace);
    for (mode, reference_mode) in MODES {
        let expected = reference::simulate(reference_mode, &log);
        assert_eq!(in_log_order(&engine, mode, &log), expected, "{mode}");
    }
    // FCFS: J4 waits behind J3. Conservative: J4 is reserved at arrival
    // beside J3's reservation [10, 20), which leaves 2 processors free.
    assert_eq!(reference::simulate(Mode::Fcfs, &log), [Some(0), Some(0), Some(10), Some(10)]);
    assert_eq!(reference::simulate(Mode::Conservative, &log), [Some(0), Some(0), Some(10), Some(2)]);
}

/// Conservative compression: J0 holds all 4 processors for an estimated 10 s
/// but ends at 4; J1 (3 for 5 s) reserved at 10 moves to 4; J2 (4) keeps
/// its start at 15 because J3 (1, reserved [10, 15)) moves to 4 only after
/// it in arrival order.
#[test]
fn conservative_compresses_in_arrival_order() {
    let dir = tempfile::tempdir().unwrap();
    let trace = common::write_swf(dir.path(), 4, &[(0, 4, 10, 4), (1, 3, 5, 5), (2, 4, 5, 5), (3, 1, 5, 5)]);
    let log = reference::read_swf(&trace);
    let expected = reference::simulate(Mode::Conservative, &log);
    assert_eq!(expected, [Some(0), Some(4), Some(15), Some(4)]);
    let engine = engine_starts(&trace);
    assert_eq!(in_log_order(&engine, "conservative", &log), expected);
}

#[test]
fn the_whole_ctc_sp2_log() {
    compare(&swf("CTC-SP2-1996-3.1-cln.swf.gz"));
}

#[test]
fn the_whole_sdsc_sp2_log() {
    compare(&swf("SDSC-SP2-1998-4.2-cln.swf.gz"));
}

#[test]
fn the_whole_kth_sp2_log() {
    compare(&swf("KTH-SP2-1996-2.1-cln.swf.gz"));
}
