//! One MOGA provisioning (population 100, 10 generations) of the 100-task
//! synthetic workflow (22 processors per task) against the slot set CTC-SP2's
//! 430-processor cluster advertises a quarter into its log (accurate
//! estimates, 79 slots). Target: under 20 ms on one thread.

mod common;

use criterion::{Criterion, criterion_group, criterion_main};
use slasim::provision::bench::{ProvisionScenario, ProvisionSite, simulate_provisioning};
use slasim::provision::kind::provision::background::prepare_site;
use slasim::provision::kind::provision::point::SiteSpec;
use slasim::provision::moga::MogaConfig;
use slasim::provision::plan::{HoleCharging, provision, provision_charging};
use slasim::provision::pricing::{Policy, query_flexible};
use slasim::provision::provisioner::{ProvisionerActor, SubmissionRecord};
use slasim::provision::site::SlotScheduler;
use slasim::provision::workflow::SyntheticWorkflow;
use slasim::rng::stream;
use slasim::single::workload::WorkloadSource;
use slasim::single::workload::prepare::Estimates;
use slasim::threads::Budget;
use slasim::units::Time;

/// CTC-SP2 on the thesis' 430 processors (spec §2.6), accurate estimates,
/// observed by a provisioner at the instants `at(first job, last job)` gives:
/// what each observation saw.
fn observe_ctc(at: impl Fn(Time, Time) -> Vec<Time>) -> Vec<SubmissionRecord> {
    let spec = SiteSpec {
        trace: WorkloadSource::Swf {
            path: common::traces().join("swf").join("CTC-SP2-1996-3.1-cln.swf.gz"),
            lenient: false,
        },
        utilisation: None,
        capacity: Some(430),
    };
    let site = prepare_site(&spec, Estimates::Exact, 1).expect("CTC-SP2 loads");
    let first = site.jobs[0].occurrence;
    let instants = at(first, site.jobs[site.jobs.len() - 1].occurrence);
    let horizon = *instants.last().expect("an instant");
    let observer = ProvisionerActor::new(1, instants, true, None);
    let sim = simulate_provisioning(ProvisionScenario {
        sites: vec![ProvisionSite {
            scheduler: SlotScheduler::new(site.capacity, first),
            jobs: site.jobs.clone(),
            sample: false,
        }],
        provisioner: Some(observer),
        executor: None,
        buyer: None,
        horizon,
    })
    .expect("simulates");
    sim.submissions
}

fn moga_on_ctc(c: &mut Criterion) {
    let records = observe_ctc(|first, last| vec![first + (last - first) / 4]);
    let (at, slots) = (records[0].time, records[0].slots.clone());
    let wf = SyntheticWorkflow { max_procs: 430, ..SyntheticWorkflow::default() }
        .generate(&mut stream(1, slasim::provision::streams::WORKFLOWS, 0))
        .expect("valid");
    let alphas: Vec<f64> = (0..=10).map(|i| f64::from(i) / 10.0).collect();
    let mut group = c.benchmark_group("provisioning");
    group.sample_size(20);
    group.bench_function(format!("moga_100_tasks_ctc_{}_slots", slots[0].len()), |b| {
        b.iter(|| {
            provision(
                &wf,
                at,
                &slots,
                &MogaConfig::default(),
                &alphas,
                &mut stream(1, slasim::provision::streams::MOGA, 0),
            )
        })
    });
    // The same with the plan evaluations on both cores (`provision run` on one point).
    group.bench_function(format!("moga_100_tasks_ctc_{}_slots_2_threads", slots[0].len()), |b| {
        b.iter(|| {
            let config = MogaConfig::default();
            let mut rng = stream(1, slasim::provision::streams::MOGA, 0);
            let budget = Budget::new(2);
            provision_charging(&wf, at, &slots, &config, &alphas, HoleCharging::Whole, &budget, &mut rng)
        })
    });
    group.finish();
}

/// One flexible-start price query (eq. 18: every candidate start priced by
/// Fig. 22, conservative backfilling) for a 32 × 1 h slot on CTC-SP2 (430
/// processors) about 30 days into its log, at the hour of days 25–35 with the
/// longest queue. Target: under 1 ms.
fn price_query_on_ctc(c: &mut Criterion) {
    let records = observe_ctc(|first, _| (25 * 24..35 * 24).map(|h| first + h * 3600).collect());
    let busiest = records.iter().max_by_key(|r| r.tasks[0]).expect("observed");
    let snapshot = busiest.snapshots[0].pricing_snapshot(busiest.time);
    let mut group = c.benchmark_group("provisioning");
    group.sample_size(20);
    group.bench_function(format!("price_query_ctc_day30_{}_queued", snapshot.queue.len()), |b| {
        b.iter(|| query_flexible(&snapshot, Policy::Conservative, 1.0, 32, 3600))
    });
    group.finish();
}

criterion_group!(benches, moga_on_ctc, price_query_on_ctc);
criterion_main!(benches);
