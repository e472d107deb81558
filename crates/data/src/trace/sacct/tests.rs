use super::values::*;
use super::*;
use std::io::Cursor;

fn convert(text: &str, lenient: bool) -> Result<SacctConversion, SacctError> {
    let options = SacctOptions { lenient, ..SacctOptions::default() };
    convert_reader(Path::new("t.sacct"), Cursor::new(text.as_bytes().to_vec()), &options)
}

const HEAD: &str = "JobIDRaw|JobID|JobName|User|Partition|Submit|Start|End|Elapsed|Timelimit|AllocCPUS|ReqCPUS|State\n";

#[test]
fn durations_in_every_slurm_form() {
    for (text, seconds) in [
        ("00:00:00", 0),
        ("00:01:30", 90),
        ("1-00:00:00", 86_400),
        ("2-03:04:05", 2 * 86_400 + 3 * 3600 + 4 * 60 + 5),
        ("1-12", 86_400 + 12 * 3600),
        ("1-12:30", 86_400 + 12 * 3600 + 30 * 60),
        ("45:10", 45 * 60 + 10),
        ("90", 90 * 60),
        ("100:00:00", 360_000),
    ] {
        assert_eq!(parse_duration(text), Some(seconds), "{text}");
    }
    for bad in ["", "-1", "1:2:3:4", "00:60:00", "00:00:61", "1-", "x", "1.5", "-00:00:05", "1--2"] {
        assert_eq!(parse_duration(bad), None, "{bad}");
    }
}

#[test]
fn limits_unlimited_and_partition_limit_are_unknown() {
    assert_eq!(parse_limit("UNLIMITED"), Ok(None));
    assert_eq!(parse_limit("Partition_Limit"), Ok(None));
    assert_eq!(parse_limit(""), Ok(None));
    assert_eq!(parse_limit("01:00:00"), Ok(Some(3600)));
    assert_eq!(parse_limit("5"), Ok(Some(300)));
    assert!(parse_limit("INVALID").unwrap_err().contains("`INVALID` is not a time limit"));
}

#[test]
fn times_local_epoch_and_unknown() {
    assert_eq!(parse_time("Unknown"), Ok(None));
    assert_eq!(parse_time("None"), Ok(None));
    assert_eq!(parse_time("1700000000"), Ok(Some((1_700_000_000, TimeKind::Epoch))));
    assert_eq!(parse_time("1970-01-02T00:00:10"), Ok(Some((86_410, TimeKind::Local))));
    assert!(parse_time("2024-13-01T00:00:00").is_err());
    assert!(parse_time("Tue 14:22").is_err());
}

#[test]
fn job_ids() {
    let id = parse_job_id("123").unwrap();
    assert_eq!((id.base, id.step, id.kind), ("123", None, IdKind::Plain(123)));
    let id = parse_job_id("123_4.batch").unwrap();
    assert_eq!((id.base, id.step, id.kind), ("123_4", Some("batch"), IdKind::ArrayTask { array: 123, task: 4 }));
    assert_eq!(
        parse_job_id("123_[5-9]").unwrap().kind,
        IdKind::ArrayRange { array: 123, tasks: Some(5), throttle: None }
    );
    assert_eq!(
        parse_job_id("123_[1-3,7,10-20:5%2]").unwrap().kind,
        IdKind::ArrayRange { array: 123, tasks: Some(7), throttle: Some(2) }
    );
    assert_eq!(
        parse_job_id("123_[oops]").unwrap().kind,
        IdKind::ArrayRange { array: 123, tasks: None, throttle: None }
    );
    assert_eq!(parse_job_id("123+1.0").unwrap().kind, IdKind::Het { group: 123, offset: 1 });
    for bad in ["", "abc", "123.", "_4", "123_", "123+", "12x", "123_[5-9"] {
        assert!(parse_job_id(bad).is_none(), "{bad}");
    }
}

#[test]
fn states_map_to_swf_status() {
    assert_eq!(swf_status("COMPLETED"), Some(StateClass::Final(1)));
    assert_eq!(swf_status("CANCELLED by 1000"), Some(StateClass::Final(5)));
    assert_eq!(swf_status("PREEMPTED"), Some(StateClass::Final(5)));
    for failed in ["FAILED", "TIMEOUT", "NODE_FAIL", "OUT_OF_MEMORY", "BOOT_FAIL", "DEADLINE"] {
        assert_eq!(swf_status(failed), Some(StateClass::Final(0)), "{failed}");
    }
    assert_eq!(swf_status("PENDING"), Some(StateClass::Pending));
    assert_eq!(swf_status("RUNNING"), Some(StateClass::Running));
    assert_eq!(swf_status("REQUEUED"), Some(StateClass::Requeued));
    assert_eq!(swf_status("DONE"), None);
}

