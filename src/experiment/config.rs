//! Experiment configs (TOML): base settings plus sweeps over any setting.
//!
//! Contract:
//! - A config names the workload (a trace, or the synthetic default), the
//!   preparation, failures, overbooking settings and placement, then one or
//!   more `[[sweep]]` tables. Every table denies unknown keys.
//! - A sweep's `[sweep.axes]` maps a setting to a list of values or a range
//!   (`{ from, to, step }`, inclusive); `battery = "all"` means every battery.
//!   Axis names are short aliases (`pof_max`, `penalty_ratio`,
//!   `security_factor`, `pdf_source`, `acceptance`, `placement`, `strategy`,
//!   `battery`, `seed`, `trace`, `failures`; for Grid configs `clusters`,
//!   `algorithm`, `request_workload`, `minsize`, `starts`, `start_weight`) or
//!   the dotted path of any setting of a point (`overbooking.pdf.step_seconds`,
//!   `prepare.target_load`, `grid.windows.offset_days`, …).
//! - A config with a `[grid]` table is a Grid experiment: every point is a
//!   Grid run (`strategy` is then the clusters' local scheduler, default
//!   `easy`); Grid axes in a config without `[grid]` are refused.
//! - The points of a sweep are the Cartesian product of its axes; axes listed
//!   together in `zip` advance together (equal lengths). The points of the
//!   config are the union of its sweeps, each normalised (settings its
//!   strategy does not read are reset) and taken once, in a stable order.
//! - Every error names the file and the line (and column) of the key at fault.

use std::collections::HashSet;
use std::fmt;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::experiment::point::Point;
use crate::grid::config::GridConfig;
use crate::policy::overbooking::OverbookingConfig;
use crate::policy::{Placement, STRATEGIES, strategy};
use crate::workload::WorkloadSource;
use crate::workload::failures::FailureSource;
use crate::workload::prepare::PrepareConfig;
use crate::workload::reservations::{ReservationConfig, ReservationOption};
use crate::workload::synthetic::SyntheticConfig;

/// A config error, located in its file.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{file}:{line}:{column}: {message}")]
pub struct ConfigError {
    /// The config file.
    pub file: String,
    /// 1-based line.
    pub line: usize,
    /// 1-based column.
    pub column: usize,
    /// What is wrong.
    pub message: String,
}

/// Where the jobs come from, as written in a config.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WorkloadConfig {
    /// An SWF trace (a path, or a name under the traces directory).
    pub trace: Option<PathBuf>,
    /// Skip malformed trace lines.
    #[serde(default)]
    pub lenient: bool,
    /// Synthetic workload settings (used when no trace is given).
    pub synthetic: Option<SyntheticConfig>,
}

impl WorkloadConfig {
    fn source(&self) -> WorkloadSource {
        match &self.trace {
            Some(path) => WorkloadSource::Swf { path: path.clone(), lenient: self.lenient },
            None => WorkloadSource::Synthetic(self.synthetic.clone().unwrap_or_default()),
        }
    }
}

/// The values of one axis.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(untagged)]
pub enum AxisValues {
    /// Explicit values.
    List(Vec<toml::Value>),
    /// An inclusive numeric range.
    Range {
        /// First value.
        from: f64,
        /// Last value (inclusive).
        to: f64,
        /// Increment (default 1).
        #[serde(default)]
        step: Option<f64>,
    },
    /// A keyword: `"all"` (batteries).
    Keyword(String),
}

/// One `[[sweep]]` table.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SweepConfig {
    /// A label for reports.
    #[serde(default)]
    pub name: Option<String>,
    /// Axis name → values.
    #[serde(default)]
    pub axes: toml::map::Map<String, toml::Value>,
    /// Groups of axes that advance together.
    #[serde(default)]
    pub zip: Vec<Vec<String>>,
}

