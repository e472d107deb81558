//! The Slurm section of a report: what each Slurm point's scheduling
//! settings gave, per point, per partition and per user.
//!
//! Contract: built from the `slurm_points`, `slurm_groups` and
//! `slurm_reasons` rows of a store
//! (as filtered: `--config` keeps the points of that experiment, `--trace`
//! those whose workload label contains the text); a store without them (or
//! from before them) gives no table and no figure. A point's settings are
//! read from its canonical TOML (`config`, table `[settings]`, nested tables
//! flattened with `_`); the settings whose values differ between the points
//! become columns (absent: the `slurm.conf`'s own value, shown empty). Points
//! are ordered by sweep, then those settings, then point id; the same store
//! gives the same bytes. A partition's CPU and GPU utilisation need its
//! processors, read from the point's `slurm.conf` when that file is still
//! there with the digest the point ran with; otherwise they are empty.
//! Points run as replicas (a `replica` setting, [`crate::replica`]) are
//! left out of those tables and figures: they make the `slurm-what-if`
//! table ([`crate::what_if`]: each setting's paired differences from the
//! first, with intervals) and, in a store of replicas alone, the wait
//! figure with each setting's mean over its replicas and its 95 % interval.

use std::cmp::Ordering;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::Path;

use polars::prelude::*;
use sha2::{Digest, Sha256};

use slasim_core::experiment::registry::Registry;
use slasim_core::report::load::{Filter, Kind, described_columns, frame_of, has_table, trace_label};
use slasim_core::report::plots::{Figure, MARKERS, Palette, Panel, Series, TimeUnit};
use slasim_core::report::section::{ReportSection, Section};
use slasim_core::report::summary::mean_ci;
use slasim_core::report::tables::{Table, floats, strs};

use crate::tables::{SLURM_GROUPS, SLURM_POINTS, SLURM_REASONS};
use crate::what_if::{self, Measure, Of};

const HOUR: f64 = 3600.0;

/// The Slurm section of a report.
pub struct SlurmSection;

impl ReportSection for SlurmSection {
    fn name(&self) -> &'static str {
        "slurm"
    }

    fn build(&self, _registry: &Registry, db: &Path, filter: &Filter) -> anyhow::Result<Option<Section>> {
        slurm_report(db, filter)
    }
}

/// One value of a swept setting.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    Int(i64),
    Real(f64),
    Bool(bool),
    Text(String),
}

impl Value {
    fn of(v: &toml::Value) -> Option<Value> {
        match v {
            toml::Value::Integer(i) => Some(Value::Int(*i)),
            toml::Value::Float(f) => Some(Value::Real(*f)),
            toml::Value::Boolean(b) => Some(Value::Bool(*b)),
            toml::Value::String(s) => Some(Value::Text(s.clone())),
            toml::Value::Datetime(d) => Some(Value::Text(d.to_string())),
            toml::Value::Array(_) | toml::Value::Table(_) => Some(Value::Text(v.to_string())),
        }
    }

    fn number(&self) -> Option<f64> {
        match self {
            Value::Int(i) => Some(*i as f64),
            Value::Real(f) => Some(*f),
            _ => None,
        }
    }

    fn text(&self) -> String {
        match self {
            Value::Int(i) => i.to_string(),
            Value::Real(f) => f.to_string(),
            Value::Bool(b) => b.to_string(),
            Value::Text(s) => s.clone(),
        }
    }
}

/// Absent first, then numbers, then the rest as text.
fn value_order(a: &Option<Value>, b: &Option<Value>) -> Ordering {
    match (a, b) {
        (None, None) => Ordering::Equal,
        (None, Some(_)) => Ordering::Less,
        (Some(_), None) => Ordering::Greater,
        (Some(a), Some(b)) => match (a.number(), b.number()) {
            (Some(x), Some(y)) => x.total_cmp(&y),
            (Some(_), None) => Ordering::Less,
            (None, Some(_)) => Ordering::Greater,
            (None, None) => a.text().cmp(&b.text()),
        },
    }
}

/// The scalar settings of a point's canonical TOML, nested tables flattened.
pub fn settings_of(config: &str) -> BTreeMap<String, Value> {
    fn flatten(prefix: &str, table: &toml::Table, out: &mut BTreeMap<String, Value>) {
        for (key, v) in table {
            let name = if prefix.is_empty() { key.clone() } else { format!("{prefix}_{key}") };
            match v {
                toml::Value::Table(t) => flatten(&name, t, out),
                other => {
                    if let Some(value) = Value::of(other) {
                        out.insert(name, value);
                    }
                }
            }
        }
    }
    let parsed: toml::Table = toml::from_str(config).unwrap_or_default();
    let mut out = BTreeMap::new();
    if let Some(settings) = parsed.get("settings").and_then(toml::Value::as_table) {
        flatten("", settings, &mut out);
    }
    out
}

/// One Slurm point.
#[derive(Debug, Clone)]
pub struct PointRow {
    pub id: i64,
    pub sweep: String,
    pub conf: String,
    /// The `slurm.conf` generated from the trace ("" when read from `conf`).
    pub conf_text: String,
    pub conf_sha256: String,
    pub settings: BTreeMap<String, Value>,
    pub jobs: i64,
    pub mean_wait: Option<f64>,
    pub median_wait: Option<f64>,
    pub max_wait: Option<f64>,
    pub p95_wait: Option<f64>,
    pub bounded_slowdown: Option<f64>,
    pub makespan: f64,
    pub cpu_utilisation: Option<f64>,
    pub gpu_utilisation: Option<f64>,
    pub backfilled: i64,
    /// Jobs preempted (empty for a store from before preemption).
    pub preemptions: Option<i64>,
}

