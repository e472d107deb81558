use slasim_core::units::HOUR;
use slasim_single::workload::failure_law::FailureLaw;
use slasim_single::workload::failures::*;

fn laws(source: &FailureSource) -> (FailureLaw, FailureLaw) {
    source.laws().unwrap().unwrap()
}

#[test]
fn events_alternate_and_repairs_sort_first() {
    let (up, down) = laws(&FailureSource::Poisson { lambda_per_hour: 0.1, mu_per_hour: 1.0 });
    let s = synthetic_stream(&up, &down, 8, 1000 * HOUR, 3);
    let mut is_down = [false; 8];
    for e in &s.events {
        let node = e.node as usize;
        assert_eq!(is_down[node], e.kind == NodeEventKind::Repair, "{e:?}");
        is_down[node] = e.kind == NodeEventKind::Fail;
    }
    let a = NodeEvent { time: 5, kind: NodeEventKind::Fail, node: 0 };
    let b = NodeEvent { time: 5, kind: NodeEventKind::Repair, node: 9 };
    assert!(b < a);
}

#[test]
fn synthetic_streams_are_seeded() {
    let (up, down) = laws(&FailureSource::default_for("weibull").unwrap());
    let a = synthetic_stream(&up, &down, 16, 10_000 * HOUR, 1);
    assert_eq!(a, synthetic_stream(&up, &down, 16, 10_000 * HOUR, 1));
    assert_ne!(a, synthetic_stream(&up, &down, 16, 10_000 * HOUR, 2));
}

#[test]
fn bad_rates_name_the_setting() {
    let err = FailureSource::Poisson { lambda_per_hour: 0.0, mu_per_hour: 1.0 }.laws().unwrap_err();
    assert_eq!(err.setting, "lambda_per_hour");
    // The value as written, per hour.
    let err = FailureSource::Poisson { lambda_per_hour: -1.5, mu_per_hour: 1.0 }.laws().unwrap_err();
    assert_eq!((err.setting, err.value.as_str()), ("lambda_per_hour", "-1.5"));
    let err = FailureSource::Poisson { lambda_per_hour: 1.0, mu_per_hour: -2.0 }.laws().unwrap_err();
    assert_eq!(err.setting, "mu_per_hour");
}

#[test]
fn replay_maps_wraps_and_merges() {
    let rec =
        |system, node, started, fixed| LanlRecord { system, system_nodes: Some(2), node: Some(node), started, fixed };
    let log = LanlLog {
        path: "lanl.csv".into(),
        records: vec![
            rec(18, 0, 1000, 2000),
            rec(18, 0, 1500, 2500), // overlaps the first: merged to 1000–2500
            rec(19, 1, 3000, 3600),
            rec(20, 0, 0, 10), // not selected
        ],
    };
    // 5 nodes over systems 18 (2 nodes) and 19 (2 nodes): node 4 wraps to 18/0.
    let s = log.replay(&[18, 19], 0.0, 5, None).unwrap();
    assert_eq!(s.source_records, 3);
    let fail = |time, node| NodeEvent { time, kind: NodeEventKind::Fail, node };
    let repair = |time, node| NodeEvent { time, kind: NodeEventKind::Repair, node };
    assert_eq!(
        s.events,
        vec![fail(0, 0), fail(0, 4), repair(1500, 0), repair(1500, 4), fail(2000, 3), repair(2600, 3)]
    );
    let err = log.replay(&[21], 0.0, 5, None).unwrap_err();
    assert!(err.to_string().contains("system 21"));
}
