//! Experiment configs (TOML): one language for every point kind, base
//! settings plus sweeps over any setting.
//!
//! Contract:
//! - A config's kind is its section: `[grid]` makes a Grid experiment,
//!   `[provision]` a provisioning one, `[pricing]` a pricing one; without
//!   any it is a single-cluster experiment (`[workload]`, `[prepare]`,
//!   `[failures]`, `[overbooking]`, `[reservations]`, `[classic]`,
//!   `[batsim]`, `placement`). A Grid config reads `[workload]` (the log its cluster
//!   windows are cut from) and `[grid]`. `name`, `description` and `seed`
//!   are common. A section of another kind is refused, naming it. Every
//!   table denies unknown keys; the provisioning dialect of earlier versions
//!   (`[defaults]`, `[[group]]`) is refused with the keys to use instead.
//! - Then one or more `[[sweep]]` tables. A sweep's `[sweep.axes]` maps a
//!   setting to a list of values or a range (`{ from, to, step }`,
//!   inclusive); `battery = "all"` means every battery. Axis names are the
//!   short names of [`AXES`] (`pof_max`, `clusters`, `task_processors`,
//!   `alpha`, … ; `slasim list axes`) or the dotted path of any setting of a
//!   point (`overbooking.pdf.step_seconds`, `grid.windows.offset_days`,
//!   `provision.moga.population`, …). An axis of another kind is refused.
//! - The points of a sweep are the Cartesian product of its axes; axes listed
//!   together in `zip` advance together (equal lengths). Each point goes
//!   through its kind's `resolve` (defaults, reset of unread settings,
//!   checks); the points of the config are the union of its sweeps, each
//!   taken once, in a stable order.
//! - Every error names the file and the line (and column) of the key at fault.

use std::collections::HashSet;
use std::fmt;
use std::path::{Path, PathBuf};

use serde::Deserialize;
use sha2::{Digest, Sha256};

use crate::experiment::kinds::grid::{GridPoint, synthetic_grid_workload};
use crate::experiment::kinds::pricing::PricingSettings;
use crate::experiment::kinds::provision::ProvisionSettings;
use crate::experiment::kinds::single::SinglePoint;
use crate::experiment::point::{Kind, Point};
use crate::grid::config::GridConfig;
use crate::policy::classic::ClassicConfig;
use crate::policy::overbooking::OverbookingConfig;
use crate::policy::{Placement, StrategyRef, strategy_infos};
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
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WorkloadConfig {
    /// An SWF trace (a path, or a name under the traces directory), or a
    /// Slurm accounting dump (detected by its `sacct --parsable2` header).
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
    /// The jobs (single-cluster), or the log cut into cluster windows (Grid).
    #[serde(default)]
    pub workload: WorkloadConfig,
    /// Preparation.
    #[serde(default)]
    pub prepare: PrepareConfig,
    /// Node failures (default: LANL replay with a trace, Poisson otherwise,
    /// none for the classic queueing modes).
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
    pub classic: ClassicConfig,
    /// The external scheduler of a strategy speaking Batsim's protocol
    /// (`batsim`): single-cluster points only.
    #[serde(default)]
    pub batsim: Option<crate::policy::batsim::BatsimConfig>,
    /// An energy meter on each run's cluster (watts per node state): off
    /// when absent. Single-cluster points only.
    #[serde(default)]
    pub energy: Option<crate::cluster::energy::EnergyConfig>,
    /// Placement policy.
    #[serde(default)]
    pub placement: Placement,
    /// A Grid experiment: clusters, broker and requests.
    #[serde(default)]
    pub grid: Option<GridConfig>,
    /// A provisioning experiment.
    #[serde(default)]
    pub provision: Option<ProvisionSettings>,
    /// A pricing experiment.
    #[serde(default)]
    pub pricing: Option<PricingSettings>,
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

/// A point of a config and the sweeps that name it.
#[derive(Debug, Clone, PartialEq)]
pub struct SweepPoint {
    /// The resolved point.
    pub point: Point,
    /// Its id (`run_id` or `point_id` in the store).
    pub id: i64,
    /// The first sweep that names it (its name, or number).
    pub sweep: String,
    /// Later sweeps that name the same point: it is run once and belongs to each.
    pub also: Vec<String>,
}

impl SweepPoint {
    /// Every sweep that names the point, the first first.
    pub fn sweeps(&self) -> impl Iterator<Item = &String> {
        std::iter::once(&self.sweep).chain(&self.also)
    }
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
    /// Its points' kind.
    pub kind: Kind,
    /// Every distinct point, in expansion order.
    pub points: Vec<SweepPoint>,
    /// Built from the command line (no file to point errors into).
    pub command_line: bool,
}

/// A sweep axis: its short name, the setting it sets, the kind of config it
/// belongs to and what it means.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Axis {
    /// The name in `[sweep.axes]`.
    pub name: &'static str,
    /// The dotted setting it sets.
    pub path: &'static str,
    /// The kind of config it belongs to.
    pub kind: Kind,
    /// One line.
    pub about: &'static str,
}

