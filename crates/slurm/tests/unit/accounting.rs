//! The QOS factor and the QOS and association limits, by hand.

use std::path::Path;

use slasim_data::trace::sacct::jobs::{SlurmJob, SlurmWorkload};
use slasim_slurm::accounting::{Accounting, Reason};
use slasim_slurm::bench::{Scenario, Simulated, simulate};
use slasim_slurm::conf::parse;
use slasim_slurm::sacctmgr::{parse_assoc, parse_qos};

use crate::ONE_NODE;

/// Account `physics` (alice and bob), `chem` (alice), under root.
const ASSOC: &str = "\
Account|User|Par Name|GrpJobs|MaxJobs
root||||
physics||root||
physics|alice|||
physics|bob|||
chem||root||
chem|alice|||
";

/// [`ONE_NODE`] with `AccountingStorageEnforce=limits`: without it
/// slurmctld checks no limit.
fn limited() -> String {
    format!("{ONE_NODE}AccountingStorageEnforce=limits\n")
}

fn accounting(qos: Option<&str>, assoc: Option<&str>) -> Accounting {
    Accounting {
        qos: qos.map(|t| parse_qos(t, Path::new("qos.txt")).expect("the QOS dump parses")),
        assoc: assoc.map(|t| parse_assoc(t, Path::new("assoc.txt")).expect("the association dump parses")),
    }
}

fn scenario(conf: &str, w: &SlurmWorkload, accounting: &Accounting) -> Result<Scenario, String> {
    let conf = parse(conf, Path::new("test.conf")).expect("the test conf parses");
    Scenario::with_accounting(&conf, conf.priority.clone(), conf.scheduler.clone(), w, accounting)
        .map_err(|e| e.to_string())
}

fn run(conf: &str, w: &SlurmWorkload, accounting: &Accounting) -> Simulated {
    simulate(scenario(conf, w, accounting).expect("every job is admitted")).expect("the run ends")
}

fn starts(sim: &Simulated) -> Vec<i64> {
    sim.outcomes.iter().map(|o| o.start).collect()
}

fn of(user: u32, account: u32, qos: u32, j: SlurmJob) -> SlurmJob {
    SlurmJob { user, account, qos, ..j }
}

fn hits(sim: &Simulated, reason: Reason) -> u64 {
    sim.counters.limited[reason as usize]
}

/// PriorityWeightQOS=1000 and nothing else: QOS `normal` (Priority 10) and
/// `high` (Priority 40, the largest). J1 fills the node from 0 to 100;
/// J2 (normal) is submitted at 1, J3 (high) at 2, both 4 CPUs.
/// - J2: 1000 · 10/40 = 250; J3: 1000 · 40/40 = 1000.
/// - 100: J1 ends; J3 (higher) starts, to 200; J2 starts at 200.
///
/// Without the QOS factor both are 1 and J2, submitted first, goes first
/// (100, then J3 at 200).
#[test]
fn the_qos_factor_is_its_priority_over_the_largest() {
    let conf = format!("{ONE_NODE}PriorityType=priority/multifactor\nPriorityWeightQOS=1000\n");
    let qos = "Name|Priority\nnormal|10\nhigh|40\nlow|0\n";
    let mut w = crate::workload(
        vec![crate::job(1, 0, 4, 100, 100), crate::job(2, 1, 4, 100, 100), of(0, 0, 1, crate::job(3, 2, 4, 100, 100))],
        &["batch"],
    );
    w.qos = vec!["normal".into(), "high".into()];
    let sim = run(&conf, &w, &accounting(Some(qos), None));
    assert_eq!(starts(&sim), [0, 200, 100]);
    assert_eq!(sim.outcomes[1].priority, 250);
    assert_eq!(sim.outcomes[2].priority, 1000);
    // Without a dump: today's order.
    let sim = run(&conf, &w, &Accounting::default());
    assert_eq!(starts(&sim), [0, 100, 200]);
    assert!(sim.reasons.is_empty());
}

/// A job whose QOS the dump lacks, or whose account or user has no
/// association, is a located error naming the job and the name.
#[test]
fn unknown_qos_account_or_user_are_located_errors() {
    let mut w = crate::workload(vec![crate::job(7, 0, 1, 10, 10)], &["batch"]);
    w.qos = vec!["premium".into()];
    let e = scenario(ONE_NODE, &w, &accounting(Some("Name|Priority\nnormal|1\n"), None)).err().expect("refused");
    assert!(e.contains("job 7") && e.contains("QOS") && e.contains("\"premium\"") && e.contains("qos.txt"), "{e}");
    // Account 1 is `biology`: not in the dump.
    let w = crate::workload(vec![of(0, 1, 0, crate::job(8, 0, 1, 10, 10))], &["batch"]);
    let e = scenario(ONE_NODE, &w, &accounting(None, Some(ASSOC))).err().expect("refused");
    assert!(
        e.contains("job 8") && e.contains("Account") && e.contains("\"biology\"") && e.contains("assoc.txt"),
        "{e}"
    );
    // bob (user 1) has no association in chem.
    let mut w = crate::workload(vec![of(1, 1, 0, crate::job(9, 0, 1, 10, 10))], &["batch"]);
    w.accounts = vec!["physics".into(), "chem".into()];
    let e = scenario(ONE_NODE, &w, &accounting(None, Some(ASSOC))).err().expect("refused");
    assert!(e.contains("job 9") && e.contains("User") && e.contains("\"bob\""), "{e}");
}

/// QOS normal with MaxJobsPU=1; alice's J1 and J2 and bob's J3 (1 CPU,
/// 100 s each) are submitted at 0 on the 4-CPU node.
/// - 0: J1 starts; J2 is held (alice runs 1 ≥ 1: QOSMaxJobsPerUserLimit),
///   skipped without blocking the partition, so J3 starts; backfill skips J2.
/// - 100: J1 and J3 end; J2 starts.
///
/// Without the limit all three start at 0.
#[test]
fn max_jobs_per_user_holds_a_job_and_the_next_one_runs() {
    let qos = "Name|Priority|MaxJobsPU\nnormal|0|1\n";
    let w = crate::workload(
        vec![crate::job(1, 0, 1, 100, 100), crate::job(2, 0, 1, 100, 100), of(1, 0, 0, crate::job(3, 0, 1, 100, 100))],
        &["batch"],
    );
    let sim = run(&limited(), &w, &accounting(Some(qos), None));
    assert_eq!(starts(&sim), [0, 100, 0]);
    assert_eq!(sim.reasons, [None, Some(Reason::QosMaxJobsPerUser), None]);
    assert!(hits(&sim, Reason::QosMaxJobsPerUser) >= 2, "the main pass and backfill both held it");
    // The main scheduler alone (sched/builtin) does not block the partition
    // on J2 either: J3 starts at 0.
    let builtin = limited().replace("sched/backfill", "sched/builtin");
    assert_eq!(starts(&run(&builtin, &w, &accounting(Some(qos), None))), [0, 100, 0]);
    let sim = run(&limited(), &w, &accounting(Some("Name|Priority\nnormal|0\n"), None));
    assert_eq!(starts(&sim), [0, 0, 0]);
    // Without `AccountingStorageEnforce=limits` the limit is not checked.
    let sim = run(ONE_NODE, &w, &accounting(Some(qos), None));
    assert_eq!(starts(&sim), [0, 0, 0]);
    assert!(sim.reasons.is_empty());
}

