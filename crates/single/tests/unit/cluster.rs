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

mod view {
    use slasim_core::units::{JobId, NodeId, Time};
    use slasim_single::cluster::power::PowerRefusal;
    use slasim_single::cluster::strategy::{Booking, Cluster, Outcome, RejectReason};
    use slasim_single::cluster::view::{Watch, Watched};
    use slasim_single::workload::job::Job;

    /// A cluster that answers the port's optional methods otherwise than
    /// their defaults, and notes what reached it.
    struct Answering {
        job: Job,
        reached: Vec<&'static str>,
    }

    impl Cluster for Answering {
        fn now(&self) -> Time {
            0
        }
        fn capacity(&self) -> u32 {
            4
        }
        fn job(&self, _: JobId) -> &Job {
            &self.job
        }
        fn accept(&mut self, _: JobId, _: Booking) {
            self.reached.push("accept");
        }
        fn reject(&mut self, _: JobId, _: RejectReason) {}
        fn moved(&mut self, _: JobId) {}
        fn pin(&mut self, _: JobId) {}
        fn resumable(&self, _: JobId) -> Option<Time> {
            None
        }
        fn fail(&mut self, _: JobId) {
            self.reached.push("fail");
        }
        fn start(&mut self, _: JobId, _: &[NodeId], _: Time) -> bool {
            true
        }
        fn idle_nodes(&self, _: u32, _: &mut Vec<NodeId>) -> bool {
            false
        }
        fn nodes_ready(&self, _: &[NodeId]) -> bool {
            true
        }
        fn wake_at(&mut self, _: Time) {}
        fn defect(&mut self, _: &str) {
            self.reached.push("defect");
        }
        fn suspend(&mut self) {
            self.reached.push("suspend");
        }
        fn outcome(&self, _: JobId) -> Option<Outcome> {
            Some(Outcome::Failed)
        }
        fn pstate(&self, _: NodeId) -> u32 {
            2
        }
        fn set_pstate(&mut self, _: NodeId, _: u32) -> Result<(), PowerRefusal> {
            self.reached.push("set_pstate");
            Ok(())
        }
        fn running_jobs(&self, out: &mut Vec<JobId>) {
            *out = vec![7];
        }
        fn job_nodes(&self, _: JobId, out: &mut Vec<NodeId>) {
            *out = vec![1, 3];
        }
    }

    /// Notes what it hears, and what the cluster had by then.
    #[derive(Default)]
    struct Heard(Vec<String>);

    impl Watch for Heard {
        fn accepted(&mut self, cluster: &dyn Cluster, id: JobId, _: Booking) {
            self.0.push(format!("accepted {id} at {}", cluster.now()));
        }
        fn failed(&mut self, cluster: &dyn Cluster, id: JobId) {
            self.0.push(format!("failed {id}: {:?}", cluster.outcome(id)));
        }
    }

    #[test]
    fn every_call_reaches_the_cluster_and_the_watch_hears_after_it() {
        let mut cluster = Answering { job: Job::without_sla(0, 0, 1, 5, 5), reached: Vec::new() };
        let mut view = Watched { cluster: &mut cluster, watch: Heard::default() };
        // The port's optional methods answer as the cluster does, not as
        // their defaults.
        assert_eq!(view.pstate(0), 2);
        assert_eq!(view.set_pstate(0, 1), Ok(()));
        let mut out = Vec::new();
        view.running_jobs(&mut out);
        assert_eq!(out, [7]);
        view.job_nodes(7, &mut out);
        assert_eq!(out, [1, 3]);
        assert_eq!(view.calibrated_pos(0.25), 0.25);
        view.suspend();
        view.accept(0, Booking { start: 0, end: 5, overbooked: false, pof: None });
        view.fail(0);
        assert_eq!(view.watch.0, ["accepted 0 at 0", "failed 0: Some(Failed)"]);
        assert_eq!(cluster.reached, ["set_pstate", "suspend", "accept", "fail"]);
    }
}