/// One partition, account or user of a point.
#[derive(Debug, Clone)]
struct GroupRow {
    point: i64,
    grouping: String,
    name: String,
    jobs: i64,
    mean_wait: Option<f64>,
    max_wait: Option<f64>,
    p95_wait: Option<f64>,
    cpu_seconds: f64,
    gpu_seconds: f64,
}

fn ints(df: &DataFrame, name: &str) -> PolarsResult<Vec<i64>> {
    Ok(df.column(name)?.cast(&DataType::Int64)?.i64()?.iter().map(|v| v.unwrap_or(0)).collect())
}

/// The Slurm points of the store (as filtered).
fn load_points(db: &Path, filter: &Filter) -> anyhow::Result<Vec<PointRow>> {
    let sweep = "coalesce((SELECT min(x.sweep) FROM experiment_points x WHERE x.run_id = p.point_id), '')";
    let (sweep, join, params): (String, &str, Vec<String>) = match &filter.experiment {
        Some((hash, _)) => (
            "coalesce((SELECT min(x.sweep) FROM experiment_points x WHERE x.run_id = p.point_id \
             AND x.experiment = :experiment), '')"
                .to_string(),
            "WHERE p.point_id IN (SELECT run_id FROM experiment_points WHERE experiment = :experiment)",
            vec![hash.clone()],
        ),
        None => (sweep.to_string(), "", Vec::new()),
    };
    let (select, mut columns) = described_columns(db, &SLURM_POINTS, "p")?;
    let sql = format!("SELECT {select}, {sweep} AS sweep FROM slurm_points p {join} ORDER BY p.point_id");
    columns.push(("sweep", Kind::Text));
    let df = frame_of(db, &sql, &params, &columns)?;
    let preempted = floats(&df, "preemptions")?;
    let (ids, jobs, backfilled) = (ints(&df, "point_id")?, ints(&df, "jobs")?, ints(&df, "backfilled")?);
    let (sweeps, confs, digests, traces, configs) =
        (strs(&df, "sweep")?, strs(&df, "conf")?, strs(&df, "conf_sha256")?, strs(&df, "trace")?, strs(&df, "config")?);
    let texts = strs(&df, "conf_text")?;
    let (mean, median, max, p95, bsld, makespan, cpu, gpu) = (
        floats(&df, "mean_wait")?,
        floats(&df, "median_wait")?,
        floats(&df, "max_wait")?,
        floats(&df, "p95_wait")?,
        floats(&df, "mean_bounded_slowdown")?,
        floats(&df, "makespan")?,
        floats(&df, "cpu_utilisation")?,
        floats(&df, "gpu_utilisation")?,
    );
    let mut out = Vec::new();
    for i in 0..df.height() {
        if let Some(trace) = &filter.trace
            && !trace_label(&traces[i]).contains(trace.as_str())
        {
            continue;
        }
        out.push(PointRow {
            id: ids[i],
            sweep: sweeps[i].clone(),
            conf: confs[i].clone(),
            conf_text: texts[i].clone(),
            conf_sha256: digests[i].clone(),
            settings: settings_of(&configs[i]),
            jobs: jobs[i],
            mean_wait: mean[i],
            median_wait: median[i],
            max_wait: max[i],
            p95_wait: p95[i],
            bounded_slowdown: bsld[i],
            makespan: makespan[i].unwrap_or(0.0),
            cpu_utilisation: cpu[i],
            gpu_utilisation: gpu[i],
            backfilled: backfilled[i],
            preemptions: preempted[i].map(|v| v as i64),
        });
    }
    Ok(out)
}

/// The group rows of the store's Slurm points, in name order.
fn load_groups(db: &Path) -> anyhow::Result<Vec<GroupRow>> {
    let (select, columns) = described_columns(db, &SLURM_GROUPS, "g")?;
    let sql = format!("SELECT {select} FROM slurm_groups g ORDER BY g.point_id, g.grouping, g.name");
    let df = frame_of(db, &sql, &[], &columns)?;
    let (ids, jobs) = (ints(&df, "point_id")?, ints(&df, "jobs")?);
    let (groupings, names) = (strs(&df, "grouping")?, strs(&df, "name")?);
    let (mean, max, p95) = (floats(&df, "mean_wait")?, floats(&df, "max_wait")?, floats(&df, "p95_wait")?);
    let (cpu, gpu) = (floats(&df, "cpu_seconds")?, floats(&df, "gpu_seconds")?);
    Ok((0..df.height())
        .map(|i| GroupRow {
            point: ids[i],
            grouping: groupings[i].clone(),
            name: names[i].clone(),
            jobs: jobs[i],
            mean_wait: mean[i],
            max_wait: max[i],
            p95_wait: p95[i],
            cpu_seconds: cpu[i].unwrap_or(0.0),
            gpu_seconds: gpu[i].unwrap_or(0.0),
        })
        .collect())
}