/// One 8-CPU node; QOS normal with GrpTRES=cpu=6 and MaxTRESPU=cpu=4. At 0,
/// in order: alice J1 (3 CPUs), alice J2 (2), bob J3 (2), bob J4 (1), bob
/// J5 (1), all 100 s.
/// - J1: 3 ≤ 6 and 3 ≤ 4: starts. J2: QOS 3+2 = 5 ≤ 6 but alice 3+2 = 5 > 4:
///   QOSMaxCpuPerUserLimit. J3: 3+2 = 5 ≤ 6: starts. J4: 5+1 = 6: starts.
///   J5: 6+1 = 7 > 6: QOSGrpCpuLimit. 2 CPUs stay idle.
/// - Later passes before 100 (backfill at 0, 10, …) find J2 at QOS
///   6+2 = 8 > 6 first: its last reason is QOSGrpCpuLimit.
/// - 100: all end; J2 and J5 start (3 CPUs).
///
/// Without the limits J1 to J4 start at 0 (3+2+2+1 = 8 CPUs) and J5 waits
/// for 100 as the node is full.
#[test]
fn cpu_limits_of_the_qos_and_of_a_user() {
    let conf = limited().replace("CPUs=4", "CPUs=8");
    let qos = "Name|Priority|GrpTRES|MaxTRESPU\nnormal|0|cpu=6|cpu=4\n";
    let w = crate::workload(
        vec![
            crate::job(1, 0, 3, 100, 100),
            crate::job(2, 0, 2, 100, 100),
            of(1, 0, 0, crate::job(3, 0, 2, 100, 100)),
            of(1, 0, 0, crate::job(4, 0, 1, 100, 100)),
            of(1, 0, 0, crate::job(5, 0, 1, 100, 100)),
        ],
        &["batch"],
    );
    let sim = run(&conf, &w, &accounting(Some(qos), None));
    assert_eq!(starts(&sim), [0, 100, 0, 0, 100]);
    // J2's last reason: after J3 and J4 started, QOS 6+2 = 8 > 6 is tested
    // first (`_qos_job_runnable_post_select` checks GrpTRES before MaxTRESPU).
    assert_eq!(hits(&sim, Reason::QosMaxCpuPerUser), 1);
    assert_eq!(sim.reasons[1], Some(Reason::QosGrpCpu));
    assert_eq!(sim.reasons[4], Some(Reason::QosGrpCpu));
    let sim = run(&conf, &w, &accounting(Some("Name|Priority\nnormal|0\n"), None));
    assert_eq!(starts(&sim), [0, 0, 0, 0, 100]);
}

/// Associations: alice in physics has MaxJobs=1, physics has GrpJobs=2.
/// At 0: alice J1, alice J2, bob J3, bob J4 (1 CPU, 100 s each).
/// - J1 starts (physics 1). J2: alice runs 1 ≥ 1: AssocMaxJobsLimit.
///   J3 starts (physics 2). J4: physics runs 2 ≥ 2: AssocGrpJobsLimit.
/// - 100: J1 and J3 end; J2 and J4 start.
///
/// Without the dump all four start at 0.
#[test]
fn association_max_jobs_and_grp_jobs() {
    let assoc = ASSOC.replace("physics||root||", "physics||root|2|").replace("physics|alice|||", "physics|alice|||1");
    let w = crate::workload(
        vec![
            crate::job(1, 0, 1, 100, 100),
            crate::job(2, 0, 1, 100, 100),
            of(1, 0, 0, crate::job(3, 0, 1, 100, 100)),
            of(1, 0, 0, crate::job(4, 0, 1, 100, 100)),
        ],
        &["batch"],
    );
    let sim = run(&limited(), &w, &accounting(None, Some(&assoc)));
    assert_eq!(starts(&sim), [0, 100, 0, 100]);
    assert_eq!(sim.reasons, [None, Some(Reason::AssocMaxJobs), None, Some(Reason::AssocGrpJobs)]);
    let sim = run(&limited(), &w, &accounting(None, Some(ASSOC)));
    assert_eq!(starts(&sim), [0, 0, 0, 0]);
}

/// QOS normal: MaxSubmitPU=2. alice submits J1, J2, J3 at 0 (1 CPU, 100 s)
/// and J4 at 150. J3 is the third of her submitted jobs: rejected (never
/// runs). J4 comes after J1 and J2 ended: accepted, starts at 150.
/// QOS short: MaxWall=1 (minute), MaxSubmitPU=1. bob's J5 (limit 100 s) in
/// it stays pending for ever (QOSMaxWallDurationPerJobLimit), and still
/// counts as submitted, so bob's J6 (short, limit 30 s) is rejected. With
/// DenyOnLimit, J5 is rejected at submission instead (same reason), does not
/// count, and J6 starts at 0 (J1, J2, J6: 3 of 4 CPUs).
#[test]
fn max_submit_rejects_and_max_wall_holds_for_ever() {
    let qos = "Name|Priority|MaxSubmitPU|MaxWall|Flags\nnormal|0|2||\nshort|0|1|1|\n";
    let mut w = crate::workload(
        vec![
            crate::job(1, 0, 1, 100, 100),
            crate::job(2, 0, 1, 100, 100),
            crate::job(3, 0, 1, 100, 100),
            crate::job(4, 150, 1, 100, 100),
            of(1, 0, 1, crate::job(5, 0, 1, 100, 50)),
            of(1, 0, 1, crate::job(6, 0, 1, 30, 30)),
        ],
        &["batch"],
    );
    w.qos = vec!["normal".into(), "short".into()];
    let sim = run(&limited(), &w, &accounting(Some(qos), None));
    assert_eq!(starts(&sim), [0, 0, -1, 150, -1, -1]);
    assert_eq!(sim.reasons[2], Some(Reason::QosMaxSubmitJobPerUser));
    assert_eq!(sim.reasons[4], Some(Reason::QosMaxWallDurationPerJob));
    assert_eq!(sim.reasons[5], Some(Reason::QosMaxSubmitJobPerUser));
    assert_eq!(hits(&sim, Reason::QosMaxSubmitJobPerUser), 2);
    let deny = qos.replace("short|0|1|1|", "short|0|1|1|DenyOnLimit");
    let sim = run(&limited(), &w, &accounting(Some(&deny), None));
    assert_eq!(starts(&sim), [0, 0, -1, 150, -1, 0]);
    assert_eq!(sim.reasons[4], Some(Reason::QosMaxWallDurationPerJob));
    // Without the limits J1, J2, J3, J5 fill the node at 0; J5 ends at 50
    // and J6 starts.
    let sim = run(&limited(), &w, &accounting(Some("Name|Priority\nnormal|0\nshort|0\n"), None));
    assert_eq!(starts(&sim), [0, 0, 0, 150, 0, 50]);
}

/// One node of 4 CPUs and 2 GPUs; Fair Tree only (PriorityWeightFairshare
/// 1000, PriorityCalcPeriod 1 minute: ticks at 60, 120, …).
const GPU_NODE: &str = "\
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/backfill
SchedulerParameters=bf_interval=10,bf_resolution=1,bf_window=60
PriorityType=priority/multifactor
PriorityWeightFairshare=1000
PriorityCalcPeriod=1
NodeName=n1 CPUs=4 RealMemory=1000 Gres=gpu:2
PartitionName=batch Nodes=n1 Default=YES MaxTime=UNLIMITED
";