const fn axis(name: &'static str, path: &'static str, kind: Kind, about: &'static str) -> Axis {
    Axis { name, path, kind, about }
}

/// Every short axis name but `seed`, which every kind has (the seed of every
/// random stream of the point).
pub const AXES: &[Axis] = &[
    axis("strategy", "strategy", Kind::Single, "the scheduling strategy (`slasim list strategies`)"),
    axis("placement", "placement", Kind::Single, "first-fit, best-fit, highest-pos or last-fit"),
    axis("battery", "battery", Kind::Single, "a battery index, or \"all\""),
    axis("trace", "workload.swf.path", Kind::Single, "an SWF trace (path or name under the traces directory)"),
    axis("pof_max", "overbooking.pof_max", Kind::Single, "PoF_max of the PoF acceptance test"),
    axis("acceptance", "overbooking.acceptance", Kind::Single, "pof or risk"),
    axis("security_factor", "overbooking.security_factor", Kind::Single, "security factor of the risk test"),
    axis("penalty_ratio", "prepare.penalty_ratio", Kind::Single, "penalty = ratio × fee"),
    axis("pdf_source", "overbooking.pdf.source", Kind::Single, "runtime statistics by runtime, resources, user, …"),
    axis("pdf_update", "overbooking.pdf.update", Kind::Single, "static or online runtime statistics"),
    axis("pdf_half_life", "overbooking.pdf.half_life_days", Kind::Single, "online statistics' half-life, days"),
    axis("bin_rounding", "overbooking.pdf.bin_rounding", Kind::Single, "how runtime ratios fall into bins"),
    axis("pof_calibration", "overbooking.calibration", Kind::Single, "none, isotonic, isotonic-upper, scale, logistic"),
    axis("checkpointing", "overbooking.checkpoint.enabled", Kind::Single, "paper A's checkpoint/restart"),
    axis(
        "replan_shortens",
        "overbooking.replan_shortens",
        Kind::Single,
        "heuristic re-planning may shorten (ablation)",
    ),
    axis("pos_at", "overbooking.pos_at", Kind::Single, "where heuristic overbooking reads a gap's PoS (ablation)"),
    axis("failures", "failures.model", Kind::Single, "lanl, none, poisson, weibull or hyperexp"),
    axis("reservation_percent", "reservations.percent", Kind::Single, "paper B's reservations, % of the jobs"),
    axis("start_factor", "reservations.start_factor", Kind::Single, "start delay of a reservation / estimate"),
    axis("reservation_option", "reservations.option", Kind::Single, "reject or move"),
    axis("max_moves", "reservations.max_moves", Kind::Single, "starvation guard: pin after this many moves"),
    axis("drop_overruns", "prepare.filter.drop_overruns", Kind::Single, "drop jobs that ran past their estimate"),
    axis("completed_only", "prepare.filter.completed_only", Kind::Single, "keep completed jobs only"),
    axis("kill_at_estimate", "classic.kill_at_estimate", Kind::Single, "classic modes: kill a job at its estimate"),
    axis(
        "scheduler_command",
        "batsim.command",
        Kind::Single,
        "strategy batsim: the external scheduler's command, {port} for its port",
    ),
    axis("target_load", "prepare.target_load", Kind::Single, "estimated offered load of the input (2.0 = 200 %)"),
    axis("capacity", "prepare.capacity", Kind::Single, "machine size (default: the trace header's)"),
    axis("strategy", "strategy", Kind::Grid, "the clusters' local scheduler: easy, conservative or fcfs"),
    axis("trace", "workload.swf.path", Kind::Grid, "the SWF log the cluster windows are cut from"),
    axis("clusters", "grid.clusters", Kind::Grid, "cluster candidates, each running its own window of the log"),
    axis("algorithm", "grid.algorithm", Kind::Grid, "the co-reservation algorithm (`slasim list algorithms`)"),
    axis(
        "request_workload",
        "grid.requests.workload",
        Kind::Grid,
        "the request workload (`slasim list request-workloads`)",
    ),
    axis("minsize", "grid.minsize", Kind::Grid, "lower bound of the start-time increment, seconds"),
    axis("starts", "grid.starts", Kind::Grid, "start times per request at most"),
    axis("start_weight", "grid.requests.start_weight", Kind::Grid, "s of Alg. 5: start time (1) against cost (0)"),
    axis("capacity", "grid.capacity", Kind::Grid, "CPUs of every cluster"),
    axis("method", "method", Kind::Provision, "moga, greedy or slots"),
    axis("pricing_policy", "pricing_policy", Kind::Provision, "greedy: the scheduler sites price with"),
    axis(
        "sites",
        "sites",
        Kind::Provision,
        "the site list, e.g. [[{ trace = \"CTC-SP2-1996-3.1-cln.swf.gz\", capacity = 430 }]]",
    ),
    axis("site_count", "site_count", Kind::Provision, "use the first K sites"),
    axis("utilisation", "utilisation", Kind::Provision, "every site's target utilisation (0.88 = 88 %)"),
    axis("estimates", "estimates", Kind::Provision, "exact or logged"),
    axis("workflow", "workflow", Kind::Provision, "synthetic, cybershake or a workflow file"),
    axis("tasks", "tasks", Kind::Provision, "tasks of the synthetic workflow"),
    axis("task_processors", "task_processors", Kind::Provision, "mean processors per task of the synthetic workflow"),
    axis("alphas", "alphas", Kind::Provision, "the trade-off factors each point picks plans for (a list per point)"),
    axis("submissions", "submissions", Kind::Provision, "submission instants per point"),
    axis("mean_transfer", "mean_transfer", Kind::Provision, "mean transfer time between sites, seconds"),
    axis("alpha", "alpha", Kind::Pricing, "the buyers' trade-off factor α"),
    axis("share", "share", Kind::Pricing, "percentage of the jobs that buy reservations"),
    axis("days", "days", Kind::Pricing, "the first DAYS days of the trace"),
    axis("pricing_policy", "pricing_policy", Kind::Pricing, "the scheduler the site prices with"),
    axis("estimates", "estimates", Kind::Pricing, "exact or logged"),
    axis("site", "site", Kind::Pricing, "the site, e.g. [{ trace = \"CTC-SP2-1996-3.1-cln.swf.gz\", capacity = 430 }]"),
    axis("utilisation", "site.utilisation", Kind::Pricing, "the site's target utilisation (0.88 = 88 %)"),
];

