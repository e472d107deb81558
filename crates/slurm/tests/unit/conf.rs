use slasim_slurm::conf::*;
use std::path::Path;

const SAMPLE: &str = "\
ClusterName=test
SlurmctldHost=localhost
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
GresTypes=gpu
PriorityType=priority/multifactor
PriorityDecayHalfLife=0-0:30
PriorityCalcPeriod=1
PriorityMaxAge=0-0:10
PriorityWeightAge=1000
PriorityWeightFairshare=2000
PriorityWeightJobSize=500
PriorityWeightPartition=1000
PriorityWeightTRES=CPU=100,GRES/gpu=400
SchedulerType=sched/backfill
SchedulerParameters=bf_interval=5,bf_resolution=5,bf_window=30,bf_max_job_test=500,default_queue_depth=100,bf_continue
NodeName=cpu[1-4] CPUs=4 RealMemory=8000 State=UNKNOWN
NodeName=gpu[1-2] CPUs=4 RealMemory=16000 Gres=gpu:2
PartitionName=cpu Nodes=cpu[1-4] Default=YES MaxTime=10 PriorityTier=1 PriorityJobFactor=1
PartitionName=gpu Nodes=gpu[1-2] MaxTime=10 PriorityJobFactor=2
";

/// One node and one partition, to append to settings under test.
const MIN: &str = "NodeName=n1\nPartitionName=p Nodes=n1\n";

fn p(text: &str) -> Result<SlurmConf, ConfError> {
    parse(text, Path::new("test.conf"))
}

fn ok(text: &str) -> SlurmConf {
    match p(text) {
        Ok(conf) => conf,
        Err(e) => panic!("unexpected error: {e}"),
    }
}

/// The error, checked to name `line` and `field`.
fn err_at(text: &str, line: u64, field: &str) -> ConfError {
    match p(text) {
        Ok(conf) => panic!("expected an error, got {conf:?}"),
        Err(e) => {
            assert_eq!((e.line, e.field.as_str()), (line, field), "{e}");
            assert_eq!(e.path, Path::new("test.conf"));
            e
        }
    }
}

fn names(conf: &SlurmConf) -> Vec<&str> {
    conf.nodes.iter().map(|n| n.name.as_str()).collect()
}

fn ignored(conf: &SlurmConf) -> Vec<(u64, &str)> {
    conf.ignored.iter().map(|i| (i.line, i.key.as_str())).collect()
}

fn unmodelled(conf: &SlurmConf) -> Vec<(u64, &str)> {
    conf.unmodelled.iter().map(|i| (i.line, i.key.as_str())).collect()
}

#[test]
fn sample_parses() {
    let conf = ok(SAMPLE);
    assert_eq!(names(&conf), ["cpu1", "cpu2", "cpu3", "cpu4", "gpu1", "gpu2"]);
    for n in &conf.nodes[..4] {
        assert_eq!((n.cpus, n.real_memory_mib, n.gpus, n.weight, n.line), (4, 8000, 0, 1, 17));
    }
    for n in &conf.nodes[4..] {
        assert_eq!((n.cpus, n.real_memory_mib, n.gpus, n.weight, n.line), (4, 16000, 2, 1, 18));
    }
    let cpu = &conf.partitions[0];
    assert_eq!(
        cpu,
        &PartitionDef {
            name: "cpu".into(),
            nodes: vec![0, 1, 2, 3],
            max_time: Some(600),
            default_time: None,
            priority_tier: 1,
            priority_job_factor: 1,
            max_nodes: None,
            default: true,
            up: true,
            preempt_mode: None,
            billing_weights: None,
            def_mem_per_cpu: None,
            max_mem_per_cpu: None,
            qos: None,
            line: 19,
        }
    );
    let gpu = &conf.partitions[1];
    assert_eq!((gpu.name.as_str(), &gpu.nodes[..], gpu.max_time), ("gpu", &[4, 5][..], Some(600)));
    assert_eq!((gpu.priority_job_factor, gpu.default, gpu.line), (2, false, 20));
    assert_eq!(conf.consumable, Consumable::CoreMemory);
    let prio = &conf.priority;
    assert!(prio.multifactor);
    assert_eq!((prio.decay_half_life, prio.calc_period, prio.max_age), (1800, 60, 600));
    assert_eq!(
        (prio.weight_age, prio.weight_fairshare, prio.weight_job_size, prio.weight_partition),
        (1000.0, 2000.0, 500.0, 1000.0)
    );
    assert_eq!((prio.weight_assoc, prio.weight_qos), (0.0, 0.0));
    assert_eq!(prio.weight_tres, vec![("cpu".to_string(), 100.0), ("gres/gpu".to_string(), 400.0)]);
    let s = &conf.scheduler;
    assert!(s.backfill && s.bf_continue);
    assert_eq!((s.bf_interval, s.bf_resolution, s.bf_window), (5, 5, 1800));
    assert_eq!((s.bf_max_job_test, s.default_queue_depth, s.sched_interval), (500, 100, 60));
    assert!(s.other.is_empty());
    assert_eq!(ignored(&conf), [(1, "ClusterName"), (2, "SlurmctldHost"), (5, "GresTypes"), (17, "State")]);
    assert_eq!(conf.path, Path::new("test.conf"));
}

