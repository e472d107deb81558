use slasim_core::units::thousands;
use slasim_data::trace::swf::SwfTrace;
use slasim_data::trace::swf::{SwfHeader, SwfRecord};
use slasim_single::workload::info::*;
use slasim_single::workload::prepare::PrepareConfig;

#[test]
fn counts_estimates_overruns_and_bins() {
    let rec = |submit, runtime, estimate| SwfRecord {
        job: 1,
        submit,
        runtime,
        allocated_procs: 2,
        requested_time: estimate,
        ..SwfRecord::UNKNOWN
    };
    let trace = SwfTrace {
        name: "t".into(),
        header: SwfHeader::from_entries([("MaxProcs", "4")]),
        records: vec![rec(0, 5, 100), rec(10, 100, 100), rec(20, 150, 100), rec(30, 50, -1), rec(40, 55, 100)],
        ..SwfTrace::default()
    };
    let info = TraceInfo::of(&trace, &PrepareConfig::default());
    assert_eq!((info.jobs, info.with_estimate, info.overruns), (5, 4, 1));
    assert_eq!(info.ratio_histogram[0], 1);
    assert_eq!(info.ratio_histogram[5], 1);
    assert_eq!(info.ratio_histogram[9], 1);
    assert_eq!(info.ratio_histogram[10], 1);
    // Work 2·(5+100+150+50+55) = 720; the last end is 20 + 150 = 170.
    assert_eq!(info.last_end, 170);
    assert!((info.utilisation.unwrap() - 720.0 / (4.0 * 170.0)).abs() < 1e-12);
    assert_eq!(thousands(447_794), "447,794");
    assert_eq!(thousands(12), "12");
}
