//! Gantt charts of a stored CTC-SP2 run: the SVG's bars are the run's
//! executions (each node set covered once, final executions at the stored
//! actual start and end), no node runs two bars at once, node failures are
//! drawn; bad input (unknown run, empty window) exits with status 1 naming it.

use crate::common;

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

use common::slasim;
use rusqlite::Connection;
use slasim::experiment::inputs::Inputs;
use slasim::experiment::point::Point;
use slasim::single::point::{SinglePoint, simulate_with_executions};

/// One battery of CTC-SP2 under heuristic overbooking with Poisson node
/// failures, stored in `dir`; its store and run id.
fn stored_run(dir: &Path) -> (PathBuf, i64) {
    let db = dir.join("gantt.sqlite");
    let out = slasim()
        .args([
            "run",
            "--trace",
            "CTC-SP2-1996-3.1-cln.swf.gz",
            "--strategy",
            "heuristic-overbooking",
            "--pof-max",
            "0.3",
            "--batteries",
            "1",
            "--battery-size",
            "400",
            "--failures",
            "poisson",
            "--seed",
            "3",
            "--jobs",
            "1",
            "--db",
        ])
        .arg(&db)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let conn = Connection::open(&db).unwrap();
    let run = conn.query_row("SELECT run_id FROM runs", [], |r| r.get(0)).unwrap();
    (db, run)
}

fn gantt(db: &Path, run: i64, extra: &[&str], out: &Path) -> std::process::Output {
    slasim()
        .args(["gantt", "--db"])
        .arg(db)
        .args(["--run", &run.to_string()])
        .args(extra)
        .arg("--out")
        .arg(out)
        .output()
        .unwrap()
}

/// The value of attribute `name` in one tag's text.
fn attr<'a>(tag: &'a str, name: &str) -> Option<&'a str> {
    let key = format!(" {name}=\"");
    let at = tag.find(&key)? + key.len();
    let len = tag[at..].find('"')?;
    Some(&tag[at..at + len])
}

fn num(tag: &str, name: &str) -> i64 {
    attr(tag, name).unwrap_or_else(|| panic!("no {name} in {tag}")).parse().unwrap()
}

/// The opening tags of the elements of class `class` (`<rect class="bar …`).
fn tags<'a>(svg: &'a str, class: &str) -> Vec<&'a str> {
    let open = format!("<rect class=\"{class}");
    svg.match_indices(&open).map(|(i, _)| &svg[i..i + svg[i..].find('>').unwrap()]).collect()
}

/// Bars by execution (job, start, end): the nodes each covers, in order.
fn bar_nodes(svg: &str) -> HashMap<(i64, i64, i64), Vec<u32>> {
    let mut by = HashMap::<_, Vec<u32>>::new();
    for tag in tags(svg, "bar") {
        let (first, last) = attr(tag, "data-nodes").unwrap().split_once('-').unwrap();
        let (first, last): (u32, u32) = (first.parse().unwrap(), last.parse().unwrap());
        assert!(first <= last, "{tag}");
        by.entry((num(tag, "data-job"), num(tag, "data-start"), num(tag, "data-end")))
            .or_default()
            .extend(first..=last);
    }
    by
}