#[test]
fn hostlists_expand() {
    let ok_list = |expr: &str| expand_hostlist(expr).unwrap_or_else(|e| panic!("{expr}: {e}"));
    assert_eq!(ok_list("cpu[1-4]"), ["cpu1", "cpu2", "cpu3", "cpu4"]);
    assert_eq!(ok_list("gpu[01-02]"), ["gpu01", "gpu02"]);
    assert_eq!(ok_list("n[8-10]"), ["n8", "n9", "n10"]);
    assert_eq!(ok_list("n[098-100]"), ["n098", "n099", "n100"]);
    assert_eq!(ok_list("a[1,3-5]"), ["a1", "a3", "a4", "a5"]);
    assert_eq!(ok_list("n1,n2,x[1-2]"), ["n1", "n2", "x1", "x2"]);
    assert_eq!(ok_list("r[1-2]n[1-2]-ib"), ["r1n1-ib", "r1n2-ib", "r2n1-ib", "r2n2-ib"]);
    assert_eq!(ok_list("localhost"), ["localhost"]);
    for bad in ["n[1-", "n]1", "n[]", "n[a-b]", "n[3-1]", "n[[1]]", "n[1-99999999999999999999]", "n[0-9999999]"] {
        assert!(expand_hostlist(bad).is_err(), "{bad}");
    }
}

#[test]
fn node_lines_expand_with_lists_and_padding() {
    let conf = ok("NodeName=n1,x[1-2] CPUs=2\nNodeName=gpu[01-02],a[1,3-4]\nPartitionName=p Nodes=ALL\n");
    assert_eq!(names(&conf), ["n1", "x1", "x2", "gpu01", "gpu02", "a1", "a3", "a4"]);
    assert_eq!(conf.partitions[0].nodes, (0..8).collect::<Vec<_>>());
    let e = err_at("NodeName=n[1-\nPartitionName=p Nodes=ALL\n", 1, "NodeName");
    assert!(e.detail.contains("unclosed"), "{e}");
}

#[test]
fn continuation_lines_join() {
    let conf = ok("NodeName=n[1-2] \\\n  CPUs=8 \\\n  RealMemory=100\nPartitionName=p \\\nNodes=n1\n");
    assert_eq!((conf.nodes[1].cpus, conf.nodes[1].real_memory_mib, conf.nodes[1].line), (8, 100, 1));
    assert_eq!(conf.partitions[0].line, 4);
    // An error on the third physical line names the logical line's first.
    err_at("# head\nNodeName=n1 \\\n  CPUs=4 \\\n  Weight=x\nPartitionName=p Nodes=n1\n", 2, "NodeName=n1 Weight");
    // A trailing backslash at the end of the file ends the line.
    assert_eq!(ok("NodeName=n1\nPartitionName=p Nodes=n1 \\").partitions.len(), 1);
}

#[test]
fn comments_quotes_and_case() {
    let text =
        "# comment\n\n  nodename=n1 cpus=2 # trailing\nPARTITIONNAME=p nodes=n1 ClusterName=\"a # b\" State=up\n";
    let conf = ok(text);
    assert_eq!(conf.nodes[0].cpus, 2);
    assert!(conf.partitions[0].up);
    assert_eq!(ignored(&conf), [(4, "ClusterName")]);
    let conf = ok(&format!("SlurmctldParameters=\"a b\" AuthType=auth/munge\n{MIN}"));
    assert_eq!(ignored(&conf), [(1, "SlurmctldParameters"), (1, "AuthType")]);
    err_at(&format!("ClusterName=\"open\n{MIN}"), 1, "syntax");
    err_at(&format!("ClusterName=a stray\n{MIN}"), 1, "syntax");
}

#[test]
fn node_defaults_apply_to_later_lines() {
    let text = "NodeName=a1 CPUs=1\nNodeName=DEFAULT CPUs=16 RealMemory=64000 Gres=gpu:1 Weight=5 State=UNKNOWN\n\
                NodeName=b[1-2]\nNodeName=c1 CPUs=2 Gres=gpu:a100:4\nNodeName=DEFAULT Weight=7\nNodeName=d1\n\
                PartitionName=p Nodes=ALL\n";
    let conf = ok(text);
    let got: Vec<_> =
        conf.nodes.iter().map(|n| (n.name.as_str(), n.cpus, n.real_memory_mib, n.gpus, n.weight)).collect();
    assert_eq!(
        got,
        [
            ("a1", 1, 1, 0, 1),
            ("b1", 16, 64000, 1, 5),
            ("b2", 16, 64000, 1, 5),
            ("c1", 2, 64000, 4, 5),
            ("d1", 16, 64000, 1, 7)
        ]
    );
    // The DEFAULT line's unmodelled key is listed once, on its line.
    assert_eq!(ignored(&conf), [(2, "State")]);
}

