use slasim_slurm::conf::ConfError;
use slasim_slurm::sacctmgr::*;
use std::path::Path;

/// `sacctmgr show assoc -P` on a small campus (22.05's default columns).
const ASSOC: &str = "\
Cluster|Account|User|Partition|Share|Priority|GrpJobs|GrpTRES|GrpSubmit|GrpWall|GrpTRESMins|MaxJobs|MaxTRES|MaxTRESPerNode|MaxSubmit|MaxWall|MaxTRESMins|QOS|Def QOS|GrpTRESRunMins
campus|root|||1|||||||||||||normal||
campus|root|root||1|||||||||||||normal||
campus|physics|||40||100|cpu=512,mem=2T,gres/gpu=8|||cpu=1000000|||||||high,normal||cpu=200000
campus|physics|alice||parent|||||||20|cpu=128,node=4||50|2-00:00:00||high,normal|normal|
campus|physics|bob|gpu|10|5||||12:00:00||||gres/gpu=2||90|cpu=6000|high,normal,scavenger|high|
campus|chem|||20||||500|||||||||normal,scavenger||
";

/// `sacctmgr show qos -P` (22.05's default columns).
const QOS: &str = "\
Name|Priority|GraceTime|Preempt|PreemptExemptTime|PreemptMode|Flags|UsageThres|UsageFactor|GrpTRES|GrpTRESMins|GrpTRESRunMins|GrpJobs|GrpSubmit|GrpWall|MaxTRES|MaxTRESPerNode|MaxTRESMins|MaxWall|MaxTRESPU|MaxJobsPU|MaxSubmitPU|MaxTRESPA|MaxJobsPA|MaxSubmitPA|MinTRES
normal|0|00:00:00|||cluster|||1.000000|||||||||||||||||
high|1000|00:05:00|scavenger,normal|00:10:00|cluster|DenyOnLimit,NoReserve||2.000000|cpu=1024,gres/gpu=16|||200||||||1-00:00:00|cpu=256,mem=1000G|10|40|gres/gpu=8|30||cpu=1
scavenger|0|00:00:00|||requeue||0.100000|0.000000|||||||node=2|||04:00:00||||||1000|
";

fn tres(pairs: &[(&str, u64)]) -> Vec<Tres> {
    pairs.iter().map(|&(n, a)| Tres { name: n.to_string(), amount: Some(a) }).collect()
}

fn assoc(text: &str) -> Result<AssocDump, ConfError> {
    parse_assoc(text, Path::new("assoc.txt"))
}

fn qos(text: &str) -> Result<QosDump, ConfError> {
    parse_qos(text, Path::new("qos.txt"))
}

/// The error, checked to name `line` and `field`.
fn at(result: Result<impl std::fmt::Debug, ConfError>, line: u64, field: &str) -> ConfError {
    match result {
        Ok(v) => panic!("expected an error, got {v:?}"),
        Err(e) => {
            assert_eq!((e.line, e.field.as_str()), (line, field), "{e}");
            e
        }
    }
}

/// `text` with `from` replaced once (checked to occur).
fn with(text: &str, from: &str, to: &str) -> String {
    assert!(text.contains(from), "{from}");
    text.replacen(from, to, 1)
}