/// One node of 4 CPUs and 2 GPUs, limits enforced. QOS normal with
/// GrpTRES=gres/gpu=1: J1 and J2 (1 CPU + 1 GPU, 100 s) and J3 (1 CPU)
/// at 0. J1 starts; J2 would make 2 GPUs > 1: `QOSGrpGRES`, skipped; J3
/// starts. At 100 J1 ends and J2 starts. Without the limit all start at 0.
/// MaxTRES=gres/gpu=0 holds J1 and J2 for ever (never queued):
/// `QOSMaxGRESPerJob`; with `DenyOnLimit` they are rejected instead.
/// Association GrpTRES=cpu=2 on account physics (alice and bob): alice's J1
/// (2 CPUs) starts, bob's J2 (1 CPU) waits for it (`AssocGrpCpuLimit`) as
/// 2 + 1 > 2; bob's J3 in biology starts at 0.
#[test]
fn tres_limits_of_the_qos_and_of_an_association() {
    let conf = format!("{GPU_NODE}AccountingStorageEnforce=limits\n");
    let gpu = |j: SlurmJob| SlurmJob { request: slasim_data::trace::sacct::jobs::Tres { gpus: 1, ..j.request }, ..j };
    let w = crate::workload(
        vec![gpu(crate::job(1, 0, 1, 100, 100)), gpu(crate::job(2, 0, 1, 100, 100)), crate::job(3, 0, 1, 100, 100)],
        &["batch"],
    );
    let sim = run(&conf, &w, &accounting(Some("Name|Priority|GrpTRES\nnormal|0|gres/gpu=1\n"), None));
    assert_eq!(starts(&sim), [0, 100, 0]);
    assert_eq!(sim.reasons[1], Some(Reason::QosGrpGres));
    assert_eq!(starts(&run(&conf, &w, &accounting(Some("Name|Priority\nnormal|0\n"), None))), [0, 0, 0]);
    let sim = run(&conf, &w, &accounting(Some("Name|Priority|MaxTRES\nnormal|0|gres/gpu=0\n"), None));
    assert_eq!(starts(&sim), [-1, -1, 0]);
    assert_eq!(sim.reasons[0], Some(Reason::QosMaxGresPerJob));
    let deny = "Name|Priority|MaxTRES|Flags\nnormal|0|gres/gpu=0|DenyOnLimit\n";
    assert_eq!(hits(&run(&conf, &w, &accounting(Some(deny), None)), Reason::QosMaxGresPerJob), 2);

    let assoc = "Account|User|Par Name|GrpTRES\nroot|||\nphysics||root|cpu=2\nphysics|alice||\n\
                 physics|bob||\nbiology||root|\nbiology|bob||\n";
    let w = crate::workload(
        vec![
            crate::job(1, 0, 2, 100, 100),
            of(1, 0, 0, crate::job(2, 0, 1, 100, 100)),
            of(1, 1, 0, crate::job(3, 0, 1, 100, 100)),
        ],
        &["batch"],
    );
    let sim = run(&conf, &w, &accounting(None, Some(assoc)));
    assert_eq!(starts(&sim), [0, 100, 0]);
    assert_eq!(sim.reasons[1], Some(Reason::AssocGrpCpu));
    let sim = run(&conf, &w, &accounting(None, Some(&assoc.replace("cpu=2", ""))));
    assert_eq!(starts(&sim), [0, 0, 0]);
}

/// alice (physics) J1: 3 CPUs and bob (biology) J2: 1 CPU + 1 GPU start at
/// 0 and run 100 s; alice's J3 (4 CPUs, 50 s) is submitted at 10, bob's J4
/// (4 CPUs, 50 s) at 11. Before the first tick no one has usage: both are
/// 1000 and J3 is ahead by submit time. At 60 each is charged
/// billing · 60 · d^60 (the same d^60 for both), and the account with less
/// usage ranks first: its user's factor is 2/2 (1000), the other's 1/2
/// (500). At 100 J1 and J2 end: the first of J3/J4 runs 100–150, the other
/// 150–200. `J3 first` is `[0, 0, 100, 150]`, `J4 first` `[0, 0, 150, 100]`.
fn fair_tree_jobs() -> SlurmWorkload {
    let gpu = |j: SlurmJob| SlurmJob { request: slasim_data::trace::sacct::jobs::Tres { gpus: 1, ..j.request }, ..j };
    crate::workload(
        vec![
            crate::job(1, 0, 3, 200, 100),
            of(1, 1, 0, gpu(crate::job(2, 0, 1, 200, 100))),
            crate::job(3, 10, 4, 50, 50),
            of(1, 1, 0, crate::job(4, 11, 4, 50, 50)),
        ],
        &["batch"],
    )
}

/// TRESBillingWeights=CPU=1.0,GRES/gpu=10: alice 3 · 60 = 180, bob
/// (1 + 10) · 60 = 660: physics ranks first, J3 (1000) before J4 (500).
/// Billed by CPUs (no weights), bob is 60 < 180: J4 first.
/// With PriorityFlags=MAX_TRES and GRES/gpu=2.5: bob max(1, 2.5) · 60 = 150
/// < 180: J4 first; summed, (1 + 2.5) · 60 = 210 > 180: J3 first.
#[test]
fn usage_is_charged_by_billing_weights() {
    let w = fair_tree_jobs();
    let none = Accounting::default();
    let weighted = GPU_NODE.replace("PriorityType", "TRESBillingWeights=CPU=1.0,GRES/gpu=10\nPriorityType");
    let sim = run(&weighted, &w, &none);
    assert_eq!(starts(&sim), [0, 0, 100, 150]);
    assert_eq!((sim.outcomes[2].priority, sim.outcomes[3].priority), (1000, 500));
    assert_eq!(starts(&run(GPU_NODE, &w, &none)), [0, 0, 150, 100]);
    let summed = GPU_NODE.replace("PriorityType", "TRESBillingWeights=CPU=1.0,GRES/gpu=2.5\nPriorityType");
    assert_eq!(starts(&run(&summed, &w, &none)), [0, 0, 100, 150]);
    let max = summed.replace("PriorityType", "PriorityFlags=MAX_TRES\nPriorityType");
    assert_eq!(starts(&run(&max, &w, &none)), [0, 0, 150, 100]);
    // A partition's weights replace the cluster's.
    let part = weighted.replace("MaxTime=UNLIMITED", "MaxTime=UNLIMITED TRESBillingWeights=CPU=1.0");
    assert_eq!(starts(&run(&part, &w, &none)), [0, 0, 150, 100]);
}

/// The centre's tree from the association dump, no billing weights:
/// physics under science, which also holds carol (no jobs); biology under
/// root. Three users. At the tick at 60 alice has 3 · 60 = 180, bob 60;
/// science's usage is alice's (180), the root's 240.
/// - Shares science 9, biology 1: science S = 0.9, U = 0.75, LF 1.2;
///   biology S = 0.1, U = 0.25, LF 0.4. Science first: carol (no usage,
///   infinite) rank 3, then physics (S = 1/2, U = 1, LF 0.5): alice rank 2,
///   factor 2/3 (priority 666); then biology: bob rank 1 (333). J3 first.
/// - Equal shares: science LF (1/2)/0.75 = 0.67 < biology (1/2)/0.25 = 2:
///   bob rank 3 (1000), then carol 2, alice 1 (333). J4 first.
#[test]
fn fair_tree_uses_the_dumped_shares_and_tree() {
    let w = fair_tree_jobs();
    let tree = |science: u32, biology: u32| {
        format!(
            "Account|User|Par Name|Share\nroot|||1\nscience||root|{science}\nphysics||science|1\n\
             physics|alice||1\nbiology||root|{biology}\nbiology|bob||1\nscience|carol||1\n"
        )
    };
    let sim = run(GPU_NODE, &w, &accounting(None, Some(&tree(9, 1))));
    assert_eq!(starts(&sim), [0, 0, 100, 150]);
    assert_eq!(sim.outcomes[2].priority, 666);
    let sim = run(GPU_NODE, &w, &accounting(None, Some(&tree(1, 1))));
    assert_eq!(starts(&sim), [0, 0, 150, 100]);
    assert_eq!(sim.outcomes[3].priority, 1000);
}