/// The settings whose values differ between `points` (absent counts as a value).
pub fn swept(points: &[PointRow]) -> Vec<String> {
    let keys: BTreeSet<&String> = points.iter().flat_map(|p| p.settings.keys()).collect();
    keys.into_iter()
        .filter(|k| {
            let first = points.first().and_then(|p| p.settings.get(*k));
            points.iter().any(|p| p.settings.get(*k) != first)
        })
        .cloned()
        .collect()
}

/// A setting's column: integers, numbers, or text (absent values empty).
fn setting_column(name: &str, values: Vec<Option<&Value>>) -> Column {
    let name = name.into();
    if values.iter().flatten().all(|v| matches!(v, Value::Int(_))) {
        Column::new(name, values.iter().map(|v| v.and_then(Value::number).map(|f| f as i64)).collect::<Vec<_>>())
    } else if values.iter().flatten().all(|v| v.number().is_some()) {
        Column::new(name, values.iter().map(|v| v.and_then(Value::number)).collect::<Vec<_>>())
    } else {
        Column::new(name, values.iter().map(|v| v.map(Value::text)).collect::<Vec<_>>())
    }
}

/// A float column (non-finite values empty).
fn reals(name: &str, values: impl Iterator<Item = Option<f64>>) -> Column {
    Column::new(name.into(), values.map(|v| v.filter(|v| v.is_finite())).collect::<Vec<Option<f64>>>())
}

/// The point id and the swept settings of each row's point.
fn key_columns(rows: &[&PointRow], keys: &[String]) -> Vec<Column> {
    let mut columns = vec![
        Column::new("point_id".into(), rows.iter().map(|p| p.id).collect::<Vec<i64>>()),
        Column::new("sweep".into(), rows.iter().map(|p| p.sweep.clone()).collect::<Vec<String>>()),
    ];
    for key in keys {
        columns.push(setting_column(key, rows.iter().map(|p| p.settings.get(key)).collect()));
    }
    columns
}

/// Per partition name: its (CPUs, GPUs).
type Sizes = HashMap<String, (f64, f64)>;

/// The partition sizes of the point's `slurm.conf` (the stored one it
/// generated, or the file when it still has the digest the point ran with).
fn partition_sizes(point: &PointRow) -> Option<Sizes> {
    let conf = if point.conf_text.is_empty() {
        let bytes = std::fs::read(&point.conf).ok()?;
        let digest: String = Sha256::digest(&bytes).iter().map(|b| format!("{b:02x}")).collect();
        if digest != point.conf_sha256 {
            return None;
        }
        crate::conf::read(Path::new(&point.conf)).ok()?
    } else {
        crate::conf::parse(&point.conf_text, Path::new("slurm_points.conf_text")).ok()?
    };
    Some(
        conf.partitions
            .iter()
            .map(|p| {
                let nodes = p.nodes.iter().filter_map(|&i| conf.nodes.get(i));
                let (cpus, gpus) = nodes.fold((0.0, 0.0), |(c, g), n| (c + f64::from(n.cpus), g + f64::from(n.gpus)));
                (p.name.clone(), (cpus, gpus))
            })
            .collect(),
    )
}

fn hours(seconds: Option<f64>) -> Option<f64> {
    seconds.map(|s| s / HOUR)
}

fn percent(fraction: Option<f64>) -> Option<f64> {
    fraction.map(|f| 100.0 * f)
}

/// The table of one grouping (`partition`, `user`, `account` or `qos`) of the points.
fn group_table(points: &[PointRow], keys: &[String], groups: &[&GroupRow], name: &str) -> PolarsResult<DataFrame> {
    let partitions = name == "partition";
    let by_id: HashMap<i64, &PointRow> = points.iter().map(|p| (p.id, p)).collect();
    let owners: Vec<&PointRow> = groups.iter().map(|g| by_id[&g.point]).collect();
    let mut columns = key_columns(&owners, keys);
    // The QOS a job ran under; `qos` alone is the swept QOS dump.
    let header = if name == "qos" { "job_qos" } else { name };
    columns.push(Column::new(header.into(), groups.iter().map(|g| g.name.clone()).collect::<Vec<String>>()));
    columns.push(Column::new("jobs".into(), groups.iter().map(|g| g.jobs).collect::<Vec<i64>>()));
    columns.push(reals("mean_wait_h", groups.iter().map(|g| hours(g.mean_wait))));
    columns.push(reals("max_wait_h", groups.iter().map(|g| hours(g.max_wait))));
    columns.push(reals("cpu_hours", groups.iter().map(|g| Some(g.cpu_seconds / HOUR))));
    columns.push(reals("gpu_hours", groups.iter().map(|g| Some(g.gpu_seconds / HOUR))));
    if partitions {
        let mut sizes: HashMap<i64, Option<Sizes>> = HashMap::new();
        let size: Vec<Option<(f64, f64)>> = groups
            .iter()
            .zip(&owners)
            .map(|(g, p)| sizes.entry(p.id).or_insert_with(|| partition_sizes(p)).as_ref()?.get(&g.name).copied())
            .collect();
        let share =
            |used: f64, of: f64, makespan: f64| (of > 0.0 && makespan > 0.0).then(|| 100.0 * used / (of * makespan));
        columns.push(Column::new("cpus".into(), size.iter().map(|s| s.map(|s| s.0 as i64)).collect::<Vec<_>>()));
        columns.push(Column::new("gpus".into(), size.iter().map(|s| s.map(|s| s.1 as i64)).collect::<Vec<_>>()));
        columns.push(reals(
            "cpu_utilisation_pct",
            groups
                .iter()
                .zip(&size)
                .zip(&owners)
                .map(|((g, s), p)| s.and_then(|s| share(g.cpu_seconds, s.0, p.makespan))),
        ));
        columns.push(reals(
            "gpu_utilisation_pct",
            groups
                .iter()
                .zip(&size)
                .zip(&owners)
                .map(|((g, s), p)| s.and_then(|s| share(g.gpu_seconds, s.1, p.makespan))),
        ));
    }
    DataFrame::new_infer_height(columns)
}

