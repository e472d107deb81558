//! Experiment configs (TOML): one language for every point kind, base
//! settings plus sweeps over any setting.
//!
//! Contract:
//! - The reader knows no kind by name: it asks the registry's point kinds
//!   ([`Registry::point_kinds`]) which sections and axes are theirs, and
//!   each kind reads its base settings and resolves its points, with the
//!   registry as the one their settings' names are looked up in
//!   ([`Registry::reading`]).
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
//!   short names of the kind's axes ([`axes`]: `pof_max`, `clusters`, `task_processors`,
//!   `alpha`, …; `slasim list axes`) or the dotted path of any setting of a
//!   point (`overbooking.pdf.step_seconds`, `grid.windows.offset_days`,
//!   `provision.moga.population`, …). An axis of another kind is refused.
//! - A kind whose config asks for replicas ([`crate::experiment::point::Base::replicas`])
//!   makes each point of a sweep once per replica: the sweep gains the axis
//!   `replica` (0 to the count − 1) as its innermost dimension, unless it
//!   names that axis itself.
//! - The points of a sweep are the Cartesian product of its axes; axes listed
//!   together in `zip` advance together (equal lengths). Each point goes
//!   through its kind's `resolve` (defaults, reset of unread settings,
//!   checks); the points of the config are the union of its sweeps, each
//!   taken once, in a stable order. Reading the config makes each
//!   combination once (its id, equal points folded) and keeps only the ids
//!   and sweeps; a point is made again from its combination when asked for
//!   ([`Points`]).
//! - Every error names the file and the line (and column) of the key at fault.

use std::collections::HashSet;
use std::fmt;
use std::path::Path;

use serde::Deserialize;
use sha2::{Digest, Sha256};

pub use crate::experiment::locate::ConfigError;
use crate::experiment::locate::{ConfigFile, Locator, SweepContext, line_col};
use crate::experiment::point::{Axis, Point, PointKind, REPLICA_AXIS};
use crate::experiment::registry::Registry;
use crate::units::thousands;

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

/// What every config has, whatever its kind.
#[derive(Debug, Clone, PartialEq, Deserialize)]
struct Common {
    /// Experiment name.
    #[serde(default)]
    name: Option<String>,
    /// Seed.
    #[serde(default = "default_seed")]
    seed: u64,
    /// The sweeps.
    #[serde(default)]
    sweep: Vec<SweepConfig>,
}

/// The top-level keys every config may have, before and after the kinds'.
const COMMON_FIRST: [&str; 2] = ["name", "description"];
const COMMON_LAST: [&str; 2] = ["seed", "sweep"];

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

/// What makes a config's points: its base settings and its sweeps' axes.
/// A point is made from its combination's position, when asked for.
#[derive(Debug)]
struct Plan {
    file: String,
    text: String,
    raw: toml::Table,
    kind: &'static dyn PointKind,
    base: toml::Table,
    batteries: usize,
    sweeps: Vec<PlannedSweep>,
}

/// A sweep's label, region of the text and dimensions (a zip group is one).
#[derive(Debug)]
struct PlannedSweep {
    label: String,
    span: std::ops::Range<usize>,
    /// Each dimension's axes: (name, setting path, values).
    dims: Vec<Vec<(String, String, Vec<toml::Value>)>>,
    /// Each dimension's number of values.
    sizes: Vec<usize>,
}

impl Plan {
    /// The point of combination `k` of sweep `number` (the Cartesian
    /// product over its dimensions, first axis slowest), resolved by its
    /// kind. Runs with the registry the config was read with.
    fn make(&self, number: usize, k: usize) -> Result<Point, ConfigError> {
        let sweep = &self.sweeps[number];
        let loc = Locator { file: &self.file, text: &self.text };
        let mut table = self.base.clone();
        let mut rest = k;
        let mut picks = Vec::with_capacity(sweep.dims.len());
        for (d, &size) in sweep.dims.iter().zip(&sweep.sizes).rev() {
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
            match self.kind.restarted_section(&table, path, value) {
                Some((section, defaults)) => {
                    table.insert(section.into(), toml::Value::Table(defaults));
                }
                None => set_path(&mut table, path, value.clone()),
            }
        }
        let context = SweepContext {
            loc,
            raw: &self.raw,
            label: &sweep.label,
            span: sweep.span.clone(),
            axes: sweep.dims.iter().flatten().map(|(n, p, _)| (n.clone(), p.clone())).collect(),
            values: picks
                .iter()
                .flat_map(|(dim, i)| dim.iter().map(move |(n, _, v)| (n.clone(), v[*i].clone())))
                .collect(),
            section: self.kind.section(),
            batteries: self.batteries,
        };
        self.kind.resolve(toml::Value::Table(table), &context)
    }
}

