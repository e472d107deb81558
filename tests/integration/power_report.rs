//! The report side of node power states: the `power` and
//! `power-equal-energy` tables of a swept store, checked against the store's
//! own rows; equal-energy interpolation on curves worked out by hand; and
//! the Gantt chart of a run that sleeps: shades for nodes switching or
//! asleep, never under a bar of the same node, and a power curve whose
//! integral over the meter's window is the stored energy.

use crate::common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use rusqlite::Connection;
use slasim::report::gantt::layout::OutageKind;
use slasim::report::gantt::{chart_for_run, for_run};
use slasim::report::render::number;
use slasim::single::report::energy::{PowerRow, equal_energy_table, interpolate, pareto_front, power_table};

/// (occurrence, processors, estimate, runtime) on 8 nodes: quiet gaps
/// between bursts, so idle nodes sleep and queued jobs wait for them.
const JOBS: [(i64, u32, i64, i64); 30] = [
    (300, 2, 2400, 1200),
    (2700, 8, 600, 300),
    (5100, 1, 6000, 3000),
    (6000, 2, 1200, 600),
    (7800, 8, 6000, 3000),
    (8100, 2, 1200, 600),
    (10500, 8, 600, 300),
    (10560, 2, 600, 300),
    (11460, 1, 2400, 1200),
    (13260, 8, 6000, 3000),
    (15060, 8, 1200, 600),
    (15960, 1, 600, 300),
    (16260, 8, 1200, 600),
    (17160, 8, 2400, 1200),
    (18960, 8, 2400, 1200),
    (21360, 8, 1200, 600),
    (22260, 1, 2400, 1200),
    (24660, 2, 2400, 1200),
    (27060, 1, 1200, 600),
    (29460, 4, 2400, 1200),
    (29520, 1, 6000, 3000),
    (31320, 1, 2400, 1200),
    (31380, 8, 1200, 600),
    (31440, 4, 6000, 3000),
    (33240, 1, 600, 300),
    (35640, 1, 6000, 3000),
    (38040, 4, 2400, 1200),
    (40440, 2, 600, 300),
    (41340, 1, 600, 300),
    (41400, 1, 1200, 600),
];

/// A sleep state like Batsim's energy examples: 95 W idle, 190 W busy,
/// 9.75 W asleep; switching off takes 6 s at idle power, switching on 150 s
/// at busy power. Two sweeps: the policies over two idle timeouts, and the
/// baseline without a policy. (The queueing modes model no node failures.)
fn config(swf: &Path) -> String {
    format!(
        r#"name = "power"

[workload]
trace = "{}"

[energy]
idle_watts = 95.0
busy_watts = 190.0
down_watts = 0.0

[energy.sleep]
watts = 9.75
switch_off_seconds = 6
switch_off_joules = 570.0
switch_on_seconds = 150
switch_on_joules = 28500.0

[[sweep]]
name = "policies"
[sweep.axes]
strategy = ["conservative"]
failures = ["none"]
energy_policy = ["idle-shutdown", "planned-wakeup"]
idle_timeout = [0, 600]

[[sweep]]
name = "baseline"
[sweep.axes]
strategy = ["conservative"]
failures = ["none"]
energy_policy = ["none"]
"#,
        swf.display()
    )
}

/// A swept store in a temporary directory.
fn store() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let swf = common::write_swf(dir.path(), 8, &JOBS);
    let file = dir.path().join("power.toml");
    std::fs::write(&file, config(&swf)).unwrap();
    let db = dir.path().join("power.sqlite");
    let out = common::slasim().arg("sweep").arg(&file).arg("--db").arg(&db).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    (dir, db)
}