/// The `slurm_reasons` rows of `points`, in their order, then by reason.
fn reasons_table(
    db: &Path,
    points: &[PointRow],
    keys: &[String],
    rank: &HashMap<i64, usize>,
) -> anyhow::Result<DataFrame> {
    let (select, columns) = described_columns(db, &SLURM_REASONS, "r")?;
    let sql = format!("SELECT {select} FROM slurm_reasons r ORDER BY r.point_id, r.reason");
    let df = frame_of(db, &sql, &[], &columns)?;
    let (ids, reasons, jobs, tests) =
        (ints(&df, "point_id")?, strs(&df, "reason")?, ints(&df, "jobs")?, ints(&df, "tests")?);
    let mut rows: Vec<usize> = (0..df.height()).filter(|&i| rank.contains_key(&ids[i])).collect();
    rows.sort_by(|&a, &b| rank[&ids[a]].cmp(&rank[&ids[b]]).then_with(|| reasons[a].cmp(&reasons[b])));
    let by_id: HashMap<i64, &PointRow> = points.iter().map(|p| (p.id, p)).collect();
    let owners: Vec<&PointRow> = rows.iter().map(|&i| by_id[&ids[i]]).collect();
    let mut out = key_columns(&owners, keys);
    out.push(Column::new("reason".into(), rows.iter().map(|&i| reasons[i].clone()).collect::<Vec<String>>()));
    out.push(Column::new("jobs".into(), rows.iter().map(|&i| jobs[i]).collect::<Vec<i64>>()));
    out.push(Column::new("tests".into(), rows.iter().map(|&i| tests[i]).collect::<Vec<i64>>()));
    Ok(DataFrame::new_infer_height(out)?)
}

/// A setting's value as a category name: a file by its name alone.
fn value_name(v: Option<&Value>) -> String {
    match v {
        None => "(slurm.conf)".to_string(),
        Some(Value::Text(t)) if t.contains('/') => {
            Path::new(t).file_name().map_or_else(|| t.clone(), |f| f.to_string_lossy().into_owned())
        }
        Some(v) => v.text(),
    }
}

/// Each point's name on a categorical axis: its swept settings' values
/// (`key=value, …` when more than one differs), else its row in the
/// `slurm` table.
fn point_names<'a>(points: impl IntoIterator<Item = &'a PointRow>, keys: &[String]) -> Vec<String> {
    points
        .into_iter()
        .enumerate()
        .map(|(i, p)| match keys {
            [] => format!("point {}", i + 1),
            [key] => value_name(p.settings.get(key)),
            _ => keys.iter().map(|k| format!("{k}={}", value_name(p.settings.get(k)))).collect::<Vec<_>>().join(", "),
        })
        .collect()
}

/// Mean wait per partition against the points: one series per partition
/// (its colour and marker the same in every Slurm figure); x is the one
/// swept numeric setting when there is exactly one (and no two points share
/// its value), else a category per point named by its settings. The wait's
/// unit follows its scale. `waits[i]` is point `i`'s mean wait per partition
/// (s) with the low and high of its interval (equal to it for one replay).
fn wait_figure(
    points: &[&PointRow],
    keys: &[String],
    waits: &[PartitionWaits],
    palette: &Palette,
    replicas: bool,
) -> Option<Figure> {
    let xs_of_setting: Option<Vec<f64>> = match keys {
        [key] => points.iter().map(|p| p.settings.get(key).and_then(Value::number)).collect(),
        _ => None,
    };
    let distinct = |xs: &Vec<f64>| {
        let mut sorted = xs.clone();
        sorted.sort_by(f64::total_cmp);
        sorted.windows(2).all(|w| w[0] != w[1])
    };
    let (xs, x_label, categories) = match xs_of_setting.filter(distinct) {
        Some(xs) => (xs, keys[0].clone(), Vec::new()),
        None => {
            let label = if keys.is_empty() { "point (row of the slurm table)".to_string() } else { keys.join(", ") };
            ((0..points.len()).map(|i| i as f64).collect(), label, point_names(points.iter().copied(), keys))
        }
    };
    let unit = TimeUnit::of(waits.iter().flat_map(|w| w.values().map(|v| v.2)).fold(0.0, f64::max));
    let names: BTreeSet<&str> = waits.iter().flat_map(|w| w.keys().map(String::as_str)).collect();
    let series: Vec<Series> = names
        .into_iter()
        .filter_map(|name| {
            let mut curve: Vec<(f64, f64, f64, f64)> = xs
                .iter()
                .zip(waits)
                .filter_map(|(x, w)| w.get(name).map(|&(y, low, high)| (*x, y, low, high)))
                .map(|(x, y, low, high)| (x, y / unit.seconds, low / unit.seconds, high / unit.seconds))
                .collect();
            curve.sort_by(|a, b| a.0.total_cmp(&b.0));
            let k = palette.colour(name);
            (!curve.is_empty()).then(|| Series {
                name: name.to_string(),
                points: curve,
                line: categories.is_empty(),
                error_bars: replicas,
                colour: k,
                marker: Some(MARKERS[k % MARKERS.len()]),
                hollow: true,
                ..Default::default()
            })
        })
        .collect();
    let of = if replicas { " over the replicas, with its 95 % interval," } else { "" };
    (!series.is_empty() && points.len() > 1).then(|| Figure {
        id: "slurm-partition-wait".into(),
        caption: format!("Slurm: mean wait ({}){of} per partition against {x_label}", unit.name),
        panels: vec![Panel {
            title: "Slurm: mean wait per partition".into(),
            x_label,
            y_label: format!("mean wait ({})", unit.name),
            series,
            x_categories: categories,
            ..Default::default()
        }],
    })
}