/// A whole experiment config file.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExperimentConfig {
    /// Experiment name.
    #[serde(default)]
    pub name: Option<String>,
    /// Free text.
    #[serde(default)]
    pub description: Option<String>,
    /// The jobs.
    #[serde(default)]
    pub workload: WorkloadConfig,
    /// Preparation.
    #[serde(default)]
    pub prepare: PrepareConfig,
    /// Node failures (default: LANL replay with a trace, Poisson otherwise).
    #[serde(default)]
    pub failures: Option<FailureSource>,
    /// Overbooking settings.
    #[serde(default)]
    pub overbooking: OverbookingConfig,
    /// Paper B's reservations.
    #[serde(default)]
    pub reservations: ReservationConfig,
    /// The classic queueing modes (`fcfs`, `easy`, `conservative`).
    #[serde(default)]
    pub classic: crate::policy::classic::ClassicConfig,
    /// Placement policy.
    #[serde(default)]
    pub placement: Placement,
    /// A Grid experiment: clusters, broker and requests.
    #[serde(default)]
    pub grid: Option<GridConfig>,
    /// Seed.
    #[serde(default = "default_seed")]
    pub seed: u64,
    /// The sweeps.
    #[serde(default)]
    pub sweep: Vec<SweepConfig>,
}

fn default_seed() -> u64 {
    1
}

/// A point of a config and the sweep it came from.
#[derive(Debug, Clone, PartialEq)]
pub struct SweepPoint {
    /// The normalised point.
    pub point: Point,
    /// Its sweep's name (or number).
    pub sweep: String,
}

/// A loaded experiment: its text, identity and points.
#[derive(Debug, Clone)]
pub struct Experiment {
    /// The file it came from.
    pub file: String,
    /// Its name (the config's, else the file stem).
    pub name: String,
    /// The config text.
    pub text: String,
    /// sha256 of the text, hex.
    pub hash: String,
    /// Every distinct point, in expansion order.
    pub points: Vec<SweepPoint>,
    /// Built from the command line (no file to point errors into).
    pub command_line: bool,
}

/// Short axis names and the settings they stand for.
pub const ALIASES: [(&str, &str); 31] = [
    ("pof_max", "overbooking.pof_max"),
    ("penalty_ratio", "prepare.penalty_ratio"),
    ("security_factor", "overbooking.security_factor"),
    ("pdf_source", "overbooking.pdf.source"),
    ("acceptance", "overbooking.acceptance"),
    ("placement", "placement"),
    ("strategy", "strategy"),
    ("battery", "battery"),
    ("seed", "seed"),
    ("trace", "workload.swf.path"),
    ("failures", "failures.model"),
    ("reservation_percent", "reservations.percent"),
    ("start_factor", "reservations.start_factor"),
    ("reservation_option", "reservations.option"),
    ("max_moves", "reservations.max_moves"),
    ("checkpointing", "overbooking.checkpoint.enabled"),
    ("pof_calibration", "overbooking.calibration"),
    ("drop_overruns", "prepare.filter.drop_overruns"),
    ("completed_only", "prepare.filter.completed_only"),
    ("bin_rounding", "overbooking.pdf.bin_rounding"),
    ("pdf_update", "overbooking.pdf.update"),
    ("pdf_half_life", "overbooking.pdf.half_life_days"),
    ("replan_shortens", "overbooking.replan_shortens"),
    ("pos_at", "overbooking.pos_at"),
    ("kill_at_estimate", "classic.kill_at_estimate"),
    ("clusters", "grid.clusters"),
    ("algorithm", "grid.algorithm"),
    ("request_workload", "grid.requests.workload"),
    ("minsize", "grid.minsize"),
    ("starts", "grid.starts"),
    ("start_weight", "grid.requests.start_weight"),
];

/// Converts a byte offset into 1-based line and column.
pub(crate) fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let column = before.rfind('\n').map_or(before.chars().count(), |nl| before[nl + 1..].chars().count()) + 1;
    (line, column)
}

struct Locator<'a> {
    file: &'a str,
    text: &'a str,
}