#[test]
fn cpus_from_topology() {
    let conf =
        ok("NodeName=a Sockets=2 CoresPerSocket=8 ThreadsPerCore=2\nNodeName=b Boards=2 Sockets=2 CoresPerSocket=4\n\
                   NodeName=c CPUs=3 Sockets=2 CoresPerSocket=8\nNodeName=d\nPartitionName=p Nodes=ALL\n");
    let cpus: Vec<u32> = conf.nodes.iter().map(|n| n.cpus).collect();
    assert_eq!(cpus, [32, 16, 3, 1]);
    err_at(&format!("NodeName=x Sockets=65536 CoresPerSocket=65536\n{MIN}"), 1, "NodeName=x CPUs");
    err_at(&format!("NodeName=x CPUs=0\n{MIN}"), 1, "NodeName=x CPUs");
}

#[test]
fn gres_forms() {
    let gpus = |gres: &str| parse_gres(gres).map(|g| (g.gpus, g.model));
    assert_eq!(gpus("gpu:4"), Ok((4, None)));
    assert_eq!(gpus("gpu:4(S:0-1)"), Ok((4, None)));
    assert_eq!(gpus("gpu:no_consume:4"), Ok((4, None)));
    let others = vec!["mps".to_string(), "nic".to_string()];
    assert_eq!(parse_gres("mps:100,gpu:2,nic:1"), Ok(Gres { gpus: 2, model: None, types: Vec::new(), others }));
    let conf = ok("NodeName=n1 Gres=gpu:2,mps:200\nPartitionName=p Nodes=n1\n");
    assert_eq!((conf.nodes[0].gpus, conf.nodes[0].gpu_model.as_deref()), (2, None));
    assert_eq!(ignored(&conf), [(1, "Gres: mps")]);
}

/// `gpu:type:N` names the GPUs' model; entries of one type add up.
#[test]
fn gres_gpu_type() {
    let gpus = |gres: &str| parse_gres(gres).map(|g| (g.gpus, g.model));
    assert_eq!(gpus("gpu:a100:4"), Ok((4, Some("a100".into()))));
    assert_eq!(gpus("gpu:a100:no_consume:4"), Ok((4, Some("a100".into()))));
    assert_eq!(gpus("gpu:a100:2(S:0),gpu:a100:2(S:1)"), Ok((4, Some("a100".into()))));
    let conf =
        ok("NodeName=DEFAULT Gres=gpu:v100:2\nNodeName=g1 Gres=gpu:a100:4\nNodeName=g2\nNodeName=g3 Gres=gpu:1\n\
                   NodeName=c1 Gres=gpu:a100:0\nPartitionName=p Nodes=ALL\n");
    let got: Vec<_> = conf.nodes.iter().map(|n| (n.name.as_str(), n.gpus, n.gpu_model.as_deref())).collect();
    assert_eq!(got, [("g1", 4, Some("a100")), ("g2", 2, Some("v100")), ("g3", 1, None), ("c1", 0, None)]);
}

/// A node of two GPU types keeps its GPUs without a model, and says so.
#[test]
fn gres_two_gpu_types() {
    let conf = ok(&format!("ClusterName=c\nNodeName=g1 Gres=gpu:a100:2(S:0),gpu:v100:2\n{MIN}"));
    let g1 = conf.nodes.iter().find(|n| n.name == "g1").unwrap();
    assert_eq!((g1.gpus, g1.gpu_model.as_deref()), (4, None));
    assert!(conf.ignored.iter().any(|i| i.key.contains("a100, v100") && i.line == 2), "{:?}", conf.ignored);
    let gres = parse_gres("gpu:a100:2,gpu:v100:1").unwrap();
    assert_eq!((gres.gpus, gres.model, gres.types), (3, None, vec!["a100".to_string(), "v100".to_string()]));
}

/// More GPU types than the machine model holds: a located error on the
/// node that names one too many.
#[test]
fn gres_too_many_gpu_types() {
    let max = slasim_machine::MAX_MODELS;
    let mut text: String = (0..max).map(|i| format!("NodeName=g{i} Gres=gpu:t{i}:1\n")).collect();
    text.push_str("NodeName=h1 Gres=gpu:t0:1\nPartitionName=p Nodes=ALL\n");
    assert_eq!(ok(&text).nodes.len(), max + 1);
    text.insert_str(0, &format!("NodeName=x Gres=gpu:t{max}:1\n"));
    let e = err_at(&text, u64::try_from(max).unwrap() + 1, &format!("NodeName=g{} Gres", max - 1));
    assert!(e.detail.contains(&format!("t{}", max - 1)), "{e}");
}