/// No billing weights; bob's J2 is in QOS heavy (UsageFactor 5): bob
/// 1 · 60 · 5 = 300 > alice 180: J3 first. With UsageFactor 1: bob 60 < 180:
/// J4 first.
#[test]
fn usage_is_scaled_by_the_qos_usage_factor() {
    let mut w = fair_tree_jobs();
    w.qos = vec!["normal".into(), "heavy".into()];
    w.jobs[1].qos = 1;
    let qos = "Name|Priority|UsageFactor\nnormal|0|1\nheavy|0|5\n";
    assert_eq!(starts(&run(GPU_NODE, &w, &accounting(Some(qos), None))), [0, 0, 100, 150]);
    let flat = qos.replace("heavy|0|5", "heavy|0|1");
    assert_eq!(starts(&run(GPU_NODE, &w, &accounting(Some(&flat), None))), [0, 0, 150, 100]);
}

/// `[slurm] qos` and `assoc`: absent, the canonical settings (so the point
/// id) are what they were; given, the dumps' paths and sha256 are in them,
/// and a changed dump is a new point. Loading a point reads the dumps and
/// refuses a job whose QOS is missing.
#[test]
fn the_dumps_are_part_of_the_point() {
    use slasim_core::experiment::point::AnyPoint;
    use slasim_slurm::kind::SlurmSettings;
    let dir = tempfile::tempdir().unwrap();
    let conf = dir.path().join("slurm.conf");
    std::fs::write(&conf, ONE_NODE).unwrap();
    let qos = dir.path().join("qos.txt");
    std::fs::write(&qos, "Name|Priority\nnormal|10\n").unwrap();
    let plain = SlurmSettings { conf: conf.clone(), ..SlurmSettings::default() };
    let text = plain.resolve().unwrap().canonical().unwrap();
    assert!(!text.contains("qos") && !text.contains("assoc"), "{text}");
    let with = SlurmSettings { qos: Some(qos.clone()), ..plain.clone() };
    let point = with.resolve().unwrap();
    let text = point.canonical().unwrap();
    assert!(text.contains("qos = ") && text.contains("qos_sha256 = "), "{text}");
    std::fs::write(&qos, "Name|Priority\nnormal|20\n").unwrap();
    assert_ne!(with.resolve().unwrap().id().unwrap(), point.id().unwrap());
    // The synthetic workload's jobs are all `normal`: a dump without it is refused.
    std::fs::write(&qos, "Name|Priority\nhigh|20\n").unwrap();
    let small = SlurmSettings {
        synthetic: slasim_slurm::synthetic::SlurmSynthetic { days: 0.05, ..Default::default() },
        ..with
    };
    let e = format!("{:#}", slasim_slurm::kind::load(&small).expect_err("refused"));
    assert!(e.contains("QOS \"normal\" is not in the QOS dump"), "{e}");
}

/// With `AccountingStorageEnforce=limits`, a job's usage since the last
/// tick is charged when it ends (`acct_policy_job_fini` →
/// `priority_p_job_end`); without it, never. alice's J1 (3 CPUs) runs 0–30,
/// bob's J2 (1 CPU) 0–100; alice's J3 and bob's J4 (4 CPUs each) arrive at
/// 10 and 11 and wait for 100.
/// - Enforced: alice is charged 3 · 30 at 30, bob 1 · 60 at the tick at 60:
///   bob has less usage, J4 first: `[0, 0, 150, 100]`.
/// - Not enforced: J1 ended before the first tick, so alice has none: J3
///   first, `[0, 0, 100, 150]`.
#[test]
fn a_jobs_last_stretch_is_charged_at_its_end_under_enforced_limits() {
    let w = crate::workload(
        vec![
            crate::job(1, 0, 3, 200, 30),
            of(1, 1, 0, crate::job(2, 0, 1, 200, 100)),
            crate::job(3, 10, 4, 50, 50),
            of(1, 1, 0, crate::job(4, 11, 4, 50, 50)),
        ],
        &["batch"],
    );
    let none = Accounting::default();
    let enforced = GPU_NODE.replace("PriorityType", "AccountingStorageEnforce=limits\nPriorityType");
    assert_eq!(starts(&run(&enforced, &w, &none)), [0, 0, 150, 100]);
    assert_eq!(starts(&run(GPU_NODE, &w, &none)), [0, 0, 100, 150]);
}

/// QOS normal: GrpSubmit=2 (jobs of the QOS pending or running). alice J1,
/// bob J2, alice J3 at 0 (1 CPU, 100 s), bob J4 at 150.
/// - J1 and J2 are accepted (0 + 1, 1 + 1 ≤ 2); J3 would be the third:
///   rejected (`QOSGrpSubmitJobsLimit`, `_qos_policy_validate`), never runs.
/// - 100: J1 and J2 end (submitted 0); J4 at 150 is accepted and starts.
///
/// Without the limit J3 runs at 0 too.
#[test]
fn qos_grp_submit_rejects_the_job_over_it() {
    let qos = "Name|Priority|GrpSubmit\nnormal|0|2\n";
    let w = crate::workload(
        vec![
            crate::job(1, 0, 1, 100, 100),
            of(1, 0, 0, crate::job(2, 0, 1, 100, 100)),
            crate::job(3, 0, 1, 100, 100),
            of(1, 0, 0, crate::job(4, 150, 1, 100, 100)),
        ],
        &["batch"],
    );
    let sim = run(&limited(), &w, &accounting(Some(qos), None));
    assert_eq!(starts(&sim), [0, 0, -1, 150]);
    assert_eq!(sim.reasons[2], Some(Reason::QosGrpSubmitJobs));
    assert_eq!(hits(&sim, Reason::QosGrpSubmitJobs), 1);
    assert_eq!(Reason::QosGrpSubmitJobs.name(), "QOSGrpSubmitJobsLimit");
    let sim = run(&limited(), &w, &accounting(Some("Name|Priority\nnormal|0\n"), None));
    assert_eq!(starts(&sim), [0, 0, 0, 150]);
}

