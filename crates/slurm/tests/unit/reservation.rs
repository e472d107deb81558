use slasim_slurm::conf::Clock;
use slasim_slurm::conf::ConfError;
use slasim_slurm::reservation::*;
use slasim_slurm::sacctmgr::Tres;
use std::path::Path;

/// `scontrol show reservation` of Slurm 22.05: a maintenance window over
/// every node, a weekly reservation for a group, and a core reservation.
const RES: &str = "\
ReservationName=maint StartTime=2026-01-01T10:00:00 EndTime=2026-01-01T14:00:00 Duration=04:00:00
   Nodes=node[01-04] NodeCnt=4 CoreCnt=128 Features=(null) PartitionName=(null) Flags=MAINT,IGNORE_JOBS,SPEC_NODES
   TRES=cpu=128
   Users=root Groups=(null) Accounts=(null) Licenses=(null) State=INACTIVE BurstBuffer=(null) Watts=n/a
   MaxStartDelay=(null)

ReservationName=physics_weekly StartTime=2026-01-05T08:00:00 EndTime=2026-01-06T20:00:00 Duration=1-12:00:00
   Nodes=node[03-04],gpu01 NodeCnt=3 CoreCnt=96 Features=(null) PartitionName=batch Flags=WEEKLY,FLEX
   TRES=cpu=96,gres/gpu=4
   Users=(null) Groups=(null) Accounts=physics,-chem Licenses=(null) State=ACTIVE BurstBuffer=(null) Watts=n/a
   MaxStartDelay=00:30:00

ReservationName=cores StartTime=2026-01-02T00:00:00 EndTime=Unknown Duration=UNLIMITED
   Nodes=node01 NodeCnt=1 CoreCnt=4 Features=(null) PartitionName=(null) Flags=
     NodeName=node01 CoreIDs=0-3
   TRES=cpu=4
   Users=alice,bob Groups=(null) Accounts=(null) Licenses=(null) State=INACTIVE BurstBuffer=(null) Watts=n/a
   MaxStartDelay=(null)

";

fn res(text: &str) -> Result<Reservations, ConfError> {
    parse(text, Path::new("res.txt"))
}

fn at(result: Result<impl std::fmt::Debug, ConfError>, line: u64, field: &str) -> ConfError {
    match result {
        Ok(v) => panic!("expected an error, got {v:?}"),
        Err(e) => {
            assert_eq!((e.line, e.field.as_str()), (line, field), "{e}");
            e
        }
    }
}

fn with(text: &str, from: &str, to: &str) -> String {
    assert!(text.contains(from), "{from}");
    text.replacen(from, to, 1)
}

/// 2026-01-01T00:00:00 read as UTC: 20454 days after the epoch.
const JAN_1: i64 = 20_454 * 86_400;

#[test]
fn reservations_read() {
    let file = res(RES).expect("reads");
    assert_eq!(file.clock, Some(Clock::WallClock));
    assert_eq!(file.reservations.len(), 3);
    let maint = &file.reservations[0];
    assert_eq!((maint.name.as_str(), maint.line), ("maint", 1));
    // 10:00 to 14:00 on 1 January: 4 h.
    assert_eq!((maint.start, maint.end, maint.duration), (JAN_1 + 10 * 3600, Some(JAN_1 + 14 * 3600), Some(4 * 3600)));
    assert_eq!(maint.nodes, ["node01", "node02", "node03", "node04"]);
    assert_eq!((maint.node_count, maint.core_count, maint.nodes_line), (4, 128, 2));
    assert_eq!((maint.features.as_deref(), maint.partition.as_deref()), (None, None));
    assert_eq!(maint.flags, ["MAINT", "IGNORE_JOBS", "SPEC_NODES"]);
    assert_eq!(maint.tres, [Tres { name: "cpu".into(), amount: Some(128) }]);
    assert_eq!((maint.users.clone(), maint.groups.is_empty(), maint.active), (vec!["root".to_string()], true, false));
    assert_eq!(maint.max_start_delay, None);
    let weekly = &file.reservations[1];
    assert_eq!(weekly.line, 7);
    // 5 January 08:00 to 6 January 20:00: 1 day 12 hours.
    assert_eq!(weekly.start, JAN_1 + 4 * 86_400 + 8 * 3600);
    assert_eq!((weekly.end, weekly.duration), (Some(JAN_1 + 5 * 86_400 + 20 * 3600), Some(36 * 3600)));
    assert_eq!(weekly.nodes, ["node03", "node04", "gpu01"]);
    assert_eq!((weekly.partition.as_deref(), weekly.partition_line), (Some("batch"), 8));
    assert_eq!(weekly.accounts, ["physics", "-chem"]);
    assert_eq!((weekly.active, weekly.max_start_delay), (true, Some(1800)));
    assert_eq!(weekly.tres[1], Tres { name: "gres/gpu".into(), amount: Some(4) });
    let cores = &file.reservations[2];
    assert_eq!((cores.end, cores.duration, cores.flags.len()), (None, None, 0));
    assert_eq!(cores.users, ["alice", "bob"]);
    // Core IDs, burst buffers and watts are read past and listed.
    let keys: Vec<(u64, &str)> = file.ignored.iter().map(|i| (i.line, i.key.as_str())).collect();
    assert_eq!(
        keys,
        [
            (4, "BurstBuffer"),
            (4, "Watts"),
            (10, "BurstBuffer"),
            (10, "Watts"),
            (15, "NodeName"),
            (15, "CoreIDs"),
            (17, "BurstBuffer"),
            (17, "Watts")
        ]
    );
}