/// The sections of a config, with the kind each belongs to.
const SECTIONS: [(&str, Kind); 11] = [
    ("workload", Kind::Single),
    ("prepare", Kind::Single),
    ("failures", Kind::Single),
    ("overbooking", Kind::Single),
    ("reservations", Kind::Single),
    ("classic", Kind::Single),
    ("batsim", Kind::Single),
    ("energy", Kind::Single),
    ("placement", Kind::Single),
    ("provision", Kind::Provision),
    ("pricing", Kind::Pricing),
];

/// Does a single-cluster section or setting belong in a config of `kind`?
/// (A Grid config also reads `[workload]`.)
fn section_fits(section: &str, owner: Kind, kind: Kind) -> bool {
    owner == kind || (kind == Kind::Grid && section == "workload")
}

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

impl Kind {
    /// "a single-cluster setting", … for messages.
    fn setting_of(self) -> &'static str {
        match self {
            Kind::Single => "single-cluster",
            Kind::Grid => "Grid",
            Kind::Provision => "provisioning",
            Kind::Pricing => "pricing",
        }
    }
}

/// The setting an axis stands for in a config of `kind` (a dotted path in
/// that kind's settings), or why it does not belong there.
fn axis_path(name: &str, kind: Kind) -> Result<String, String> {
    if name == "seed" {
        return Ok("seed".to_string());
    }
    if let Some(a) = AXES.iter().find(|a| a.name == name && a.kind == kind) {
        return Ok(a.path.to_string());
    }
    let other =
        |owner: Kind| format!("axis `{name}` is a {} setting; this config is {}", owner.setting_of(), kind.described());
    if let Some(a) = AXES.iter().find(|a| a.name == name) {
        return Err(other(a.kind));
    }
    let first = name.split('.').next().unwrap_or(name);
    let owner = match first {
        "grid" => Some(Kind::Grid),
        "provision" => Some(Kind::Provision),
        "pricing" => Some(Kind::Pricing),
        _ => SECTIONS.iter().find(|(s, _)| *s == first).map(|(_, k)| *k),
    };
    match owner {
        Some(owner) if !section_fits(first, owner, kind) => Err(other(owner)),
        // The settings of a provisioning or pricing point are its section's.
        Some(Kind::Provision | Kind::Pricing) => Ok(name[first.len()..].trim_start_matches('.').to_string()),
        // Anything else is checked when the point is read.
        _ => Ok(name.to_string()),
    }
}

