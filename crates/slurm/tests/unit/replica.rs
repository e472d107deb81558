//! Replicas: what a workload's variation is learned as, and how a replica
//! is perturbed (hand-checked), its pairing, and the intervals' coverage
//! on a case whose true difference is zero.

use std::path::PathBuf;

use slasim_data::trace::sacct::jobs::{ArrayTask, SlurmJob};
use slasim_slurm::kind::{Replicable, SlurmSettings, simulate_point};
use slasim_slurm::replica::{Noise, Replicas};
use slasim_slurm::what_if::Difference;

use crate::{job, workload};

/// Two like jobs (same user, partition, limit and request) of 10 s and
/// 40 s, and one unlike job: the group is the two, and the submissions 0,
/// 0, 30 have one gap, 30 s.
#[test]
fn noise_is_learned_from_like_jobs_and_submission_gaps() {
    let w = workload(vec![job(1, 0, 2, 100, 10), job(2, 0, 2, 100, 40), job(3, 30, 4, 100, 70)], &["batch"]);
    let noise = Noise::of(&w);
    assert_eq!(noise.sizes(), (2, 1));
    // Run times only: each like job takes 10 s or 40 s, the unlike one
    // keeps its 70 s; over 20 replicas both values are drawn.
    let replicas = Replicas { submit: false, ..Replicas::default() };
    let mut drawn = std::collections::BTreeSet::new();
    for r in 0..20 {
        let mut run_only = w.clone();
        noise.perturb(&mut run_only, &replicas, 1, r);
        for (was, now) in w.jobs.iter().zip(&run_only.jobs).take(2) {
            assert!([10, 40].contains(&now.run_time), "{} → {}", was.run_time, now.run_time);
            assert_eq!(now.submit, was.submit, "submissions stay");
            drawn.insert(now.run_time);
        }
        assert_eq!(run_only.jobs[2].run_time, 70);
    }
    assert_eq!(drawn.len(), 2);
    let mut run_only = w.clone();
    noise.perturb(&mut run_only, &replicas, 1, 0);
    // Submissions only: each moves by (u − ½) · 30 s, at most 15 s, never before 0.
    let mut submit_only = w.clone();
    noise.perturb(&mut submit_only, &Replicas { run_time: false, ..Replicas::default() }, 1, 0);
    for (was, now) in w.jobs.iter().zip(&submit_only.jobs) {
        assert_eq!(now.run_time, was.run_time, "run times stay");
        assert!((now.submit - was.submit).abs() <= 15 && now.submit >= 0, "{} → {}", was.submit, now.submit);
        assert_eq!(now.submit, now.submitted);
    }
    // Both: the same run times and submissions as each alone (the draws do
    // not depend on which perturbations are on).
    let mut both = w.clone();
    noise.perturb(&mut both, &Replicas::default(), 1, 0);
    for ((b, r), s) in both.jobs.iter().zip(&run_only.jobs).zip(&submit_only.jobs) {
        assert_eq!((b.run_time, b.submit), (r.run_time, s.submit));
    }
}

/// No two like jobs, one submission time: nothing to draw, nothing moves.
#[test]
fn a_workload_without_variation_is_its_own_replica() {
    let w = workload(vec![job(1, 0, 2, 100, 10), job(2, 0, 4, 100, 40)], &["batch"]);
    let noise = Noise::of(&w);
    assert_eq!(noise.sizes(), (0, 0));
    let mut replica = w.clone();
    noise.perturb(&mut replica, &Replicas::default(), 7, 3);
    assert_eq!(replica.jobs, w.jobs);
}