/// QOS normal: MaxSubmitPA=2 (per account). physics: alice J1, bob J2,
/// alice J3; biology: bob J4; all at 0 (1 CPU, 100 s).
/// - physics 0 + 1, 1 + 1 ≤ 2: J1, J2 accepted; J3 would be physics's
///   third: rejected (`MaxSubmitJobsPerAccount`). J4 is biology's first:
///   accepted. J1, J2, J4 start at 0 (3 of 4 CPUs).
///
/// Without the limit all four start at 0.
#[test]
fn qos_max_submit_per_account_rejects() {
    let qos = "Name|Priority|MaxSubmitPA\nnormal|0|2\n";
    let w = crate::workload(
        vec![
            crate::job(1, 0, 1, 100, 100),
            of(1, 0, 0, crate::job(2, 0, 1, 100, 100)),
            crate::job(3, 0, 1, 100, 100),
            of(1, 1, 0, crate::job(4, 0, 1, 100, 100)),
        ],
        &["batch"],
    );
    let sim = run(&limited(), &w, &accounting(Some(qos), None));
    assert_eq!(starts(&sim), [0, 0, -1, 0]);
    assert_eq!(sim.reasons[2], Some(Reason::QosMaxSubmitJobsPerAccount));
    assert_eq!(Reason::QosMaxSubmitJobsPerAccount.name(), "MaxSubmitJobsPerAccount");
    let sim = run(&limited(), &w, &accounting(Some("Name|Priority\nnormal|0\n"), None));
    assert_eq!(starts(&sim), [0, 0, 0, 0]);
}

/// Associations with submit limits: science (GrpSubmit=2) holds physics,
/// which holds alice and bob; biology holds bob.
fn submit_tree(science: &str, alice: &str) -> String {
    format!(
        "Account|User|Par Name|GrpSubmit|MaxSubmit\nroot||||\nscience||root|{science}|\nphysics||science||\n\
         physics|alice|||{alice}\nphysics|bob|||\nbiology||root||\nbiology|bob|||\n"
    )
}

/// Association `GrpSubmit` up the tree: science has GrpSubmit=2. alice
/// (physics) J1, bob (physics) J2, alice J3, bob (biology) J4, all at 0.
/// - physics's jobs count in science (`_adjust_limit_usage` adds a
///   submission to every association up to the root): J1 (science 1), J2
///   (2), J3 would make 3 > 2: rejected (`AssocGrpSubmitJobsLimit`). J4 is
///   in biology: accepted. Starts `[0, 0, -1, 0]`.
/// - A QOS `GrpSubmit` (10) replaces the associations': J3 is accepted.
///
/// Without the limit all start at 0.
#[test]
fn association_grp_submit_counts_up_the_tree() {
    let w = crate::workload(
        vec![
            crate::job(1, 0, 1, 100, 100),
            of(1, 0, 0, crate::job(2, 0, 1, 100, 100)),
            crate::job(3, 0, 1, 100, 100),
            of(1, 1, 0, crate::job(4, 0, 1, 100, 100)),
        ],
        &["batch"],
    );
    let sim = run(&limited(), &w, &accounting(None, Some(&submit_tree("2", ""))));
    assert_eq!(starts(&sim), [0, 0, -1, 0]);
    assert_eq!(sim.reasons[2], Some(Reason::AssocGrpSubmitJobs));
    let qos = "Name|Priority|GrpSubmit\nnormal|0|10\n";
    let sim = run(&limited(), &w, &accounting(Some(qos), Some(&submit_tree("2", ""))));
    assert_eq!(starts(&sim), [0, 0, 0, 0]);
    let sim = run(&limited(), &w, &accounting(None, Some(&submit_tree("", ""))));
    assert_eq!(starts(&sim), [0, 0, 0, 0]);
}

/// Association `MaxSubmit`: alice (physics) MaxSubmit=1. alice J1, J2 at 0
/// (1 CPU, 100 s) and J3 at 150, bob J4 at 0.
/// - J1 accepted (0 + 1 ≤ 1); J2 rejected (`AssocMaxSubmitJobLimit`); J4
///   (bob) accepted. 100: J1 ends; J3 at 150 is accepted and starts.
/// - A QOS `MaxSubmitPU` (10) replaces it: J2 runs at 0.
///
/// Without the limit J2 runs at 0.
#[test]
fn association_max_submit_rejects() {
    let w = crate::workload(
        vec![
            crate::job(1, 0, 1, 100, 100),
            crate::job(2, 0, 1, 100, 100),
            crate::job(3, 150, 1, 100, 100),
            of(1, 0, 0, crate::job(4, 0, 1, 100, 100)),
        ],
        &["batch"],
    );
    let sim = run(&limited(), &w, &accounting(None, Some(&submit_tree("", "1"))));
    assert_eq!(starts(&sim), [0, -1, 150, 0]);
    assert_eq!(sim.reasons[1], Some(Reason::AssocMaxSubmitJob));
    assert_eq!(Reason::AssocMaxSubmitJob.name(), "AssocMaxSubmitJobLimit");
    let qos = "Name|Priority|MaxSubmitPU\nnormal|0|10\n";
    let sim = run(&limited(), &w, &accounting(Some(qos), Some(&submit_tree("", "1"))));
    assert_eq!(starts(&sim), [0, 0, 150, 0]);
    let sim = run(&limited(), &w, &accounting(None, Some(&submit_tree("", ""))));
    assert_eq!(starts(&sim), [0, 0, 150, 0]);
}

/// QOS normal: MaxJobsPA=1 (running jobs per account). physics: alice J1,
/// bob J2; biology: bob J3; all at 0 (1 CPU, 100 s).
/// - J1 starts (physics runs 1); J2: physics runs 1 ≥ 1:
///   `MaxJobsPerAccount`, skipped; J3 (biology) starts.
/// - 100: J1 ends; J2 starts.
///
/// Without the limit all three start at 0.
#[test]
fn qos_max_jobs_per_account_holds() {
    let qos = "Name|Priority|MaxJobsPA\nnormal|0|1\n";
    let w = crate::workload(
        vec![
            crate::job(1, 0, 1, 100, 100),
            of(1, 0, 0, crate::job(2, 0, 1, 100, 100)),
            of(1, 1, 0, crate::job(3, 0, 1, 100, 100)),
        ],
        &["batch"],
    );
    let sim = run(&limited(), &w, &accounting(Some(qos), None));
    assert_eq!(starts(&sim), [0, 100, 0]);
    assert_eq!(sim.reasons, [None, Some(Reason::QosMaxJobsPerAccount), None]);
    let sim = run(&limited(), &w, &accounting(Some("Name|Priority\nnormal|0\n"), None));
    assert_eq!(starts(&sim), [0, 0, 0]);
}

/// One 8-CPU node; QOS normal: MaxTRESPA=cpu=3. physics: alice J1 (2 CPUs),
/// bob J2 (2 CPUs); biology: bob J3 (2 CPUs); all at 0, 100 s.
/// - J1: physics 0 + 2 ≤ 3, starts. J2: physics 2 + 2 = 4 > 3:
///   `MaxCpuPerAccount`, skipped. J3: biology 0 + 2: starts.
/// - 100: J1 ends; J2 starts.
/// - A physics job of 4 CPUs is above the limit alone: held for ever.
///
/// Without the limit all start at 0 (6 of 8 CPUs).
#[test]
fn qos_max_tres_per_account_holds() {
    let conf = limited().replace("CPUs=4", "CPUs=8");
    let qos = "Name|Priority|MaxTRESPA\nnormal|0|cpu=3\n";
    let mut w = crate::workload(
        vec![
            crate::job(1, 0, 2, 100, 100),
            of(1, 0, 0, crate::job(2, 0, 2, 100, 100)),
            of(1, 1, 0, crate::job(3, 0, 2, 100, 100)),
        ],
        &["batch"],
    );
    let sim = run(&conf, &w, &accounting(Some(qos), None));
    assert_eq!(starts(&sim), [0, 100, 0]);
    assert_eq!(sim.reasons[1], Some(Reason::QosMaxCpuPerAccount));
    assert_eq!(starts(&run(&conf, &w, &accounting(Some("Name|Priority\nnormal|0\n"), None))), [0, 0, 0]);
    w.jobs.push(crate::job(4, 0, 4, 100, 100));
    let sim = run(&conf, &w, &accounting(Some(qos), None));
    assert_eq!(starts(&sim), [0, 100, 0, -1]);
    assert_eq!(sim.reasons[3], Some(Reason::QosMaxCpuPerAccount));
}