/// Where a config's sections are: the offset of `[name]`, `[[name]]`,
/// `[name.…]` or `name =` at the start of a line.
fn section_offset(text: &str, name: &str) -> usize {
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let t = line.trim_start();
        let header = t.trim_start_matches('[').trim_start();
        let named = header.strip_prefix(name).is_some_and(|rest| {
            let rest = rest.trim_start();
            rest.starts_with(']') || rest.starts_with('.') || rest.starts_with('=')
        });
        if named && (t.starts_with('[') || t.starts_with(name)) {
            return offset + (line.len() - t.len());
        }
        offset += line.len();
    }
    0
}

impl ExperimentConfig {
    /// The base single-cluster point (battery 0) the sweeps modify.
    fn single_base(&self) -> SinglePoint {
        let workload = self.workload.source();
        let strategy = StrategyRef::named("conservative-backfilling").expect("a built-in strategy");
        let failures = self
            .failures
            .clone()
            .unwrap_or_else(|| crate::experiment::kinds::single::default_failures(strategy, &workload));
        SinglePoint {
            strategy,
            placement: self.placement,
            seed: self.seed,
            battery: 0,
            workload,
            prepare: self.prepare.clone(),
            failures,
            overbooking: self.overbooking.clone(),
            reservations: self.reservations.clone(),
            classic: self.classic,
            batsim: self.batsim.clone(),
            energy: self.energy,
        }
    }

    /// The base Grid point: the clusters' local scheduler EASY; without a
    /// trace, an SDSC-Blue-sized synthetic log.
    fn grid_base(&self, grid: &GridConfig) -> GridPoint {
        let workload = match (&self.workload.trace, &self.workload.synthetic) {
            (None, None) => WorkloadSource::Synthetic(synthetic_grid_workload(self.seed)),
            _ => self.workload.source(),
        };
        GridPoint {
            strategy: StrategyRef::named("easy").expect("a built-in strategy"),
            seed: self.seed,
            workload,
            grid: grid.clone(),
        }
    }
}

/// The old provisioning dialect's keys and what replaces them.
const OLD_DIALECT: [(&str, &str); 2] = [
    (
        "defaults",
        "`[defaults]` is the provisioning dialect of earlier versions: put these settings under `[provision]` \
         (or `[pricing]` for adaptive pricing), and `seed` at the top",
    ),
    (
        "group",
        "`[[group]]` is the provisioning dialect of earlier versions: each group is a `[[sweep]]` with `name`; \
         its `pool` becomes the `sites` axis (or `[provision] sites`), `[group.sweep]` becomes `[sweep.axes]`, \
         `kind = \"slots\"` is `method = \"slots\"` and `kind = \"price\"` a `[pricing]` config",
    ),
];