#[test]
fn header_detection() {
    assert!(looks_like_header("JobIDRaw|State|Submit"));
    assert!(looks_like_header("JobID|State|")); // --parsable: trailing `|`
    assert!(!looks_like_header("1 0 10 20 1 -1 -1 1 60 -1 1 1 1 1 1 1 -1 -1"));
    assert!(!looks_like_header("123|COMPLETED|2024-01-01T00:00:00"));
    assert!(!looks_like_header("User|State")); // no job id column
}

#[test]
fn maps_path_drops_swf_and_gz() {
    assert_eq!(maps_path(Path::new("d/out.swf")), PathBuf::from("d/out.maps.csv"));
    assert_eq!(maps_path(Path::new("out.swf.gz")), PathBuf::from("out.maps.csv"));
    assert_eq!(maps_path(Path::new("out")), PathBuf::from("out.maps.csv"));
}

#[test]
fn blank_lines_crlf_and_trailing_bar_are_read() {
    let text = "JobIDRaw|Submit|Start|End|AllocCPUS|State|\r\n\r\n\
            7|1970-01-01T00:00:00|1970-01-01T00:00:05|1970-01-01T00:01:05|4|COMPLETED|\r\n\n";
    let c = convert(text, false).unwrap();
    assert_eq!(c.trace.records.len(), 1);
    let r = c.trace.records[0];
    assert_eq!((r.submit, r.wait, r.runtime, r.allocated_procs, r.status), (0, 5, 60, 4, 1));
    assert_eq!(c.lines, vec![3]);
    assert_eq!(c.report.lines, 1);
}

#[test]
fn a_byte_order_mark_before_the_header_is_read_past() {
    let body = "7|1970-01-01T00:00:00|1970-01-01T00:00:05|1970-01-01T00:01:05|4|COMPLETED\n";
    let plain = convert(&format!("JobIDRaw|Submit|Start|End|AllocCPUS|State\n{body}"), false).unwrap();
    let marked = convert(&format!("\u{feff}JobIDRaw|Submit|Start|End|AllocCPUS|State\n{body}"), false).unwrap();
    assert_eq!(marked.trace.records, plain.trace.records);
    assert_eq!(marked.trace.records.len(), 1);
    let r = marked.trace.records[0];
    assert_eq!((r.wait, r.runtime, r.allocated_procs), (5, 60, 4));
    // The file is recognised as a dump too, before the reader sees it.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("bom.sacct");
    std::fs::write(&file, format!("\u{feff}JobIDRaw|Submit|Start|End|AllocCPUS|State\n{body}")).unwrap();
    assert!(is_sacct_file(&file));
    assert_eq!(load(&file, ReadOptions::default()).unwrap().records, plain.trace.records);
    // A mark elsewhere is no header.
    assert!(convert(&format!("x\u{feff}JobIDRaw|Submit\n{body}"), false).is_err());
}

#[test]
fn mixed_time_formats_are_an_error() {
    let text = format!(
        "{HEAD}1|1|a|u|p|100|110|120|00:00:10|1|1|1|COMPLETED\n\
             2|2|a|u|p|1970-01-01T00:02:00|1970-01-01T00:02:00|1970-01-01T00:02:10|00:00:10|1|1|1|COMPLETED\n"
    );
    let err = convert(&text, false).unwrap_err().to_string();
    assert!(
        err.starts_with(
            "t.sacct:3: column Submit: `1970-01-01T00:02:00` is in YYYY-MM-DDTHH:MM:SS, but line 2 has epoch seconds"
        ),
        "{err}"
    );
}

#[test]
fn a_short_line_is_an_error_and_lenient_skips_it() {
    let text = format!("{HEAD}1|1|a|u|p|100|110|120|00:00:10|1|1|1|COMPLETED\n2|2|a|u|p|100\n");
    let err = convert(&text, false).unwrap_err().to_string();
    assert_eq!(err, "t.sacct:3: 6 fields for the 13 columns of the header: \"2|2|a|u|p|100\"");
    let c = convert(&text, true).unwrap();
    assert_eq!(c.trace.records.len(), 1);
    assert_eq!(c.trace.skipped.by_problem[&LineProblem::WrongFieldCount], 1);
}

#[test]
fn nothing_finished_is_an_error() {
    let text = format!("{HEAD}1|1|a|u|p|100|Unknown|Unknown|00:00:00|1|0|1|PENDING\n");
    let err = convert(&text, false).unwrap_err().to_string();
    assert!(err.starts_with("t.sacct: no finished jobs to convert (1 lines"), "{err}");
    assert!(err.contains("skipped 1 pending"), "{err}");
}