/// alice's association: MaxWall=1 (minute) and MaxTRES=cpu=2. alice J1
/// (1 CPU, limit 100 s), J2 (3 CPUs, limit 60 s), J3 (2 CPUs, limit 60 s).
/// - J1: 100 > 60: pending for ever (`AssocMaxWallDurationPerJobLimit`).
///   J2: 3 > 2: pending for ever (`AssocMaxCpuPerJobLimit`). J3 runs at 0.
/// - With `DenyOnLimit` on the QOS both are rejected at submission (same
///   reasons, counted once each).
/// - The QOS's own `MaxWall` and `MaxTRES` replace the association's
///   (`qos_rec` set): with MaxWall=10, MaxTRES=cpu=4 J1 and J2 run at 0
///   (1 + 3 CPUs) and J3 when J2 ends at 60.
#[test]
fn association_max_wall_and_max_tres_per_job() {
    let assoc = "Account|User|Par Name|MaxWall|MaxTRES\nroot||||\nphysics||root||\nphysics|alice||1|cpu=2\n";
    let w = crate::workload(
        vec![crate::job(1, 0, 1, 100, 100), crate::job(2, 0, 3, 60, 60), crate::job(3, 0, 2, 60, 60)],
        &["batch"],
    );
    let sim = run(&limited(), &w, &accounting(None, Some(assoc)));
    assert_eq!(starts(&sim), [-1, -1, 0]);
    assert_eq!(sim.reasons, [Some(Reason::AssocMaxWallDurationPerJob), Some(Reason::AssocMaxCpuPerJob), None]);
    let deny = "Name|Priority|Flags\nnormal|0|DenyOnLimit\n";
    let sim = run(&limited(), &w, &accounting(Some(deny), Some(assoc)));
    assert_eq!(starts(&sim), [-1, -1, 0]);
    assert_eq!(hits(&sim, Reason::AssocMaxWallDurationPerJob), 1);
    assert_eq!(hits(&sim, Reason::AssocMaxCpuPerJob), 1);
    let qos = "Name|Priority|MaxWall|MaxTRES\nnormal|0|10|cpu=4\n";
    let sim = run(&limited(), &w, &accounting(Some(qos), Some(assoc)));
    assert_eq!(starts(&sim), [0, 0, 60]);
    assert!(sim.reasons.iter().all(Option::is_none));
}

/// `MaxTRESPerNode=cpu=2`. J1 (3 CPUs on its 1 node: 3 / 1 > 2) is pending
/// for ever; J2 (2 CPUs) runs at 0.
/// - On the QOS: `QOSMaxCpuPerNode`. With `DenyOnLimit`: rejected.
/// - On alice's association: `AssocMaxCpuPerNode`.
///
/// Without it J1 runs at 0, and J2 (3 + 2 > 4 CPUs) when J1 ends at 100.
#[test]
fn max_tres_per_node_of_the_qos_and_of_an_association() {
    let w = crate::workload(vec![crate::job(1, 0, 3, 100, 100), crate::job(2, 0, 2, 100, 100)], &["batch"]);
    let qos = "Name|Priority|MaxTRESPerNode|Flags\nnormal|0|cpu=2|\n";
    let sim = run(&limited(), &w, &accounting(Some(qos), None));
    assert_eq!(starts(&sim), [-1, 0]);
    assert_eq!(sim.reasons[0], Some(Reason::QosMaxCpuPerNode));
    let deny = qos.replace("cpu=2|", "cpu=2|DenyOnLimit");
    let sim = run(&limited(), &w, &accounting(Some(&deny), None));
    assert_eq!(starts(&sim), [-1, 0]);
    assert_eq!(hits(&sim, Reason::QosMaxCpuPerNode), 1);
    let assoc = "Account|User|Par Name|MaxTRESPerNode\nroot|||\nphysics||root|\nphysics|alice||cpu=2\n";
    let sim = run(&limited(), &w, &accounting(None, Some(assoc)));
    assert_eq!(starts(&sim), [-1, 0]);
    assert_eq!(sim.reasons[0], Some(Reason::AssocMaxCpuPerNode));
    let sim = run(&limited(), &w, &accounting(Some("Name|Priority\nnormal|0\n"), None));
    assert_eq!(starts(&sim), [0, 100]);
}

/// QOS normal: MinTRES=cpu=2, MaxSubmitPU=1. alice's J1 (1 CPU) and J2
/// (2 CPUs) at 0, 100 s.
/// - J1 is below the minimum: accepted (it counts as submitted, 1 ≤ 1),
///   then pending for ever (`QOSMinCpuNotSatisfied`,
///   `_qos_job_runnable_post_select`). J2 would be alice's second: rejected
///   (`QOSMaxSubmitJobPerUserLimit`). Starts `[-1, -1]`.
/// - With `DenyOnLimit`, J1 is rejected at submission (`_qos_policy_validate`
///   with `strict_checking`) and does not count: J2 runs at 0.
///
/// Without the limits both run at 0.
#[test]
fn qos_min_tres_holds_a_smaller_job() {
    let w = crate::workload(vec![crate::job(1, 0, 1, 100, 100), crate::job(2, 0, 2, 100, 100)], &["batch"]);
    let qos = "Name|Priority|MinTRES|MaxSubmitPU|Flags\nnormal|0|cpu=2|1|\n";
    let sim = run(&limited(), &w, &accounting(Some(qos), None));
    assert_eq!(starts(&sim), [-1, -1]);
    assert_eq!(sim.reasons, [Some(Reason::QosMinCpu), Some(Reason::QosMaxSubmitJobPerUser)]);
    let deny = qos.replace("cpu=2|1|", "cpu=2|1|DenyOnLimit");
    let sim = run(&limited(), &w, &accounting(Some(&deny), None));
    assert_eq!(starts(&sim), [-1, 0]);
    assert_eq!(sim.reasons[0], Some(Reason::QosMinCpu));
    assert_eq!(hits(&sim, Reason::QosMinCpu), 1);
    let sim = run(&limited(), &w, &accounting(Some("Name|Priority\nnormal|0\n"), None));
    assert_eq!(starts(&sim), [0, 0]);
}

