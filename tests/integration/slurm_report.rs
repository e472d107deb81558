//! `slasim report` on a store of Slurm points: the Slurm tables (per point,
//! per partition, per user), and none on a store without Slurm points.

use crate::common;

use std::path::Path;

fn s(p: &Path) -> String {
    p.to_str().unwrap().to_string()
}

fn run(args: &[&str]) {
    let out = common::slasim().args(args).output().unwrap();
    assert!(
        out.status.success(),
        "slasim {}: {}{}",
        args.join(" "),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A CSV table of the report: its header and rows (no cell holds a comma).
fn csv(dir: &Path, id: &str) -> (Vec<String>, Vec<Vec<String>>) {
    let path = dir.join("tables").join(format!("{id}.csv"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut lines = text.lines();
    let header: Vec<String> = lines.next().unwrap().split(',').map(str::to_string).collect();
    let rows = lines.map(|l| l.split(',').map(str::to_string).collect()).collect();
    (header, rows)
}

/// The `<text>` contents of an SVG, trimmed.
fn texts(svg: &str) -> Vec<String> {
    svg.split("<text")
        .skip(1)
        .filter_map(|t| Some(t.split_once('>')?.1.split_once("</text>")?.0.trim().to_string()))
        .collect()
}

fn column(header: &[String], name: &str) -> usize {
    header.iter().position(|h| h == name).unwrap_or_else(|| panic!("no column {name} in {header:?}"))
}

/// Sweeps config `name` (the synthetic workload of `days` on the GPU
/// machine, one sweep over `axes`) into `dir` and reports it: the store and
/// the report's directory.
fn swept_and_reported(dir: &Path, name: &str, days: f64, axes: &str) -> (std::path::PathBuf, std::path::PathBuf) {
    let conf = Path::new(env!("CARGO_MANIFEST_DIR")).join("configs/slurm/gpu-machine.conf");
    let config = dir.join(format!("{name}.toml"));
    std::fs::write(
        &config,
        format!(
            "name = \"{name}\"\n[slurm]\nconf = \"{}\"\nsynthetic = {{ days = {days:?}, load = 0.9 }}\n\
             [[sweep]]\nname = \"w\"\n[sweep.axes]\n{axes}\n",
            conf.display()
        ),
    )
    .unwrap();
    let db = dir.join("slurm.sqlite");
    let out = dir.join("report");
    run(&["sweep", &s(&config), "--db", &s(&db), "--no-progress"]);
    run(&["report", "--db", &s(&db), "--out", &s(&out)]);
    (db, out)
}

#[test]
fn a_slurm_store_reports_points_partitions_and_users() {
    let dir = tempfile::tempdir().unwrap();
    let (db, out) = swept_and_reported(dir.path(), "slurm-small", 2.0, "priority_weight_age = [0, 4000]");

    for id in ["slurm", "slurm-partitions", "slurm-users"] {
        for ext in ["md", "csv", "parquet"] {
            assert!(out.join("tables").join(format!("{id}.{ext}")).is_file(), "no {id}.{ext}");
        }
    }
    let (header, points) = csv(&out, "slurm");
    assert_eq!(points.len(), 2, "{points:?}");
    let (id, jobs, age) =
        (column(&header, "point_id"), column(&header, "jobs"), column(&header, "priority_weight_age"));
    for name in ["mean_wait_h", "median_wait_h", "max_wait_h", "mean_bounded_slowdown", "cpu_utilisation_pct"] {
        column(&header, name);
    }
    column(&header, "gpu_utilisation_pct");
    column(&header, "backfilled_pct");
    // Ordered by the swept setting.
    let ages: Vec<f64> = points.iter().map(|r| r[age].parse().unwrap()).collect();
    assert_eq!(ages, vec![0.0, 4000.0]);

    let (pheader, partitions) = csv(&out, "slurm-partitions");
    let (pid, pname, pjobs, gpus, gpu_util) = (
        column(&pheader, "point_id"),
        column(&pheader, "partition"),
        column(&pheader, "jobs"),
        column(&pheader, "gpus"),
        column(&pheader, "gpu_utilisation_pct"),
    );
    let (uheader, users) = csv(&out, "slurm-users");
    let (uid, ujobs, uwait) = (column(&uheader, "point_id"), column(&uheader, "jobs"), column(&uheader, "mean_wait_h"));
    for point in &points {
        let names: Vec<&str> = partitions.iter().filter(|r| r[pid] == point[id]).map(|r| r[pname].as_str()).collect();
        assert_eq!(names, vec!["cpu", "gpu"], "partitions of point {}", point[id]);
        let total: i64 = point[jobs].parse().unwrap();
        assert!(total > 0);
        let sum = |rows: &[Vec<String>], key: usize, count: usize| -> i64 {
            rows.iter().filter(|r| r[key] == point[id]).map(|r| r[count].parse::<i64>().unwrap()).sum()
        };
        assert_eq!(sum(&partitions, pid, pjobs), total);
        assert_eq!(sum(&users, uid, ujobs), total, "users of point {}", point[id]);
        // The GPU partition has 25 nodes of 4 GPUs; its utilisation is known.
        let gpu = partitions.iter().find(|r| r[pid] == point[id] && r[pname] == "gpu").unwrap();
        assert_eq!(gpu[gpus], "100");
        let used: f64 = gpu[gpu_util].parse().unwrap();
        assert!((0.0..=100.0).contains(&used), "{used}");
        // Users: longest mean wait first within a point.
        let waits: Vec<f64> = users
            .iter()
            .filter(|r| r[uid] == point[id])
            .map(|r| r[uwait].parse::<f64>().unwrap_or(f64::NEG_INFINITY))
            .collect();
        assert!(waits.windows(2).all(|w| w[0] >= w[1]), "{waits:?}");
    }
    // The users' points come in the slurm table's order.
    let mut order: Vec<&str> = users.iter().map(|r| r[uid].as_str()).collect();
    order.dedup();
    assert_eq!(order, points.iter().map(|r| r[id].as_str()).collect::<Vec<_>>());

    let html = std::fs::read_to_string(out.join("index.html")).unwrap();
    for id in ["slurm", "slurm-partitions", "slurm-users"] {
        assert!(html.contains(&format!("data-table=\"{id}\"")), "index.html lacks table {id}");
    }
    assert!(html.contains("Slurm: scheduling settings"));
    assert!(html.contains("data-plot=\"slurm-partition-wait\""));
    // Each partition named in the wait figures' legends, waits in a unit
    // of their scale, and the distribution per partition beside them.
    for plot in ["slurm-partition-wait", "slurm-wait-distribution"] {
        let svg = std::fs::read_to_string(out.join("plots").join(format!("{plot}.svg"))).unwrap();
        for partition in ["cpu", "gpu"] {
            assert!(texts(&svg).iter().any(|t| t == partition), "{plot} does not name partition {partition}");
        }
        assert!(["wait (s", "wait (min", "wait (h"].iter().any(|u| svg.contains(u)), "{plot}");
        assert!(out.join("plots").join(format!("{plot}.png")).is_file());
    }
    let md = std::fs::read_to_string(out.join("report.md")).unwrap();
    assert!(md.contains("### Slurm: wait and usage per partition"));

    // One table printed alone.
    let one = common::slasim().args(["report", "--db", &s(&db), "--table", "slurm-partitions"]).output().unwrap();
    assert!(one.status.success(), "{}", String::from_utf8_lossy(&one.stderr));
    assert!(String::from_utf8_lossy(&one.stdout).contains("| gpu |"));
}

#[test]
fn a_one_point_slurm_store_plots_its_wait_distribution() {
    let dir = tempfile::tempdir().unwrap();
    let (_, out) = swept_and_reported(dir.path(), "slurm-one", 1.0, "seed = [1]");
    let plots = out.join("plots");
    assert!(!plots.join("slurm-partition-wait.svg").exists(), "one point has no wait curve");
    let svg = std::fs::read_to_string(plots.join("slurm-wait-distribution.svg")).unwrap();
    for partition in ["cpu", "gpu"] {
        let named = texts(&svg).iter().any(|t| t.starts_with(&format!("{partition} (")));
        assert!(named, "the distribution does not name partition {partition}");
    }
}

#[test]
fn a_store_without_slurm_points_has_no_slurm_tables() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("quick.sqlite");
    let out = dir.path().join("report");
    let config = Path::new(env!("CARGO_MANIFEST_DIR")).join("configs/quick.toml");
    run(&["sweep", &s(&config), "--db", &s(&db), "--no-progress"]);
    run(&["report", "--db", &s(&db), "--out", &s(&out)]);
    for id in ["slurm", "slurm-partitions", "slurm-users"] {
        assert!(!out.join("tables").join(format!("{id}.csv")).exists(), "{id} in a store without Slurm points");
    }
    let html = std::fs::read_to_string(out.join("index.html")).unwrap();
    assert!(!html.contains("data-table=\"slurm"));
}