fn report_table(db: &Path, id: &str) -> String {
    let out = common::slasim().args(["report", "--db"]).arg(db).args(["--table", id]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

/// A Markdown table's header and rows, as cells.
fn cells(markdown: &str) -> (Vec<String>, Vec<Vec<String>>) {
    let lines: Vec<Vec<String>> = markdown
        .lines()
        .filter(|l| l.starts_with('|'))
        .map(|l| l.trim().trim_matches('|').split('|').map(|c| c.trim().to_string()).collect())
        .collect();
    assert!(lines.len() >= 2, "{markdown}");
    (lines[0].clone(), lines[2..].to_vec())
}

/// A number as the report prints it (thousands grouped).
fn parse(cell: &str) -> f64 {
    cell.replace(',', "").parse().unwrap_or_else(|_| panic!("not a number: `{cell}`"))
}

/// `printed` is `exact` as the report rounds it: whole numbers from 1,000,
/// one decimal from 10, three below.
fn printed_as(printed: &str, exact: f64) -> bool {
    let step = if exact.abs() >= 1000.0 {
        1.0
    } else if exact.abs() >= 10.0 {
        0.1
    } else {
        0.001
    };
    (parse(printed) - exact).abs() <= step / 2.0 + 1e-9 * exact.abs().max(1.0)
}

/// What the store says of each run: policy, idle timeout, mean wait, kWh, switch-offs.
#[derive(Debug, Clone)]
struct Run {
    id: i64,
    policy: String,
    timeout: i64,
    wait: f64,
    kwh: f64,
    switch_offs: i64,
}

fn runs(db: &Path) -> Vec<Run> {
    let conn = Connection::open(db).unwrap();
    let mut stmt = conn
        .prepare(
            "SELECT r.run_id, r.config, p.wait_mean, \
             (SELECT sum(joules) FROM energy_states s WHERE s.run_id = r.run_id), \
             (SELECT sum(transitions) FROM energy_states s WHERE s.run_id = r.run_id AND s.state = 'switching-off') \
             FROM runs r JOIN points p ON p.run_id = r.run_id ORDER BY r.run_id",
        )
        .unwrap();
    let rows = stmt
        .query_map([], |r| {
            Ok((r.get::<_, i64>(0)?, r.get::<_, String>(1)?, r.get::<_, f64>(2)?, r.get::<_, f64>(3)?, r.get(4)?))
        })
        .unwrap();
    rows.map(Result::unwrap)
        .map(|(id, config, wait, joules, switch_offs)| {
            let value: toml::Table = toml::from_str(&config).unwrap();
            let policy = value.get("energy_policy").and_then(|p| p.as_table());
            Run {
                id,
                policy: policy.and_then(|p| p.get("name")).and_then(|n| n.as_str()).unwrap_or("none").to_string(),
                timeout: policy.and_then(|p| p.get("idle_timeout")).and_then(|t| t.as_integer()).unwrap_or(0),
                wait,
                kwh: joules / 3.6e6,
                switch_offs,
            }
        })
        .collect()
}

#[test]
fn the_power_tables_the_pareto_plot_and_a_sleeping_gantt_chart() {
    let (dir, db) = store();
    let runs = runs(&db);
    assert_eq!(runs.len(), 5, "4 policy points and the baseline: {runs:?}");

    // `power`: one row per policy and timeout, the baseline first.
    let text = report_table(&db, "power");
    assert_eq!(text, report_table(&db, "power"), "the same store prints the same bytes");
    let (header, rows) = cells(&text);
    assert_eq!(
        header,
        [
            "trace",
            "strategy",
            "capacity",
            "cap_watts",
            "energy_policy",
            "idle_timeout_s",
            "runs",
            "wait_mean_s",
            "energy_kwh",
            "saved_percent",
            "switch_offs"
        ]
    );
    let keys: Vec<(&str, &str)> = rows.iter().map(|r| (r[4].as_str(), r[5].as_str())).collect();
    assert_eq!(
        keys,
        [
            ("none", ""),
            ("idle-shutdown", "0"),
            ("idle-shutdown", "600"),
            ("planned-wakeup", "0"),
            ("planned-wakeup", "600")
        ]
    );
    let baseline = runs.iter().find(|r| r.policy == "none").unwrap();
    for row in &rows {
        assert_eq!(&row[..4], ["small", "conservative", "8", ""], "{row:?}");
        assert_eq!(row[6], "1");
        let timeout = if row[5].is_empty() { 0 } else { row[5].parse().unwrap() };
        let run = runs.iter().find(|r| r.policy == row[4] && r.timeout == timeout).unwrap();
        assert!(printed_as(&row[7], run.wait), "{row:?} {run:?}");
        assert!(printed_as(&row[8], run.kwh), "{row:?} {run:?}");
        assert!(printed_as(&row[10], run.switch_offs as f64), "{row:?} {run:?}");
        if run.policy == "none" {
            assert_eq!(row[9], "", "the baseline saves nothing against itself");
            assert_eq!(run.switch_offs, 0);
        } else {
            let saved = 100.0 * (baseline.kwh - run.kwh) / baseline.kwh;
            assert!(printed_as(&row[9], saved), "{row:?}: saved {saved}");
            assert!(saved > 0.0 && run.switch_offs > 0, "sleeping saves energy here: {row:?}");
        }
    }

    // `power-equal-energy`: idle-shutdown's points inside planned-wakeup's
    // energy range, each policy's wait there interpolated along its curve.
    let text = report_table(&db, "power-equal-energy");
    let (header, rows) = cells(&text);
    assert_eq!(
        header,
        [
            "trace",
            "strategy",
            "capacity",
            "cap_watts",
            "energy_kwh",
            "idle_timeout_s",
            "idle_shutdown_wait_s",
            "planned_wakeup_wait_s",
            "wait_saved_s",
            "wait_saved_percent",
            "overlap"
        ]
    );
    let curve = |policy: &str| -> Vec<(f64, f64, i64)> {
        let mut c: Vec<(f64, f64, i64)> =
            runs.iter().filter(|r| r.policy == policy).map(|r| (r.kwh, r.wait, r.timeout)).collect();
        c.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.2.cmp(&b.2)));
        pareto_front(c)
    };
    let (reactive, planned) = (curve("idle-shutdown"), curve("planned-wakeup"));
    let pc: Vec<(f64, f64)> = planned.iter().map(|p| (p.0, p.1)).collect();
    let (lo, hi) = (planned[0].0, planned[planned.len() - 1].0);
    let inside: Vec<&(f64, f64, i64)> = reactive.iter().filter(|p| p.0 >= lo && p.0 <= hi).collect();
    let overlap = reactive[0].0 <= hi && reactive[reactive.len() - 1].0 >= lo;
    if !overlap {
        assert_eq!(rows.len(), 1, "{text}");
        assert!(rows[0][10].starts_with("no overlap: idle-shutdown "), "{text}");
    } else if !inside.is_empty() {
        assert_eq!(rows.len(), inside.len(), "{text}");
        for (row, point) in rows.iter().zip(&inside) {
            let at = interpolate(&pc, point.0).unwrap();
            assert_eq!(&row[..4], ["small", "conservative", "8", ""]);
            assert!(printed_as(&row[4], point.0), "{row:?}");
            assert_eq!(row[5], point.2.to_string());
            assert!(printed_as(&row[6], point.1) && printed_as(&row[7], at), "{row:?}: {point:?}, {at}");
            assert!(printed_as(&row[8], point.1 - at), "{row:?}");
            assert_eq!(row[10], "yes");
        }
    } else {
        assert!((1..=2).contains(&rows.len()) && rows.iter().all(|r| r[5].is_empty() && r[10] == "yes"), "{text}");
    }

    // The report draws the Pareto plot (and energy against gain: the runs earn fees).
    let out_dir = dir.path().join("report");
    let out = common::slasim().args(["report", "--db"]).arg(&db).arg("--out").arg(&out_dir).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let plots = out_dir.join("plots");
    assert!(plots.join("power-energy-vs-wait-small.svg").is_file());
    assert!(plots.join("power-energy-vs-gain-small.svg").is_file());
    let index = std::fs::read_to_string(out_dir.join("index.html")).unwrap();
    assert!(index.contains("data-table=\"power\"") && index.contains("data-table=\"power-equal-energy\""));

    // The Gantt chart of idle shutdown after 600 s.
    let run = runs.iter().find(|r| r.policy == "idle-shutdown" && r.timeout == 600).unwrap();
    let svg_path = dir.path().join("g.svg");
    let out = common::slasim()
        .args(["gantt", "--db"])
        .arg(&db)
        .args(["--run", &run.id.to_string(), "--out"])
        .arg(&svg_path)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let svg = std::fs::read_to_string(&svg_path).unwrap();
    let shades = tags(&svg, "power ");
    for state in ["switching-off", "asleep", "switching-on"] {
        assert!(svg.contains(&format!("<rect class=\"power {state}\"")), "no {state} shade");
    }
    assert!(svg.contains("<g class=\"power-curve\""), "no power curve");
    // No bar over a shade of the same node.
    let mut busy: BTreeMap<i64, Vec<(i64, i64)>> = BTreeMap::new();
    for tag in tags(&svg, "bar") {
        let (first, last) = attr(tag, "data-nodes").split_once('-').unwrap();
        for node in first.parse::<i64>().unwrap()..=last.parse().unwrap() {
            busy.entry(node).or_default().push((num(tag, "data-start"), num(tag, "data-end")));
        }
    }
    for tag in &shades {
        let (node, from, to) = (num(tag, "data-node"), num(tag, "data-from"), num(tag, "data-to"));
        assert!(from < to, "{tag}");
        for &(start, end) in busy.get(&node).into_iter().flatten() {
            assert!(end <= from || start >= to, "node {node}: bar [{start}, {end}) over {tag}");
        }
    }

    check_charts(&db, &runs);
}