/// The most points the wait distribution draws (a panel each).
const DISTRIBUTION_POINTS: usize = 6;

/// The distribution of the jobs' waits per partition, from `slurm_jobs`: a
/// panel per point (the first [`DISTRIBUTION_POINTS`] in table order), a
/// box per partition (quartiles, median, whiskers at the 5th and 95th
/// percentiles) of the jobs that started. None without job rows.
fn wait_distribution(
    db: &Path,
    points: &[PointRow],
    keys: &[String],
    palette: &Palette,
) -> anyhow::Result<Option<Figure>> {
    if !has_table(db, "slurm_jobs")? {
        return Ok(None);
    }
    let shown = &points[..points.len().min(DISTRIBUTION_POINTS)];
    let ids = shown.iter().map(|p| p.id.to_string()).collect::<Vec<_>>().join(", ");
    let sql = format!(
        "SELECT point_id, partition, CAST(wait AS REAL) AS wait FROM slurm_jobs WHERE wait >= 0 AND point_id IN ({ids}) \
         ORDER BY point_id, partition, wait"
    );
    let columns = [("point_id", Kind::Int), ("partition", Kind::Text), ("wait", Kind::Real)];
    let df = frame_of(db, &sql, &[], &columns)?;
    let (point_ids, partitions, waits) = (ints(&df, "point_id")?, strs(&df, "partition")?, floats(&df, "wait")?);
    // (point, partition) → its waits, ascending (the query's order).
    let mut by: BTreeMap<(i64, &str), Vec<f64>> = BTreeMap::new();
    for i in 0..df.height() {
        if let Some(w) = waits[i] {
            by.entry((point_ids[i], partitions[i].as_str())).or_default().push(w);
        }
    }
    if by.is_empty() {
        return Ok(None);
    }
    let quantile = |v: &[f64], q: f64| v[((v.len() - 1) as f64 * q).round() as usize];
    let unit = TimeUnit::of(by.values().map(|v| quantile(v, 0.95)).fold(0.0, f64::max));
    let names = point_names(points, keys);
    // Waits span decades when one partition queues for days: then a log
    // axis, its foot at one second.
    let top = by.values().map(|v| quantile(v, 0.95)).fold(0.0, f64::max);
    let low = by.values().map(|v| quantile(v, 0.75)).filter(|q| *q > 0.0).fold(f64::INFINITY, f64::min);
    let y_log = (top > 50.0 * low.max(1.0)).then(|| 1.0 / unit.seconds);
    let mut panels = Vec::new();
    for (i, point) in shown.iter().enumerate() {
        let mine: Vec<(&str, &Vec<f64>)> =
            by.iter().filter(|((p, _), _)| *p == point.id).map(|((_, name), v)| (*name, v)).collect();
        if mine.is_empty() {
            continue;
        }
        let series = mine
            .iter()
            .enumerate()
            .map(|(x, (name, v))| {
                let at = |q: f64| quantile(v, q) / unit.seconds;
                Series {
                    name: format!("{name} ({} jobs)", v.len()),
                    points: vec![(x as f64, at(0.5), at(0.25), at(0.75))],
                    whiskers: vec![(at(0.05), at(0.95))],
                    colour: palette.colour(name),
                    ..Default::default()
                }
            })
            .collect();
        let title = if points.len() == 1 {
            "Slurm: wait per partition".to_string()
        } else {
            format!("Slurm: wait per partition, {}", names[i])
        };
        panels.push(Panel {
            title,
            x_label: "partition".into(),
            y_label: format!("wait ({}{})", unit.name, if y_log.is_some() { ", log scale" } else { "" }),
            series,
            y_log,
            x_categories: mine.iter().map(|(name, _)| name.to_string()).collect(),
            ..Default::default()
        });
    }
    let more = if points.len() > shown.len() {
        format!(" (the first {} of {} points)", shown.len(), points.len())
    } else {
        String::new()
    };
    Ok(Some(Figure {
        id: "slurm-wait-distribution".into(),
        caption: format!(
            "Slurm: the jobs' waits ({}) per partition{more}: median (thick line), quartiles (box) and the 5th and \
             95th percentiles (whiskers) of the jobs that started{}",
            unit.name,
            if y_log.is_some() { "; log scale, waits under a second at its foot" } else { "" }
        ),
        panels,
    }))
}

