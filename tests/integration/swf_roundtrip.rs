//! SWF writer → reader round trips.

use crate::common;

use proptest::prelude::*;
use slasim::trace::swf::{ReadOptions, SwfHeader, SwfReader, SwfRecord, SwfTrace, SwfWriter};

fn int() -> impl Strategy<Value = i64> {
    prop_oneof![Just(-1i64), 0..10i64, 0..1_000_000_000_000i64]
}

fn fractional() -> impl Strategy<Value = f64> {
    prop_oneof![Just(-1.0), (0u32..1_000_000).prop_map(f64::from), (0.0..1e9f64)]
}

prop_compose! {
    fn record()(
        a in prop::array::uniform8(int()),
        b in prop::array::uniform7(int()),
        status in -5i64..10,
        f in prop::array::uniform3(fractional()),
    ) -> SwfRecord {
        SwfRecord {
            job: a[0], submit: a[1], wait: a[2], runtime: a[3], allocated_procs: a[4],
            avg_cpu_time: f[0], used_memory: f[1], requested_procs: a[5], requested_time: a[6],
            requested_memory: f[2], status, user: a[7], group: b[0], executable: b[1], queue: b[2],
            partition: b[3], preceding_job: b[4], think_time: b[5],
        }
    }
}

fn header() -> impl Strategy<Value = SwfHeader> {
    let key = prop::sample::select(vec!["Version", "Computer", "MaxNodes", "MaxProcs", "Note", "UnixStartTime"]);
    prop::collection::vec((key, "[ -~]{0,40}"), 0..8)
        .prop_map(|entries| SwfHeader::from_entries(entries.into_iter().map(|(k, v)| (k, v.trim().to_string()))))
}

proptest! {
    #![proptest_config(common::testing::cases(256))]

    #[test]
    fn written_trace_reads_back_identical(header in header(), records in prop::collection::vec(record(), 1..60)) {
        let mut writer = SwfWriter::new(Vec::new());
        writer.write_header(&header).unwrap();
        for r in &records {
            writer.write_record(r).unwrap();
        }
        let bytes = writer.into_inner().unwrap();
        let back = SwfReader::from_reader("mem.swf", std::io::Cursor::new(bytes), ReadOptions::default())
            .unwrap()
            .read_all()
            .unwrap();
        prop_assert_eq!(back.records, records);
        prop_assert_eq!(back.header, header);
    }
}

#[test]
fn gzip_and_plain_files_round_trip() {
    let trace =
        slasim::single::workload::synthetic::SyntheticConfig { jobs: 500, ..Default::default() }.generate().unwrap();
    let dir = tempfile::tempdir().unwrap();
    for name in ["w.swf", "w.swf.gz"] {
        let path = dir.path().join(name);
        trace.save(&path).unwrap();
        let back = SwfTrace::load(&path, ReadOptions::default()).unwrap();
        assert_eq!(back.records, trace.records, "{name}");
        assert_eq!(back.header, trace.header, "{name}");
    }
    // The .gz file really is gzip.
    let bytes = std::fs::read(dir.path().join("w.swf.gz")).unwrap();
    assert_eq!(&bytes[..2], &[0x1f, 0x8b]);
}