#[test]
fn the_svg_bars_are_the_stored_executions() {
    let dir = tempfile::tempdir().unwrap();
    let (db, run) = stored_run(dir.path());
    let svg_path = dir.path().join("g.svg");
    let out = gantt(&db, run, &["--since", "0", "--until", "100000000000"], &svg_path);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let svg = std::fs::read_to_string(&svg_path).unwrap();

    // The executions, simulated again from the stored settings.
    let conn = Connection::open(&db).unwrap();
    let config: String = conn.query_row("SELECT config FROM runs WHERE run_id = ?1", [run], |r| r.get(0)).unwrap();
    let point: SinglePoint = toml::from_str(&config).unwrap();
    let inputs = Inputs::load(&[Point::new(point.clone())]).unwrap();
    let simulated = simulate_with_executions(&inputs, &point).unwrap();
    let mut executions = HashMap::new();
    for e in &simulated.cluster.executions {
        let mut nodes = e.nodes.clone();
        nodes.sort_unstable();
        assert!(executions.insert((i64::from(e.job), e.start, e.end), nodes).is_none());
    }
    assert!(executions.len() > 100, "a real run: {} executions", executions.len());

    // Each execution's node set covered exactly once by its bars, and no bar
    // that is not an execution.
    let mut bars = bar_nodes(&svg);
    for nodes in bars.values_mut() {
        nodes.sort_unstable();
    }
    assert_eq!(bars.len(), executions.len());
    for (key, nodes) in &executions {
        assert_eq!(bars.get(key), Some(nodes), "execution {key:?}");
    }

    // The final executions at the stored actual start and end; rejected jobs not drawn.
    let mut stmt =
        conn.prepare("SELECT job, actual_start, actual_end, outcome FROM job_outcomes WHERE run_id = ?1").unwrap();
    let stored: Vec<(i64, Option<i64>, Option<i64>, i64)> = stmt
        .query_map([run], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    let mut finals = 0;
    for (job, start, end, outcome) in &stored {
        match (start, end) {
            (Some(s), Some(e)) if *outcome != 3 => {
                assert!(bars.contains_key(&(*job, *s, *e)), "job {job}'s final execution {s}–{e} is not drawn");
                finals += 1;
            }
            _ => assert!(!bars.keys().any(|k| k.0 == *job), "job {job} never ran, yet it has a bar"),
        }
    }
    assert!(finals > 100 && stored.iter().any(|s| s.3 == 3), "accepted and rejected jobs: {finals}");

    // No node holds two bars at once.
    let mut per_node: BTreeMap<u32, Vec<(i64, i64)>> = BTreeMap::new();
    for (&(_, start, end), nodes) in &bars {
        for &n in nodes {
            per_node.entry(n).or_default().push((start, end));
        }
    }
    for (node, spans) in &mut per_node {
        spans.sort_unstable();
        for w in spans.windows(2) {
            assert!(w[0].1 <= w[1].0, "node {node}: {:?} overlaps {:?}", w[0], w[1]);
        }
    }

    // Every stored node failure is drawn as an outage on its node.
    let mut stmt = conn.prepare("SELECT node, time FROM node_events WHERE run_id = ?1 AND kind = 'fail'").unwrap();
    let mut fails: Vec<(i64, i64)> =
        stmt.query_map([run], |r| Ok((r.get(0)?, r.get(1)?))).unwrap().map(Result::unwrap).collect();
    let mut drawn: Vec<(i64, i64)> =
        tags(&svg, "outage").iter().map(|t| (num(t, "data-node"), num(t, "data-from"))).collect();
    fails.sort_unstable();
    drawn.sort_unstable();
    assert!(!fails.is_empty(), "the run saw node failures");
    assert_eq!(drawn, fails);
    assert!(svg.contains("class=\"bar failed") || svg.contains("class=\"bar interrupted"), "a failure hit a job");

    // Same store, same bytes.
    let again = dir.path().join("again.svg");
    assert!(gantt(&db, run, &["--since", "0", "--until", "100000000000"], &again).status.success());
    assert_eq!(std::fs::read(&again).unwrap(), svg.as_bytes());

    // The default window (the busiest week) and the other formats.
    let html = dir.path().join("g.html");
    let out = gantt(&db, run, &[], &html);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("busiest week") || stdout.contains("whole run"), "{stdout}");
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(page.contains("<svg") && page.contains("gantt-tip") && page.contains("data-job="));
    let png = dir.path().join("g.png");
    assert!(gantt(&db, run, &[], &png).status.success());
    assert!(std::fs::read(&png).unwrap().starts_with(b"\x89PNG"));

    // The report draws it too.
    let report = dir.path().join("report");
    let out = slasim().args(["report", "--db"]).arg(&db).arg("--out").arg(&report).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let index = std::fs::read_to_string(report.join("index.html")).unwrap();
    assert!(index.contains(&format!("data-gantt=\"gantt-{run}\"")), "the report has no Gantt chart");
    assert!(report.join("plots").join(format!("gantt-{run}.svg")).is_file());
}

#[test]
fn unknown_runs_and_empty_windows_are_errors_naming_them() {
    let dir = tempfile::tempdir().unwrap();
    let (db, run) = stored_run(dir.path());
    let out_file = dir.path().join("x.svg");
    let unknown = gantt(&db, 12345, &[], &out_file);
    assert_eq!(unknown.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&unknown.stderr);
    assert!(stderr.contains("run 12345"), "{stderr}");

    let empty = gantt(&db, run, &["--since", "900000000", "--until", "900000100"], &out_file);
    assert_eq!(empty.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&empty.stderr);
    assert!(stderr.contains("[900000000, 900000100)"), "{stderr}");

    let backwards = gantt(&db, run, &["--since", "100", "--until", "100"], &out_file);
    assert_eq!(backwards.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&backwards.stderr).contains("[100, 100)"));

    let half = gantt(&db, run, &["--since", "100"], &out_file);
    assert_eq!(half.status.code(), Some(1));

    let format = gantt(&db, run, &[], &dir.path().join("x.txt"));
    assert_eq!(format.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&format.stderr).contains(".svg, .png or .html"));
    assert!(!out_file.exists());
}

/// A provisioning point of `method` on two synthetic sites (20 tasks, two
/// submissions, α 0 and 1), stored in `dir`; its store and point id.
fn stored_provisioning(dir: &Path, method: &str) -> (PathBuf, i64) {
    let db = dir.join(format!("{method}.sqlite"));
    let out = slasim()
        .args(["provision", "run", "--method", method, "--sites", "2", "--tasks", "20", "--submissions", "2"])
        .args(["--alpha", "0", "--alpha", "1", "--jobs", "1", "--db"])
        .arg(&db)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let conn = Connection::open(&db).unwrap();
    let point = conn.query_row("SELECT point_id FROM provision_points", [], |r| r.get(0)).unwrap();
    (db, point)
}

