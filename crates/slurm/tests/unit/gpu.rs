use std::path::Path;

use slasim_data::trace::gpu::{Drops, GpuFormat, GpuJob, GpuJobs};
use slasim_data::trace::sacct::jobs::Tres;
use slasim_slurm::gpu::{machine, workload};

fn jobs(rows: &[(i64, i64, u32, u32)]) -> GpuJobs {
    GpuJobs {
        format: GpuFormat::Instances2025,
        jobs: rows
            .iter()
            .enumerate()
            .map(|(i, &(start, end, cpus, gpus))| GpuJob {
                row: i as u64 + 1,
                line: i as u64 + 2,
                submit: start,
                start,
                end,
                cpus,
                gpus,
                cpu_milli: cpus * 1000,
                gpu_milli: 1000,
                spec: None,
                memory_mib: Some(1.5),
                queue: Some(1),
            })
            .collect(),
        drops: Drops::default(),
        max_gpus: None,
        specs: Vec::new(),
    }
}

#[test]
fn a_machine_without_a_node_list_holds_the_logged_peak() {
    // GPUs in use: [0,10) 1+2, [10,20) 2+1 → peak 3 GPUs on nodes of 2 GPUs → 2 nodes.
    // CPUs: peak 4+8 = 12 in [0,10) on nodes of 8 CPUs → 2 nodes. Memory 1.5 MiB → 2.
    // The job ending at 10 frees its share before the one starting at 10 takes it.
    let read = jobs(&[(0, 10, 4, 1), (0, 20, 8, 2), (10, 30, 4, 1)]);
    let text = machine(Path::new("/nonexistent/dlrm.csv"), &read).expect("no node list needed");
    assert!(text.contains("NodeName=n[1-2] CPUs=8 RealMemory=2 Gres=gpu:2 State=UNKNOWN\n"), "{text}");
    assert!(text.contains("GresTypes=gpu\n") && text.contains("PartitionName=batch Nodes=ALL"), "{text}");
}

#[test]
fn limits_are_whole_minutes() {
    let read = jobs(&[(0, 61, 1, 1), (5, 5, 1, 1)]);
    let w = workload(Path::new("t.csv"), &read);
    assert_eq!(w.jobs[0].time_limit, Some(120));
    assert_eq!(w.jobs[1].time_limit, Some(60));
    assert_eq!(w.qos, vec!["LS".to_string()]);
    assert_eq!(w.jobs[0].request, Tres { cpus: 1, mem_mib: 2, nodes: 1, gpus: 1 });
    assert_eq!(w.jobs[0].logged.as_ref().map(|l| (l.start, l.end)), Some((0, 61)));
}