/// On every run's laid-out chart: no bar over a shade of its node, no two
/// shades of one node overlapping, nodes asleep exactly in runs with a
/// policy; and the power curve's integral over the meter's window (first
/// submission to last end) is the stored energy. How many charts show a
/// node down.
fn check_charts(db: &Path, runs: &[Run]) -> usize {
    let conn = Connection::open(db).unwrap();
    let mut with_failures = 0;
    for run in runs {
        let chart = chart_for_run(&slasim::registry(), db, run.id, None).unwrap();
        for shade in &chart.shades {
            for bar in chart.bars.iter().filter(|b| !b.lane && b.band == shade.band) {
                let rows = bar.y0..bar.y1;
                if rows.contains(&shade.y) {
                    assert!(
                        bar.x1 <= shade.x0 || bar.x0 >= shade.x1,
                        "run {}: bar {:?} over {:?}",
                        run.id,
                        (bar.item.job, bar.x0, bar.x1, bar.first, bar.last),
                        shade.outage
                    );
                }
            }
            for other in chart.shades.iter().filter(|o| o.outage.node == shade.outage.node && *o != shade) {
                assert!(
                    other.outage.to <= shade.outage.from || other.outage.from >= shade.outage.to,
                    "run {}: {:?} and {:?} overlap",
                    run.id,
                    shade.outage,
                    other.outage
                );
            }
        }
        let sleeps = chart.shades.iter().any(|s| s.outage.kind == OutageKind::Asleep);
        assert_eq!(sleeps, run.policy != "none", "run {}", run.id);
        let source = for_run(&slasim::registry(), db, run.id).unwrap();
        let curve = source.bands[0].power.as_ref().expect("a run with a power model has a power curve");
        let (from, to): (i64, i64) = conn
            .query_row(
                "SELECT min(b.occurrence), (SELECT max(actual_end) FROM job_outcomes o WHERE o.run_id = r.run_id) \
                 FROM runs r JOIN battery_jobs b ON b.battery_key = r.battery_key WHERE r.run_id = ?1",
                [run.id],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .unwrap();
        let mut joules = 0.0;
        let steps = curve.clipped(slasim::report::gantt::Window { from, to });
        for (k, &(t, watts)) in steps.iter().enumerate() {
            let next = steps.get(k + 1).map_or(to, |s| s.0);
            joules += watts * (next - t) as f64;
        }
        let stored = run.kwh * 3.6e6;
        assert!((joules - stored).abs() <= 1e-6 * stored, "run {}: curve {joules} J, stored {stored} J", run.id);
        with_failures += usize::from(chart.shades.iter().any(|s| s.outage.kind == OutageKind::Down));
    }
    with_failures
}

/// Node failures and power states on one chart: conservative backfilling
/// (which models failures) with Poisson failures, without a policy and with
/// idle shutdown after 600 s.
#[test]
fn failures_and_sleep_on_one_chart() {
    let dir = tempfile::tempdir().unwrap();
    let swf = common::write_swf(dir.path(), 8, &JOBS);
    let text = config(&swf)
        .replace("[workload]", "[prepare]\nwhole_log = true\n\n[failures]\nmodel = \"poisson\"\nlambda_per_hour = 0.02\nmu_per_hour = 0.5\n\n[workload]")
        .replace("strategy = [\"conservative\"]", "strategy = [\"conservative-backfilling\"]")
        .replace("failures = [\"none\"]\n", "")
        .replace("idle_timeout = [0, 600]", "idle_timeout = [600]");
    let file = dir.path().join("power.toml");
    std::fs::write(&file, text).unwrap();
    let db = dir.path().join("power.sqlite");
    let out = common::slasim().arg("sweep").arg(&file).arg("--db").arg(&db).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let runs = runs(&db);
    assert_eq!(runs.len(), 3, "{runs:?}");
    assert!(check_charts(&db, &runs) > 0, "no chart shows a node failure");
}

/// Equal energy on curves worked out by hand.
/// - idle-shutdown: (10 kWh, 100 s), (20 kWh, 50 s), (30 kWh, 40 s);
/// - planned-wakeup: (15 kWh, 60 s), (25 kWh, 20 s).
///
/// Planned-wakeup covers [15, 25]: idle-shutdown's point at 20 kWh is the
/// one inside, where planned-wakeup waits 60 + (20 − 60)·(20 − 15)/(25 − 15)
/// = 40 s against 50 s: 10 s (20 %) saved. With a cap, the curves do not
/// meet: "no overlap".
#[test]
fn equal_energy_by_hand() {
    let row = |policy: &str, timeout: i64, kwh: f64, wait: f64, cap: Option<f64>| PowerRow {
        trace: "t".into(),
        strategy: "conservative".into(),
        capacity: 8,
        policy: policy.into(),
        idle_timeout: timeout,
        cap,
        runs: 1,
        wait,
        kwh,
        switch_offs: 0.0,
        gain: 0.0,
        fees: 0.0,
    };
    let rows = vec![
        row("none", 0, 40.0, 10.0, None),
        row("idle-shutdown", 0, 10.0, 100.0, None),
        row("idle-shutdown", 300, 20.0, 50.0, None),
        row("idle-shutdown", 900, 30.0, 40.0, None),
        row("planned-wakeup", 0, 15.0, 60.0, None),
        row("planned-wakeup", 300, 25.0, 20.0, None),
        row("idle-shutdown", 0, 1.0, 5.0, Some(500.0)),
        row("idle-shutdown", 600, 2.0, 4.0, Some(500.0)),
        row("planned-wakeup", 0, 3.0, 3.0, Some(500.0)),
    ];
    let curve = [(15.0, 60.0), (25.0, 20.0)];
    assert_eq!(interpolate(&curve, 20.0), Some(40.0));
    assert_eq!(interpolate(&curve, 25.0), Some(20.0));
    assert_eq!(interpolate(&curve, 26.0), None);
    let table = slasim::report::tables::Table {
        id: "power-equal-energy".into(),
        title: String::new(),
        note: String::new(),
        df: equal_energy_table(&rows).unwrap(),
    };
    let (_, cells) = cells(&markdown(&table));
    assert_eq!(
        cells,
        [
            ["t", "conservative", "8", "", "20.0", "300", "50.0", "40.0", "10.0", "20.0", "yes"]
                .map(String::from)
                .to_vec(),
            [
                "t",
                "conservative",
                "8",
                "500.0",
                "",
                "",
                "",
                "",
                "",
                "",
                "no overlap: idle-shutdown 1.000–2.000 kWh, planned-wakeup 3.000–3.000 kWh"
            ]
            .map(String::from)
            .to_vec(),
        ]
    );
    // The power table: saved against the uncapped baseline (40 kWh).
    let power = power_table(&rows).unwrap();
    let saved: Vec<Option<f64>> = power.column("saved_percent").unwrap().f64().unwrap().iter().collect();
    assert_eq!(saved[..4], [None, Some(75.0), Some(50.0), Some(25.0)]);
}

/// A frame as the report prints it (cells only): through `slasim report`'s
/// renderer, which is crate-private, so by the same rules here.
fn markdown(table: &slasim::report::tables::Table) -> String {
    let df = &table.df;
    let mut s = format!(
        "| {} |\n|{}|\n",
        df.get_column_names().iter().map(|n| n.to_string()).collect::<Vec<_>>().join(" | "),
        df.get_column_names().iter().map(|_| "---").collect::<Vec<_>>().join("|")
    );
    for i in 0..df.height() {
        let row: Vec<String> = df
            .columns()
            .iter()
            .map(|c| match c.get(i).unwrap() {
                polars::prelude::AnyValue::Null => String::new(),
                polars::prelude::AnyValue::Float64(f) => number(f),
                polars::prelude::AnyValue::String(s) => s.to_string(),
                polars::prelude::AnyValue::StringOwned(s) => s.to_string(),
                other => other.to_string().trim_matches('"').to_string(),
            })
            .collect();
        s.push_str(&format!("| {} |\n", row.join(" | ")));
    }
    s
}

fn attr<'a>(tag: &'a str, name: &str) -> &'a str {
    let key = format!(" {name}=\"");
    let start = tag.find(&key).unwrap_or_else(|| panic!("no {name} in {tag}")) + key.len();
    &tag[start..start + tag[start..].find('"').unwrap()]
}

fn num(tag: &str, name: &str) -> i64 {
    attr(tag, name).parse().unwrap()
}

/// The opening tags of the elements of class `class` (`<rect class="bar …`).
fn tags<'a>(svg: &'a str, class: &str) -> Vec<&'a str> {
    let open = format!("<rect class=\"{class}");
    svg.match_indices(&open).map(|(i, _)| &svg[i..i + svg[i..].find('>').unwrap()]).collect()
}
