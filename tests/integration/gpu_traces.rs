//! GPU-era traces (`slasim_data::trace::gpu`): every shipped job file reads
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

/// Every shipped GPU-era job file with times (the 20 v2023 pod lists, the
/// v2025 instances, the 4 GAIA slices), as the Must show asks: read
/// and summarised by `trace info`, then run through the Slurm twin on the
/// machine described from the trace and through EASY on that machine's
/// size. Both keep every job the documented rules keep (counted from the raw
/// CSV here), and neither schedule ever holds more than there is: per node
/// (CPUs, memory, GPUs) for the twin, in the counted resource for EASY.
#[test]
fn every_shipped_job_trace_runs_on_the_slurm_twin_and_easy() {
    let mut traces: Vec<PathBuf> = std::fs::read_dir(gpu_dir().join("alibaba/cluster-trace-gpu-v2023"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            let name = p.file_name().unwrap().to_string_lossy();
            name.contains("pod_list") && !name.contains("multigpu")
        })
        .collect();
    traces.sort();
    assert_eq!(traces.len(), 20, "v2023 pod lists with times");
    traces.push(gpu_dir().join("alibaba/cluster-trace-gpu-v2025/disaggregated_DLRM_trace.csv.gz"));
    for gaia in ["pai_1k", "pai-100k", "azure-100k", "mustang-trace-2015-100k"] {
        traces.push(gpu_dir().join(format!("gaia-derived/{gaia}.csv.gz")));
    }
    let dir = tempfile::tempdir().unwrap();
    for (i, trace) in traces.iter().enumerate() {
        let name = trace.file_name().unwrap().to_string_lossy().into_owned();
        let path = trace.to_str().unwrap();
        let (_, kept) = count(trace);
        let (ok, info, err) = common::run(&["trace", "info", path]);
        assert!(ok, "{name}: {err}");
        assert!(info.contains(&format!("jobs          {}", slasim::units::thousands(kept as usize))), "{name}: {info}");

        // The machine the twin runs on, as slurmctld would read it.
        let read = gpu::read_jobs(trace).unwrap();
        let text = slasim::slurm::gpu::machine(trace, &read).unwrap();
        let conf = slasim::slurm::conf::parse(&text, Path::new("generated")).unwrap();
        let counts_gpus = read.counts_gpus();

        let db = dir.path().join(format!("twin-{i}.sqlite"));
        let (ok, _, err) = common::run(&["slurm", "run", "--trace", path, "--db", db.to_str().unwrap()]);
        assert!(ok, "{name}: {err}");
        let c = rusqlite::Connection::open(&db).unwrap();
        let mut q = c.prepare("SELECT first_node, start, \"end\", cpus, mem_mib, gpus FROM slurm_jobs").unwrap();
        let jobs: Vec<(String, i64, i64, i64, i64, i64)> = q
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?, r.get(5)?)))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        assert_eq!(jobs.len() as u64, kept, "{name}: twin jobs");
        let mut per_node: std::collections::BTreeMap<&str, Vec<(i64, [i64; 3])>> = Default::default();
        for (node, start, end, cpus, mem, gpus) in &jobs {
            assert!(*start >= 0 && end >= start, "{name}: a job never ran on the twin");
            let events = per_node.entry(node.as_str()).or_default();
            events.push((*start, [*cpus, *mem, *gpus]));
            events.push((*end, [-cpus, -mem, -gpus]));
        }
        for (node, mut events) in per_node {
            let n = conf.nodes.iter().find(|n| n.name == node).unwrap_or_else(|| panic!("{name}: node {node}"));
            let mem_limit = if text.contains("CR_Core_Memory") { n.real_memory_mib as i64 } else { i64::MAX };
            let capacity = [i64::from(n.cpus), mem_limit, i64::from(n.gpus)];
            events.sort_by_key(|&(t, d)| (t, d[0] + d[2]));
            let mut used = [0i64; 3];
            for (t, delta) in events {
                for k in 0..3 {
                    used[k] += delta[k];
                    assert!(used[k] <= capacity[k], "{name}: node {node} over its capacity {capacity:?} at {t}");
                }
            }
        }

        // EASY on the same machine's size, in the counted resource.
        let size: u64 = conf.nodes.iter().map(|n| u64::from(if counts_gpus { n.gpus } else { n.cpus })).sum();
        let db = dir.path().join(format!("easy-{i}.sqlite"));
        let capacity = size.to_string();
        let (ok, _, err) = common::run(&[
            "run",
            "--trace",
            path,
            "--strategy",
            "easy",
            "--failures",
            "none",
            "--whole-log",
            "--capacity",
            &capacity,
            "--db",
            db.to_str().unwrap(),
        ]);
        assert!(ok, "{name}: {err}");
        let c = rusqlite::Connection::open(&db).unwrap();
        let mut q = c.prepare("SELECT nodes, actual_start, actual_end FROM jobs").unwrap();
        let jobs: Vec<(i64, Option<i64>, Option<i64>)> =
            q.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?))).unwrap().collect::<Result<_, _>>().unwrap();
        assert_eq!(jobs.len() as u64, kept, "{name}: EASY jobs");
        let mut events: Vec<(i64, i64)> = Vec::new();
        for (procs, start, end) in jobs {
            let (Some(start), Some(end)) = (start, end) else { panic!("{name}: a job never ran under EASY") };
            events.push((start, procs));
            events.push((end, -procs));
        }
        events.sort_unstable();
        let mut used = 0;
        for (t, delta) in events {
            used += delta;
            assert!(used <= size as i64, "{name}: {used} of {size} in use at {t} under EASY");
        }
    }
}