#[test]
fn assoc_dump_reads() {
    let dump = assoc(ASSOC).expect("reads");
    assert_eq!(dump.assocs.len(), 6);
    assert!(dump.ignored.is_empty());
    let root = &dump.assocs[0];
    assert_eq!(
        (root.line, root.account.as_str(), root.user.as_deref(), root.share),
        (2, "root", None, Some(Share::Raw(1)))
    );
    let physics = &dump.assocs[2];
    assert_eq!((physics.grp_jobs, physics.share), (Some(100), Some(Share::Raw(40))));
    // mem=2T is 2·1024·1024 MiB.
    assert_eq!(physics.grp_tres, tres(&[("cpu", 512), ("mem", 2 * 1024 * 1024), ("gres/gpu", 8)]));
    assert_eq!(physics.grp_tres_mins, tres(&[("cpu", 1_000_000)]));
    assert_eq!(physics.grp_tres_run_mins, tres(&[("cpu", 200_000)]));
    assert_eq!(physics.qos, ["high", "normal"]);
    assert_eq!(physics.def_qos, None);
    let alice = &dump.assocs[3];
    assert_eq!((alice.user.as_deref(), alice.share), (Some("alice"), Some(Share::Parent)));
    assert_eq!((alice.max_jobs, alice.max_submit, alice.max_wall), (Some(20), Some(50), Some(2 * 86_400)));
    assert_eq!(alice.max_tres, tres(&[("cpu", 128), ("node", 4)]));
    assert_eq!(alice.def_qos.as_deref(), Some("normal"));
    let bob = &dump.assocs[4];
    assert_eq!((bob.partition.as_deref(), bob.priority), (Some("gpu"), Some(5)));
    // GrpWall 12:00:00 is 12 h; MaxWall 90 is 90 minutes.
    assert_eq!((bob.grp_wall, bob.max_wall), (Some(12 * 3600), Some(90 * 60)));
    assert_eq!(bob.max_tres_per_node, tres(&[("gres/gpu", 2)]));
    assert_eq!(bob.max_tres_mins, tres(&[("cpu", 6000)]));
    assert_eq!(dump.assocs[5].grp_submit, Some(500));
}

#[test]
fn qos_dump_reads() {
    let dump = qos(QOS).expect("reads");
    assert_eq!(dump.qos.len(), 3);
    let normal = dump.get("normal").expect("normal");
    assert_eq!((normal.priority, normal.preempt_mode, normal.usage_factor), (0, None, 1.0));
    assert_eq!(normal.grace_time, Some(0));
    let high = dump.get("high").expect("high");
    assert_eq!((high.line, high.priority, high.grace_time), (3, 1000, Some(300)));
    assert_eq!(high.preempt, ["scavenger", "normal"]);
    assert_eq!((high.preempt_exempt_time, high.usage_factor), (Some(600), 2.0));
    assert_eq!(high.flags, ["DenyOnLimit", "NoReserve"]);
    assert_eq!(high.grp_tres, tres(&[("cpu", 1024), ("gres/gpu", 16)]));
    assert_eq!((high.grp_jobs, high.max_wall), (Some(200), Some(86_400)));
    assert_eq!(high.max_tres_pu, tres(&[("cpu", 256), ("mem", 1000 * 1024)]));
    assert_eq!((high.max_jobs_pu, high.max_submit_pu, high.max_jobs_pa), (Some(10), Some(40), Some(30)));
    assert_eq!(high.max_tres_pa, tres(&[("gres/gpu", 8)]));
    assert_eq!(high.min_tres, tres(&[("cpu", 1)]));
    let scavenger = dump.get("scavenger").expect("scavenger");
    assert_eq!(
        scavenger.preempt_mode,
        Some(PreemptMode { action: PreemptAction::Requeue, gang: false, within: false })
    );
    assert_eq!((scavenger.usage_threshold, scavenger.usage_factor), (Some(0.1), 0.0));
    assert_eq!((scavenger.max_tres.clone(), scavenger.max_wall), (tres(&[("node", 2)]), Some(4 * 3600)));
    assert_eq!(scavenger.max_submit_pa, Some(1000));
    check_qos_names(&assoc(ASSOC).expect("reads"), &dump).expect("every QOS is defined");
}

#[test]
fn columns_by_name_in_any_order_and_parsable() {
    // Another column set, reordered, with a column slasim does not read, in `-p` form.
    let text = "Account|User|QOS|ID|Share|\nphysics||normal|7|3|\nphysics|ann|normal|8|1|\n";
    let dump = assoc(text).expect("reads");
    assert_eq!(dump.ignored, ["ID"]);
    assert_eq!(dump.assocs[1].user.as_deref(), Some("ann"));
    assert_eq!((dump.assocs[0].share, dump.assocs[0].cluster.as_str()), (Some(Share::Raw(3)), ""));
    // Blank lines are skipped; a missing column is "not set".
    let dump = qos("\nName|Priority\n\nlow|10\n").expect("reads");
    assert_eq!((dump.qos[0].name.as_str(), dump.qos[0].priority, dump.qos[0].line), ("low", 10, 4));
    assert_eq!(dump.qos[0].usage_factor, 1.0);
}