/// A distinct point: its id, the first sweep naming it (an index into the
/// labels) and what makes it (a sweep's number and combination, packed, or
/// its place among the points given).
#[derive(Debug, Clone, Copy, PartialEq)]
struct Entry {
    id: i64,
    sweep: u32,
    made_by: u64,
}

/// The distinct points of an experiment, in expansion order. Only their ids
/// and sweeps are held (a few bytes each): a point is made again from the
/// config when asked for ([`Points::get`]), so a sweep of a million points
/// does not hold a million points' settings.
#[derive(Debug, Clone, Default)]
pub struct Points {
    plan: Option<std::sync::Arc<Plan>>,
    /// Points given whole (a command line's).
    given: Vec<Point>,
    entries: Vec<Entry>,
    labels: Vec<String>,
    /// Later sweeps that name a point: (its position, the label's index), sorted.
    also: Vec<(u32, u32)>,
}

impl PartialEq for Points {
    fn eq(&self, other: &Points) -> bool {
        self.len() == other.len()
            && (0..self.len()).all(|k| self.id(k) == other.id(k) && self.sweeps(k).eq(other.sweeps(k)))
    }
}

impl Points {
    /// The index of `label`, added if new.
    fn label(&mut self, label: &str) -> u32 {
        match self.labels.iter().position(|l| l == label) {
            Some(i) => i as u32,
            None => {
                self.labels.push(label.to_string());
                (self.labels.len() - 1) as u32
            }
        }
    }

    /// How many distinct points.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// No point at all.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The id of point `k` (`run_id` or `point_id` in the store).
    pub fn id(&self, k: usize) -> i64 {
        self.entries[k].id
    }

    /// Every point's id, in order.
    pub fn ids(&self) -> impl ExactSizeIterator<Item = i64> + '_ {
        self.entries.iter().map(|e| e.id)
    }

    /// Every sweep that names point `k`, the first first.
    pub fn sweeps(&self, k: usize) -> impl Iterator<Item = &str> + '_ {
        let first = self.entries[k].sweep;
        let from = self.also.partition_point(|(p, _)| (*p as usize) < k);
        let later = self.also[from..].iter().take_while(move |(p, _)| *p as usize == k).map(|(_, l)| *l);
        std::iter::once(first).chain(later).map(|l| self.labels[l as usize].as_str())
    }

    /// Every (id, sweep) pair: which sweeps name which point.
    pub fn memberships(&self) -> impl Iterator<Item = (i64, &str)> + '_ {
        let first = self.entries.iter().map(|e| (e.id, self.labels[e.sweep as usize].as_str()));
        first.chain(self.also.iter().map(|&(p, l)| (self.entries[p as usize].id, self.labels[l as usize].as_str())))
    }

    /// Point `k`, made with `registry` (the one the config was read with).
    pub fn make(&self, registry: &Registry, k: usize) -> anyhow::Result<Point> {
        let entry = self.entries.get(k).ok_or_else(|| anyhow::anyhow!("point {k} does not exist"))?;
        match &self.plan {
            None => Ok(self.given[entry.made_by as usize].clone()),
            Some(plan) => {
                let (number, combination) =
                    ((entry.made_by >> 48) as usize, (entry.made_by & ((1 << 48) - 1)) as usize);
                Ok(registry.reading(|| plan.make(number, combination))?)
            }
        }
    }

    /// Point `k` with its id and sweeps.
    pub fn get(&self, registry: &Registry, k: usize) -> anyhow::Result<SweepPoint> {
        let mut sweeps = self.sweeps(k).map(str::to_string);
        let sweep = sweeps.next().unwrap_or_default();
        Ok(SweepPoint { point: self.make(registry, k)?, id: self.id(k), sweep, also: sweeps.collect() })
    }

    /// Every point, made and held (an experiment of a few points).
    pub fn all(&self, registry: &Registry) -> anyhow::Result<Vec<SweepPoint>> {
        self.iter(registry).collect()
    }

    /// Every point, made one at a time.
    pub fn iter<'a>(&'a self, registry: &'a Registry) -> impl Iterator<Item = anyhow::Result<SweepPoint>> + 'a {
        (0..self.len()).map(move |k| self.get(registry, k))
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
    pub kind: &'static dyn PointKind,
    /// Every distinct point, in expansion order, made when asked for.
    pub points: Points,
    /// Built from the command line (no file to point errors into).
    pub command_line: bool,
}