/// The v2023 default pods as they ask (CPU-only pods, shares of a card,
/// models), on their own 1,213-node machine, planned by conservative
/// backfilling under every node choice: no node holds more than it has in
/// any resource at any instant, every accepted pod ends by its deadline, and
/// `gpu_spec` restricts the models.
#[test]
fn default_pods_plan_on_their_own_machine_as_they_ask() {
    use std::sync::Arc;

    use slasim::experiment::registry::Entries;
    use slasim::machine::{Gpus, MILLI, Machine};
    use slasim::single::cluster::strategy::Outcome;
    use slasim::single::plan::node_choice::NodeChoices;
    use slasim::single::policy::on_machine::conservative_backfilling;
    use slasim::single::workload::{pods, sla};

    let dir = gpu_dir().join("alibaba/cluster-trace-gpu-v2023");
    let path = dir.join("openb_pod_list_default.csv.gz");
    let list = dir.join("openb_node_list_gpu_node.csv.gz");
    let machine = Arc::new(Machine::from_gpu_nodes(&gpu::read_nodes(&list).unwrap(), &list).unwrap());
    assert_eq!((machine.len(), machine.total().gpus, machine.models.len()), (1213, 6212, 7));
    let read = gpu::read_pods(&path).unwrap();
    let rule = sla::SlaTermsRules::builtin().into_iter().find(|r| r.name == "qos-classes").unwrap();
    let jobs = pods::jobs(&path, &read, &machine, rule, 2.0, 1.0).unwrap();
    // 8,152 rows, 897 never scheduled; CPU-only pods kept.
    assert_eq!(jobs.len(), 7255);
    let shares = jobs.iter().filter(|j| matches!(j.request.gpus, Gpus::Share(_))).count();
    let cpu_only = jobs.iter().filter(|j| j.request.gpus == Gpus::Whole(0)).count();
    assert!(shares > 2000 && cpu_only > 900, "{shares} shares, {cpu_only} CPU-only");
    // The default pods name no model; a third of `gpuspec33`'s do.
    let spec_path = dir.join("openb_pod_list_gpuspec33.csv.gz");
    let spec_jobs = pods::jobs(&spec_path, &gpu::read_pods(&spec_path).unwrap(), &machine, rule, 2.0, 1.0).unwrap();
    let modelled = spec_jobs.iter().filter(|j| j.request.models != 0).count();
    assert!(modelled > 2000, "{modelled} modelled");
    let requests: Vec<_> = jobs.iter().map(|j| j.request.clone()).collect();
    let spec_requests: Vec<_> = spec_jobs.iter().map(|j| j.request.clone()).collect();
    let runs = NodeChoices::builtin().into_iter().map(|info| (info, &jobs, &requests));
    let first_fit = NodeChoices::builtin()[0];
    for (info, jobs, requests) in runs.chain([(first_fit, &spec_jobs, &spec_requests)]) {
        let choice = (info.build)(requests);
        let begun = std::time::Instant::now();
        let none = slasim::single::workload::failures::FailureStream::none(machine.len() as u32);
        let decisions = conservative_backfilling(machine.clone(), jobs, choice.as_ref(), &none).unwrap();
        let accepted = decisions.iter().filter(|d| d.outcome == Outcome::Success).count();
        eprintln!("{}: {accepted} of {} accepted in {:?}", info.name, jobs.len(), begun.elapsed());
        // Every node's use, at every start on it.
        let mut on: Vec<Vec<(i64, i64, usize, slasim::single::plan::Cards)>> = vec![Vec::new(); machine.len()];
        for (i, (d, j)) in decisions.iter().zip(jobs.iter()).enumerate() {
            let Some(p) = &d.placement else { continue };
            assert!(d.end.unwrap() <= j.job.deadline);
            for &(n, cards) in &p.nodes {
                let model = machine.gpu_model[n as usize];
                assert!(j.request.models == 0 || model.is_some_and(|m| j.request.models & (1 << m) != 0));
                on[n as usize].push((p.start, p.start + j.job.estimate, i, cards));
            }
        }
        for (n, spans) in on.iter().enumerate() {
            let size = machine.size[n];
            for &(t, ..) in spans {
                let at: Vec<_> = spans.iter().filter(|s| s.0 <= t && t < s.1).collect();
                let cpu: u64 = at.iter().map(|s| u64::from(jobs[s.2].request.cpu_milli)).sum();
                let mem: u64 = at.iter().map(|s| jobs[s.2].request.mem_mib).sum();
                assert!(cpu <= u64::from(size.cpus) * 1000 && mem <= size.mem_mib, "node {n} at {t}");
                for c in 0..size.gpus as usize {
                    assert!(at.iter().map(|s| u32::from(s.3.on(c))).sum::<u32>() <= u32::from(MILLI));
                }
            }
        }
    }
}
