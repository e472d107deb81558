//! Node features and job constraints, by hand.

use std::path::Path;

use slasim_data::trace::sacct::jobs::SlurmJob;
use slasim_slurm::bench::Scenario;
use slasim_slurm::conf::parse;
use slasim_slurm::features::Constraint;

use crate::{first_nodes, job, simulated, starts, workload};

/// Two 4-CPU nodes: n1 has feature `a`, n2 feature `b`.
const TWO: &str = "\
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/backfill
SchedulerParameters=bf_interval=10,bf_resolution=1,bf_window=600
NodeName=n1 CPUs=4 RealMemory=1000 Features=a
NodeName=n2 CPUs=4 RealMemory=1000 Features=b
PartitionName=batch Nodes=n[1-2] Default=YES MaxTime=UNLIMITED
";

fn wants(constraint: &str, j: SlurmJob) -> SlurmJob {
    SlurmJob { constraints: Some(constraint.into()), ..j }
}

/// J1 (b, 4 CPUs, limit 100, runs 100), J2 (b, 4 CPUs, limit 100) and J3
/// (a|b, 4 CPUs, limit 50, runs 50), submitted at 0, 1 and 2:
/// - 0: J1 can only have n2 (best fit alone would give it n1): 0–100.
/// - 3 (the batch pass): J2 needs n2, busy: the partition is blocked, J3
///   is not tried.
/// - 10 (backfill): J2's plan is n2 from J1's expected end, 100; J3 fits
///   n1 now (`a` satisfies `a|b`): backfilled, 10–60.
/// - 100: J1 ends; J2 starts on n2, 100–200.
///
/// With constraints ignored: J1 takes n1 at 0, J2 n2 at 3, and J3 waits
/// for J1's end at 100.
#[test]
fn a_constraint_keeps_jobs_to_the_nodes_with_its_features() {
    let w = workload(
        vec![
            wants("b", job(1, 0, 4, 100, 100)),
            wants("b", job(2, 1, 4, 100, 100)),
            wants("a|b", job(3, 2, 4, 50, 50)),
        ],
        &["batch"],
    );
    let sim = simulated(TWO, &w);
    assert_eq!(starts(&sim.outcomes), vec![(0, 100, false), (100, 200, false), (10, 60, true)]);
    assert_eq!(first_nodes(&sim), vec![1, 1, 0]);
}

/// `a&b` needs both features on one node: with n3 holding both, J2 (a&b)
/// waits for J1 there although n1 and n2 are free.
#[test]
fn and_needs_every_feature_on_one_node() {
    let conf = TWO.replace(
        "PartitionName=batch Nodes=n[1-2]",
        "NodeName=n3 CPUs=4 RealMemory=1000 Features=a,b\nPartitionName=batch Nodes=n[1-3]",
    );
    // J1 (a&b) runs on n3 0–100; J2 (a&b) waits for it, 100–110.
    let w = workload(vec![wants("a&b", job(1, 0, 4, 100, 100)), wants("a&b", job(2, 0, 4, 100, 10))], &["batch"]);
    let sim = simulated(&conf, &w);
    assert_eq!(starts(&sim.outcomes), vec![(0, 100, false), (100, 110, false)]);
    assert_eq!(first_nodes(&sim), vec![2, 2]);
}

#[test]
fn constraints_parse() {
    assert_eq!(Constraint::parse("ib"), Ok(Constraint::All(vec!["ib".into()])));
    assert_eq!(Constraint::parse("ib&skylake"), Ok(Constraint::All(vec!["ib".into(), "skylake".into()])));
    assert_eq!(Constraint::parse("a100|h100"), Ok(Constraint::Any(vec!["a100".into(), "h100".into()])));
    for bad in ["[a|b]", "a*2", "!a", "a&b|c", "a,b", "(a)", "a|", "a b", ""] {
        assert!(Constraint::parse(bad).is_err(), "{bad}");
    }
}

fn refused(conf: &str, j: SlurmJob) -> String {
    let conf = parse(conf, Path::new("test.conf")).expect("the test conf parses");
    let w = workload(vec![j], &["batch"]);
    Scenario::new(&conf, conf.priority.clone(), conf.scheduler.clone(), &w).err().expect("refused").to_string()
}

/// A malformed constraint, and one no node of the partition satisfies, are
/// errors naming the job's origin, the job and the field.
#[test]
fn bad_constraints_are_located_errors() {
    let e = refused(TWO, wants("[a|b]", job(7, 0, 4, 100, 10)));
    assert!(e.starts_with("synthetic job 7: job 7: Constraints: `[a|b]`: brackets"), "{e}");
    let e = refused(TWO, wants("a&b", job(8, 0, 4, 100, 10)));
    assert!(e.starts_with("synthetic job 8: job 8: Constraints: `a&b`: 0 nodes of partition batch"), "{e}");
    assert!(e.contains("Requested node configuration is not available"), "{e}");
    // Enough nodes with the feature, none large enough.
    let e = refused(TWO, wants("a", job(9, 0, 5, 100, 10)));
    assert!(e.contains("Constraints: `a`: 1 nodes of partition batch have these features, 0 of them"), "{e}");
}
