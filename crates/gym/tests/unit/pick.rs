//! Hand-checked sequences (starts and rewards worked out in the comments) and
//! invariants of random episodes.

use proptest::prelude::*;
use rand::RngExt;
use slasim_data::trace::swf::SwfRecord;
use slasim_gym::pick::jobs::{Estimates, JobTable};
use slasim_gym::pick::observation::FEATURES;
use slasim_gym::pick::reward::Score;
use slasim_gym::pick::*;
use slasim_gym::vector::{Buffers, VectorPick};
use std::sync::Arc;

/// (submit, run, processors, requested time) → a table on `nodes` nodes.
pub(crate) fn table(nodes: i64, jobs: &[(i64, i64, i64, i64)]) -> Arc<JobTable> {
    let records: Vec<SwfRecord> = jobs
        .iter()
        .enumerate()
        .map(|(i, &(submit, runtime, procs, requested_time))| SwfRecord {
            job: i as i64 + 1,
            submit,
            runtime,
            allocated_procs: procs,
            requested_procs: procs,
            requested_time,
            ..SwfRecord::UNKNOWN
        })
        .collect();
    Arc::new(JobTable::from_records("test", &records, nodes, nodes, Estimates::Logged).unwrap())
}

fn whole(backfill: bool, skip: bool) -> Options {
    Options { episode: Episode::WholeLog, ..Options::rlscheduler(backfill, skip, Score::BoundedSlowdown) }
}

/// Three jobs on 4 nodes: A (t=0, 100 s, 2 nodes), B (t=10, 50 s, 4 nodes), C (t=20, 10 s, 1 node).
const THREE: [(i64, i64, i64, i64); 3] = [(0, 100, 2, 100), (10, 50, 4, 50), (20, 10, 1, 10)];

#[test]
fn three_jobs_without_backfilling() {
    let mut env = PickJobs::new(table(4, &THREE), whole(false, false)).unwrap();
    env.reset(None).unwrap();
    // A waits alone at t=0; it fits.
    assert_eq!((env.now(), env.visible()), (0, &[0][..]));
    assert_eq!(env.step(0).unwrap(), Step { reward: 0.0, terminated: false });
    // A started at 0 (bsld 1); B arrived at 10 and does not fit (4 > 2 free).
    assert_eq!((env.now(), env.visible()), (10, &[1][..]));
    let mut obs = vec![0.0; env.observation_len()];
    let mut mask = vec![0; 128];
    env.write_observation(&mut obs, &mut mask);
    assert_eq!(obs[7], 1e-5f64 as f32, "B cannot start now");
    assert_eq!(&obs[8..16], &[0.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 0.0], "padding");
    assert_eq!(&mask[..2], &[1, 0]);
    // Picking B: C arrives at 20 (before A's release at 100), then A ends at
    // 100 and B starts: bsld (100 − 10 + 50) / 50 = 2.8.
    assert!(!env.step(0).unwrap().terminated);
    assert_eq!((env.now(), env.visible()), (100, &[2][..]));
    env.write_observation(&mut obs, &mut mask);
    assert_eq!(obs[0], (80.0f64 / 43200.0) as f32, "C has waited 80 s");
    // C waits for B's end at 150: bsld (150 − 20 + 10) / 10 = 14.
    let last = env.step(0).unwrap();
    assert!(last.terminated);
    assert_eq!(last.reward, -(1.0 / 3.0 + 2.8 / 3.0 + 14.0 / 3.0));
    assert_eq!(env.state().starts, vec![0, 100, 150]);
}

#[test]
fn three_jobs_with_backfilling() {
    let mut env = PickJobs::new(table(4, &THREE), whole(true, false)).unwrap();
    env.reset(None).unwrap();
    env.step(0).unwrap();
    // B is picked at 10 and needs A's nodes: its estimated start is A's
    // estimated end, 100. C arrives at 20, fits and ends (by its estimate) at
    // 30 < 100: it is backfilled at 20 (bsld 1). B starts at 100 (bsld 2.8).
    let last = env.step(0).unwrap();
    assert!(last.terminated);
    assert_eq!(env.state().starts, vec![0, 100, 20]);
    assert_eq!(last.reward, -(1.0 / 3.0 + 1.0 / 3.0 + 2.8 / 3.0));
}

#[test]
fn baselines_schedule_the_same_sequence() {
    let opts = Options { baselines: true, ..whole(false, false) };
    let mut env = PickJobs::new(table(4, &THREE), opts).unwrap();
    env.reset(None).unwrap();
    // SJF and F1 see one waiting job at each pick: the same schedule as above.
    let b = env.baselines().unwrap();
    let expected = 1.0 / 3.0 + 2.8 / 3.0 + 14.0 / 3.0;
    assert_eq!((b.sjf, b.f1), (expected, expected));
    // The reset left the sequence at its start.
    assert_eq!((env.now(), env.visible()), (0, &[0][..]));
}