/// The most combinations a config's sweeps may make unless the user raises
/// the bound (`sweep --max-points`): each combination is made once when the
/// config is read (to find its id and fold equal points), so a typo in an
/// axis (a range step of 0.0001) is refused with the count rather than
/// spending the night on it.
pub const MAX_POINTS: usize = 1_000_000;

/// An experiment's identity: the sha256 of its config text, hex.
pub fn config_hash(text: &str) -> String {
    Sha256::digest(text.as_bytes()).iter().map(|b| format!("{b:02x}")).collect()
}

/// Every kind's short axis names, in kind order (`seed` aside, which every
/// kind has: the seed of every random stream of the point).
pub fn axes(registry: &Registry) -> Vec<(&'static dyn PointKind, &'static Axis)> {
    registry.point_kinds.all().iter().flat_map(|&kind| kind.axes().iter().map(move |a| (kind, a))).collect()
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

/// The setting an axis stands for in a config of `kind` (a dotted path in
/// that kind's settings), or why it does not belong there.
fn axis_path(registry: &Registry, name: &str, kind: &'static dyn PointKind) -> Result<String, String> {
    if name == "seed" {
        return Ok("seed".to_string());
    }
    if let Some(a) = kind.axes().iter().find(|a| a.name == name) {
        return Ok(a.path.to_string());
    }
    let other = |owner: &dyn PointKind| {
        format!("axis `{name}` is a {} setting; this config is {}", owner.setting_of(), kind.described())
    };
    if let Some((owner, _)) = axes(registry).into_iter().find(|(_, a)| a.name == name) {
        return Err(other(owner));
    }
    let first = name.split('.').next().unwrap_or(name);
    if kind.sections().contains(&first) {
        // The settings of a kind that keeps them in its section are the section's.
        return Ok(if kind.settings_in_section() && kind.section() == Some(first) {
            name[first.len()..].trim_start_matches('.').to_string()
        } else {
            name.to_string()
        });
    }
    match owner_of(registry, first) {
        Some(owner) => Err(other(owner)),
        // Anything else is checked when the point is read.
        None => Ok(name.to_string()),
    }
}

/// The first kind that reads top-level key `section`.
fn owner_of(registry: &Registry, section: &str) -> Option<&'static dyn PointKind> {
    registry.point_kinds.all().iter().copied().find(|k| k.sections().contains(&section))
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

impl Experiment {
    /// An experiment of the command line: the given points (each with its
    /// label; at least one), once each. Its text lists every point's
    /// settings, so the store records what was run and `merge` can tell
    /// experiments apart.
    pub fn from_points(
        name: &str,
        command: &str,
        points: impl IntoIterator<Item = (Point, String)>,
    ) -> anyhow::Result<Experiment> {
        let mut text = format!("# {command}: the points of the command line\n");
        let mut seen = HashSet::new();
        let mut list = Points::default();
        let mut kind = None;
        for (point, sweep) in points {
            let id = point.id()?.run_id;
            if seen.insert(id) {
                kind = Some(point.kind());
                text.push_str(&format!("\n# point {} ({sweep})\n{}", list.len(), point.canonical()?));
                let sweep = list.label(&sweep);
                list.entries.push(Entry { id, sweep, made_by: list.given.len() as u64 });
                list.given.push(point);
            }
        }
        let kind = kind.ok_or_else(|| anyhow::anyhow!("{command}: no point to run"))?;
        let hash = config_hash(&text);
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
        let axis = self.kind.axes().iter().find(|a| a.path == setting).map_or(setting, |a| a.name);
        let key = setting.rsplit('.').next().unwrap_or(setting);
        let in_sweeps = sweep_regions(&self.text).into_iter().map(|r| loc.key_offset(r.clone(), axis)).find(|&o| {
            let (line, _) = line_col(&self.text, o);
            self.text.lines().nth(line - 1).is_some_and(|l| l.trim_start().starts_with(axis))
        });
        let offset = in_sweeps.unwrap_or_else(|| loc.anywhere(key));
        loc.at(offset, message)
    }

    /// Reads and expands a config file of a kind of `registry`.
    pub fn load(registry: &Registry, path: impl AsRef<Path>) -> Result<Experiment, ConfigError> {
        Experiment::load_at_most(registry, path, MAX_POINTS)
    }

    /// [`Experiment::load`], refusing a config whose sweeps would make more
    /// than `max_points` combinations (before equal points fold), with the
    /// count and each sweep's axes.
    pub fn load_at_most(
        registry: &Registry,
        path: impl AsRef<Path>,
        max_points: usize,
    ) -> Result<Experiment, ConfigError> {
        let path = path.as_ref();
        let file = path.display().to_string();
        let err = |message: String| ConfigError { file: file.clone(), line: 0, column: 0, message };
        if path.is_dir() {
            return Err(err("is a directory, not a config file".into()));
        }
        let text = std::fs::read_to_string(path).map_err(|e| err(format!("cannot read: {e}")))?;
        registry.reading(|| Experiment::parse_reading(registry, &file, &text, max_points))
    }

    /// The kind of a config: the kind whose section it has, else the kind
    /// without one. Every other top-level key must be common or read by it.
    fn kind_of(
        registry: &Registry,
        raw: &toml::Table,
        loc: &Locator<'_>,
    ) -> Result<&'static dyn PointKind, ConfigError> {
        let kinds = registry.point_kinds.all();
        let sections: Vec<(&str, &'static dyn PointKind)> =
            kinds.iter().filter_map(|k| k.section().filter(|s| raw.contains_key(*s)).map(|s| (s, *k))).collect();
        if let [(first, _), (second, _), ..] = sections.as_slice() {
            return Err(loc.at(
                loc.section(second),
                format!("a config has one kind: [{first}] and [{second}] cannot be in one file"),
            ));
        }
        let kind = match sections.first() {
            Some((_, kind)) => *kind,
            None => kinds
                .iter()
                .find(|k| k.section().is_none())
                .copied()
                .ok_or_else(|| loc.at(0, "no point kind reads a config without a kind's section"))?,
        };
        // The keys a config may have, in the order the refusal lists them.
        let mut known: Vec<&str> = COMMON_FIRST.to_vec();
        for k in kinds {
            for section in k.sections() {
                if !known.contains(section) {
                    known.push(section);
                }
            }
        }
        known.extend(COMMON_LAST);
        for key in raw.keys() {
            let key_str = key.as_str();
            if kind.sections().contains(&key_str) || COMMON_FIRST.contains(&key_str) || COMMON_LAST.contains(&key_str) {
                continue;
            }
            let message = match owner_of(registry, key) {
                Some(owner) => {
                    format!("`{key}` is a {} setting; this config is {}", owner.setting_of(), kind.described())
                }
                None => format!(
                    "unknown field `{key}`, expected one of {}",
                    known.iter().map(|k| format!("`{k}`")).collect::<Vec<_>>().join(", ")
                ),
            };
            return Err(loc.at(loc.section(key), message));
        }
        Ok(kind)
    }

    /// Parses and expands config text of a kind of `registry`; `file` is
    /// used in messages.
    pub fn parse(registry: &Registry, file: &str, text: &str) -> Result<Experiment, ConfigError> {
        Experiment::parse_at_most(registry, file, text, MAX_POINTS)
    }

    /// [`Experiment::parse`], refusing more than `max_points` combinations
    /// (as [`Experiment::load_at_most`]).
    pub fn parse_at_most(
        registry: &Registry,
        file: &str,
        text: &str,
        max_points: usize,
    ) -> Result<Experiment, ConfigError> {
        registry.reading(|| Experiment::parse_reading(registry, file, text, max_points))
    }

    /// [`Experiment::parse`], with `registry` the one settings are read with.
    fn parse_reading(
        registry: &Registry,
        file: &str,
        text: &str,
        max_points: usize,
    ) -> Result<Experiment, ConfigError> {
        let loc = Locator { file, text };
        let raw: toml::Table = toml::from_str(text).map_err(|e| loc.syntax(e))?;
        for (key, instead) in OLD_DIALECT {
            if raw.contains_key(key) {
                return Err(loc.at(loc.section(key), instead));
            }
        }
        let common: Common = toml::from_str(text).map_err(|e| loc.syntax(e))?;
        let kind = Experiment::kind_of(registry, &raw, &loc)?;
        let base = kind.base(&ConfigFile { loc, raw: &raw, seed: common.seed })?;
        if common.sweep.is_empty() {
            return Err(loc.at(0, "no [[sweep]] table: a config needs at least one sweep"));
        }
        let batteries = base.batteries;

        let regions = sweep_regions(text);
        // Every sweep's dimensions first: the combinations are counted, and
        // too many refused, before any point is made.
        let mut sweeps = Vec::with_capacity(common.sweep.len());
        for (number, sweep) in common.sweep.iter().enumerate() {
            let span = regions.get(number).cloned().unwrap_or(0..text.len());
            let label = sweep.name.clone().unwrap_or_else(|| format!("sweep {}", number + 1));
            // Every axis once: a zip group is one dimension.
            let mut dims: Vec<Vec<(String, String, Vec<toml::Value>)>> = Vec::new();
            let mut zipped = HashSet::new();
            let dimension =
                |name: &str, raw: &toml::Value| -> Result<(String, String, Vec<toml::Value>), ConfigError> {
                    let at = loc.key_offset(span.clone(), name);
                    let path = axis_path(registry, name, kind).map_err(|why| loc.at(at, format!("{label}: {why}")))?;
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
            // Replicas: each point of the sweep, once per replica (innermost).
            if let Some(count) = base.replicas
                && !sweep.axes.contains_key(REPLICA_AXIS)
            {
                let path = axis_path(registry, REPLICA_AXIS, kind)
                    .map_err(|why| loc.at(span.start, format!("{label}: replicas: {why}")))?;
                let values = (0..count).map(|r| toml::Value::Integer(r as i64)).collect();
                dims.push(vec![(REPLICA_AXIS.to_string(), path, values)]);
            }
            sweeps.push((label, span, dims));
        }
        let product = |dims: &[Vec<(String, String, Vec<toml::Value>)>]| {
            dims.iter().map(|d| d[0].2.len()).try_fold(1usize, |n, size| n.checked_mul(size))
        };
        let combinations =
            sweeps.iter().map(|(_, _, dims)| product(dims)).try_fold(0usize, |n, p| p.and_then(|p| n.checked_add(p)));
        if combinations.is_none_or(|n| n > max_points) {
            let each: Vec<String> = sweeps
                .iter()
                .map(|(label, _, dims)| {
                    let axes: Vec<String> = dims
                        .iter()
                        .flatten()
                        .map(|(name, _, values)| format!("{name} {}", thousands(values.len())))
                        .collect();
                    let count = product(dims).map_or_else(|| "more than 2^64".to_string(), thousands);
                    format!("{label}: {count} ({})", axes.join(" × "))
                })
                .collect();
            let count = combinations.map_or_else(|| "more than 2^64".to_string(), thousands);
            return Err(loc.at(
                regions.first().map_or(0, |r| r.start),
                format!(
                    "the sweeps make {count} combinations, more than {} (--max-points raises the bound): {}",
                    thousands(max_points),
                    each.join("; ")
                ),
            ));
        }
        let plan = Plan {
            file: file.to_string(),
            text: text.to_string(),
            raw: raw.clone(),
            kind,
            base: base.table,
            batteries,
            sweeps: sweeps
                .into_iter()
                .map(|(label, span, dims)| {
                    let sizes = dims.iter().map(|d| d[0].2.len()).collect();
                    PlannedSweep { label, span, dims, sizes }
                })
                .collect(),
        };
        // Each combination made once: its id, and equal points folded (the
        // first keeps its place; later sweeps naming it are noted).
        let mut points = Points::default();
        let mut seen: std::collections::HashMap<i64, u32> = std::collections::HashMap::new();
        let mut noted = HashSet::new();
        for (number, sweep) in plan.sweeps.iter().enumerate() {
            let label = points.label(&sweep.label);
            let total: usize = sweep.sizes.iter().product();
            for k in 0..total {
                let point = plan.make(number, k)?;
                let id = point.id().map_err(|e| loc.at(sweep.span.start, format!("{}: {e}", sweep.label)))?.run_id;
                match seen.get(&id) {
                    Some(&position) => {
                        if points.entries[position as usize].sweep != label && noted.insert((position, label)) {
                            points.also.push((position, label));
                        }
                    }
                    None => {
                        seen.insert(id, points.entries.len() as u32);
                        points.entries.push(Entry { id, sweep: label, made_by: ((number as u64) << 48) | k as u64 });
                    }
                }
            }
        }
        points.also.sort_unstable();
        points.plan = Some(std::sync::Arc::new(plan));
        let hash = config_hash(text);
        let name = common.name.clone().unwrap_or_else(|| {
            Path::new(file).file_stem().map_or_else(|| file.to_string(), |s| s.to_string_lossy().into_owned())
        });
        Ok(Experiment { file: file.to_string(), name, text: text.to_string(), hash, kind, points, command_line: false })
    }
}