impl Locator<'_> {
    fn at(&self, offset: usize, message: impl fmt::Display) -> ConfigError {
        let (line, column) = line_col(self.text, offset);
        ConfigError { file: self.file.to_string(), line, column, message: message.to_string() }
    }

    /// The dotted name of the key on the line at `offset` (`prepare.batteries`).
    fn key_at(&self, offset: usize) -> Option<String> {
        let offset = offset.min(self.text.len());
        let line_start = self.text[..offset].rfind('\n').map_or(0, |n| n + 1);
        let line_end = self.text[offset..].find('\n').map_or(self.text.len(), |n| offset + n);
        let line = &self.text[line_start..line_end];
        let key = line.split_once('=')?.0.trim().trim_matches('"');
        let table = self.text[..line_start]
            .lines()
            .rev()
            .map(str::trim)
            .find(|l| l.starts_with('['))
            .map(|l| l.trim_matches(|c| c == '[' || c == ']').trim().to_string());
        Some(match table {
            Some(t) if !t.is_empty() => format!("{t}.{key}"),
            _ => key.to_string(),
        })
    }

    /// The offset of `key =` inside `span` of the text, else the span start.
    fn key_offset(&self, span: std::ops::Range<usize>, key: &str) -> usize {
        let region = &self.text[span.start.min(self.text.len())..span.end.min(self.text.len())];
        let quoted = format!("\"{key}\"");
        region
            .match_indices(key)
            .chain(region.match_indices(quoted.as_str()))
            .map(|(i, _)| i)
            .find(|&i| {
                let line_start = region[..i].rfind('\n').map_or(0, |n| n + 1);
                region[line_start..i].trim().is_empty()
            })
            .map_or(span.start, |i| span.start + i)
    }
}

/// The byte range of each `[[sweep]]` table, header to the next header.
fn sweep_regions(text: &str) -> Vec<std::ops::Range<usize>> {
    let mut starts = Vec::new();
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let t = line.trim();
        if t.starts_with("[[") && t.trim_start_matches('[').trim_start().starts_with("sweep") && t.contains("]]") {
            starts.push(offset);
        }
        offset += line.len();
    }
    starts.iter().enumerate().map(|(i, &s)| s..starts.get(i + 1).copied().unwrap_or(text.len())).collect()
}

/// Where a cost-table error points: the table's `clusters` key, its `rates`
/// key, or the offending rate's `{`.
fn cost_table_offset(text: &str, e: &crate::grid::cost::CostError) -> usize {
    let Some(table) = text.match_indices("[[grid.costs.tables]]").nth(e.table).map(|(i, _)| i) else { return 0 };
    let end = text[table + 1..].find("\n[").map_or(text.len(), |i| table + 1 + i);
    let region = &text[table..end];
    let key = if e.setting.ends_with("clusters") { "clusters" } else { "rates" };
    let Some(at) = region.find(&format!("{key} =")).or_else(|| region.find(key)) else { return table };
    match e.rate {
        Some(r) => region[at..].match_indices('{').nth(r).map_or(table + at, |(i, _)| table + at + i),
        None => table + at,
    }
}

/// Expands an axis' values.
fn axis_values(
    name: &str,
    raw: &toml::Value,
    batteries: usize,
    loc: &Locator<'_>,
    at: usize,
) -> Result<Vec<toml::Value>, ConfigError> {
    let values: AxisValues = raw.clone().try_into().map_err(|e: toml::de::Error| {
        loc.at(at, format!("axis `{name}`: {} (expected a list, a {{ from, to, step }} range or \"all\")", e.message()))
    })?;
    let out = match values {
        AxisValues::List(list) => list,
        AxisValues::Keyword(k) if k == "all" && name == "battery" => {
            (0..batteries).map(|b| toml::Value::Integer(b as i64)).collect()
        }
        AxisValues::Keyword(k) => {
            return Err(
                loc.at(at, format!("axis `{name}`: `{k}` is not a list or range (only `battery` takes \"all\")"))
            );
        }
        AxisValues::Range { from, to, step } => {
            let step = step.unwrap_or(1.0);
            if !(step.is_finite() && step > 0.0 && from.is_finite() && to.is_finite()) {
                return Err(loc.at(at, format!("axis `{name}`: the range step must be positive and finite")));
            }
            let count = ((to - from) / step + 1e-9).floor();
            if count < 0.0 {
                return Err(loc.at(at, format!("axis `{name}`: the range is empty (from {from} > to {to})")));
            }
            let integral = from.fract() == 0.0 && step.fract() == 0.0;
            (0..=count as usize)
                .map(|k| {
                    let v = from + k as f64 * step;
                    if integral {
                        toml::Value::Integer(v as i64)
                    } else {
                        // Round away the float noise of the repeated addition.
                        toml::Value::Float((v * 1e9).round() / 1e9)
                    }
                })
                .collect()
        }
    };
    if out.is_empty() {
        return Err(loc.at(at, format!("axis `{name}` has no values")));
    }
    Ok(out)
}