#[test]
fn gres_errors() {
    let e = err_at(&format!("NodeName=g[1-2] Gres=gpu\n{MIN}"), 1, "NodeName=g[1-2] Gres");
    assert!(e.detail.contains("no count"), "{e}");
    let e = err_at(&format!("ClusterName=c\nNodeName=g1 Gres=gpu:a100\n{MIN}"), 2, "NodeName=g1 Gres");
    assert!(e.detail.contains("a100"), "{e}");
    err_at(&format!("NodeName=g1 Gres=gpu:x:-1\n{MIN}"), 1, "NodeName=g1 Gres");
    err_at(&format!("NodeName=g1 Gres=gpu:4294967296\n{MIN}"), 1, "NodeName=g1 Gres");
}

#[test]
fn node_defined_twice() {
    let e = err_at("NodeName=n[1-3]\nNodeName=n3\nPartitionName=p Nodes=ALL\n", 2, "NodeName=n3");
    assert!(e.detail.contains("`n3`") && e.detail.contains("line 1"), "{e}");
    err_at("NodeName=n1,n1\nPartitionName=p Nodes=ALL\n", 1, "NodeName=n1,n1");
}

#[test]
fn node_numbers_checked() {
    err_at(&format!("NodeName=x RealMemory=8G\n{MIN}"), 1, "NodeName=x RealMemory");
    err_at(&format!("NodeName=x Weight=4294967296\n{MIN}"), 1, "NodeName=x Weight");
    err_at(&format!("NodeName=x CPUs=-4\n{MIN}"), 1, "NodeName=x CPUs");
    let conf = ok(&format!("NodeName=x RealMemory=18446744073709551615 Weight=4294967295\n{MIN}"));
    assert_eq!((conf.nodes[0].real_memory_mib, conf.nodes[0].weight), (u64::MAX, u32::MAX));
}

#[test]
fn partitions_resolve_in_node_order() {
    let text = "PartitionName=early Nodes=b,a[2-1]\n";
    err_at(&format!("NodeName=a[1-2],b\n{text}"), 2, "PartitionName=early Nodes");
    let text = "PartitionName=early Nodes=b,a2,a1,b MaxNodes=UNLIMITED\nNodeName=a[1-2],b\n\
                PartitionName=late Nodes=a2 MaxNodes=3 State=DRAIN DefaultTime=1-0\n";
    let conf = ok(text);
    assert_eq!(conf.partitions[0].nodes, [0, 1, 2]);
    assert_eq!((conf.partitions[0].max_nodes, conf.partitions[0].line), (None, 1));
    let late = &conf.partitions[1];
    assert_eq!((&late.nodes[..], late.max_nodes, late.up, late.default_time), (&[1][..], Some(3), false, Some(86_400)));
}

#[test]
fn partition_defaults_apply() {
    let text = "NodeName=n[1-3]\nPartitionName=DEFAULT MaxTime=1:00:00 PriorityTier=5 Nodes=n[1-2] OverSubscribe=NO\n\
                PartitionName=a\nPartitionName=b Nodes=n3 MaxTime=INFINITE\n";
    let conf = ok(text);
    let a = &conf.partitions[0];
    assert_eq!((&a.nodes[..], a.max_time, a.priority_tier, a.line), (&[0, 1][..], Some(3600), 5, 3));
    let b = &conf.partitions[1];
    assert_eq!((&b.nodes[..], b.max_time, b.priority_tier), (&[2][..], None, 5));
    assert_eq!(conf.partitions.len(), 2);
    assert_eq!(ignored(&conf), [(2, "OverSubscribe")]);
}

#[test]
fn partition_errors() {
    let e = err_at("NodeName=n[1-2]\nPartitionName=p Nodes=n1,n7\n", 2, "PartitionName=p Nodes");
    assert!(e.detail.contains("`n7`"), "{e}");
    assert_eq!(e.to_string(), format!("test.conf:2: PartitionName=p Nodes: {}", e.detail));
    let e = err_at("NodeName=n1\nPartitionName=p MaxTime=5\n", 2, "PartitionName=p Nodes");
    assert!(e.detail.contains("a partition over no nodes"), "{e}");
    let e = err_at("NodeName=n1\nPartitionName=p Nodes=\n", 2, "PartitionName=p Nodes");
    assert!(e.detail.contains("a partition over no nodes"), "{e}");
    err_at("NodeName=n1\nPartitionName=p Nodes=n1\nPartitionName=p Nodes=n1\n", 3, "PartitionName=p");
    err_at("NodeName=n1\nPartitionName=p Nodes=n1 State=SLEEPY\n", 2, "PartitionName=p State");
    err_at("NodeName=n1\nPartitionName=p Nodes=n1 Default=maybe\n", 2, "PartitionName=p Default");
    err_at("NodeName=n1\nPartitionName=p Nodes=n1 MaxTime=1:2:3:4\n", 2, "PartitionName=p MaxTime");
    err_at("NodeName=n1\nPartitionName=p Nodes=n1 MaxNodes=lots\n", 2, "PartitionName=p MaxNodes");
    err_at("NodeName=n1\nPartitionName=p Nodes=n1 PriorityTier=4294967296\n", 2, "PartitionName=p PriorityTier");
}

