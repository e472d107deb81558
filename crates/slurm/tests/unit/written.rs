use std::path::Path;

use slasim_slurm::conf::{SlurmConf, parse};
use slasim_slurm::sacctmgr::read_qos;
use slasim_slurm::written::{conf_lines, hostlist, qos_lines, slurm_time};

/// What a conf says, its lines of definition set aside.
fn settings(conf: &SlurmConf) -> String {
    let mut c = conf.clone();
    c.path = Default::default();
    c.unmodelled.clear();
    c.ignored.clear();
    for n in &mut c.nodes {
        n.line = 0;
    }
    for p in &mut c.partitions {
        p.line = 0;
    }
    (c.site.preempt.type_line, c.site.preempt.mode_line) = (0, 0);
    format!("{c:?}")
}

#[test]
fn host_lists_and_times_are_written_as_slurm_writes_them() {
    assert_eq!(hostlist(&["c001", "c002", "c003", "c009", "g1", "head"]), "c[001-003,009],g1,head");
    assert_eq!(hostlist(&["n1", "n2", "n10"]), "n[1-2,10]");
    assert_eq!(slurm_time(172_800), "2-00:00:00");
    assert_eq!(slurm_time(5_400), "01:30:00");
}

/// Every setting written is read back the same: the printed lines are a
/// slurm.conf of the machine and policies slasim runs.
#[test]
fn written_lines_read_back_to_the_same_settings() {
    let text = "SelectType=select/cons_tres\nSelectTypeParameters=CR_Core_Memory\nPriorityType=priority/multifactor\n\
        PriorityWeightAge=1000\nPriorityWeightTRES=CPU=500,Mem=0.25,GRES/gpu=2000\nPriorityDecayHalfLife=14-0\n\
        PriorityCalcPeriod=2\nPriorityFavorSmall=YES\nPreemptType=preempt/qos\nPreemptMode=SUSPEND,GANG\n\
        PreemptExemptTime=00:10:00\nTRESBillingWeights=CPU=1,Mem=0.25G\nDefMemPerCPU=2000\nEnforcePartLimits=ALL\n\
        AccountingStorageEnforce=limits,qos\nResvOverRun=UNLIMITED\nJobRequeue=0\n\
        SchedulerParameters=bf_window=60,bf_continue,bf_max_job_user=10,kill_invalid_depend\n\
        NodeName=n[1-4] CPUs=8 RealMemory=16000 Features=ib Weight=5\nNodeName=g[1-2] CPUs=16 RealMemory=64000 Gres=gpu:a100:4\n\
        NodeName=h1 CPUs=16 RealMemory=64000 Gres=gpu:2\n\
        PartitionName=batch Nodes=n[1-4] Default=YES MaxTime=1-12:00:00 PreemptMode=REQUEUE QOS=part MaxNodes=2\n\
        PartitionName=gpu Nodes=g[1-2],h1 DefaultTime=01:00:00 PriorityTier=3 TRESBillingWeights=GRES/gpu=4 State=DOWN\n";
    let conf = parse(text, Path::new("a.conf")).unwrap();
    let written = conf_lines(&conf).join("\n");
    let again = parse(&written, Path::new("b.conf")).unwrap_or_else(|e| panic!("{e}\n{written}"));
    assert_eq!(settings(&again), settings(&conf), "{written}");
    let keys = |c: &SlurmConf| c.unmodelled.iter().map(|i| i.key.clone()).collect::<Vec<_>>();
    assert!(again.ignored.is_empty() && keys(&again) == keys(&conf), "{:?} {:?}", again.unmodelled, conf.unmodelled);
}

#[test]
fn qos_limits_are_written_as_read() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("qos.txt");
    std::fs::write(
        &path,
        "Name|Priority|MaxJobsPU|MaxWall|GrpTRES|PreemptMode\nnormal|0|40|2-00:00:00|cpu=64,gres/gpu=4|cluster\n",
    )
    .unwrap();
    let dump = read_qos(&path).unwrap();
    assert_eq!(
        qos_lines(&dump.qos),
        ["Name=normal Priority=0 GrpTRES=cpu=64,gres/gpu=4 MaxWall=2-00:00:00 MaxJobsPU=40"]
    );
}
