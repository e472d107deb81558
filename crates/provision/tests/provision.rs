//! Provisioning (`provisioning-dissertation-spec.md` §2–§3) in process: the
//! site's slot set, hand-checked plans on the Fig. 1 slots, property tests of
//! the site, of provisioned plans and of priced reservations. One binary: the
//! provisioning kinds' in-process tests (their command-line tests are the
//! `slasim` crate's).
//!
//! Module `unit` holds the library's own tests, one module per library
//! module, under its path.

mod unit;

#[path = "../../core/src/testing.rs"]
mod testing;

use proptest::prelude::*;
use slasim_core::rng::stream;
use slasim_core::units::{HOUR, Time};
use slasim_provision::bench::{ProvisionScenario, ProvisionSite, simulate_provisioning};
use slasim_provision::executor::{ExecutorActor, Mode};
use slasim_provision::greedy::provision_greedy;
use slasim_provision::moga::{Genome, MogaConfig, Objectives};
use slasim_provision::plan::{PlanEvaluator, provision};
use slasim_provision::pricing::Policy;
use slasim_provision::site::{Due, SlotScheduler, WorkKey};
use slasim_provision::slots::Advertised;
use slasim_provision::workflow::{SyntheticWorkflow, Workflow};

const H: Time = HOUR;
/// One service unit: a processor-hour, in processor-seconds.
const SU: f64 = 3600.0;

/// The Fig. 1 cluster: 5 processors, A(2 × 3 h), B(4 × 1 h), C(1 × 2 h),
/// D(3 × 2 h) submitted at 0 with exact estimates.
fn figure_1() -> SlotScheduler {
    let mut s = SlotScheduler::new(5, 0);
    let mut due = Vec::new();
    for (i, (procs, hours)) in [(2, 3), (4, 1), (1, 2), (3, 2)].into_iter().enumerate() {
        s.submit(0, WorkKey::Background(i as u32), procs, hours * H, hours * H);
    }
    s.start_due(0, &mut due);
    s
}

#[test]
fn the_site_advertises_figure_1s_five_slots() {
    let s = figure_1();
    let slots = s.advertise(0);
    // Horizon: max(0 + 48 h, latest finish 6 h + 5 min) = 48 h.
    let got: Vec<(Time, u32, Time, bool)> =
        slots.iter().map(|a| (a.start / H, a.procs, a.duration / H, a.extensible)).collect();
    assert_eq!(
        got,
        vec![
            (0, 1, 3, false), // S3 [0, 3)
            (0, 1, 48, true), // S1, edge
            (2, 1, 1, false), // S2 [2, 3)
            (4, 1, 44, true), // S4, edge
            (6, 3, 42, true), // S5, edge
        ]
    );
    assert!(slots.iter().all(|a| a.c == 1.0 && a.f == 0.0 && a.divisible == a.extensible));
    assert_eq!(s.tasks_in_system(), 4);
    assert_eq!(s.latest_finish(0), 6 * H);
}

/// Two tasks on the Fig. 1 slots, worked by hand (bits in advertisement
/// order S3, S1, S2, S4, S5):
/// a = 2 procs × 2 h, b = 2 procs × 2 h, b after a, submitted at 0.
/// - {S3, S1}: a at 0 on S3 + S1 (S3 is a hole: charged whole, 3 SU; S1 edge:
///   2 SU); b needs 2 procs over 2 h from 2 h: S3's rest ends at 3 h, S1's
///   rest alone is 1 proc ⇒ infeasible.
/// - {S3, S1, S4}: a as above; b at 4 h on S1's rest + S4 (4 SU) ⇒ 9 SU, 6 h.
///   No plan does better than 6 h: b cannot start before S4 opens at 4 h.
/// - {S1, S4}: a at 4 h on S1 + S4 (4 SU), b at 6 h on their rests (4 SU) ⇒
///   8 SU, 8 h = the best-effort cost 2·2 + 2·2 SU, the least any plan pays.
/// - {S5}: a 6–8 h, b 8–10 h ⇒ 8 SU, 10 h (dominated by {S1, S4}).
///
/// Pareto set: {(9 SU, 6 h), (8 SU, 8 h)}; α = 0 picks 6 h, α = 1 picks 8 SU.
fn two_tasks() -> Workflow {
    Workflow::parse("a 7200 2\nb 7200 2 a\n", "two-tasks").expect("valid workflow")
}