#[test]
fn whole_file_errors() {
    let e = err_at("ClusterName=c\n", 0, "NodeName");
    assert!(e.detail.contains("no nodes defined"), "{e}");
    let e = err_at("NodeName=n1\n", 0, "PartitionName");
    assert!(e.detail.contains("no PartitionName line"), "{e}");
    err_at("ClusterName=c NodeName=n1\n", 1, "NodeName");
}

#[test]
fn priority_settings() {
    let conf = ok(&format!(
        "PriorityType=priority/basic\nPriorityWeightQOS=7 PriorityWeightAssoc=4294967295\n\
         PriorityFavorSmall=YES PriorityFlags=small_relative_to_time,,max_tres\n\
         PriorityWeightTRES=CPU=1000,Mem=0.5,GRES/gpu=3000\nPriorityUsageResetPeriod=NONE\n\
         PriorityWeightFoo=3\n{MIN}"
    ));
    let prio = &conf.priority;
    assert!(!prio.multifactor && prio.favor_small);
    assert_eq!((prio.weight_qos, prio.weight_assoc), (7.0, f64::from(u32::MAX)));
    assert_eq!(prio.flags, ["SMALL_RELATIVE_TO_TIME", "MAX_TRES"]);
    assert_eq!(
        prio.weight_tres,
        [("cpu".to_string(), 1000.0), ("mem".to_string(), 0.5), ("gres/gpu".to_string(), 3000.0)]
    );
    assert_eq!((prio.decay_half_life, prio.max_age, prio.calc_period), (7 * 86_400, 7 * 86_400, 300));
    assert_eq!(ignored(&conf), [(5, "PriorityUsageResetPeriod"), (6, "PriorityWeightFoo")]);
    // The QOS factor is 0 without QOS priorities: its weight is read, not modelled.
    assert_eq!(unmodelled(&conf), [(2, "PriorityWeightQOS")]);
}

#[test]
fn priority_errors() {
    err_at(&format!("PriorityType=priority/fancy\n{MIN}"), 1, "PriorityType");
    let e = err_at(&format!("ClusterName=x\npriorityWeightAge=lots\n{MIN}"), 2, "priorityWeightAge");
    assert!(e.detail.contains("lots"), "{e}");
    err_at(&format!("PriorityWeightFairshare=-1\n{MIN}"), 1, "PriorityWeightFairshare");
    err_at(&format!("PriorityWeightJobSize=4294967296\n{MIN}"), 1, "PriorityWeightJobSize");
    err_at(&format!("PriorityWeightPartition=1.5\n{MIN}"), 1, "PriorityWeightPartition");
    err_at(&format!("PriorityWeightTRES=CPU=x\n{MIN}"), 1, "PriorityWeightTRES");
    err_at(&format!("PriorityWeightTRES=CPU\n{MIN}"), 1, "PriorityWeightTRES");
    err_at(&format!("PriorityWeightTRES=CPU=NaN\n{MIN}"), 1, "PriorityWeightTRES");
    err_at(&format!("PriorityDecayHalfLife=soon\n{MIN}"), 1, "PriorityDecayHalfLife");
    err_at(&format!("PriorityMaxAge=UNLIMITED\n{MIN}"), 1, "PriorityMaxAge");
    err_at(&format!("PriorityCalcPeriod=5x\n{MIN}"), 1, "PriorityCalcPeriod");
    err_at(&format!("PriorityFavorSmall=perhaps\n{MIN}"), 1, "PriorityFavorSmall");
}

#[test]
fn priority_durations() {
    let conf = ok(&format!("PriorityDecayHalfLife=14-0\nPriorityMaxAge=1-12\nPriorityCalcPeriod=0:30\n{MIN}"));
    let prio = &conf.priority;
    assert_eq!((prio.decay_half_life, prio.max_age, prio.calc_period), (14 * 86_400, 36 * 3600, 30));
    assert_eq!(ok(&format!("PriorityDecayHalfLife=0\n{MIN}")).priority.decay_half_life, 0);
}

#[test]
fn scheduler_settings() {
    let conf = ok(&format!(
        "SchedulerType=sched/builtin\nSchedulerParameters=sched_interval=10,bf_max_job_test=7,max_rpc_cnt=150,\
         ,bf_busy_nodes\n{MIN}"
    ));
    let s = &conf.scheduler;
    assert!(!s.backfill && !s.bf_continue);
    assert_eq!((s.sched_interval, s.bf_max_job_test, s.bf_window), (10, 7, 1440 * 60));
    assert_eq!(s.other, ["max_rpc_cnt=150", "bf_busy_nodes"]);
    assert_eq!(ignored(&conf), [(2, "SchedulerParameters: max_rpc_cnt"), (2, "SchedulerParameters: bf_busy_nodes")]);
}