/// Sets the dotted `path` of a TOML table to `value`, creating tables on the way.
fn set_path(table: &mut toml::Table, path: &str, value: toml::Value) {
    let mut parts = path.split('.').peekable();
    let mut current = table;
    while let Some(part) = parts.next() {
        if parts.peek().is_none() {
            current.insert(part.to_string(), value);
            return;
        }
        let entry = current.entry(part.to_string()).or_insert_with(|| toml::Value::Table(toml::Table::new()));
        if !entry.is_table() {
            *entry = toml::Value::Table(toml::Table::new());
        }
        current = entry.as_table_mut().expect("just made a table");
    }
}

/// A resolved setting path for an axis name.
fn resolve(name: &str) -> String {
    ALIASES.iter().find(|(alias, _)| *alias == name).map_or_else(|| name.to_string(), |(_, path)| path.to_string())
}

impl ExperimentConfig {
    /// The base point (battery 0) the sweeps modify.
    fn base(&self) -> Point {
        let failures = self.failures.clone().unwrap_or_else(|| {
            let model = if self.workload.trace.is_some() { "lanl" } else { "poisson" };
            FailureSource::default_for(model).unwrap_or(FailureSource::None)
        });
        let workload = match (&self.grid, &self.workload.trace, &self.workload.synthetic) {
            // A Grid run's synthetic default is an SDSC-Blue-sized machine.
            (Some(_), None, None) => {
                WorkloadSource::Synthetic(crate::experiment::grid::synthetic_grid_workload(self.seed))
            }
            _ => self.workload.source(),
        };
        Point {
            strategy: if self.grid.is_some() { "easy" } else { "conservative-backfilling" }.to_string(),
            placement: self.placement,
            seed: self.seed,
            battery: 0,
            workload,
            prepare: self.prepare.clone(),
            failures,
            overbooking: self.overbooking.clone(),
            reservations: self.reservations.clone(),
            classic: self.classic,
            grid: self.grid.clone(),
        }
    }
}

impl Experiment {
    /// An experiment of the command line: the given points (each with its
    /// label), once each. Its text lists every point's settings, so the store
    /// records what was run and `merge` can tell experiments apart.
    pub fn from_points(name: &str, command: &str, points: impl IntoIterator<Item = (Point, String)>) -> Experiment {
        let mut text = format!("# {command}: the points of the command line\n");
        let mut seen = HashSet::new();
        let mut list = Vec::new();
        for (point, sweep) in points {
            if seen.insert(point.id().run_id) {
                text.push_str(&format!("\n# point {} ({sweep})\n{}", list.len(), point.canonical()));
                list.push(SweepPoint { point, sweep });
            }
        }
        let hash = Sha256::digest(text.as_bytes()).iter().map(|b| format!("{b:02x}")).collect();
        Experiment { file: command.to_string(), name: name.to_string(), text, hash, points: list, command_line: true }
    }

    /// Where a setting (`grid.clusters`, …) is written in the config, as an
    /// error located there: its sweep axis if one sets it, else its key.
    pub fn locate(&self, setting: &str, message: impl fmt::Display) -> ConfigError {
        let loc = Locator { file: &self.file, text: &self.text };
        let axis = ALIASES.iter().find(|(_, p)| *p == setting).map_or(setting, |(a, _)| *a);
        let key = setting.rsplit('.').next().unwrap_or(setting);
        let everywhere = 0..self.text.len();
        let in_sweeps = sweep_regions(&self.text).into_iter().map(|r| loc.key_offset(r.clone(), axis)).find(|&o| {
            let (line, _) = line_col(&self.text, o);
            self.text.lines().nth(line - 1).is_some_and(|l| l.trim_start().starts_with(axis))
        });
        let offset = in_sweeps.unwrap_or_else(|| loc.key_offset(everywhere, key));
        loc.at(offset, message)
    }

    /// Reads and expands a config file.
    pub fn load(path: impl AsRef<Path>) -> Result<Experiment, ConfigError> {
        let path = path.as_ref();
        let file = path.display().to_string();
        let err = |message: String| ConfigError { file: file.clone(), line: 0, column: 0, message };
        if path.is_dir() {
            return Err(err("is a directory, not a config file".into()));
        }
        let text = std::fs::read_to_string(path).map_err(|e| err(format!("cannot read: {e}")))?;
        Experiment::parse(&file, &text)
    }