#[test]
fn tres_lists() {
    assert_eq!(parse_tres(""), Ok(vec![]));
    assert_eq!(
        parse_tres("cpu=10,mem=20G,gres/gpu=2,node=1"),
        Ok(tres(&[("cpu", 10), ("mem", 20 * 1024), ("gres/gpu", 2), ("node", 1)]))
    );
    assert_eq!(parse_tres("mem=512,bb/datawarp=1T"), Ok(tres(&[("mem", 512), ("bb/datawarp", 1024 * 1024)])));
    assert_eq!(parse_tres("Mem=1.5G,GRES/gpu:a100=4"), Ok(tres(&[("mem", 1536), ("gres/gpu:a100", 4)])));
    assert_eq!(parse_tres("mem=1K"), Ok(tres(&[("mem", 1)])));
    assert_eq!(parse_tres("cpu=NONE"), Ok(vec![Tres { name: "cpu".into(), amount: None }]));
    for bad in ["cpu", "cpu=", "cpu=x", "cpu=1.5", "cpu=-1", "mem=20X", "mem=G", "=4", "c pu=1", "cpu=1,cpu=2"] {
        assert!(parse_tres(bad).is_err(), "{bad}");
    }
}

#[test]
fn preempt_modes() {
    let m = |a, gang, within| PreemptMode { action: a, gang, within };
    assert_eq!(parse_preempt_mode("cluster"), Ok(m(PreemptAction::Off, false, false)));
    assert_eq!(parse_preempt_mode("CANCEL"), Ok(m(PreemptAction::Cancel, false, false)));
    assert_eq!(parse_preempt_mode("gang,suspend"), Ok(m(PreemptAction::Suspend, true, false)));
    assert_eq!(parse_preempt_mode("within,requeue"), Ok(m(PreemptAction::Requeue, false, true)));
    assert_eq!(parse_preempt_mode("GANG"), Ok(m(PreemptAction::Off, true, false)));
    for bad in ["", "kill", "cancel,requeue", "gang,within", "suspend,,"] {
        assert!(parse_preempt_mode(bad).is_err(), "{bad}");
    }
}

#[test]
fn assoc_errors() {
    // A malformed TRES.
    let e = at(assoc(&with(ASSOC, "cpu=128,node=4", "cpu=128,node")), 5, "MaxTRES");
    assert!(e.detail.contains("node"), "{e}");
    assert_eq!(e.to_string(), format!("assoc.txt:5: MaxTRES: {}", e.detail));
    at(assoc(&with(ASSOC, "mem=2T", "mem=2Q")), 4, "GrpTRES");
    // A bad time.
    let e = at(assoc(&with(ASSOC, "2-00:00:00", "2-00:00:00:00")), 5, "MaxWall");
    assert!(e.detail.contains("2-00:00:00:00"), "{e}");
    at(assoc(&with(ASSOC, "12:00:00", "noon")), 6, "GrpWall");
    // An unknown column value.
    let e = at(assoc(&with(ASSOC, "|parent|", "|inherit|")), 5, "Share");
    assert!(e.detail.contains("inherit"), "{e}");
    at(assoc(&with(ASSOC, "|20||||500|", "|20||||many|")), 7, "GrpSubmit");
    at(assoc(&with(ASSOC, "|gpu|10|5|", "|gpu|10|-5|")), 6, "Priority");
    at(assoc(&with(ASSOC, "|high|\n", "|high,normal|\n")), 6, "Def QOS");
    // A row with the wrong number of fields.
    let e = at(assoc(&with(ASSOC, "campus|chem|||20", "campus|chem||20")), 7, "columns");
    assert!(e.detail.contains("19 fields") && e.detail.contains("20 columns"), "{e}");
    at(assoc(&format!("{ASSOC}campus|chem|carol||1|||||||||||||normal|||extra\n")), 8, "columns");
    // Twice the same association; no account.
    at(assoc(&format!("{ASSOC}campus|chem|||5|||||||||||||normal||\n")), 8, "Account");
    at(assoc(&with(ASSOC, "campus|chem|", "campus||")), 7, "Account");
    // Header problems.
    at(assoc(""), 0, "header");
    at(assoc("Cluster|User\nc|u\n"), 1, "header");
    at(assoc("Account||User\n"), 1, "header");
    at(assoc("Account|QOS|qos\n"), 1, "qos");
}