#[test]
fn scores_follow_job_score() {
    // Start 100, submit 10, run 50, 4 processors.
    assert_eq!(Score::BoundedSlowdown.job(100, 10, 50, 4), 2.8);
    assert_eq!(Score::BoundedSlowdown.job(10, 10, 5, 4), 1.0, "the 10 s bound and the floor of 1");
    assert_eq!(Score::BoundedSlowdown.job(15, 10, 5, 4), 1.0);
    assert_eq!(Score::BoundedSlowdown.job(25, 10, 5, 4), 2.0);
    assert_eq!(Score::Wait.job(100, 10, 50, 4), 90.0);
    assert_eq!(Score::Turnaround.job(100, 10, 50, 4), 140.0);
    assert_eq!(Score::Utilisation.job(100, 10, 50, 4), -200.0);
    assert_eq!(Score::Slowdown.job(100, 10, 50, 4), 2.8);
    // Utilisation divides by (now − first submission) × MaxProcs.
    assert_eq!(Score::Utilisation.total(&[-200.0, -100.0], 2, 110, 10, 4), -0.5 - 0.25);
}

#[test]
fn skip_row_waits_and_is_masked_at_the_pivot() {
    let mut env = PickJobs::new(table(4, &THREE), whole(false, true)).unwrap();
    env.reset(None).unwrap();
    let mut obs = vec![0.0; env.observation_len()];
    let mut mask = vec![0; 128];
    env.write_observation(&mut obs, &mut mask);
    assert_eq!(&obs[8..16], &[1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 0.0], "the skip row");
    assert_eq!(&mask[..3], &[1, 1, 0]);
    // Skip at 0: nothing runs, B arrives at 10 (before 0 + 360).
    env.step(1).unwrap();
    assert_eq!((env.now(), env.visible()), (10, &[0, 1][..]));
    // Skip again: C arrives at 20.
    env.step(2).unwrap();
    assert_eq!(env.now(), 20);
    // Skip: everything has arrived and nothing runs: the pivot; the skip row is masked.
    env.step(3).unwrap();
    assert_eq!(env.now(), 20);
    env.write_observation(&mut obs, &mut mask);
    assert_eq!(&obs[24..32], &[1.0; 8]);
    assert_eq!(&mask[..4], &[1, 1, 1, 0]);
    assert!(matches!(env.step(3), Err(ActionError::SkipMasked { action: 3, now: 20, .. })));
}

#[test]
fn skip_waits_360_seconds_when_nothing_happens_sooner() {
    let jobs = table(4, &[(0, 1000, 4, 1000), (5000, 10, 1, 10)]);
    let mut env = PickJobs::new(jobs, whole(false, true)).unwrap();
    env.reset(None).unwrap();
    env.step(1).unwrap();
    assert_eq!(env.now(), 360);
}

#[test]
fn invalid_actions_leave_the_environment_usable() {
    let mut env = PickJobs::new(table(4, &THREE), whole(false, false)).unwrap();
    assert!(matches!(env.step(0), Err(ActionError::EpisodeOver { .. })), "before the first reset");
    env.reset(None).unwrap();
    let e = env.step(128).unwrap_err();
    assert_eq!(e.to_string(), "invalid action 128 at time 0: out of range (the window has rows 0..128)");
    let e = env.step(-1).unwrap_err();
    assert!(matches!(e, ActionError::OutOfRange { action: -1, .. }));
    let e = env.step(5).unwrap_err();
    assert_eq!(e.to_string(), "invalid action 5 at time 0: slot 5 is empty (1 job(s) visible)");
    assert_eq!((env.now(), env.visible()), (0, &[0][..]), "nothing moved");
    env.step(0).unwrap();
    env.step(0).unwrap();
    assert!(env.step(0).unwrap().terminated);
    assert!(matches!(env.step(0), Err(ActionError::EpisodeOver { now: 150, .. })));
}

#[test]
fn oversized_jobs_and_short_logs_are_errors() {
    let records = [SwfRecord { job: 7, submit: 0, runtime: 5, allocated_procs: 8, ..SwfRecord::UNKNOWN }];
    let e = JobTable::from_records("t.swf", &records, 4, 4, Estimates::Logged).unwrap_err();
    assert_eq!(e.to_string(), "t.swf: job 7 needs 8 nodes (8 processors) but the machine has 4 nodes");
    let e = PickJobs::new(table(4, &THREE), Options::default()).unwrap_err();
    assert!(matches!(e, SetupError::TooShort { jobs: 3, len: 256, .. }));
}