fn brute_force_front(evaluator: &mut PlanEvaluator<'_>) -> Vec<(f64, f64)> {
    let n = evaluator.bits();
    let all: Vec<Objectives> = (0..1u32 << n)
        .map(|mask| evaluator.evaluate(&Genome::from_bits((0..n).map(|i| mask >> i & 1 == 1))))
        .filter(Objectives::is_feasible)
        .collect();
    let mut front: Vec<(f64, f64)> =
        all.iter().filter(|o| !all.iter().any(|p| p.dominates(o))).map(|o| (o.cost, o.makespan)).collect();
    front.sort_by(|a, b| a.partial_cmp(b).expect("finite"));
    front.dedup();
    front
}

#[test]
fn a_two_task_workflow_on_figure_1s_slots_has_the_hand_worked_pareto_set() {
    let site = figure_1();
    let slots = vec![site.advertise(0)];
    let wf = two_tasks();
    let mut evaluator = PlanEvaluator::new(&wf, 0, &slots);
    let bits = |v: [bool; 5]| Genome::from_bits(v);
    assert!(!evaluator.evaluate(&bits([true, true, false, false, false])).is_feasible());
    let o = evaluator.evaluate(&bits([true, true, false, true, false]));
    assert_eq!((o.cost / SU, o.makespan / H as f64), (9.0, 6.0));
    let o = evaluator.evaluate(&bits([false, true, false, true, false]));
    assert_eq!((o.cost / SU, o.makespan / H as f64), (8.0, 8.0));
    let o = evaluator.evaluate(&bits([false, false, false, false, true]));
    assert_eq!((o.cost / SU, o.makespan / H as f64), (8.0, 10.0));
    let expected = vec![(8.0 * SU, 8.0 * H as f64), (9.0 * SU, 6.0 * H as f64)];
    assert_eq!(brute_force_front(&mut evaluator), expected);

    let p = provision(
        &wf,
        0,
        &slots,
        &MogaConfig::default(),
        &[0.0, 1.0],
        &mut stream(1, slasim_provision::streams::MOGA, 0),
    )
    .unwrap();
    let mut archive: Vec<(f64, f64)> = p.archive.iter().map(|o| (o.cost, o.makespan)).collect();
    archive.sort_by(|a, b| a.partial_cmp(b).expect("finite"));
    assert_eq!(archive, expected);
    assert_eq!(p.choices[0].objectives.makespan, 6.0 * H as f64);
    assert_eq!(p.choices[1].objectives.cost, 8.0 * SU);
    assert_eq!(p.choices[1].objectives.cost, wf.best_effort_cost() as f64);
}

/// A random site: `jobs` background jobs (procs, estimate, runtime, gap) on
/// `capacity` processors, driven like the site actor: ends, then planned
/// starts, at their own times, before each arrival.
fn random_site(capacity: u32, jobs: &[(u32, Time, Time, Time)]) -> (SlotScheduler, Time) {
    let (s, now, _) = random_site_until(capacity, jobs, 0);
    (s, now)
}

/// [`random_site`], then driven on to `until` if that is later; also returns
/// the ends still to come.
fn random_site_until(
    capacity: u32,
    jobs: &[(u32, Time, Time, Time)],
    until: Time,
) -> (SlotScheduler, Time, Vec<(Time, WorkKey)>) {
    let mut s = SlotScheduler::new(capacity, 0);
    let mut due = Vec::new();
    let mut now = 0;
    let mut ends: Vec<(Time, WorkKey)> = Vec::new();
    let drive = |s: &mut SlotScheduler, ends: &mut Vec<(Time, WorkKey)>, due: &mut Vec<Due>, now: Time| loop {
        let next_end = ends.iter().map(|e| e.0).min();
        let t = match (next_end, s.next_start()) {
            (Some(a), Some(b)) => a.min(b),
            (a, b) => match a.or(b) {
                Some(t) => t,
                None => break,
            },
        };
        if t > now {
            break;
        }
        s.advance(t);
        ends.sort();
        while let Some(&(_, key)) = ends.first().filter(|(e, _)| *e == t) {
            ends.remove(0);
            s.end(t, key);
        }
        s.start_due(t, due);
        collect(due, ends);
    };
    for (i, &(procs, estimate, runtime, gap)) in jobs.iter().enumerate() {
        now += gap;
        drive(&mut s, &mut ends, &mut due, now);
        s.advance(now);
        s.submit(now, WorkKey::Background(i as u32), procs.min(capacity), estimate, runtime);
        // The site's wake-up at the submission's instant.
        s.start_due(now, &mut due);
        collect(&mut due, &mut ends);
    }
    // Work that started at the last arrival with no runtime ends then too.
    if until >= now {
        drive(&mut s, &mut ends, &mut due, until);
        s.advance(until);
        now = until;
    }
    (s, now, ends)
}

