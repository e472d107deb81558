use slasim_single::cluster::*;
use slasim_single::workload::job::Job;
use std::sync::Arc;

#[test]
fn by_id_shares_sorts_or_refuses() {
    let jobs =
        |ids: &[u32]| -> Arc<[Job]> { ids.iter().map(|&i| Job::without_sla(i, 10 * i64::from(i), 1, 5, 5)).collect() };
    let battery = jobs(&[0, 1, 2]);
    assert!(by_id(&battery).is_some_and(|b| Arc::ptr_eq(&b, &battery)));
    let mixed = jobs(&[0, 3, 1, 2]);
    let sorted = by_id(&mixed).expect("ids 0..4");
    assert_eq!(sorted.iter().map(|j| j.id).collect::<Vec<_>>(), [0, 1, 2, 3]);
    assert_eq!(sorted[3], mixed[1]);
    assert!(by_id(&jobs(&[0, 2])).is_none());
    assert!(by_id(&jobs(&[1, 0, 1])).is_none());
}

#[test]
fn node_set_lowest_and_count() {
    let mut s = NodeSet::full(130);
    assert_eq!(s.len(), 130);
    s.remove(0);
    s.remove(64);
    s.remove(64);
    assert_eq!(s.len(), 128);
    let mut out = Vec::new();
    s.lowest(3, &mut out);
    assert_eq!(out, vec![1, 2, 3]);
    out.clear();
    s.lowest(200, &mut out);
    assert_eq!(out.len(), 128);
    assert_eq!(*out.last().unwrap(), 129);
    assert!(!s.contains(64) && s.contains(65));
    s.insert(64);
    assert!(s.contains(64));
}

/// A cap of 200 W, then 300 W from 3,600, then 400 W from 7,200 (an hourly
/// supply of 0, 100, 200 W, then 200 W, plus 200 W of grid), and a cluster
/// committing 300 W now of which 100 W fall at 5,400 (a job's kill time).
#[test]
fn cap_ledger_by_hand() {
    use slasim_data::signal::{Alignment, Interpolation, Quantity, Signal};
    use slasim_single::cluster::cap::{CapLedger, CapSeries, CapSeriesConfig, CapSignal};
    let hour = 3600;
    let times: Vec<i64> = (0..7 * 24).map(|h| h * hour).collect();
    let values: Vec<f64> = (0..times.len()).map(|h| [0.0, 100.0].get(h).copied().unwrap_or(200.0)).collect();
    let supply = Signal::from_samples("supply", Quantity::Power, Interpolation::Hold, times, values, 0).unwrap();
    let aligned = Alignment::at(0).align(Arc::new(supply)).unwrap();
    let config = CapSeriesConfig { follows: CapSignal::Renewable, grid_watts: 200.0, renewable_scale: 1.0 };
    let cap = CapSeries::new(&config, Some(&aligned), 1.0).unwrap();
    assert_eq!((cap.step(0), cap.step(3600), cap.step(7200)), ((200_000, 3600), (300_000, 7200), (400_000, 10_800)));
    assert!(cap.check_idle(2, 100.0).is_ok() && cap.check_idle(3, 100.0).is_err());
    let mut ledger = CapLedger::new(cap, 2);
    ledger.falls_at(0, 5400, 100_000);
    // 300 W now: over the 200 W cap at once, until 3,600.
    assert_eq!(ledger.violation(300_000, 0, 100, 0, 0), Some((0, 100)));
    assert_eq!(ledger.violation(300_000, 3600, 9000, 0, 0), None);
    // 100 W more for 1,800 s: 400 W until 5,400, 300 W after; the cap is 300 W until 7,200.
    assert_eq!(ledger.violation(300_000, 3600, 5400, 100_000, 0), Some((3600, 5400)));
    assert_eq!(ledger.violation(300_000, 5400, 7200, 100_000, 0), None);
    // The earliest start of that raise from 0: 5,400, when the drop falls.
    assert_eq!(ledger.earliest(300_000, 0, 100_000, 1800), Some(5400));
    // 200 W more for 7,200 s: 500 W until 5,400, then 400 W, held from 7,200.
    assert_eq!(ledger.earliest(300_000, 0, 200_000, 7200), Some(7200));
    // The same for ever: never, as the cap loops back to 200 W every week.
    assert_eq!(ledger.earliest(300_000, 0, 200_000, i64::MAX / 4), None);
    // A raise from 5,000 on (late): seen after the drop too.
    assert_eq!(ledger.violation(300_000, 3600, 5000, 0, 100_000), Some((5000, 5400)));
}