/// `MaxTRESMins=cpu=4` (CPU-minutes of one job: CPUs × time limit in
/// minutes, seconds rounded up). J1: 2 CPUs, limit 180 s = 3 min: 6 > 4,
/// pending for ever. J2: 2 CPUs, 120 s = 2 min: 4, runs. J3: 1 CPU, 61 s
/// = 2 min: 2, runs.
/// - On the QOS: `QOSMaxCpuMinutesPerJobLimit`; on alice's association:
///   `AssocMaxCpuMinutesPerJobLimit`. Without it J1 runs at 0 too (2 + 2 +
///   1 > 4: J1, J2 at 0, J3 at 100).
#[test]
fn max_tres_mins_per_job() {
    let w = crate::workload(
        vec![crate::job(1, 0, 2, 180, 100), crate::job(2, 0, 2, 120, 100), crate::job(3, 0, 1, 61, 50)],
        &["batch"],
    );
    let qos = "Name|Priority|MaxTRESMins\nnormal|0|cpu=4\n";
    let sim = run(&limited(), &w, &accounting(Some(qos), None));
    assert_eq!(starts(&sim), [-1, 0, 0]);
    assert_eq!(sim.reasons[0], Some(Reason::QosMaxCpuMinsPerJob));
    let assoc = "Account|User|Par Name|MaxTRESMins\nroot|||\nphysics||root|\nphysics|alice||cpu=4\n";
    let sim = run(&limited(), &w, &accounting(None, Some(assoc)));
    assert_eq!(starts(&sim), [-1, 0, 0]);
    assert_eq!(sim.reasons[0], Some(Reason::AssocMaxCpuMinsPerJob));
    let sim = run(&limited(), &w, &accounting(Some("Name|Priority\nnormal|0\n"), None));
    assert_eq!(starts(&sim), [0, 0, 100]);
}

/// `DenyOnLimit` on `GrpTRES` and `MaxTRESPU` (`_qos_policy_validate`'s
/// walk over both, then each association's `GrpTRES` in
/// `_acct_policy_validate`). alice's J1 asks 3 CPUs, above a limit of 2
/// on its own; her J2 (1 CPU) follows; QOS normal has `MaxSubmitPU=1`.
/// - Without `DenyOnLimit`, J1 is accepted and pending for ever: it counts
///   as submitted, so J2 is rejected (`QOSMaxSubmitJobPerUserLimit`).
///   Starts `[-1, -1]`.
/// - With it, J1 is rejected at submission and does not count: J2 runs at
///   0. Starts `[-1, 0]`, J1's reason the limit's.
///
/// For the QOS's `MaxTRESPU` (`QOSMaxCpuPerUserLimit`), its `GrpTRES`
/// (`QOSGrpCpuLimit`), and account physics's `GrpTRES`
/// (`AssocGrpCpuLimit`). Without the limit J1 and J2 run at 0.
#[test]
fn deny_on_limit_rejects_a_request_above_grp_tres_or_max_tres_pu() {
    let w = crate::workload(vec![crate::job(1, 0, 3, 100, 100), crate::job(2, 0, 1, 100, 100)], &["batch"]);
    let assoc = "Account|User|Par Name|GrpTRES\nroot|||\nphysics||root|cpu=2\nphysics|alice||\n";
    for (qos, assoc, reason) in [
        ("Name|Priority|MaxSubmitPU|MaxTRESPU|Flags\nnormal|0|1|cpu=2|FLAGS\n", None, Reason::QosMaxCpuPerUser),
        ("Name|Priority|MaxSubmitPU|GrpTRES|Flags\nnormal|0|1|cpu=2|FLAGS\n", None, Reason::QosGrpCpu),
        ("Name|Priority|MaxSubmitPU|Flags\nnormal|0|1|FLAGS\n", Some(assoc), Reason::AssocGrpCpu),
    ] {
        let sim = run(&limited(), &w, &accounting(Some(&qos.replace("FLAGS", "")), assoc));
        assert_eq!(starts(&sim), [-1, -1], "{reason:?}");
        assert_eq!(sim.reasons, [Some(reason), Some(Reason::QosMaxSubmitJobPerUser)], "{reason:?}");
        let sim = run(&limited(), &w, &accounting(Some(&qos.replace("FLAGS", "DenyOnLimit")), assoc));
        assert_eq!(starts(&sim), [-1, 0], "{reason:?}");
        assert_eq!(sim.reasons[0], Some(reason), "{reason:?}");
        assert_eq!(hits(&sim, reason), 1, "{reason:?}");
    }
    let sim = run(&limited(), &w, &accounting(Some("Name|Priority\nnormal|0\n"), None));
    assert_eq!(starts(&sim), [0, 0]);
}

/// An array is submitted whole (`acct_policy_validate`'s `job_cnt`). QOS
/// normal: `MaxSubmitPU=3`. alice's J1 (1 CPU, 100 s) at 0; her array A of
/// three tasks (1 CPU, 100 s) at 1; her array B of two at 150.
/// - At 1, J1 and A's three tasks would be 4 > 3: all of A is rejected
///   (`QOSMaxSubmitJobPerUserLimit`, three jobs).
/// - At 150 J1 has ended: B's two tasks fit, and run at 150.
///
/// Task by task, A0 and A1 would be accepted (running at 3, the first
/// batch pass) and only A2 rejected.
#[test]
fn an_array_is_accepted_or_rejected_whole() {
    use slasim_data::trace::sacct::jobs::{ArrayTask, Relations};
    let task = |id: u64, array: u64, t: u64, submit: i64| SlurmJob {
        relations: Relations { array: Some(ArrayTask { job: array, task: t, throttle: 0 }), ..Relations::default() },
        ..crate::job(id, submit, 1, 100, 100)
    };
    let w = crate::workload(
        vec![
            crate::job(1, 0, 1, 100, 100),
            task(2, 2, 0, 1),
            task(3, 2, 1, 1),
            task(4, 2, 2, 1),
            task(5, 5, 0, 150),
            task(6, 5, 1, 150),
        ],
        &["batch"],
    );
    let qos = "Name|Priority|MaxSubmitPU\nnormal|0|3\n";
    let sim = run(&limited(), &w, &accounting(Some(qos), None));
    assert_eq!(starts(&sim), [0, -1, -1, -1, 150, 150]);
    assert_eq!(sim.reasons[1..4], [Some(Reason::QosMaxSubmitJobPerUser); 3]);
    assert_eq!(hits(&sim, Reason::QosMaxSubmitJobPerUser), 3);
}

/// `GrpTRESRunMins=cpu=10`: the CPU-minutes of the running jobs' time
/// limits not yet run (`grp_used_tres_run_secs`, taken down at each pass
/// of the decay thread: `PriorityCalcPeriod=1`, at 60, 120, …). At 0: J1
/// (2 CPUs, limit 3 min, runs 100 s), J2 (2 CPUs, limit 3 min) and J3 (1
/// CPU, limit 12 min).
/// - J1 starts: 2 × 3 = 6 of 10. J2 would add 6: 12 > 10, held. J3's 12
///   alone are above 10: pending for ever.
/// - At 60 the decay pass takes J1's 2 × 1 min: 4 left, and J2 (4 + 6 =
///   10) starts in the pass after it. Starts `[0, 60, -1]`.
///
/// The same on account physics's association (`AssocGrpCPURunMinutesLimit`).
/// With `DenyOnLimit` J3 is rejected at submission instead. Without the
/// limit J1 and J2 run at 0 and J3 at J1's end, 100.
#[test]
fn grp_tres_run_mins_counts_the_time_limits_not_yet_run() {
    let conf = format!("{}PriorityType=priority/multifactor\nPriorityCalcPeriod=1\n", limited());
    let w = crate::workload(
        vec![crate::job(1, 0, 2, 180, 100), crate::job(2, 0, 2, 180, 100), crate::job(3, 0, 1, 720, 100)],
        &["batch"],
    );
    let qos = "Name|Priority|GrpTRESRunMins|Flags\nnormal|0|cpu=10|FLAGS\n";
    let assoc = "Account|User|Par Name|GrpTRESRunMins\nroot|||\nphysics||root|cpu=10\nphysics|alice||\n";
    for (qos, assoc, reason) in [
        (qos, None, Reason::QosGrpCpuRunMins),
        ("Name|Priority|Flags\nnormal|0|FLAGS\n", Some(assoc), Reason::AssocGrpCpuRunMins),
    ] {
        let sim = run(&conf, &w, &accounting(Some(&qos.replace("FLAGS", "")), assoc));
        assert_eq!(starts(&sim), [0, 60, -1], "{reason:?}");
        assert_eq!(sim.reasons, [None, Some(reason), Some(reason)], "{reason:?}");
        let sim = run(&conf, &w, &accounting(Some(&qos.replace("FLAGS", "DenyOnLimit")), assoc));
        assert_eq!(starts(&sim), [0, 60, -1], "{reason:?}");
        assert_eq!(sim.reasons[2], Some(reason), "{reason:?}");
    }
    let sim = run(&conf, &w, &accounting(Some("Name|Priority\nnormal|0\n"), None));
    assert_eq!(starts(&sim), [0, 0, 100]);
}