fn collect(due: &mut Vec<Due>, ends: &mut Vec<(Time, WorkKey)>) {
    for d in due.drain(..) {
        let Due::Started { key, end } = d;
        ends.push((end, key));
    }
}

fn jobs_strategy() -> impl Strategy<Value = Vec<(u32, Time, Time, Time)>> {
    prop::collection::vec((1u32..=16, 1i64..=20, 0i64..=20, 0i64..=6), 1..40)
        .prop_map(|v| v.into_iter().map(|(p, e, r, g)| (p, e * 600, (r * 600).min(e * 600), g * 600)).collect())
}

proptest! {
    #![proptest_config(testing::cases(64))]

    /// Free slots plus running, queued and reserved work make the machine at
    /// every instant (logged estimates: early ends rebuild the plan).
    #[test]
    fn free_slots_plus_booked_work_is_the_machine(jobs in jobs_strategy(), capacity in 4u32..=16) {
        let (s, now) = random_site(capacity, &jobs);
        let horizon = s.latest_finish(now) + 3600;
        for t in (now..=horizon).step_by(300) {
            prop_assert_eq!(s.slot_set().free_at(t) + s.booked_at(t), capacity, "t = {}", t);
        }
    }

    /// The plan chosen for any α never double-books a processor: every task's
    /// slot can be reserved, in plan order, in the site's state at submission;
    /// the same seed gives the same archive.
    #[test]
    fn provisioned_plans_never_double_book(
        jobs in jobs_strategy(),
        seed in 0u64..1000,
        tasks in 2usize..12,
    ) {
        let capacity = 16;
        let (site, now) = random_site(capacity, &jobs);
        let wf = SyntheticWorkflow { tasks, levels: None, mean_runtime: 1800, mean_procs: 4, max_procs: capacity, mean_transfer: 0 }
            .generate(&mut stream(seed, slasim_provision::streams::WORKFLOWS, 0))
            .expect("valid settings");
        let slots: Vec<Vec<Advertised>> = vec![site.advertise(now)];
        let config = MogaConfig { population: 20, generations: 4, ..MogaConfig::default() };
        let run =
            || provision(&wf, now, &slots, &config, &[0.0, 0.5, 1.0], &mut stream(seed, slasim_provision::streams::MOGA, 0)).unwrap();
        let p = run();
        prop_assert_eq!(&p, &run());
        for choice in &p.choices {
            // At every instant the plan's tasks use at most what the site advertised free.
            let used = |t: Time| -> u32 {
                choice.placements.iter().filter(|x| x.start <= t && t < x.end).map(|x| wf.tasks()[x.task as usize].procs).sum()
            };
            let ends = site.slot_set().slots().iter().map(|s| s.end).filter(|&e| e < Time::MAX);
            let instants: Vec<Time> = choice.placements.iter().map(|x| x.start).chain(ends).filter(|&t| t >= now).collect();
            for x in &choice.placements {
                prop_assert!(x.start >= now);
            }
            for t in instants {
                prop_assert!(used(t) <= site.slot_set().free_at(t), "over-booked at {}", t);
            }
            // Reserving it leaves the site's books balanced: free + booked = the machine.
            let mut fork = site.clone();
            let tasks: Vec<(WorkKey, Time, u32, Time)> = choice
                .placements
                .iter()
                .map(|x| (WorkKey::Task { owner: 0, task: x.task }, x.start, wf.tasks()[x.task as usize].procs, x.end - x.start))
                .collect();
            prop_assert!(fork.reserve_plan(&choice.sites[0], &tasks));
            let horizon = choice.placements.iter().map(|x| x.end).max().unwrap_or(now) + 600;
            for t in (now..=horizon).step_by(300) {
                prop_assert_eq!(fork.slot_set().free_at(t) + fork.booked_at(t), capacity, "t = {}", t);
            }
            // Precedence holds in the plan.
            for t in &choice.placements {
                for &(parent, _) in &wf.tasks()[t.task as usize].parents {
                    prop_assert!(choice.placements[parent as usize].end <= t.start);
                }
            }
            prop_assert!(choice.objectives.cost >= wf.best_effort_cost() as f64 - 1e-6);
        }
    }
}