/// The Slurm tables, figure and point count of a store; None if it has no
/// Slurm points (as filtered).
pub fn slurm_report(db: &Path, filter: &Filter) -> anyhow::Result<Option<Section>> {
    if !has_table(db, "slurm_points")? {
        return Ok(None);
    }
    let (mut replicas, mut points): (Vec<PointRow>, Vec<PointRow>) =
        load_points(db, filter)?.into_iter().partition(|p| p.settings.contains_key(REPLICA));
    if points.is_empty() && replicas.is_empty() {
        return Ok(None);
    }
    let counted = points.len() + replicas.len();
    let keys = swept(&points);
    sort_points(&mut points, &keys);
    let rank: HashMap<i64, usize> = points.iter().enumerate().map(|(i, p)| (p.id, i)).collect();
    let groups = if has_table(db, "slurm_groups")? { load_groups(db)? } else { Vec::new() };
    let of_point = by_point(&groups);
    let replicated = Replicated::of(&mut replicas);
    let what_if = if replicated.settings.is_empty() { None } else { Some(replicated.table(db, &of_point)?) };
    if points.is_empty() {
        // Replicas alone: the what-if, and each setting's waits with their intervals.
        let (firsts, waits) = replicated.waits(&of_point);
        let palette = Palette::new(waits.iter().flat_map(|w| w.keys().map(String::as_str)));
        let figures = wait_figure(&firsts, &replicated.keys, &waits, &palette, true).into_iter().collect();
        let tables = what_if.into_iter().collect();
        return Ok(Some(Section { tables, figures, points: counted, gantt: Vec::new(), omitted: Vec::new() }));
    }
    let by_name = |grouping: &str| {
        let mut rows: Vec<&GroupRow> =
            groups.iter().filter(|g| g.grouping == grouping && rank.contains_key(&g.point)).collect();
        rows.sort_by(|a, b| rank[&a.point].cmp(&rank[&b.point]).then_with(|| a.name.cmp(&b.name)));
        rows
    };
    let partitions = by_name("partition");
    let (accounts, qos) = (by_name("account"), by_name("qos"));
    let mut users: Vec<&GroupRow> =
        groups.iter().filter(|g| g.grouping == "user" && rank.contains_key(&g.point)).collect();
    users.sort_by(|a, b| {
        rank[&a.point]
            .cmp(&rank[&b.point])
            .then_with(|| b.mean_wait.unwrap_or(f64::NEG_INFINITY).total_cmp(&a.mean_wait.unwrap_or(f64::NEG_INFINITY)))
            .then_with(|| a.name.cmp(&b.name))
    });

    let all: Vec<&PointRow> = points.iter().collect();
    let mut columns = key_columns(&all, &keys);
    columns.extend([
        Column::new("jobs".into(), points.iter().map(|p| p.jobs).collect::<Vec<i64>>()),
        reals("mean_wait_h", points.iter().map(|p| hours(p.mean_wait))),
        reals("median_wait_h", points.iter().map(|p| hours(p.median_wait))),
        reals("max_wait_h", points.iter().map(|p| hours(p.max_wait))),
        reals("mean_bounded_slowdown", points.iter().map(|p| p.bounded_slowdown)),
        reals("cpu_utilisation_pct", points.iter().map(|p| percent(p.cpu_utilisation))),
        reals("gpu_utilisation_pct", points.iter().map(|p| percent(p.gpu_utilisation))),
        reals(
            "backfilled_pct",
            points.iter().map(|p| (p.jobs > 0).then(|| 100.0 * p.backfilled as f64 / p.jobs as f64)),
        ),
        Column::new("preemptions".into(), points.iter().map(|p| p.preemptions).collect::<Vec<Option<i64>>>()),
    ]);
    let settings = if keys.is_empty() {
        "no setting differs between the points".to_string()
    } else {
        format!("the settings that differ between the points ({})", keys.join(", "))
    };
    let mut tables = vec![
        Table {
            id: "slurm".into(),
            title: "Slurm: scheduling settings against wait and utilisation".into(),
            note: format!(
                "One row per Slurm point ([slurm]): its id and sweep, {settings} (empty: the slurm.conf's own \
                 value; weights as PriorityWeight*, bf_window and the priority times in minutes, bf_* intervals \
                 in seconds), the jobs that ran, their mean, median and maximum wait (h), mean bounded slowdown \
                 (τ = 10 s), the busy share of the machine's CPUs and GPUs over the makespan (first submission to \
                 last end, %), the share of jobs the backfill scheduler started (%), and the preemptions (jobs \
                 requeued or cancelled; empty for a store from before preemption)."
            ),
            df: DataFrame::new_infer_height(columns)?,
        },
        Table {
            id: "slurm-partitions".into(),
            title: "Slurm: wait and usage per partition".into(),
            note: "Per Slurm point (in the order of the slurm table) and partition: jobs, mean and maximum wait \
                   (h), CPU-hours and GPU-hours used, the partition's CPUs and GPUs, and its CPU and GPU \
                   utilisation (used over the partition's processors × the point's makespan, %). CPUs, GPUs and \
                   utilisation are empty when the point's slurm.conf is no longer there with the digest it ran \
                   with."
                .into(),
            df: group_table(&points, &keys, &partitions, "partition")?,
        },
        Table {
            id: "slurm-users".into(),
            title: "Slurm: wait and usage per user".into(),
            note: "Per Slurm point (in the order of the slurm table) and user, longest mean wait first: jobs, mean \
                   and maximum wait (h), CPU-hours and GPU-hours used."
                .into(),
            df: group_table(&points, &keys, &users, "user")?,
        },
        Table {
            id: "slurm-accounts".into(),
            title: "Slurm: wait and usage per account".into(),
            note: "Per Slurm point (in the order of the slurm table) and account: jobs, mean and maximum wait (h), \
                   CPU-hours and GPU-hours used."
                .into(),
            df: group_table(&points, &keys, &accounts, "account")?,
        },
        Table {
            id: "slurm-qos".into(),
            title: "Slurm: wait and usage per QOS".into(),
            note: "Per Slurm point (in the order of the slurm table) and the QOS its jobs ran under (job_qos): \
                   jobs, mean and maximum wait (h), CPU-hours and GPU-hours used. Stores written before the QOS grouping have no rows here."
                .into(),
            df: group_table(&points, &keys, &qos, "qos")?,
        },
    ];
    if has_table(db, "slurm_reasons")? {
        tables.push(Table {
            id: "slurm-reasons".into(),
            title: "Slurm: limits hit".into(),
            note: "Per Slurm point (in the order of the slurm table) and reason a job waited for or was rejected \
                   for (Slurm's names): the jobs whose last reason it was, and the scheduler tests (and \
                   submissions) it failed. Only the reasons that occurred."
                .into(),
            df: reasons_table(db, &points, &keys, &rank)?,
        });
    }
    tables.extend(what_if);
    // One colour per partition in every Slurm figure.
    let palette = Palette::new(partitions.iter().map(|g| g.name.as_str()));
    let shown: Vec<&PointRow> = points.iter().collect();
    let waits: Vec<PartitionWaits> = points
        .iter()
        .map(|p| {
            of_point
                .get(&p.id)
                .into_iter()
                .flatten()
                .filter(|g| g.grouping == "partition")
                .filter_map(|g| g.mean_wait.map(|w| (g.name.clone(), (w, w, w))))
                .collect()
        })
        .collect();
    let mut figures: Vec<Figure> = wait_figure(&shown, &keys, &waits, &palette, false).into_iter().collect();
    figures.extend(wait_distribution(db, &points, &keys, &palette)?);
    Ok(Some(Section { tables, figures, points: counted, gantt: Vec::new(), omitted: Vec::new() }))
}