/// Checks one single-cluster point read from a sweep and resolves it.
#[allow(clippy::too_many_arguments)]
fn finish_single(
    point: SinglePoint,
    failures_set: bool,
    batteries: usize,
    label: &str,
    loc: &Locator<'_>,
    span: &std::ops::Range<usize>,
    text: &str,
) -> Result<Point, ConfigError> {
    let in_sweep = |name: &str| loc.key_offset(span.clone(), name);
    let alias_of = |setting: &str| AXES.iter().find(|a| a.kind == Kind::Single && a.path == setting).map(|a| a.name);
    // Checked before normalising: a value outside its domain is refused even
    // where the point's strategy does not read it.
    point.overbooking.validate().map_err(|e| {
        let axis =
            AXES.iter().find(|a| a.kind == Kind::Single && a.path.ends_with(e.setting)).map_or(e.setting, |a| a.name);
        loc.at(in_sweep(axis), e)
    })?;
    point.reservations.validate().map_err(|e| loc.at(in_sweep(alias_of(e.setting).unwrap_or(e.setting)), e))?;
    let moving = point.reservations.option == ReservationOption::Move;
    let point = point.resolve(failures_set).map_err(|e| {
        let at = match e.downcast_ref::<crate::setting::InvalidSetting>() {
            Some(s) => alias_of(s.setting).map_or_else(|| loc.key_offset(0..text.len(), s.setting), in_sweep),
            None => in_sweep("strategy"),
        };
        loc.at(at, format!("{label}: {e:#}"))
    })?;
    if moving && !point.strategy.moves_planned_jobs {
        return Err(loc.at(
            in_sweep("reservation_option"),
            format!(
                "{label}: reservation option `move` with strategy {}, which never moves a booking; \
                 strategies that move planned jobs: {}",
                point.strategy,
                strategy_infos().iter().filter(|s| s.moves_planned_jobs).map(|s| s.name).collect::<Vec<_>>().join(", ")
            ),
        ));
    }
    let batteries = if point.prepare.whole_log { 1 } else { batteries };
    if point.battery >= batteries {
        return Err(loc.at(
            in_sweep("battery"),
            format!("battery {} does not exist: the preparation makes {batteries}", point.battery),
        ));
    }
    Ok(Point::Single(point))
}

/// Where an invalid setting of a Grid, provisioning or pricing point is
/// written: its sweep axis if one sets it, else its key.
fn setting_offset(
    setting: &str,
    kind: Kind,
    sweep: &SweepConfig,
    loc: &Locator<'_>,
    span: &std::ops::Range<usize>,
    text: &str,
) -> usize {
    let inner = setting.strip_prefix(&format!("{}.", kind.name())).unwrap_or(setting);
    let axis = sweep.axes.keys().find(|name| axis_path(name, kind).is_ok_and(|p| p == setting || p == inner));
    match axis {
        Some(a) => loc.key_offset(span.clone(), a),
        None => loc.key_offset(0..text.len(), setting.rsplit('.').next().unwrap_or(setting)),
    }
}

impl Experiment {
    /// An experiment of the command line: the given points (each with its
    /// label), once each. Its text lists every point's settings, so the store
    /// records what was run and `merge` can tell experiments apart.
    pub fn from_points(
        name: &str,
        command: &str,
        points: impl IntoIterator<Item = (Point, String)>,
    ) -> Result<Experiment, crate::experiment::id::Unserialisable> {
        let mut text = format!("# {command}: the points of the command line\n");
        let mut seen = HashSet::new();
        let mut list = Vec::new();
        let mut kind = Kind::Single;
        for (point, sweep) in points {
            let id = point.id()?.run_id;
            if seen.insert(id) {
                kind = point.kind();
                text.push_str(&format!("\n# point {} ({sweep})\n{}", list.len(), point.canonical()?));
                list.push(SweepPoint { point, id, sweep, also: Vec::new() });
            }
        }
        let hash = Sha256::digest(text.as_bytes()).iter().map(|b| format!("{b:02x}")).collect();
        Ok(Experiment {
            file: command.to_string(),
            name: name.to_string(),
            text,
            hash,
            kind,
            points: list,
            command_line: true,
        })
    }