proptest! {
    #![proptest_config(testing::cases(32))]

    /// Greedy provisioning through the kernel (the executor asks every site for
    /// offers and buys one task at a time): the reserved run ends when planned,
    /// every task after its parents, α = 1 costs the best-effort cost, and with
    /// empty queues it is the pure Fig. 51 result on the sites' snapshots.
    #[test]
    fn greedy_through_the_kernel_keeps_its_plan(
        a in jobs_strategy(),
        b in jobs_strategy(),
        seed in 0u64..1000,
        tasks in 2usize..10,
        alpha in prop::sample::select(vec![0.0, 0.5, 1.0]),
    ) {
        let capacity = 16;
        // Both sites driven to the same instant (ends and planned starts due by then handled).
        let now = random_site(capacity, &a).1.max(random_site(capacity, &b).1);
        let sites = [random_site_until(capacity, &a, now).0, random_site_until(capacity, &b, now).0];
        let wf = SyntheticWorkflow { tasks, levels: None, mean_runtime: 1800, mean_procs: 4, max_procs: capacity, mean_transfer: 900 }
            .generate(&mut stream(seed, slasim_provision::streams::WORKFLOWS, 0))
            .expect("valid settings");
        let snapshots: Vec<_> = sites.iter().map(|s| s.pricing_snapshot(now)).collect();
        let pure = provision_greedy(&wf, now, &snapshots, Policy::Conservative, 1.0, alpha).expect("valid α").expect("fits");
        let scenario = ProvisionScenario {
            sites: sites.iter().map(|s| ProvisionSite { scheduler: s.clone(), jobs: Vec::new(), sample: false }).collect(),
            provisioner: None,
            executor: Some(ExecutorActor::new(wf.clone(), Mode::Greedy { alpha, easy: false }, now, 2)),
            buyer: None,
            horizon: Time::MAX,
        };
        let run = simulate_provisioning(scenario).expect("simulates").execution.expect("an executor ran");
        // The reserved run ends as planned, after every parent (and its transfer).
        prop_assert_eq!(run.makespan, run.planned);
        for (task, t) in wf.tasks().iter().enumerate() {
            let (site, end) = run.ends[task];
            for &(p, transfer) in &t.parents {
                let (p_site, p_end) = run.ends[p as usize];
                let ready = p_end + if p_site == site { 0 } else { transfer };
                prop_assert!(end - t.runtime >= ready, "task {} starts before {}", task, ready);
            }
        }
        let (cost, f) = run.cost.expect("greedy costs");
        prop_assert!(cost >= wf.best_effort_cost() as f64 - 1e-6 && f >= 0.0);
        if alpha == 1.0 {
            prop_assert_eq!(cost, wf.best_effort_cost() as f64);
        }
        // With nothing queued at either site a purchase re-plans nothing, and
        // the kernel run is the pure algorithm slot for slot. (With a queue, a
        // purchase re-plans the site's queue (§2.7), which the pure function,
        // adding reservations only, does not model: the two then may differ.)
        if snapshots.iter().all(|s| s.queue.is_empty()) {
            prop_assert_eq!(run.planned, Some(pure.makespan));
            prop_assert!((cost - pure.cost).abs() < 1e-6, "{} vs {}", cost, pure.cost);
            for t in &pure.tasks {
                prop_assert_eq!(run.ends[t.task as usize], (t.site, t.end));
            }
        }
    }
}