    /// Parses and expands config text; `file` is used in messages.
    pub fn parse(file: &str, text: &str) -> Result<Experiment, ConfigError> {
        let loc = Locator { file, text };
        let config: ExperimentConfig = toml::from_str(text).map_err(|e| {
            let offset = e.span().map_or(0, |s| s.start);
            match loc.key_at(offset).filter(|k| !e.message().contains(k.rsplit('.').next().unwrap_or(k))) {
                Some(key) => loc.at(offset, format!("`{key}`: {}", e.message().trim())),
                None => loc.at(offset, e.message().trim()),
            }
        })?;
        if config.sweep.is_empty() {
            return Err(loc.at(0, "no [[sweep]] table: a config needs at least one sweep"));
        }
        config.overbooking.validate().map_err(|e| loc.at(loc.key_offset(0..text.len(), e.setting), e))?;
        config.reservations.validate().map_err(|e| {
            let key = e.setting.rsplit('.').next().unwrap_or(e.setting);
            loc.at(loc.key_offset(0..text.len(), key), e)
        })?;
        config.prepare.validate_split().map_err(|e| loc.at(0, e))?;
        let base = config.base();
        let base_table =
            toml::Table::try_from(&base).map_err(|e| loc.at(0, format!("cannot build the base point: {e}")))?;
        let batteries = if config.prepare.whole_log { 1 } else { config.prepare.batteries };

        let mut points = Vec::new();
        let mut seen = HashSet::new();
        let regions = sweep_regions(text);
        for (number, sweep) in config.sweep.iter().enumerate() {
            let span = regions.get(number).cloned().unwrap_or(0..text.len());
            let label = sweep.name.clone().unwrap_or_else(|| format!("sweep {}", number + 1));
            // Every axis once: a zip group is one dimension.
            let mut dims: Vec<Vec<(String, Vec<toml::Value>)>> = Vec::new();
            let mut zipped = HashSet::new();
            for group in &sweep.zip {
                let mut dim = Vec::new();
                for name in group {
                    let raw = sweep.axes.get(name).ok_or_else(|| {
                        loc.at(
                            loc.key_offset(span.clone(), "zip"),
                            format!("zip names axis `{name}`, which is not in [sweep.axes]"),
                        )
                    })?;
                    let at = loc.key_offset(span.clone(), name);
                    dim.push((name.clone(), axis_values(name, raw, batteries, &loc, at)?));
                    zipped.insert(name.clone());
                }
                if dim.windows(2).any(|w| w[0].1.len() != w[1].1.len()) {
                    return Err(loc.at(
                        loc.key_offset(span.clone(), "zip"),
                        format!("zipped axes {group:?} have different lengths"),
                    ));
                }
                if !dim.is_empty() {
                    dims.push(dim);
                }
            }
            for (name, raw) in &sweep.axes {
                if zipped.contains(name) {
                    continue;
                }
                let at = loc.key_offset(span.clone(), name);
                dims.push(vec![(name.clone(), axis_values(name, raw, batteries, &loc, at)?)]);
            }
            // Cartesian product over the dimensions, first axis slowest.
            let sizes: Vec<usize> = dims.iter().map(|d| d[0].1.len()).collect();
            let total: usize = sizes.iter().product();
            for k in 0..total {
                let mut table = base_table.clone();
                let mut rest = k;
                let mut picks = Vec::with_capacity(dims.len());
                for (d, &size) in dims.iter().zip(&sizes).rev() {
                    picks.push((d, rest % size));
                    rest /= size;
                }
                for (dim, index) in picks.iter().rev() {
                    for (name, values) in dim.iter() {
                        set_path(&mut table, &resolve(name), values[*index].clone());
                    }
                }
                let point: Point = toml::Value::Table(table).try_into().map_err(|e: toml::de::Error| {
                    let message = e.message();
                    let name = dims.iter().flatten().map(|(n, _)| n.as_str()).find(|n| message.contains(*n));
                    // An unknown variant names the value, not the axis: find the axis holding it.
                    let holding = || {
                        picks
                            .iter()
                            .flat_map(|(dim, i)| dim.iter().map(move |(n, v)| (n.as_str(), &v[*i])))
                            .find_map(|(n, v)| v.as_str().filter(|s| message.contains(&format!("`{s}`"))).map(|_| n))
                    };
                    match name.or_else(holding) {
                        Some(n) if name.is_none() => {
                            loc.at(loc.key_offset(span.clone(), n), format!("{label}: axis `{n}`: {}", message.trim()))
                        }
                        Some(n) => loc.at(loc.key_offset(span.clone(), n), format!("{label}: {}", message.trim())),
                        None => loc.at(span.start, format!("{label}: {}", message.trim())),
                    }
                })?;
                // Checked before normalising: a value outside its domain is refused
                // even where the point's strategy does not read it.
                point.overbooking.validate().map_err(|e| {
                    let axis = ALIASES.iter().find(|(_, p)| p.ends_with(e.setting)).map_or(e.setting, |(a, _)| *a);
                    loc.at(loc.key_offset(span.clone(), axis), e)
                })?;
                point.reservations.validate().map_err(|e| {
                    let axis = ALIASES.iter().find(|(_, p)| *p == e.setting).map_or(e.setting, |(a, _)| *a);
                    loc.at(loc.key_offset(span.clone(), axis), e)
                })?;
                let point = point.normalized().map_err(|e| loc.at(loc.key_offset(span.clone(), "strategy"), e))?;
                if let Some(g) = &point.grid {
                    if config.grid.is_none() {
                        let axis =
                            dims.iter().flatten().map(|(n, _)| n.as_str()).find(|n| resolve(n).starts_with("grid."));
                        return Err(loc.at(
                            axis.map_or(span.start, |a| loc.key_offset(span.clone(), a)),
                            format!(
                                "{label}: axis `{}` is a Grid setting; a Grid experiment needs a [grid] table",
                                axis.unwrap_or("grid")
                            ),
                        ));
                    }
                    g.validate().map_err(|e| {
                        let key = e.setting.rsplit('.').next().unwrap_or(e.setting);
                        let axis = ALIASES.iter().find(|(_, p)| *p == e.setting).map(|(a, _)| *a);
                        let at = match axis.filter(|a| sweep.axes.contains_key(*a)) {
                            Some(a) => loc.key_offset(span.clone(), a),
                            None => loc.key_offset(0..text.len(), key),
                        };
                        loc.at(at, e)
                    })?;
                    crate::policy::build_reserving(&point.strategy, g.cpus, g.t_stop())
                        .map_err(|e| loc.at(loc.key_offset(span.clone(), "strategy"), e))?;
                    g.costs.tables(g.clusters).map_err(|e| loc.at(cost_table_offset(text, &e), &e))?;
                }
                if point.reservations.option == ReservationOption::Move
                    && strategy(&point.strategy).is_ok_and(|s| !s.moves_planned_jobs)
                {
                    return Err(loc.at(
                        loc.key_offset(span.clone(), "reservation_option"),
                        format!(
                            "{label}: reservation option `move` with strategy {}, which never moves a booking; \
                             strategies that move planned jobs: {}",
                            point.strategy,
                            STRATEGIES
                                .iter()
                                .filter(|s| s.moves_planned_jobs)
                                .map(|s| s.name)
                                .collect::<Vec<_>>()
                                .join(", ")
                        ),
                    ));
                }
                point.prepare.validate_split().map_err(|e| loc.at(loc.key_offset(span.clone(), "penalty_ratio"), e))?;
                if !point.prepare.whole_log {
                    point.prepare.validate().map_err(|e| loc.at(span.start, e))?;
                }
                if point.battery >= batteries {
                    return Err(loc.at(
                        loc.key_offset(span.clone(), "battery"),
                        format!("battery {} does not exist: the preparation makes {batteries}", point.battery),
                    ));
                }
                if seen.insert(point.id().run_id) {
                    points.push(SweepPoint { point, sweep: label.clone() });
                }
            }
        }
        let hash = Sha256::digest(text.as_bytes()).iter().map(|b| format!("{b:02x}")).collect();
        let name = config.name.clone().unwrap_or_else(|| {
            Path::new(file).file_stem().map_or_else(|| file.to_string(), |s| s.to_string_lossy().into_owned())
        });
        Ok(Experiment { file: file.to_string(), name, text: text.to_string(), hash, points, command_line: false })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const CONFIG: &str = r#"
name = "t"
[workload.synthetic]
jobs = 3000
[prepare]
input_jobs = 1000
batteries = 2
battery_size = 500

[[sweep]]
name = "pof"
[sweep.axes]
strategy = ["conservative-backfilling", "heuristic-overbooking"]
pof_max = { from = 0.1, to = 0.3, step = 0.1 }
battery = "all"

[[sweep]]
name = "risk"
zip = [["penalty_ratio", "security_factor"]]
[sweep.axes]
strategy = ["heuristic-overbooking"]
acceptance = ["risk"]
penalty_ratio = [0.5, 1.0]
security_factor = [2.0, 3.0]
"#;

    #[test]
    fn expands_products_zips_and_dedupes() {
        let e = Experiment::parse("t.toml", CONFIG).unwrap();
        // pof: CB does not read PoF_max → 2 batteries; HO: 3 × 2 = 6. risk: zipped 2 pairs × battery 0.
        assert_eq!(e.points.len(), 2 + 6 + 2);
        let pof: Vec<f64> = e
            .points
            .iter()
            .filter(|p| p.point.strategy == "heuristic-overbooking" && p.sweep == "pof")
            .map(|p| p.point.overbooking.pof_max)
            .collect();
        assert_eq!(pof, vec![0.1, 0.1, 0.2, 0.2, 0.3, 0.3]);
        let risk: Vec<(f64, Option<f64>)> = e
            .points
            .iter()
            .filter(|p| p.sweep == "risk")
            .map(|p| (p.point.prepare.penalty_ratio, p.point.overbooking.security_factor))
            .collect();
        assert_eq!(risk, vec![(0.5, Some(2.0)), (1.0, Some(3.0))]);
        assert_eq!(e.name, "t");
        // Stable: the same text expands to the same ids.
        let again = Experiment::parse("t.toml", CONFIG).unwrap();
        assert_eq!(again.points, e.points);
    }

    fn error(text: &str) -> ConfigError {
        Experiment::parse("c.toml", text).unwrap_err()
    }

    #[test]
    fn errors_name_the_file_line_and_key() {
        let e = error("[prepare]\nbatteries = 2\nbogus = 1\n[[sweep]]\n");
        assert_eq!((e.file.as_str(), e.line), ("c.toml", 3), "{e}");
        assert!(e.message.contains("unknown field `bogus`"), "{e}");

        let e = error("[prepare]\nbatteries = \"two\"\n[[sweep]]\n");
        assert_eq!(e.line, 2, "{e}");
        assert!(e.to_string().starts_with("c.toml:2:"), "{e}");

        let e = error("[[sweep]]\n[sweep.axes]\nstrategy = [\"conservative-backfilling\"]\npof_max = []\n");
        assert_eq!(e.line, 4, "{e}");
        assert!(e.message.contains("axis `pof_max` has no values"), "{e}");

        let e = error("[[sweep]]\n[sweep.axes]\npof_max = [0.1, 1.5]\nstrategy = [\"heuristic-overbooking\"]\n");
        assert_eq!(e.line, 3, "{e}");
        assert!(e.message.contains("`pof_max` = 1.5"), "{e}");

        // Refused even when no swept strategy reads the setting.
        let e = error("[[sweep]]\n[sweep.axes]\nstrategy = [\"conservative-backfilling\"]\npof_max = [1.5]\n");
        assert_eq!(e.line, 4, "{e}");
        assert!(e.message.contains("`pof_max` = 1.5"), "{e}");

        let e = error("[[sweep]]\n[sweep.axes]\nstrategy = [\"easy-peasy\"]\n");
        assert_eq!(e.line, 3, "{e}");
        assert!(e.message.contains("valid strategy names"), "{e}");

        let e = error("[[sweep]]\n[sweep.axes]\npofmax = [0.1]\n");
        assert_eq!(e.line, 3, "{e}");
        assert!(e.message.contains("pofmax"), "{e}");

        let e = error("name = \"x\"\n");
        assert!(e.message.contains("no [[sweep]]"), "{e}");
    }
}