#[test]
fn scheduler_errors() {
    err_at(&format!("SchedulerType=sched/gang\n{MIN}"), 1, "SchedulerType");
    let e = err_at(&format!("SchedulerParameters=bf_window=1d\n{MIN}"), 1, "SchedulerParameters bf_window");
    assert!(e.detail.contains("1d"), "{e}");
    err_at(&format!("SchedulerParameters=bf_continue,bf_resolution=0\n{MIN}"), 1, "SchedulerParameters bf_resolution");
    err_at(&format!("SchedulerParameters=bf_interval\n{MIN}"), 1, "SchedulerParameters bf_interval");
    err_at(&format!("SchedulerParameters=default_queue_depth=-1\n{MIN}"), 1, "SchedulerParameters default_queue_depth");
    err_at(&format!("SchedulerParameters=bf_max_job_test=4294967296\n{MIN}"), 1, "SchedulerParameters bf_max_job_test");
}

#[test]
fn select_settings() {
    assert_eq!(ok(MIN).consumable, Consumable::Core);
    assert_eq!(
        ok(&format!("SelectType=select/cons_res\nSelectTypeParameters=CR_CPU\n{MIN}")).consumable,
        Consumable::Core
    );
    let conf = ok(&format!("SelectTypeParameters=CR_CPU_Memory,CR_ONE_TASK_PER_CORE\n{MIN}"));
    assert_eq!(conf.consumable, Consumable::CoreMemory);
    assert_eq!(ignored(&conf), [(1, "SelectTypeParameters: CR_ONE_TASK_PER_CORE")]);
    let e = err_at(&format!("SelectType=select/linear\n{MIN}"), 1, "SelectType");
    assert!(e.detail.contains("only select/cons_tres and select/cons_res are modelled"), "{e}");
    for value in ["CR_Memory", "CR_Socket", "CR_Socket_Memory"] {
        let e = err_at(&format!("SelectTypeParameters={value}\n{MIN}"), 1, "SelectTypeParameters");
        assert!(e.detail.contains("not modelled"), "{e}");
    }
    err_at(&format!("SelectTypeParameters=CR_Whatever\n{MIN}"), 1, "SelectTypeParameters");
}

#[test]
fn ignored_lines_listed() {
    let text = "Include /etc/slurm/other.conf\nDownNodes=n1 State=DOWN Reason=x\nNodeSet=ns Nodes=n1\n\
                NodeName=n1 NodeAddr=10.0.0.1 NodeHostname=h Port=1 Features=a,b State=IDLE\n\
                PartitionName=p Nodes=n1 AllowGroups=ALL\n";
    let conf = ok(text);
    assert_eq!(
        ignored(&conf),
        [
            (1, "Include"),
            (2, "DownNodes"),
            (3, "NodeSet"),
            (4, "NodeAddr"),
            (4, "NodeHostname"),
            (4, "Port"),
            (4, "State"),
            (5, "AllowGroups")
        ]
    );
    // Features are modelled (`slasim_slurm::features`): not listed.
    assert!(unmodelled(&conf).is_empty());
    assert_eq!(conf.nodes[0].features, ["a", "b"]);
}

/// What a campus slurm.conf configures beyond priority and the schedulers.
const SITE: &str = "\
PreemptType=preempt/partition_prio
PreemptMode=REQUEUE
PreemptExemptTime=0:10:00
TRESBillingWeights=CPU=1.0,Mem=0.25G,GRES/gpu=2.0
DefMemPerCPU=2000
MaxMemPerCPU=UNLIMITED
EnforcePartLimits=ALL
AccountingStorageEnforce=safe,qos
SchedulerParameters=bf_max_job_user=20,bf_max_job_part=0,bf_continue
NodeName=c[1-2] CPUs=8 Feature=skylake,ib
NodeName=g1 CPUs=8 Features=a100
PartitionName=DEFAULT PreemptMode=OFF
PartitionName=batch Nodes=c[1-2] Default=YES QOS=part_batch
PartitionName=scavenger Nodes=ALL PreemptMode=GANG,SUSPEND TRESBillingWeights=CPU=0.5 DefMemPerCPU=1000 MaxMemPerCPU=4000
";