/// A drawn bar of a provisioning chart.
#[derive(Debug)]
struct PBar {
    band: i64,
    first: u32,
    last: u32,
    start: i64,
    end: i64,
    job: i64,
    submission: i64,
    alpha: String,
}

fn pbars(svg: &str, class: &str) -> Vec<PBar> {
    tags(svg, class)
        .into_iter()
        .map(|tag| {
            let (first, last) = attr(tag, "data-nodes").unwrap().split_once('-').unwrap();
            PBar {
                band: num(tag, "data-band"),
                first: first.parse().unwrap(),
                last: last.parse().unwrap(),
                start: num(tag, "data-start"),
                end: num(tag, "data-end"),
                job: num(tag, "data-job"),
                submission: num(tag, "data-submission"),
                alpha: attr(tag, "data-alpha").unwrap().to_string(),
            }
        })
        .collect()
}

/// A provisioning chart draws each submission's reserved slots and every
/// task of its workflow inside them: each task CPU lies in a slot of its
/// band and submission over the task's span, no CPU runs two tasks at once,
/// and every drawn submission shows the workflow's tasks, each on one site.
#[test]
fn provisioning_charts_draw_tasks_inside_their_reserved_slots() {
    let dir = tempfile::tempdir().unwrap();
    for method in ["moga", "greedy"] {
        let (db, point) = stored_provisioning(dir.path(), method);
        let svg_path = dir.path().join(format!("{method}.svg"));
        let out = gantt(&db, point, &["--since", "0", "--until", "100000000000"], &svg_path);
        assert!(out.status.success(), "{method}: {}", String::from_utf8_lossy(&out.stderr));
        let svg = std::fs::read_to_string(&svg_path).unwrap();
        let slots = pbars(&svg, "bar slot");
        let tasks = pbars(&svg, "bar task");
        assert!(!slots.is_empty() && !tasks.is_empty(), "{method}: {} slots, {} task bars", slots.len(), tasks.len());

        // Every CPU of every task bar is inside a slot of its band and submission.
        for t in &tasks {
            for cpu in t.first..=t.last {
                assert!(
                    slots.iter().any(|s| s.band == t.band
                        && s.submission == t.submission
                        && s.first <= cpu
                        && cpu <= s.last
                        && s.start <= t.start
                        && t.end <= s.end),
                    "{method}: task {} (submission {}, α {}) on CPU {cpu} of band {} over {}–{} is in no slot",
                    t.job,
                    t.submission,
                    t.alpha,
                    t.band,
                    t.start,
                    t.end
                );
            }
        }

        // No CPU of a band runs two tasks at once.
        let mut per_cpu: BTreeMap<(i64, u32), Vec<(i64, i64)>> = BTreeMap::new();
        for t in &tasks {
            for cpu in t.first..=t.last {
                per_cpu.entry((t.band, cpu)).or_default().push((t.start, t.end));
            }
        }
        for (cpu, spans) in &mut per_cpu {
            spans.sort_unstable();
            for w in spans.windows(2) {
                assert!(w[0].1 <= w[1].0, "{method}: CPU {cpu:?}: {:?} overlaps {:?}", w[0], w[1]);
            }
        }

        // Every stored submission and α is drawn with all the workflow's tasks, each on one band.
        let conn = Connection::open(&db).unwrap();
        let workflow_tasks: i64 = conn
            .query_row("SELECT workflow_tasks FROM provision_points WHERE point_id = ?1", [point], |r| r.get(0))
            .unwrap();
        let stored: i64 = conn
            .query_row("SELECT count(*) FROM provision_submissions WHERE point_id = ?1", [point], |r| r.get(0))
            .unwrap();
        let mut bands_of: BTreeMap<(String, i64, i64), Vec<i64>> = BTreeMap::new();
        for t in &tasks {
            let bands = bands_of.entry((t.alpha.clone(), t.submission, t.job)).or_default();
            if !bands.contains(&t.band) {
                bands.push(t.band);
            }
        }
        assert!(bands_of.values().all(|b| b.len() == 1), "{method}: a task drawn on two sites");
        let mut per_submission: BTreeMap<(String, i64), i64> = BTreeMap::new();
        for (alpha, submission, _) in bands_of.keys() {
            *per_submission.entry((alpha.clone(), *submission)).or_default() += 1;
        }
        assert_eq!(per_submission.len() as i64, stored, "{method}: drawn submissions");
        for (key, count) in &per_submission {
            assert_eq!(*count, workflow_tasks, "{method}: submission {key:?}");
        }

        // A store this build would provision differently is an error naming the build.
        conn.execute("UPDATE provision_submissions SET makespan = makespan + 1 WHERE point_id = ?1", [point]).unwrap();
        let bad = gantt(&db, point, &[], &dir.path().join("bad.svg"));
        assert_eq!(bad.status.code(), Some(1), "{method}");
        let stderr = String::from_utf8_lossy(&bad.stderr);
        assert!(stderr.contains("another build of slasim"), "{method}: {stderr}");
    }
}
