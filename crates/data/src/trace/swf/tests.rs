use super::*;
use std::io::Cursor;

fn read(text: &str, lenient: bool) -> Result<SwfTrace, SwfError> {
    SwfReader::from_reader("t.swf", Cursor::new(text.as_bytes().to_vec()), ReadOptions { lenient, runnable: false })?
        .read_all()
}

const HEADER: &str = "; Version: 2.2\n; Computer: Test\n; MaxNodes: 338 (batch partition; 512 total)\n\
        ; MaxProcs: 338\n; UnixStartTime: 835823160\n; TimeZoneString: US/Eastern\n\
        ; Note: cleaned\n;       continuation line\n";

#[test]
fn parses_header_and_records() {
    let text = format!("{HEADER}    1 0 588530 937 306 142.00 -1 -1 35100 -1 1 97 -1 307 3 -1 -1 -1\n");
    let trace = read(&text, false).unwrap();
    assert_eq!(trace.header.max_nodes(), Some(338));
    assert_eq!(trace.header.max_procs(), Some(338));
    assert_eq!(trace.header.unix_start_time(), Some(835_823_160));
    assert_eq!(trace.header.time_zone_string(), Some("US/Eastern"));
    assert_eq!(trace.header.notes().collect::<Vec<_>>(), vec!["cleaned\ncontinuation line"]);
    let r = trace.records[0];
    assert_eq!((r.job, r.runtime, r.allocated_procs, r.requested_time), (1, 937, 306, 35100));
    assert_eq!(r.avg_cpu_time, 142.0);
    assert_eq!(r.processors(), Some(306));
    assert_eq!(r.estimate(), Some(35100));
}

#[test]
fn queue_lines_name_the_queues() {
    let text = format!(
        "; MaxQueues: 3\n; Queue:  1 DSI      \n; Queue:  2  express\n; Queue: none\n{}",
        "    1 0 5 9 2 -1 -1 2 60 -1 1 1 -1 -1 2 -1 -1 -1\n"
    );
    let trace = read(&text, false).unwrap();
    assert_eq!(trace.header.queues().collect::<Vec<_>>(), vec![(1, "DSI"), (2, "express")]);
}

#[test]
fn wrong_field_count_names_file_and_line() {
    let err = read("; x\n1 0 0 10 1 -1 -1 1 20 -1 1 1 1 1 1 1 -1\n", false).unwrap_err();
    let msg = err.to_string();
    assert!(msg.starts_with("t.swf:2:"), "{msg}");
    assert!(msg.contains("expected 18 fields, found 17"), "{msg}");
    assert!(msg.contains("\"1 0 0 10"), "{msg}");
}

#[test]
fn non_numeric_field_names_the_field() {
    let err = read("1 0 0 ten 1 -1 -1 1 20 -1 1 1 1 1 1 1 -1 -1\n", false).unwrap_err();
    let msg = err.to_string();
    assert!(msg.starts_with("t.swf:1: field 4 (run time): `ten` is not an integer"), "{msg}");
}

#[test]
fn negative_runtime_is_rejected_but_minus_one_is_unknown() {
    let err = read("1 0 0 -5 1 -1 -1 1 20 -1 1 1 1 1 1 1 -1 -1\n", false).unwrap_err();
    assert_eq!(err.line_problem(), Some(LineProblem::Negative));
    assert!(err.to_string().contains("field 4 (run time)"));
    let ok = read("1 0 0 -1 1 -1 -1 1 20 -1 -4 1 1 1 1 1 -1 -1\n", false).unwrap();
    assert_eq!(ok.records[0].runtime, -1);
    assert_eq!(ok.records[0].status, -4);
}

#[test]
fn lenient_skips_and_counts() {
    let text = "1 0 0 10 1 -1 -1 1 20 -1 1 1 1 1 1 1 -1 -1\n\
            2 0 0 x 1 -1 -1 1 20 -1 1 1 1 1 1 1 -1 -1\n\
            3 0 0 10\n\
            4 0 0 -7 1 -1 -1 1 20 -1 1 1 1 1 1 1 -1 -1\n\
            5 0 0 10 1 -1 -1 1 20 -1 1 1 1 1 1 1 -1 -1\n";
    let trace = read(text, true).unwrap();
    assert_eq!(trace.records.len(), 2);
    assert_eq!(trace.skipped.total(), 3);
    assert_eq!(trace.skipped.by_problem[&LineProblem::NotNumeric], 1);
    assert_eq!(trace.skipped.by_problem[&LineProblem::WrongFieldCount], 1);
    assert_eq!(trace.skipped.by_problem[&LineProblem::Negative], 1);
    assert!(trace.skipped.to_string().contains("t.swf:2:"));
}

#[test]
fn comment_only_input_has_no_records() {
    let err = read("; only a header\n\n", false).unwrap_err();
    assert!(matches!(err, SwfError::NoRecords { .. }));
}

#[test]
fn fractional_only_where_allowed() {
    let err = read("1 0 0 10.5 1 -1 -1 1 20 -1 1 1 1 1 1 1 -1 -1\n", false).unwrap_err();
    assert!(err.to_string().contains("field 4"));
    let err = read("1 0 0 10 1 nan -1 1 20 -1 1 1 1 1 1 1 -1 -1\n", false).unwrap_err();
    assert!(err.to_string().contains("field 6"));
}