#[test]
fn site_settings_read_not_modelled() {
    let conf = ok(SITE);
    let site = &conf.site;
    assert_eq!(site.preempt.preempt_type, PreemptType::PartitionPrio);
    assert_eq!(site.preempt.mode.action, slasim_slurm::sacctmgr::PreemptAction::Requeue);
    assert_eq!(site.preempt.exempt_time, Some(600));
    // Mem=0.25G is 0.25 per GiB: 0.25/1024 per MiB.
    assert_eq!(
        site.billing_weights,
        [("cpu".to_string(), 1.0), ("mem".to_string(), 0.25 / 1024.0), ("gres/gpu".to_string(), 2.0)]
    );
    assert_eq!((site.def_mem_per_cpu, site.max_mem_per_cpu), (Some(2000), None));
    assert_eq!(site.enforce_part_limits, EnforcePartLimits::All);
    // safe implies limits and associations.
    let e = site.accounting_enforce;
    assert!(e.safe && e.limits && e.associations && e.qos && !e.wckeys && !e.nojobs);
    assert_eq!((conf.scheduler.bf_max_job_user, conf.scheduler.bf_max_job_part), (20, 0));
    assert_eq!(conf.nodes[0].features, ["skylake", "ib"]);
    assert_eq!(conf.nodes[2].features, ["a100"]);
    let batch = &conf.partitions[0];
    assert_eq!(batch.preempt_mode, Some(PREEMPT_OFF));
    assert_eq!((batch.billing_weights.as_ref(), batch.def_mem_per_cpu), (None, None));
    assert_eq!((batch.qos.as_deref(), conf.partitions[1].qos.as_deref()), (Some("part_batch"), None));
    let scavenger = &conf.partitions[1];
    let mode = scavenger.preempt_mode.expect("a mode");
    assert!(mode.gang && mode.action == slasim_slurm::sacctmgr::PreemptAction::Suspend);
    assert_eq!(scavenger.billing_weights, Some(vec![("cpu".to_string(), 0.5)]));
    assert_eq!((scavenger.def_mem_per_cpu, scavenger.max_mem_per_cpu), (Some(1000), Some(4000)));
    // Everything that changes what Slurm does is listed; defaults are not
    // (MaxMemPerCPU=UNLIMITED, bf_max_job_part=0 are what the twin does),
    // nor TRESBillingWeights, Features, DefMemPerCPU and MaxMemPerCPU, and
    // preemption by CANCEL, REQUEUE or OFF, and the partition QOS,
    // modelled (SUSPEND and GANG are listed).
    assert_eq!(unmodelled(&conf), [(14, "PartitionName=scavenger PreemptMode"),]);
    // None of them is in the ignored list.
    assert!(conf.ignored.is_empty(), "{:?}", conf.ignored);
}

#[test]
fn site_defaults_are_not_listed() {
    let conf = ok(&format!(
        "PreemptType=preempt/none
PreemptMode=OFF
PreemptExemptTime=-1
EnforcePartLimits=NO
         AccountingStorageEnforce=
DefMemPerCPU=0
PriorityWeightQOS=0
{MIN}"
    ));
    assert!(conf.unmodelled.is_empty(), "{:?}", conf.unmodelled);
    assert_eq!(conf.site, SiteSettings::default());
    // YES is ANY; `all` is everything but nojobs and nosteps.
    let conf = ok(&format!(
        "EnforcePartLimits=yes
AccountingStorageEnforce=all
{MIN}"
    ));
    assert_eq!(conf.site.enforce_part_limits, EnforcePartLimits::Any);
    let e = conf.site.accounting_enforce;
    assert!(e.associations && e.limits && e.qos && e.safe && e.wckeys && !e.nojobs && !e.nosteps);
    let e = ok(&format!(
        "AccountingStorageEnforce=nojobs
{MIN}"
    ))
    .site
    .accounting_enforce;
    assert!(e.nojobs && e.nosteps && !e.associations);
}

#[test]
fn site_errors() {
    let e = err_at(
        &format!(
            "PreemptType=preempt/job_prio
{MIN}"
        ),
        1,
        "PreemptType",
    );
    assert!(e.detail.contains("preempt/job_prio"), "{e}");
    err_at(
        &format!(
            "PreemptMode=KILL
{MIN}"
        ),
        1,
        "PreemptMode",
    );
    let e = err_at(
        &format!(
            "PreemptMode=CANCEL,REQUEUE
{MIN}"
        ),
        1,
        "PreemptMode",
    );
    assert!(e.detail.contains("more than one"), "{e}");
    err_at(
        &format!(
            "PreemptMode=GANG,WITHIN
{MIN}"
        ),
        1,
        "PreemptMode",
    );
    err_at(
        &format!(
            "PreemptExemptTime=soon
{MIN}"
        ),
        1,
        "PreemptExemptTime",
    );
    err_at(
        &format!(
            "TRESBillingWeights=CPU
{MIN}"
        ),
        1,
        "TRESBillingWeights",
    );
    err_at(
        &format!(
            "TRESBillingWeights=Mem=0.25X
{MIN}"
        ),
        1,
        "TRESBillingWeights",
    );
    err_at(
        &format!(
            "TRESBillingWeights=CPU=1,cpu=2
{MIN}"
        ),
        1,
        "TRESBillingWeights",
    );
    err_at(
        &format!(
            "DefMemPerCPU=2G
{MIN}"
        ),
        1,
        "DefMemPerCPU",
    );
    err_at(
        &format!(
            "MaxMemPerCPU=-5
{MIN}"
        ),
        1,
        "MaxMemPerCPU",
    );
    err_at(
        &format!(
            "EnforcePartLimits=SOME
{MIN}"
        ),
        1,
        "EnforcePartLimits",
    );
    let e = err_at(
        &format!(
            "AccountingStorageEnforce=limits,quotas
{MIN}"
        ),
        1,
        "AccountingStorageEnforce",
    );
    assert!(e.detail.contains("quotas"), "{e}");
    err_at(
        &format!(
            "SchedulerParameters=bf_max_job_user=many
{MIN}"
        ),
        1,
        "SchedulerParameters bf_max_job_user",
    );
    err_at(
        &format!(
            "SchedulerParameters=bf_max_job_part
{MIN}"
        ),
        1,
        "SchedulerParameters bf_max_job_part",
    );
    err_at(
        "NodeName=n1
PartitionName=p Nodes=n1 PreemptMode=sometimes
",
        2,
        "PartitionName=p PreemptMode",
    );
    err_at(
        "NodeName=n1
PartitionName=p Nodes=n1 TRESBillingWeights=CPU=x
",
        2,
        "PartitionName=p TRESBillingWeights",
    );
    err_at(
        "NodeName=n1
PartitionName=p Nodes=n1 MaxMemPerCPU=4T
",
        2,
        "PartitionName=p MaxMemPerCPU",
    );
}