proptest! {
    #![proptest_config(testing::cases(64))]

    /// A price query, delivered to the site actor at any later instant, leaves
    /// its scheduler exactly as it was (not even the past is forgotten), and a
    /// purchase of an offer it made does change it.
    #[test]
    fn a_price_query_leaves_the_site_unchanged(
        jobs in jobs_strategy(),
        later in 0i64..=7200,
        procs in 1u32..=16,
        minutes in 10i64..=240,
        easy in proptest::bool::ANY,
    ) {
        use slasim_provision::site::{SiteActor, SiteMsg, SiteRequest};
        use slasim_core::sim::kernel::Model;
        use slasim_core::sim::port::Request;
        // Where the answers would go: a buyer's input in a bench.
        let reply = slasim_core::sim::bench::Bench::new(0).unwrap().reserve::<slasim_provision::buyer::BuyerActor>().input();
        let (site, now) = random_site(16, &jobs);
        let mut actor = SiteActor::new(0, site.clone(), false);
        let at = now + later;
        let quote = SiteRequest::Quote { task: 0, earliest: at, procs, duration: minutes * 60, easy, deadline: None };
        let _ = actor.handle(at, SiteMsg::Request(Request { body: quote, reply }), Vec::new());
        prop_assert_eq!(actor.scheduler(), &site);
        // The same offers, bought, are admissible and change the plan.
        let snapshot = site.pricing_snapshot(at);
        let policy = if easy { Policy::Easy } else { Policy::Conservative };
        let offers = slasim_provision::pricing::query_earliest(&snapshot, policy, 1.0, at, procs, minutes * 60);
        prop_assert!(!offers.is_empty());
        // Priced under both policies on the same state, the offer's own policy gives its f.
        let slot = slasim_provision::pricing::SlotRequest { start: offers[0].start, procs, duration: minutes * 60 };
        let audit = slasim_provision::pricing::audit(&snapshot, slot).expect("an offered slot fits");
        prop_assert_eq!(if easy { audit.easy.delayed } else { audit.conservative.delayed }, offers[0].f);
        let buy = SiteRequest::Buy {
            task: 0,
            start: offers[0].start,
            procs,
            duration: minutes * 60,
            runtime: minutes * 60,
            audit: true,
        };
        let _ = actor.handle(at, SiteMsg::Request(Request { body: buy, reply }), Vec::new());
        prop_assert_ne!(actor.scheduler(), &site);
    }
}

/// Buyers' jobs from drawn (procs, estimate, runtime, gap) tuples.
fn buyer_jobs(draw: &[(u32, Time, Time, Time)]) -> Vec<slasim_single::workload::job::Job> {
    let mut t = 0;
    draw.iter()
        .enumerate()
        .map(|(i, &(procs, estimate, runtime, gap))| {
            t += gap;
            slasim_single::workload::job::Job::without_sla(i as u32, t, procs, estimate, runtime)
        })
        .collect()
}

proptest! {
    #![proptest_config(testing::cases(32))]

    /// Two buyers ask one site: each hears only its own answers. Every
    /// reservation a buyer bought ran in its slot and its end reached that
    /// buyer (had the site answered everyone, a buyer would take the other's
    /// offers and task ends for its own requests with the same index).
    #[test]
    fn a_site_answers_only_the_model_that_asked(a in jobs_strategy(), b in jobs_strategy()) {
        use slasim_provision::buyer::BuyerActor;
        use slasim_provision::site::SiteActor;
        use slasim_core::sim::bench::Bench;
        let (a, b) = (buyer_jobs(&a), buyer_jobs(&b));
        let mut bench = Bench::new(Time::MAX).unwrap();
        let site = bench.reserve::<SiteActor>();
        let mut buyers = Vec::new();
        for jobs in [a.clone(), b.clone()] {
            let at = bench.reserve::<BuyerActor>();
            let mut buyer = BuyerActor::new(jobs, 0.5, false, None);
            buyer.site.answers = Some(at.input());
            buyer.site.connect(0, site.input());
            if let Some(first) = buyer.first_event() {
                bench.seed(at, first).unwrap();
            }
            bench.place(at, buyer);
            buyers.push(at);
        }
        bench.place(site, SiteActor::new(0, SlotScheduler::new(16, 0), false));
        bench.run().unwrap();
        let mut records = Vec::new();
        for at in buyers {
            records.push(bench.finish(at).unwrap());
        }
        for (jobs, records) in [(&a, &records[0]), (&b, &records[1])] {
            prop_assert_eq!(records.len(), jobs.len());
            for (job, r) in jobs.iter().zip(records) {
                prop_assert!(r.offers > 0, "request {} got no offers of its own", r.request);
                prop_assert!(r.bought, "request {} bought nothing", r.request);
                let start = r.start.unwrap();
                prop_assert!(start >= job.occurrence);
                prop_assert_eq!(r.end, Some(start + job.runtime.min(job.estimate.max(1))), "request {}", r.request);
            }
        }
    }
}