/// Per partition, a mean wait (s) and the low and high of its interval.
type PartitionWaits = BTreeMap<String, (f64, f64, f64)>;

/// The group rows of each point.
fn by_point(groups: &[GroupRow]) -> HashMap<i64, Vec<&GroupRow>> {
    let mut out: HashMap<i64, Vec<&GroupRow>> = HashMap::new();
    for g in groups {
        out.entry(g.point).or_default().push(g);
    }
    out
}

/// The setting naming a replica ([`crate::replica`]).
const REPLICA: &str = "replica";

/// `points` by sweep, then the values of `keys`, then id.
fn sort_points(points: &mut [PointRow], keys: &[String]) {
    points.sort_by(|a, b| {
        a.sweep
            .cmp(&b.sweep)
            .then_with(|| {
                keys.iter()
                    .map(|k| value_order(&a.settings.get(k).cloned(), &b.settings.get(k).cloned()))
                    .find(|o| o.is_ne())
                    .unwrap_or(Ordering::Equal)
            })
            .then(a.id.cmp(&b.id))
    });
}

/// One replica's measures ([`crate::what_if`]), from its rows.
fn measures_of(point: &PointRow, groups: &[&GroupRow], reasons: &[(String, i64)]) -> what_if::Measures {
    let mut m = what_if::Measures::new();
    let mut put = |of: Of, measure: Measure, v: Option<f64>| {
        if let Some(v) = v.filter(|v| v.is_finite()) {
            m.insert((of, measure), v);
        }
    };
    put(Of::All, Measure::MeanWait, hours(point.mean_wait));
    put(Of::All, Measure::P95Wait, hours(point.p95_wait));
    put(Of::All, Measure::CpuUtilisation, percent(point.cpu_utilisation));
    put(Of::All, Measure::GpuUtilisation, percent(point.gpu_utilisation));
    put(Of::All, Measure::Preemptions, point.preemptions.map(|p| p as f64));
    for g in groups.iter().filter(|g| g.grouping != "user") {
        let of = || Of::Group(g.grouping.clone(), g.name.clone());
        put(of(), Measure::MeanWait, hours(g.mean_wait));
        put(of(), Measure::P95Wait, hours(g.p95_wait));
    }
    for (reason, jobs) in reasons {
        put(Of::Reason(reason.clone()), Measure::Jobs, Some(*jobs as f64));
    }
    m
}

/// The replica points by setting: the settings other than `replica` that
/// differ, and each setting's values and replicas, settings in the order of
/// their first replica (the first is the baseline), replicas by index.
struct Replicated<'a> {
    keys: Vec<String>,
    settings: Vec<(Vec<Option<Value>>, Vec<&'a PointRow>)>,
}

