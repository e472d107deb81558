//! GPU-era traces (`slasim_core::trace::gpu`): every shipped job file reads
//! with the documented drops, counted here independently of the reader, and
//! the default v2023 pods run through EASY with a clean GPU capacity audit.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};

use slasim::trace::gpu;

use crate::common;

fn gpu_dir() -> PathBuf {
    common::traces().join("gpu")
}

/// Rows and rows the documented rules keep, counted from the raw CSV.
fn count(path: &Path) -> (u64, u64) {
    let raw = std::fs::File::open(path).unwrap();
    let lines = BufReader::new(flate2::read::MultiGzDecoder::new(raw)).lines().map(Result::unwrap);
    let mut lines = lines.filter(|l| !l.trim().is_empty());
    let header: Vec<String> = lines.next().unwrap().split(',').map(str::to_string).collect();
    let col = |name: &str| header.iter().position(|c| c == name);
    let (mut rows, mut kept) = (0, 0);
    for line in lines {
        rows += 1;
        let f: Vec<&str> = line.split(',').collect();
        let keep = match (col("scheduled_time"), col("gpu_request")) {
            (Some(s), None) => !f[s].is_empty() && f[col("num_gpu").unwrap()] != "0",
            (Some(_), Some(g)) => f[g] != "0" && !f[col("creation_time").unwrap()].is_empty(),
            _ => true,
        };
        kept += u64::from(keep);
    }
    (rows, kept)
}

#[test]
fn every_shipped_job_file_reads_with_the_documented_drops() {
    // Row counts from SOURCES.md.
    let documented = [
        ("alibaba/cluster-trace-gpu-v2023/openb_pod_list_default.csv.gz", 8152),
        ("alibaba/cluster-trace-gpu-v2023/openb_pod_list_cpu300.csv.gz", 10094),
        ("alibaba/cluster-trace-gpu-v2023/openb_pod_list_gpushare100.csv.gz", 8152),
        ("alibaba/cluster-trace-gpu-v2023/openb_pod_list_gpuspec33.csv.gz", 8152),
        ("alibaba/cluster-trace-gpu-v2025/disaggregated_DLRM_trace.csv.gz", 23871),
        ("gaia-derived/pai_1k.csv.gz", 1000),
        ("gaia-derived/azure-100k.csv.gz", 99988),
    ];
    for (name, rows) in documented {
        let path = gpu_dir().join(name);
        let (counted, kept) = count(&path);
        assert_eq!(counted, rows, "{name}: rows");
        let (trace, drops) = gpu::load_with_drops(&path).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(drops.rows, rows, "{name}");
        assert_eq!(trace.records.len() as u64, kept, "{name}: kept");
        assert_eq!(trace.records.len() as u64, rows - drops.total(), "{name}");
        assert!(trace.records.iter().all(|r| r.runtime >= 0 && r.wait >= 0 && r.requested_procs > 0), "{name}");
    }
    // Every other v2023 pod file with times reads too; multigpu files are refused.
    for entry in std::fs::read_dir(gpu_dir().join("alibaba/cluster-trace-gpu-v2023")).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if name.contains("multigpu") {
            assert!(gpu::load(&path).unwrap_err().to_string().contains("resource columns only"), "{name}");
        } else if name.contains("pod_list") {
            let (_, kept) = count(&path);
            assert_eq!(gpu::load(&path).unwrap().records.len() as u64, kept, "{name}");
        } else {
            assert!(!gpu::read_nodes(&path).unwrap().is_empty(), "{name}");
        }
    }
    let nodes = gpu::read_nodes(&gpu_dir().join("alibaba/cluster-trace-v2026-spot-gpu/node_info_df.csv.gz")).unwrap();
    assert_eq!((nodes.len(), nodes.iter().map(|n| n.gpus).sum::<u64>()), (4278, 10412));
    let openb =
        gpu::read_nodes(&gpu_dir().join("alibaba/cluster-trace-gpu-v2023/openb_node_list_gpu_node.csv.gz")).unwrap();
    assert_eq!((openb.len(), openb.iter().map(|n| n.gpus).sum::<u64>()), (1213, 6212));
}

#[test]
fn default_pods_run_through_easy_within_the_gpus() {
    let trace = gpu_dir().join("alibaba/cluster-trace-gpu-v2023/openb_pod_list_default.csv.gz");
    let (_, kept) = count(&trace);
    let out = common::slasim().args(["trace", "info", trace.to_str().unwrap()]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let info = String::from_utf8_lossy(&out.stdout);
    assert!(info.contains("MaxProcs      6212"), "{info}");
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("gpu.sqlite");
    let out = common::slasim()
        .args(["run", "--trace", trace.to_str().unwrap(), "--strategy", "easy", "--failures", "none", "--whole-log"])
        .args(["--db", db.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let c = rusqlite::Connection::open(&db).unwrap();
    let mut q = c.prepare("SELECT nodes, actual_start, actual_end FROM jobs").unwrap();
    let jobs: Vec<(i64, Option<i64>, Option<i64>)> =
        q.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?))).unwrap().collect::<Result<_, _>>().unwrap();
    assert_eq!(jobs.len() as u64, kept);
    // Capacity audit: at every event, the GPUs in use stay within the 6,212.
    let mut events: Vec<(i64, i64)> = Vec::new();
    for (gpus, start, end) in jobs {
        let (Some(start), Some(end)) = (start, end) else { panic!("a job never ran") };
        events.push((start, gpus));
        events.push((end, -gpus));
    }
    events.sort_by_key(|&(t, delta)| (t, delta));
    let mut used = 0;
    for (t, delta) in events {
        used += delta;
        assert!(used <= 6212, "{used} GPUs in use at {t}");
    }
}

/// The job-picking environment reads a GPU trace as slasim's runs do: one
/// job per kept pod, the cluster's GPUs as the machine, and an episode of
/// first-come first-served picks never holds more GPUs than there are.
#[test]
fn the_job_picking_environment_counts_gpus() {
    use slasim::gym::pick::jobs::{Estimates, JobTable};
    use slasim::gym::pick::{Options, PickJobs};
    use std::sync::Arc;

    let pods = gpu_dir().join("alibaba/cluster-trace-gpu-v2023/openb_pod_list_default.csv.gz");
    let (_, kept) = count(&pods);
    let jobs = Arc::new(JobTable::load(&pods, Estimates::Logged).unwrap());
    assert_eq!(jobs.len() as u64, kept);
    assert_eq!((jobs.max_procs, jobs.total_nodes), (6212, 6212), "one GPU a node of the environment's machine");
    let mut env = PickJobs::new(Arc::clone(&jobs), Options::default()).unwrap();
    env.seed(3);
    env.reset(None).unwrap();
    loop {
        let free = env.state().free_nodes;
        assert!((0..=6212).contains(&free));
        let first = (0..env.visible().len()).min_by_key(|&r| jobs.submit[env.visible()[r] as usize]).unwrap();
        if env.step(first as i64).unwrap().terminated {
            break;
        }
    }
}