#[test]
fn time_syntax() {
    let cases = [
        ("10", Some(600)),
        ("10:30", Some(630)),
        ("1:02:03", Some(3723)),
        ("2-3", Some(2 * 86_400 + 3 * 3600)),
        ("2-3:04", Some(2 * 86_400 + 3 * 3600 + 240)),
        ("2-3:04:05", Some(2 * 86_400 + 3 * 3600 + 245)),
        ("0", Some(0)),
        ("UNLIMITED", None),
        ("infinite", None),
        ("-1", None),
    ];
    for (text, want) in cases {
        assert_eq!(parse_time(text), Ok(want), "{text}");
    }
    for bad in ["", "x", "1:2:3:4", "1-2:3:4:5", "-5", "1-", "1.5", "1:-2", "99999999999999999999", "213503982334601-0"]
    {
        assert!(parse_time(bad).is_err(), "{bad}");
    }
}

#[test]
fn odd_input_never_panics() {
    let odd = [
        "",
        "\\",
        "=",
        "==",
        "\"",
        "#",
        "NodeName",
        "NodeName=",
        "NodeName=\"\"",
        "NodeName=é[1-2]ü CPUs=ß",
        "PartitionName=ü Nodes=é",
        "NodeName=[",
        "NodeName=]",
        "NodeName=a[1-2",
        "Gres=gpu:",
        "NodeName=x Gres=(((",
        "NodeName=x Gres=gpu:2(S:0",
        "SchedulerParameters==,=,bf_window=",
        "PriorityWeightTRES==,=1",
        "NodeName=DEFAULT\nPartitionName=DEFAULT",
        "NodeName=a\u{00a0}b",
        "\u{feff}NodeName=a",
    ];
    for text in odd {
        let _ = p(text);
        let _ = p(&format!("{text}\n{MIN}"));
        let _ = p(&format!("{MIN}{text}\n"));
    }
    assert_eq!(ok(&format!("\u{feff}{MIN}")).nodes.len(), 1);
}

proptest::proptest! {
    #[test]
    fn arbitrary_text_never_panics(text in "(?s).{0,200}") {
        let _ = p(&text);
        let _ = p(&format!("{MIN}{text}"));
    }

    #[test]
    fn structured_text_never_panics(text in "([A-Za-z=\\[\\]0-9,:\\-\"#\\\\() \n]|NodeName=|PartitionName=|Gres=gpu){0,60}") {
        let _ = p(&text);
        let _ = p(&format!("{MIN}{text}"));
    }
}

/// `JobRequeue`: 1 by default, 0 or 1 as written; anything else is a
/// located error. The requeue delay is `AuthInfo`'s `cred_expire` + 1.
#[test]
fn job_requeue_is_read() {
    let base = "NodeName=n1 CPUs=4\nPartitionName=p Nodes=n1\n";
    let conf = ok(base);
    assert!(conf.site.requeue.allowed);
    assert_eq!(conf.site.requeue.delay, 121);
    let conf = ok(&format!("JobRequeue=0\nAuthInfo=auth/munge,cred_expire=300\n{base}"));
    assert!(!conf.site.requeue.allowed);
    assert_eq!(conf.site.requeue.delay, 301);
    assert!(conf.ignored.iter().chain(&conf.unmodelled).all(|i| i.key != "JobRequeue"));
    let e = err_at(&format!("{base}JobRequeue=yes\n"), 3, "JobRequeue");
    assert_eq!(e.detail, "not 0 or 1: `yes`");
}