#[test]
fn the_table_follows_workloads() {
    // Job 3 has run time 0 (dropped), job 2 −1 (→ 10 s); requested −1 → run time;
    // processors = max(allocated, requested); 2 processors per node.
    let r = |job, runtime, alloc, req_procs, req_time| SwfRecord {
        job,
        submit: job * 10,
        runtime,
        allocated_procs: alloc,
        requested_procs: req_procs,
        requested_time: req_time,
        ..SwfRecord::UNKNOWN
    };
    let records = [r(1, 100, 3, -1, -1), r(3, 0, 1, 1, 5), r(2, -1, 1, 4, 50)];
    let t = JobTable::from_records("t", &records, 4, 8, Estimates::Logged).unwrap();
    assert_eq!(t.id, vec![1, 2]);
    assert_eq!(t.run, vec![100, 10]);
    assert_eq!(t.request, vec![100, 50]);
    assert_eq!(t.procs, vec![3, 4]);
    assert_eq!(t.nodes, vec![2, 2]);
    assert_eq!(t.max_exec_time, 100);
    // Features: requested time / 100, processors / 8, then −1 → 1.
    assert_eq!(t.features[0], [(1.0 - 1e-5f64) as f32, (3.0f64 / 8.0) as f32, 1.0, 1.0, 1.0, 1.0]);
    let exact = JobTable::from_records("t", &records, 4, 8, Estimates::Exact).unwrap();
    assert_eq!(exact.request, vec![100, 10]);
}

#[test]
fn seeded_resets_repeat_and_draw_in_rlscheduler_range() {
    let jobs: Vec<_> = (0..600).map(|i| (i * 30, 50 + i % 7 * 100, 1 + i % 5, 100 + i % 7 * 100)).collect();
    let t = table(8, &jobs);
    let mut a = PickJobs::new(Arc::clone(&t), Options::default()).unwrap();
    let mut b = PickJobs::new(t, Options::default()).unwrap();
    a.seed(42);
    b.seed(42);
    for _ in 0..50 {
        a.reset(None).unwrap();
        b.reset(None).unwrap();
        assert_eq!(a.start_index(), b.start_index());
        assert!((256..600 - 257).contains(&a.start_index()));
    }
    a.reset(Some(3)).unwrap();
    assert_eq!(a.start_index(), 3);
    assert!(matches!(a.reset(Some(345)), Err(SetupError::BadStart { start: 345, max: 344, .. })));
}

/// Plays random valid actions to the end, checking the invariants at every step.
fn play(env: &mut PickJobs, seed: u64) -> (Vec<i64>, f64) {
    let mut rng = slasim_core::rng::stream(seed, slasim_core::rng::TIE_BREAK, 0);
    let jobs = Arc::clone(env.jobs());
    let mut obs = vec![0.0; env.observation_len()];
    let mut mask = vec![0; env.options().window];
    let mut last_now = env.now();
    for _ in 0..100_000 {
        env.write_observation(&mut obs, &mut mask);
        assert!(obs.iter().all(|x| (0.0..=1.0).contains(x)));
        let valid: Vec<usize> = (0..mask.len()).filter(|&i| mask[i] == 1).collect();
        assert!(!valid.is_empty());
        let a = valid[rng.random_range(0..valid.len())];
        let step = env.step(a as i64).unwrap();
        let s = env.state();
        assert!(s.now >= last_now, "time went back");
        last_now = s.now;
        let held: i64 = s.running.iter().map(|r| r.nodes).sum();
        assert!(s.free_nodes >= 0, "over-allocation");
        assert_eq!(s.free_nodes + held, jobs.total_nodes);
        for &q in &s.queue {
            assert!(jobs.submit[q as usize] <= s.now, "a job waits before its submission");
        }
        if step.terminated {
            let starts = s.starts.clone();
            for (k, &t) in starts.iter().enumerate() {
                assert!(t >= jobs.submit[s.first + k], "job {k} started before it was submitted");
            }
            assert_eq!(s.scores.len(), starts.len(), "every job started once");
            return (starts, step.reward);
        }
    }
    panic!("episode did not end");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    #[test]
    fn random_episodes_keep_the_invariants(
        jobs in prop::collection::vec((0i64..400, 1i64..300, 1i64..9, 0i64..400), 2..60),
        backfill: bool,
        skip: bool,
        window in 1usize..6,
        seed: u64,
    ) {
        let mut submit = 0;
        let jobs: Vec<_> = jobs.into_iter().map(|(gap, run, procs, req)| { submit += gap; (submit, run, procs, req) }).collect();
        let opts = Options { window, ..whole(backfill, skip) };
        let mut env = PickJobs::new(table(8, &jobs), opts).unwrap();
        env.reset(None).unwrap();
        let (starts, _) = play(&mut env, seed);
        prop_assert!(starts.iter().all(|&t| t >= 0));
    }
}