#[test]
fn qos_errors() {
    let e = at(qos(&with(QOS, "cpu=1024,gres/gpu=16", "cpu=1024,gres/gpu=sixteen")), 3, "GrpTRES");
    assert!(e.detail.contains("sixteen"), "{e}");
    at(qos(&with(QOS, "|1-00:00:00|", "|1 day|")), 3, "MaxWall");
    at(qos(&with(QOS, "|00:10:00|", "|ten|")), 3, "PreemptExemptTime");
    let e = at(qos(&with(QOS, "|requeue|", "|kill|")), 4, "PreemptMode");
    assert!(e.detail.contains("kill"), "{e}");
    let e = at(qos(&with(QOS, "DenyOnLimit,NoReserve", "DenyOnLimit,Relative")), 3, "Flags");
    assert!(e.detail.contains("Relative"), "{e}");
    at(qos(&with(QOS, "|2.000000|", "|-2|")), 3, "UsageFactor");
    at(qos(&with(QOS, "|0.100000|", "|NaN|")), 4, "UsageThres");
    at(qos(&with(QOS, "high|1000|", "high|top|")), 3, "Priority");
    at(qos(&with(QOS, "|10|40|", "|10|40|3|")), 3, "columns");
    // 26 fields: a second `high`.
    at(qos(&format!("{QOS}high|1{}\n", "|".repeat(24))), 5, "Name");
    // A Preempt list naming a QOS the dump does not define, or itself.
    let e = at(qos(&with(QOS, "scavenger,normal", "scavenger,debug")), 3, "Preempt");
    assert!(e.detail.contains("`debug`"), "{e}");
    at(qos(&with(QOS, "scavenger,normal", "scavenger,high")), 3, "Preempt");
}

#[test]
fn unknown_qos_of_an_association() {
    let q = qos(QOS).expect("reads");
    let a = assoc(&with(ASSOC, "high,normal,scavenger", "high,normal,debug")).expect("reads alone");
    let e = at(check_qos_names(&a, &q), 6, "QOS");
    assert!(e.detail.contains("`debug`") && e.detail.contains("qos.txt"), "{e}");
    assert!(e.to_string().starts_with("assoc.txt:6: QOS: "), "{e}");
    let a = assoc(&with(ASSOC, "|normal|\n", "|express|\n")).expect("reads alone");
    at(check_qos_names(&a, &q), 5, "Def QOS");
}

#[test]
fn files_are_read() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let path = dir.path().join("qos.txt");
    std::fs::write(&path, QOS).expect("writes");
    assert_eq!(read_qos(&path).expect("reads").qos.len(), 3);
    let e = read_assoc(&dir.path().join("missing.txt")).expect_err("no such file");
    assert_eq!((e.line, e.field.as_str()), (0, "file"));
}

proptest::proptest! {
    #[test]
    fn arbitrary_dumps_never_panic(text in "([A-Za-z0-9=,|:\\-/. \n]|Account|Name|QOS|Share|MaxWall|GrpTRES|PreemptMode){0,80}") {
        let _ = assoc(&text);
        let _ = qos(&text);
        let _ = assoc(&format!("{ASSOC}{text}"));
        let _ = qos(&format!("{QOS}{text}"));
    }
}

/// `sacctmgr -P show assoc format=Cluster,Account,User,Share,ParentName,...`
/// as Slurm 22.05.8 printed it on tests/slurm/cluster.sh --load: the parent
/// column is headed `ParentName`, read as `Par Name`.
#[test]
fn parent_name_header_of_a_format_listing() {
    let text = "Cluster|Account|User|Share|ParentName|Def QOS|QOS|GrpJobs|GrpTRES|MaxJobs|MaxSubmit|MaxWall
slasimcluster|root||1|||normal|||||
slasimcluster|biology||1|root|normal|high,normal,scav|||||
slasimcluster|biology|bin|1||normal|high,normal,scav|||||
";
    let dump = assoc(text).unwrap();
    assert!(dump.ignored.is_empty(), "{:?}", dump.ignored);
    let biology = dump.assocs.iter().find(|a| a.account == "biology" && a.user.is_none()).unwrap();
    assert_eq!(biology.parent.as_deref(), Some("root"));
}