#[test]
fn one_liners_epoch_times_and_no_reservations() {
    // `SLURM_TIME_FORMAT=%s scontrol -o show reservation`.
    let text = "ReservationName=a StartTime=1767261600 EndTime=Unknown Duration=02:00:00 Nodes=n1 NodeCnt=1 \
                CoreCnt=8 Features=(null) PartitionName=(null) Flags=DAILY TRES=cpu=8 Users=u Groups=(null) \
                Accounts=(null) Licenses=(null) State=ACTIVE BurstBuffer=(null) Watts=n/a MaxStartDelay=(null)\n\
                ReservationName=b StartTime=1767265200 EndTime=1767268800 Duration=01:00:00 Nodes=(null) NodeCnt=0\n";
    let file = res(text).expect("reads");
    assert_eq!(file.clock, Some(Clock::Epoch));
    let a = &file.reservations[0];
    // No end: the start plus the duration.
    assert_eq!((a.start, a.end), (1_767_261_600, Some(1_767_261_600 + 7200)));
    assert_eq!(file.reservations[1].line, 2);
    assert!(file.reservations[1].nodes.is_empty());
    let empty = res("No reservations in the system\n").expect("reads");
    assert!(empty.reservations.is_empty() && empty.clock.is_none());
    assert_eq!(res("last_update_time=2026-01-01T00:00:00 records=0\n").expect("reads").reservations.len(), 0);
}

#[test]
fn reservation_errors() {
    // A bad hostlist.
    let e = at(res(&with(RES, "Nodes=node[01-04]", "Nodes=node[01-04")), 2, "Nodes");
    assert!(e.detail.contains("unclosed"), "{e}");
    assert_eq!(e.to_string(), format!("res.txt:2: Nodes: {}", e.detail));
    at(res(&with(RES, "Nodes=node[03-04],gpu01", "Nodes=node[04-03],gpu01")), 8, "Nodes");
    // A NodeCnt the hostlist contradicts.
    at(res(&with(RES, "NodeCnt=4", "NodeCnt=5")), 2, "NodeCnt");
    // Bad times.
    let e = at(res(&with(RES, "StartTime=2026-01-01T10:00:00", "StartTime=2026-13-01T10:00:00")), 1, "StartTime");
    assert!(e.detail.contains("2026-13-01"), "{e}");
    at(res(&with(RES, "EndTime=2026-01-01T14:00:00", "EndTime=tomorrow")), 1, "EndTime");
    at(res(&with(RES, "Duration=1-12:00:00", "Duration=1.5d")), 7, "Duration");
    at(res(&with(RES, "MaxStartDelay=00:30:00", "MaxStartDelay=soon")), 11, "MaxStartDelay");
    at(res(&with(RES, "EndTime=2026-01-01T14:00:00", "EndTime=2026-01-01T09:00:00")), 1, "EndTime");
    at(res(&with(RES, "StartTime=2026-01-02T00:00:00", "StartTime=1767312000")), 13, "StartTime");
    at(res(&with(RES, "StartTime=2026-01-02T00:00:00", "StartTime=Unknown")), 13, "StartTime");
    at(res(&with(RES, "StartTime=2026-01-02T00:00:00 ", "")), 13, "StartTime");
    // Unknown values.
    let e = at(res(&with(RES, "Flags=WEEKLY,FLEX", "Flags=WEEKLY,FORTNIGHTLY")), 8, "Flags");
    assert!(e.detail.contains("FORTNIGHTLY"), "{e}");
    at(res(&with(RES, "State=ACTIVE", "State=PENDING")), 10, "State");
    at(res(&with(RES, "CoreCnt=96", "CoreCnt=many")), 8, "CoreCnt");
    at(res(&with(RES, "TRES=cpu=96,gres/gpu=4", "TRES=cpu=96,gres/gpu")), 9, "TRES");
    // Structure.
    at(res(&with(RES, "ReservationName=cores", "ReservationName=maint")), 13, "ReservationName");
    at(res(&with(RES, "ReservationName=cores", "ReservationName=(null)")), 13, "ReservationName");
    at(res(&with(RES, "Users=alice,bob", "Users=alice,bob Users=carol")), 17, "Users");
    at(res(&format!("Nodes=n1\n{RES}")), 1, "Nodes");
    at(res(&with(RES, "Licenses=(null) State=INACTIVE", "Licenses (null) State=INACTIVE")), 4, "syntax");
}

#[test]
fn checked_against_a_slurm_conf() {
    let conf_text = "NodeName=node[01-04] CPUs=32\nNodeName=gpu01 CPUs=32 Gres=gpu:4\n\
                     PartitionName=batch Nodes=ALL Default=YES\n";
    let conf = slasim_slurm::conf::parse(conf_text, Path::new("slurm.conf")).expect("a conf");
    let file = res(RES).expect("reads");
    check_against(&file, &conf).expect("every node and partition is defined");
    let file = res(&with(RES, "Nodes=node[03-04],gpu01", "Nodes=node[03-04],gpu02")).expect("reads alone");
    let e = at(check_against(&file, &conf), 8, "Nodes");
    assert!(e.detail.contains("`gpu02`") && e.detail.contains("slurm.conf"), "{e}");
    let file = res(&with(RES, "PartitionName=batch", "PartitionName=debug")).expect("reads alone");
    at(check_against(&file, &conf), 8, "PartitionName");
}

proptest::proptest! {
    #[test]
    fn arbitrary_text_never_panics(text in "([A-Za-z0-9=,:\\-\\[\\]() \n]|ReservationName=|StartTime=|Nodes=|NodeCnt=|EndTime=|Duration=){0,60}") {
        let _ = res(&text);
        let _ = res(&format!("{RES}{text}"));
    }
}