/// A partition's QOS (`QOS=part` on its line) limits its jobs beside their
/// own QOS (`acct_policy_set_qos_order`): each limit is the partition
/// QOS's where it sets one, else the job QOS's; under the job QOS's
/// `OverPartQOS` flag, the other way round. A job counts in both.
/// QOS `part`: `MaxJobsPU=1`, `GrpJobs=2`; `normal`: `MaxJobsPU=2`;
/// `other`: none. At 0, 1 CPU and 100 s each: alice's J1 and J2
/// (normal), bob's J3 and J4 (other).
/// - `part` first: J1 starts; J2 is held (alice runs 1 ≥ part's 1:
///   `QOSMaxJobsPerUserLimit`); J3 starts (part runs 1 < 2); J4 is held
///   (part runs 2 ≥ 2: `QOSGrpJobsLimit`), and so is J2 when tried again
///   (`GrpJobs` is tested first). At 100: J2 and J4. Starts
///   `[0, 100, 0, 100]`.
/// - `OverPartQOS` on normal: J1 and J2 see normal's `MaxJobsPU=2` and
///   part's `GrpJobs`: both start at 0, and part runs 2. J3 and J4 wait
///   (`QOSGrpJobsLimit`); at 100 J3 starts, and J4 is held by part's
///   `MaxJobsPU` (bob runs 1): 200. Starts `[0, 0, 100, 200]`.
///
/// Without the partition's QOS all four start at 0.
#[test]
fn a_partition_qos_limits_its_jobs_beside_their_own() {
    let conf = limited().replace("MaxTime=UNLIMITED", "MaxTime=UNLIMITED QOS=part");
    let mut w = crate::workload(
        vec![
            crate::job(1, 0, 1, 100, 100),
            crate::job(2, 0, 1, 100, 100),
            of(1, 0, 1, crate::job(3, 0, 1, 100, 100)),
            of(1, 0, 1, crate::job(4, 0, 1, 100, 100)),
        ],
        &["batch"],
    );
    w.qos = vec!["normal".into(), "other".into()];
    let qos = "Name|Priority|GrpJobs|MaxJobsPU|Flags\nnormal|0||2|FLAGS\nother|0|||\npart|0|2|1|\n";
    let sim = run(&conf, &w, &accounting(Some(&qos.replace("FLAGS", "")), None));
    assert_eq!(starts(&sim), [0, 100, 0, 100]);
    assert_eq!(sim.reasons, [None, Some(Reason::QosGrpJobs), None, Some(Reason::QosGrpJobs)]);
    assert_eq!(hits(&sim, Reason::QosMaxJobsPerUser), 1, "J2, once, before J3 started");
    let sim = run(&conf, &w, &accounting(Some(&qos.replace("FLAGS", "OverPartQOS")), None));
    assert_eq!(starts(&sim), [0, 0, 100, 200]);
    assert_eq!(sim.reasons, [None, None, Some(Reason::QosGrpJobs), Some(Reason::QosMaxJobsPerUser)]);
    let sim = run(&limited(), &w, &accounting(Some(&qos.replace("FLAGS", "")), None));
    assert_eq!(starts(&sim), [0, 0, 0, 0]);
    // A partition QOS the dump lacks is a located error.
    let e = scenario(&conf.replace("QOS=part", "QOS=gold"), &w, &accounting(Some(&qos.replace("FLAGS", "")), None))
        .err()
        .expect("refused");
    assert!(e.contains("job 1") && e.contains("Partition") && e.contains("\"gold\"") && e.contains("qos.txt"), "{e}");
}

proptest::proptest! {
    #![proptest_config(crate::testing::cases(64))]

    /// Whatever the jobs (alice's and bob's, of QOS `normal` or `other`, on
    /// the 4-CPU node), the partition's QOS `part` (random `MaxJobsPU`, and
    /// `GrpJobs` or none) and the jobs' own QOS (random `GrpJobs`): at no
    /// job's start do more jobs run than `part`'s `GrpJobs` allows, or per
    /// user than its `MaxJobsPU`, or, where `part` sets no `GrpJobs`, of a
    /// QOS than that QOS's own; and every job runs.
    #[test]
    fn a_partition_qos_and_the_jobs_qos_both_hold(
        part_grp in proptest::option::of(1u32..4),
        part_pu in 1u32..3,
        own_grp in proptest::collection::vec(1u32..4, 2),
        shapes in proptest::collection::vec((0i64..30, 0u32..2, 0u32..2, 1u32..3, 1i64..60), 1..20),
    ) {
        let conf = limited().replace("MaxTime=UNLIMITED", "MaxTime=UNLIMITED QOS=part");
        let mut t = 0;
        let jobs: Vec<SlurmJob> = shapes
            .iter()
            .enumerate()
            .map(|(i, &(gap, user, qos, cpus, run))| {
                t += gap;
                of(user, 0, qos, crate::job(i as u64 + 1, t, cpus, 100, run))
            })
            .collect();
        let mut w = crate::workload(jobs, &["batch"]);
        w.qos = vec!["normal".into(), "other".into()];
        let qos = format!(
            "Name|Priority|GrpJobs|MaxJobsPU\nnormal|0|{}|\nother|0|{}|\npart|0|{}|{part_pu}\n",
            own_grp[0],
            own_grp[1],
            part_grp.map_or(String::new(), |g| g.to_string())
        );
        let sim = run(&conf, &w, &accounting(Some(&qos), None));
        let o = &sim.outcomes;
        for (k, at) in o.iter().enumerate() {
            proptest::prop_assert!(at.start >= w.jobs[k].submit, "job {} never ran, or ran early", k + 1);
            let running: Vec<usize> = (0..o.len()).filter(|&m| o[m].start <= at.start && at.start < o[m].end).collect();
            proptest::prop_assert!(
                running.len() as u32 <= part_grp.unwrap_or(u32::MAX),
                "{} jobs at {}",
                running.len(),
                at.start
            );
            for user in 0..2 {
                let n = running.iter().filter(|&&m| w.jobs[m].user == user).count() as u32;
                proptest::prop_assert!(n <= part_pu, "user {user}: {n} jobs at {}", at.start);
            }
            // A limit the partition QOS sets hides the job QOS's same limit.
            for (q, &grp) in own_grp.iter().enumerate().filter(|_| part_grp.is_none()) {
                let n = running.iter().filter(|&&m| w.jobs[m].qos == q as u32).count() as u32;
                proptest::prop_assert!(n <= grp, "QOS {q}: {n} jobs at {}", at.start);
            }
        }
    }
}