#[test]
fn vector_env_equals_single_envs_whatever_the_threads() {
    let jobs: Vec<_> =
        (0..700).map(|i| (i * 37 % 9000 + i * 20, 20 + i * 13 % 900, 1 + i * 7 % 8, 30 + i * 11 % 1200)).collect();
    let t = table(8, &jobs);
    let opts = Options { window: 16, ..Options::rlscheduler(true, true, Score::BoundedSlowdown) };
    let n = 5;
    let make = || (0..n).map(|_| PickJobs::new(Arc::clone(&t), opts).unwrap()).collect::<Vec<_>>();
    let w = 16;
    let run = |threads: usize| {
        let mut v = VectorPick::new(make(), threads);
        v.seed(9);
        let (mut obs, mut masks) = (vec![0.0f32; n * w * FEATURES], vec![0u8; n * w]);
        let (mut rew, mut term, mut trunc) = (vec![0.0; n], vec![false; n], vec![false; n]);
        v.reset(Buffers {
            obs: &mut obs,
            masks: &mut masks,
            rewards: &mut rew,
            terminated: &mut term,
            truncated: &mut trunc,
        })
        .unwrap();
        let mut trail = Vec::new();
        for step in 0..3000 {
            // The first valid row after a rotating offset.
            let actions: Vec<i64> = (0..n)
                .map(|i| {
                    let m = &masks[i * w..(i + 1) * w];
                    (0..w).map(|k| (k + step + i) % w).find(|&k| m[k] == 1).unwrap_or(0) as i64
                })
                .collect();
            v.step(
                &actions,
                Buffers {
                    obs: &mut obs,
                    masks: &mut masks,
                    rewards: &mut rew,
                    terminated: &mut term,
                    truncated: &mut trunc,
                },
            )
            .unwrap();
            trail.push((obs.clone(), rew.clone(), term.clone()));
        }
        trail
    };
    let one = run(1);
    assert!(one.iter().any(|(_, _, t)| t.iter().any(|&x| x)), "some episode ended");
    assert_eq!(one, run(3));
    // Environment 2 alone, with its seed (9 + 2), gives the same rows.
    let mut single = PickJobs::new(Arc::clone(&t), opts).unwrap();
    single.seed(11);
    single.reset(None).unwrap();
    let (mut obs, mut mask) = (vec![0.0f32; w * FEATURES], vec![0u8; w]);
    let mut pending_reset = false;
    for (step, (vobs, vrew, vterm)) in one.iter().enumerate() {
        single.write_observation(&mut obs, &mut mask);
        let (r, t) = if pending_reset {
            single.reset(None).unwrap();
            pending_reset = false;
            (0.0, false)
        } else {
            let a = (0..w).map(|k| (k + step + 2) % w).find(|&k| mask[k] == 1).unwrap_or(0) as i64;
            let s = single.step(a).unwrap();
            pending_reset = s.terminated;
            (s.reward, s.terminated)
        };
        single.write_observation(&mut obs, &mut mask);
        assert_eq!(&vobs[2 * w * FEATURES..3 * w * FEATURES], &obs[..], "step {step}");
        assert_eq!((vrew[2], vterm[2]), (r, t), "step {step}");
    }
}

#[test]
fn visible_selection_above_the_window_interleaves_sjf_and_smallest() {
    // Five jobs arrive while a wide job runs; window 3.
    // (submit, run, procs, requested): job 0 holds all 4 nodes until 1000.
    let jobs = [
        (0, 1000, 4, 1000),
        (1, 10, 3, 500), // SJF rank 3, smallest rank 4
        (2, 10, 1, 900), // SJF 5, smallest 1
        (3, 10, 2, 100), // SJF 1, smallest 2
        (4, 10, 2, 200), // SJF 2, smallest 3
        (5, 10, 4, 600), // SJF 4, smallest 5
    ];
    let opts = Options { window: 3, ..whole(false, false) };
    let mut env = PickJobs::new(table(4, &jobs), opts).unwrap();
    env.reset(None).unwrap();
    env.step(0).unwrap();
    // Job 0 started; job 1 arrived. Pick job 1: it waits for the release at
    // 1000, every other job arrives first.
    env.step(0).unwrap();
    // Job 1 started at 1000 on 3 nodes; waiting: 2, 3, 4, 5 (4 > 3).
    // SJF order 3, 4, 5, 2; smallest order 2, 3, 4, 5.
    // Interleave: sjf[0]=3, small[0]=2, sjf[1]=4 → [3, 2, 4].
    assert_eq!(env.visible(), &[3, 2, 4]);
}