/// The same replica of the same seed is the same perturbation (paired);
/// another replica or seed is another; an array's tasks move together; a
/// run time is one of its group's.
#[test]
fn replicas_are_paired_and_arrays_move_together() {
    let task = |id: u64, t: u64, run: i64| SlurmJob {
        relations: slasim_data::trace::sacct::jobs::Relations {
            array: Some(ArrayTask { job: 100, task: t, throttle: 0 }),
            ..Default::default()
        },
        ..job(id, 50, 1, 60, run)
    };
    let mut jobs: Vec<SlurmJob> =
        (0..20).map(|i| job(i, i as i64 * 7, 1 + (i % 2) as u32, 60, 5 + i as i64 * 3)).collect();
    jobs.extend((0..4).map(|t| task(200 + t, t, 50)));
    let w = workload(jobs, &["batch"]);
    let noise = Noise::of(&w);
    let made = |seed: u64, replica: u32| {
        let mut r = w.clone();
        noise.perturb(&mut r, &Replicas::default(), seed, replica);
        r.jobs.iter().map(|j| (j.submit, j.run_time)).collect::<Vec<_>>()
    };
    assert_eq!(made(1, 4), made(1, 4));
    assert_ne!(made(1, 4), made(1, 5));
    assert_ne!(made(1, 4), made(2, 4));
    for replica in 0..10 {
        let r = made(3, replica);
        let tasks = &r[20..];
        assert!(tasks.iter().all(|t| t.0 == tasks[0].0), "an array's tasks move together: {tasks:?}");
        let logged: Vec<i64> = w.jobs.iter().map(|j| j.run_time).collect();
        assert!(r.iter().all(|&(submit, run)| submit >= 0 && logged.contains(&run)), "{r:?}");
    }
}

fn loaded(file: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../configs/slurm/loaded/aligned").join(file)
}

/// The kept loaded dump under its own QOS, with replicas.
fn what_if_settings(seed: u64) -> SlurmSettings {
    SlurmSettings {
        seed,
        conf: loaded("slurm.conf"),
        trace: Some(loaded("dump.sacct.gz")),
        qos: Some(loaded("qos.txt")),
        assoc: Some(loaded("assoc.txt")),
        reservations: Some(loaded("reservations.txt")),
        controller_start: Some(1795786555),
        backfill_start: Some(1795786555),
        grid: Some("1795786568:20".into()),
        replicas: Some(Replicas::default()),
        ..SlurmSettings::default()
    }
}

/// The same setting twice, its replicas drawn independently (two seeds):
/// the true difference of the mean wait is zero, and its 95 % paired-t
/// interval over 10 replicas holds 0 in about 95 of 100 such what-ifs.
/// Fixed seeds; the bound (at least 88 of 100) fails an interval that is
/// too narrow (one that ignored the pairing's variance, say), and the
/// intervals must have width.
#[test]
fn the_interval_covers_a_zero_difference_about_95_times_in_100() {
    let base = Replicable::load(&what_if_settings(1)).unwrap();
    let mean_wait = |seed: u64, replica: u32| {
        let settings = SlurmSettings { replica: Some(replica), ..what_if_settings(seed) };
        let mut read = base.read.clone();
        base.noise.perturb(&mut read.workload, settings.replicas.as_ref().unwrap(), seed, replica);
        let inputs = read.admit().unwrap();
        let run = simulate_point(&settings, &inputs).unwrap();
        slasim_slurm::metrics::aggregates(&inputs, &run).mean_wait.unwrap()
    };
    let (experiments, replicas) = (100u64, 10u32);
    let mut covered = 0;
    let mut widths = Vec::new();
    for e in 0..experiments {
        let pairs: Vec<(f64, f64)> =
            (0..replicas).map(|r| (mean_wait(1000 + 2 * e, r), mean_wait(1001 + 2 * e, r))).collect();
        let d = Difference::of(&pairs).unwrap();
        let (low, high) = d.interval.unwrap();
        widths.push(high - low);
        covered += usize::from(d.verdict() == Some("within noise"));
    }
    assert!(widths.iter().all(|&w| w > 1.0), "every interval has width: {widths:?}");
    assert!((88..=100).contains(&covered), "the interval held 0 in {covered} of {experiments}");
}