    /// Where a setting (`grid.clusters`, …) is written in the config, as an
    /// error located there: its sweep axis if one sets it, else its key.
    pub fn locate(&self, setting: &str, message: impl fmt::Display) -> ConfigError {
        let loc = Locator { file: &self.file, text: &self.text };
        let axis = AXES.iter().find(|a| a.path == setting).map_or(setting, |a| a.name);
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
        let syntax = |e: toml::de::Error| {
            let offset = e.span().map_or(0, |s| s.start);
            match loc.key_at(offset).filter(|k| !e.message().contains(k.rsplit('.').next().unwrap_or(k))) {
                Some(key) => loc.at(offset, format!("`{key}`: {}", e.message().trim())),
                None => loc.at(offset, e.message().trim()),
            }
        };
        let raw: toml::Table = toml::from_str(text).map_err(syntax)?;
        for (key, instead) in OLD_DIALECT {
            if raw.contains_key(key) {
                return Err(loc.at(section_offset(text, key), instead));
            }
        }
        let config: ExperimentConfig = toml::from_str(text).map_err(syntax)?;
        let sections: Vec<(&str, Kind)> =
            [("grid", Kind::Grid), ("provision", Kind::Provision), ("pricing", Kind::Pricing)]
                .into_iter()
                .filter(|(s, _)| raw.contains_key(*s))
                .collect();
        if let [(first, _), (second, _), ..] = sections.as_slice() {
            return Err(loc.at(
                section_offset(text, second),
                format!("a config has one kind: [{first}] and [{second}] cannot be in one file"),
            ));
        }
        let kind = sections.first().map_or(Kind::Single, |(_, k)| *k);
        for (section, owner) in SECTIONS {
            if raw.contains_key(section) && !section_fits(section, owner, kind) {
                return Err(loc.at(
                    section_offset(text, section),
                    format!("`{section}` is a {} setting; this config is {}", owner.setting_of(), kind.described()),
                ));
            }
        }
        if config.sweep.is_empty() {
            return Err(loc.at(0, "no [[sweep]] table: a config needs at least one sweep"));
        }
        let batteries = if config.prepare.whole_log { 1 } else { config.prepare.batteries };
        // A seed in the section wins over the top-level one.
        let seed_in_section = raw.get(kind.name()).and_then(|t| t.get("seed")).is_some();
        let seed = |own: u64| if seed_in_section { own } else { config.seed };
        let base_table = match kind {
            Kind::Single => {
                config.overbooking.validate().map_err(|e| loc.at(loc.key_offset(0..text.len(), e.setting), e))?;
                config.reservations.validate().map_err(|e| {
                    let key = e.setting.rsplit('.').next().unwrap_or(e.setting);
                    loc.at(loc.key_offset(0..text.len(), key), e)
                })?;
                config.prepare.validate_split().map_err(|e| loc.at(0, e))?;
                if let Some(energy) = &config.energy {
                    energy.validate().map_err(|e| {
                        let key = e.setting.rsplit('.').next().unwrap_or(e.setting);
                        loc.at(loc.key_offset(0..text.len(), key), e)
                    })?;
                }
                toml::Table::try_from(config.single_base())
            }
            Kind::Grid => {
                toml::Table::try_from(config.grid_base(config.grid.as_ref().unwrap_or(&GridConfig::default())))
            }
            Kind::Provision => {
                let settings = config.provision.clone().unwrap_or_default();
                toml::Table::try_from(ProvisionSettings { seed: seed(settings.seed), ..settings })
            }
            Kind::Pricing => {
                let settings = config.pricing.clone().unwrap_or_default();
                toml::Table::try_from(PricingSettings { seed: seed(settings.seed), ..settings })
            }
        }
        .map_err(|e| loc.at(0, format!("cannot build the base point: {e}")))?;

        let mut points: Vec<SweepPoint> = Vec::new();
        let mut seen: std::collections::HashMap<i64, usize> = std::collections::HashMap::new();
        let regions = sweep_regions(text);
        for (number, sweep) in config.sweep.iter().enumerate() {
            let span = regions.get(number).cloned().unwrap_or(0..text.len());
            let label = sweep.name.clone().unwrap_or_else(|| format!("sweep {}", number + 1));
            // Every axis once: a zip group is one dimension.
            let mut dims: Vec<Vec<(String, String, Vec<toml::Value>)>> = Vec::new();
            let mut zipped = HashSet::new();
            let dimension =
                |name: &str, raw: &toml::Value| -> Result<(String, String, Vec<toml::Value>), ConfigError> {
                    let at = loc.key_offset(span.clone(), name);
                    let path = axis_path(name, kind).map_err(|why| loc.at(at, format!("{label}: {why}")))?;
                    Ok((name.to_string(), path, axis_values(name, raw, batteries, &loc, at)?))
                };
            for group in &sweep.zip {
                let mut dim = Vec::new();
                for name in group {
                    let raw = sweep.axes.get(name).ok_or_else(|| {
                        loc.at(
                            loc.key_offset(span.clone(), "zip"),
                            format!("zip names axis `{name}`, which is not in [sweep.axes]"),
                        )
                    })?;
                    dim.push(dimension(name, raw)?);
                    zipped.insert(name.clone());
                }
                if dim.windows(2).any(|w| w[0].2.len() != w[1].2.len()) {
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
                if !zipped.contains(name) {
                    dims.push(vec![dimension(name, raw)?]);
                }
            }
            let failures_set =
                config.failures.is_some() || dims.iter().flatten().any(|(_, p, _)| p.starts_with("failures"));
            // Cartesian product over the dimensions, first axis slowest.
            let sizes: Vec<usize> = dims.iter().map(|d| d[0].2.len()).collect();
            let total: usize = sizes.iter().product();
            for k in 0..total {
                let mut table = base_table.clone();
                let mut rest = k;
                let mut picks = Vec::with_capacity(dims.len());
                for (d, &size) in dims.iter().zip(&sizes).rev() {
                    picks.push((d, rest % size));
                    rest /= size;
                }
                // Outer settings first: a `site` axis must not undo a `site.utilisation` one.
                let mut sets: Vec<(&str, &toml::Value)> = picks
                    .iter()
                    .rev()
                    .flat_map(|(dim, index)| dim.iter().map(move |(_, path, values)| (path.as_str(), &values[*index])))
                    .collect();
                sets.sort_by_key(|(path, _)| path.matches('.').count());
                for (path, value) in sets {
                    // Another failure model starts from its own defaults (as
                    // `--failures` does), not the previous model's parameters.
                    if path == "failures.model"
                        && table.get("failures").and_then(|f| f.get("model")) != Some(value)
                        && let Some(source) = value.as_str().and_then(FailureSource::default_for)
                        && let Ok(toml::Value::Table(defaults)) = toml::Value::try_from(&source)
                    {
                        table.insert("failures".into(), toml::Value::Table(defaults));
                        continue;
                    }
                    set_path(&mut table, path, value.clone());
                }
                let value = toml::Value::Table(table);
                // A value the settings cannot take, located at its axis.
                let unreadable = |e: toml::de::Error| {
                    let message = e.message();
                    let name = dims.iter().flatten().map(|(n, p, _)| (n.as_str(), p.as_str())).find(|(n, p)| {
                        message.contains(&format!("`{n}`"))
                            || message.contains(&format!("`{}`", p.rsplit('.').next().unwrap_or(p)))
                    });
                    // An unknown variant names the value, not the axis: find the axis holding it.
                    let holding = || {
                        picks
                            .iter()
                            .flat_map(|(dim, i)| dim.iter().map(move |(n, _, v)| (n.as_str(), &v[*i])))
                            .find_map(|(n, v)| v.as_str().filter(|s| message.contains(&format!("`{s}`"))).map(|_| n))
                    };
                    match (name.map(|(n, _)| n), holding()) {
                        (Some(n), _) => loc.at(loc.key_offset(span.clone(), n), format!("{label}: {}", message.trim())),
                        (None, Some(n)) => {
                            loc.at(loc.key_offset(span.clone(), n), format!("{label}: axis `{n}`: {}", message.trim()))
                        }
                        (None, None) => loc.at(span.start, format!("{label}: {}", message.trim())),
                    }
                };
                let invalid = |e: anyhow::Error| {
                    let setting =
                        e.downcast_ref::<crate::setting::InvalidSetting>().or_else(|| match e
                            .downcast_ref::<crate::policy::BuildError>()
                        {
                            Some(crate::policy::BuildError::Setting(s)) => Some(s),
                            _ => None,
                        });
                    let at = match setting {
                        Some(s) => setting_offset(s.setting, kind, sweep, &loc, &span, text),
                        None => match e.downcast_ref::<crate::grid::cost::CostError>() {
                            Some(c) => cost_table_offset(text, c),
                            None => match e.downcast_ref::<crate::policy::UnknownName>() {
                                Some(_) => loc.key_offset(span.clone(), "strategy"),
                                None => span.start,
                            },
                        },
                    };
                    loc.at(at, format!("{label}: {e:#}"))
                };
                let point = match kind {
                    Kind::Single => {
                        let p: SinglePoint = value.try_into().map_err(unreadable)?;
                        finish_single(p, failures_set, batteries, &label, &loc, &span, text)?
                    }
                    Kind::Grid => {
                        let p: GridPoint = value.try_into().map_err(unreadable)?;
                        Point::Grid(p.resolve().map_err(invalid)?)
                    }
                    Kind::Provision => {
                        let s: ProvisionSettings = value.try_into().map_err(unreadable)?;
                        Point::Provision(s.resolve().map_err(invalid)?)
                    }
                    Kind::Pricing => {
                        let s: PricingSettings = value.try_into().map_err(unreadable)?;
                        Point::Pricing(s.resolve().map_err(invalid)?)
                    }
                };
                let id = point.id().map_err(|e| loc.at(span.start, format!("{label}: {e}")))?.run_id;
                match seen.get(&id) {
                    Some(&k) => {
                        let p = &mut points[k];
                        if p.sweeps().all(|s| *s != label) {
                            p.also.push(label.clone());
                        }
                    }
                    None => {
                        seen.insert(id, points.len());
                        points.push(SweepPoint { point, id, sweep: label.clone(), also: Vec::new() });
                    }
                }
            }
        }
        let hash = Sha256::digest(text.as_bytes()).iter().map(|b| format!("{b:02x}")).collect();
        let name = config.name.clone().unwrap_or_else(|| {
            Path::new(file).file_stem().map_or_else(|| file.to_string(), |s| s.to_string_lossy().into_owned())
        });
        Ok(Experiment { file: file.to_string(), name, text: text.to_string(), hash, kind, points, command_line: false })
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

    fn single(p: &SweepPoint) -> &SinglePoint {
        match &p.point {
            Point::Single(s) => s,
            other => panic!("a single-cluster point, got {other:?}"),
        }
    }

    /// A `failures` axis switches to each model with its own defaults.
    #[test]
    fn a_failures_axis_takes_each_models_defaults() {
        let text = "[[sweep]]\n[sweep.axes]\nfailures = [\"weibull\", \"none\", \"poisson\", \"hyperexp\"]\n";
        let e = Experiment::parse("f.toml", text).unwrap();
        let got: Vec<FailureSource> = e.points.iter().map(|p| single(p).failures.clone()).collect();
        let want: Vec<FailureSource> =
            ["weibull", "none", "poisson", "hyperexp"].iter().map(|m| FailureSource::default_for(m).unwrap()).collect();
        assert_eq!(got, want);
    }

    #[test]
    fn expands_products_zips_and_dedupes() {
        let e = Experiment::parse("t.toml", CONFIG).unwrap();
        // pof: CB does not read PoF_max → 2 batteries; HO: 3 × 2 = 6. risk: zipped 2 pairs × battery 0.
        assert_eq!(e.points.len(), 2 + 6 + 2);
        let pof: Vec<f64> = e
            .points
            .iter()
            .filter(|p| single(p).strategy.name() == "heuristic-overbooking" && p.sweep == "pof")
            .map(|p| single(p).overbooking.pof_max)
            .collect();
        assert_eq!(pof, vec![0.1, 0.1, 0.2, 0.2, 0.3, 0.3]);
        let risk: Vec<(f64, Option<f64>)> = e
            .points
            .iter()
            .filter(|p| p.sweep == "risk")
            .map(|p| (single(p).prepare.penalty_ratio, single(p).overbooking.security_factor))
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