impl Replicated<'_> {
    fn of(replicas: &mut [PointRow]) -> Replicated<'_> {
        let keys: Vec<String> = swept(replicas).into_iter().filter(|k| k != REPLICA).collect();
        let mut order = keys.clone();
        order.push(REPLICA.to_string());
        sort_points(replicas, &order);
        let mut settings: Vec<(Vec<Option<Value>>, Vec<&PointRow>)> = Vec::new();
        for p in replicas.iter() {
            let own: Vec<Option<Value>> = keys.iter().map(|k| p.settings.get(k).cloned()).collect();
            match settings.iter_mut().find(|(s, _)| *s == own) {
                Some((_, points)) => points.push(p),
                None => settings.push((own, vec![p])),
            }
        }
        Replicated { keys, settings }
    }

    /// A replica's index.
    fn index(p: &PointRow) -> i64 {
        p.settings.get(REPLICA).and_then(Value::number).unwrap_or(0.0) as i64
    }

    /// Per setting, its first replica and, per partition, the mean wait over
    /// its replicas (s) with its 95 % interval.
    fn waits(&self, groups: &HashMap<i64, Vec<&GroupRow>>) -> (Vec<&PointRow>, Vec<PartitionWaits>) {
        let firsts = self.settings.iter().map(|(_, points)| points[0]).collect();
        let waits = self
            .settings
            .iter()
            .map(|(_, points)| {
                let mut by: BTreeMap<String, Vec<f64>> = BTreeMap::new();
                for p in points {
                    for g in groups.get(&p.id).into_iter().flatten().filter(|g| g.grouping == "partition") {
                        by.entry(g.name.clone()).or_default().extend(g.mean_wait);
                    }
                }
                by.into_iter()
                    .filter_map(|(name, w)| mean_ci(&w).map(|ci| (name, (ci.mean, ci.low(), ci.high()))))
                    .collect()
            })
            .collect();
        (firsts, waits)
    }

    /// The what-if table.
    fn table(&self, db: &Path, groups: &HashMap<i64, Vec<&GroupRow>>) -> anyhow::Result<Table> {
        let reasons = load_reasons(db)?;
        let measured: Vec<BTreeMap<i64, what_if::Measures>> = self
            .settings
            .iter()
            .map(|(_, points)| {
                points
                    .iter()
                    .map(|p| {
                        let its_groups = groups.get(&p.id).map_or(&[][..], Vec::as_slice);
                        let its_reasons = reasons.get(&p.id).map_or(&[][..], Vec::as_slice);
                        (Replicated::index(p), measures_of(p, its_groups, its_reasons))
                    })
                    .collect()
            })
            .collect();
        let rows = what_if::differences(&measured);
        let mut columns = vec![
            Column::new("measure".into(), rows.iter().map(|(_, (_, measure), _)| measure.name()).collect::<Vec<_>>()),
            Column::new("of".into(), rows.iter().map(|(_, (of, _), _)| of.label()).collect::<Vec<_>>()),
        ];
        for (k, key) in self.keys.iter().enumerate() {
            columns.push(setting_column(key, rows.iter().map(|(s, _, _)| self.settings[*s].0[k].as_ref()).collect()));
        }
        columns.extend([
            Column::new("pairs".into(), rows.iter().map(|(_, _, d)| d.pairs as i64).collect::<Vec<_>>()),
            reals("baseline", rows.iter().map(|(_, _, d)| Some(d.baseline))),
            reals("value", rows.iter().map(|(_, _, d)| Some(d.value))),
            reals("difference", rows.iter().map(|(_, _, d)| Some(d.mean))),
            reals("low", rows.iter().map(|(_, _, d)| d.interval.map(|i| i.0))),
            reals("high", rows.iter().map(|(_, _, d)| d.interval.map(|i| i.1))),
            Column::new("verdict".into(), rows.iter().map(|(_, _, d)| d.verdict()).collect::<Vec<_>>()),
        ]);
        let baseline = match self.settings.first() {
            Some((values, _)) if !self.keys.is_empty() => self
                .keys
                .iter()
                .zip(values)
                .map(|(k, v)| format!("{k} = {}", v.as_ref().map_or_else(|| "(slurm.conf)".to_string(), Value::text)))
                .collect::<Vec<_>>()
                .join(", "),
            _ => "the only setting".to_string(),
        };
        Ok(Table {
            id: "slurm-what-if".into(),
            title: "Slurm: what-if differences with 95 % intervals".into(),
            note: format!(
                "Each setting's perturbed replicas ([slurm.replicas]) paired with the baseline's ({baseline}) \
                 replica by replica: per measure (waits in h, utilisation in %, preemptions and jobs per reason \
                 as counts) and what it is of (all jobs; a partition, QOS or account; a reason jobs waited for), \
                 the pairs, the baseline's and the setting's mean, their mean difference (setting − baseline) \
                 and its 95 % paired-t interval (low, high). Within noise: the interval holds 0; significant: it \
                 does not."
            ),
            df: DataFrame::new_infer_height(columns)?,
        })
    }
}

/// Per point, the reasons its jobs waited for and how many jobs each.
fn load_reasons(db: &Path) -> anyhow::Result<HashMap<i64, Vec<(String, i64)>>> {
    let mut out: HashMap<i64, Vec<(String, i64)>> = HashMap::new();
    if !has_table(db, "slurm_reasons")? {
        return Ok(out);
    }
    let (select, columns) = described_columns(db, &SLURM_REASONS, "r")?;
    let sql = format!("SELECT {select} FROM slurm_reasons r ORDER BY r.point_id, r.reason");
    let df = frame_of(db, &sql, &[], &columns)?;
    let (ids, reasons, jobs) = (ints(&df, "point_id")?, strs(&df, "reason")?, ints(&df, "jobs")?);
    for i in 0..df.height() {
        out.entry(ids[i]).or_default().push((reasons[i].clone(), jobs[i]));
    }
    Ok(out)
}
