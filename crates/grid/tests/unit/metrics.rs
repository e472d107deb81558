use slasim_core::units::Time;
use slasim_grid::metrics::*;
use slasim_single::cluster::record::JobRecord;
use slasim_single::cluster::record::RunRecords;
use slasim_single::policy::Block;
use slasim_single::workload::job::Job;

type Row = (Time, Option<Time>, Option<Time>, u32, Time);

/// Jobs (o, start, end, n, x), ids in order.
fn records(rows: &[Row]) -> RunRecords {
    let jobs = rows.iter().enumerate().map(|(i, &(o, _, _, n, x))| Job::without_sla(i as u32, o, n, x, x)).collect();
    let records = rows
        .iter()
        .enumerate()
        .map(|(i, &(_, start, end, _, _))| JobRecord {
            actual_start: start,
            actual_end: end,
            ..JobRecord::new(i as u32)
        })
        .collect();
    RunRecords { jobs, records }
}

#[test]
fn waiting_jobs_at_submit_and_still_at_start() {
    // Submits 0, 10, 20, 30; starts 5, 50, 100, never.
    let records = records(&[
        (0, Some(5), Some(6), 1, 10),
        (10, Some(50), Some(60), 1, 10),
        (20, Some(100), Some(110), 1, 10),
        (30, None, None, 1, 10),
    ]);
    let w = WaitIndex::new(&records);
    // At 25: jobs 10 and 20 wait (0 started at 5; 30 not submitted yet).
    // At a start of 60: job 20 (starts 100) still waits; job 10 started at 50.
    assert_eq!(w.waiting(25, 60), (2, 1));
    // At 30 the never-started job waits too, and always will.
    assert_eq!(w.waiting(30, 1000), (3, 1));
    assert_eq!(w.waiting(0, 1), (1, 1));
}

#[test]
fn utilisation_expansion_and_waits_to_t_stop() {
    // 10 CPUs, t_stop 100. Job A: 5 CPUs over [0, 40) (submitted 0, limit 40);
    // job B: 10 CPUs over [80, 120), submitted 60, limit 80: 20 of its 40 s count.
    let records = records(&[(0, Some(0), Some(40), 5, 40), (60, Some(80), Some(120), 10, 80)]);
    // A block of 4 CPUs over [40, 60) and a cancelled one.
    let blocks = [
        Block { start: 40, end: 60, cpus: 4, cancelled: false },
        Block { start: 0, end: 100, cpus: 10, cancelled: true },
    ];
    let run = ClusterRun {
        cluster: 0,
        cpus: 10,
        records: &records,
        blocks: &blocks,
        backlog_integrals: (2000.0, 500.0),
        wc_acc: 0.5,
    };
    let m = cluster_metrics(&run, &[], 100, (40, 50));
    assert!((m.job_utilisation - (5.0 * 40.0 + 10.0 * 20.0) / 1000.0).abs() < 1e-12);
    assert!((m.reservation_utilisation - 80.0 / 1000.0).abs() < 1e-12);
    // Expansion: A (0 + 40)/40 = 1, B (20 + 40)/80 = 0.75 → mean 0.875.
    assert!((m.expansion_factor - 0.875).abs() < 1e-12);
    assert_eq!((m.wait_max, m.wait_top10), (20.0, 10.0));
    // Backlog: (0.5 · 2000 + 500) / 10 CPUs / 100 s = 1.5 s.
    assert!((m.backlog_time - 1.5).abs() < 1e-12);
    assert_eq!((m.subreservations, m.first_weekend_subreservations), (1, 1));
    assert_eq!(m.filtering_degree, None);
}
