//! Node-failure streams: replayed LANL records and synthetic renewal processes.
//!
//! Reference: `overbooking-dissertation-spec.md` §7.6 (LANL systems, node
//! mapping, wrap-around), §6.5 (event order), §11.13 (alignment is unstated);
//! Schroeder & Gibson, DSN 2006, for the LANL data.
//!
//! Contract:
//! - A [`FailureStream`] is a time-ordered list of [`NodeEvent`]s for nodes
//!   `0..nodes`, each node alternating failure → repair, starting up at t = 0.
//!   At equal times repairs come before failures (spec §6.5), then node order.
//! - **LANL replay**: simulated node i maps, in order, onto the nodes of the
//!   chosen systems (default 18 then 19: i < 1024 → system 18 node i, i < 2048 →
//!   system 19 node i − 1024) and wraps past their total. A record's "Prob
//!   Started" is the failure, "Prob Fixed" the repair; overlapping records of a
//!   node are merged. The earliest failure among the chosen systems (plus
//!   `offset_hours`) is t = 0, so every battery and strategy sees the same
//!   failures.
//! - **Synthetic**: each node is an alternating renewal process with its own
//!   seeded stream; up times follow the failure law, down times are exponential
//!   with rate μ.

use std::collections::BTreeMap;
use std::fs::File;
use std::io::{BufReader, Read};
use std::path::{Path, PathBuf};

use chrono::NaiveDateTime;
use flate2::read::MultiGzDecoder;
use serde::{Deserialize, Serialize};

use crate::streams::NODE_FAILURES;
use crate::workload::failure_law::FailureLaw;
use slasim_core::rng::stream;
use slasim_core::setting::{InvalidSetting, positive};
use slasim_core::units::{HOUR, NodeId, Time, per_hour_to_per_second};

/// λ of the LANL systems 18/19 used by the dissertation, per hour.
pub const LANL_LAMBDA_PER_HOUR: f64 = 1.2904e-4;
/// μ of the LANL systems 18/19 used by the dissertation, per hour.
pub const LANL_MU_PER_HOUR: f64 = 0.4333;
/// The LANL failure file's name under the traces directory.
pub const LANL_FILE: &str = "failures/LA-UR-05-7318-failure-data-1996-2005.csv.gz";

/// The file a LANL replay reads: `path` as given, else [`LANL_FILE`] (or its
/// plain CSV) as a catalogued trace resolves, else where `slasim trace fetch`
/// would put it.
pub fn lanl_file(path: Option<&Path>) -> PathBuf {
    path.map_or_else(
        || {
            slasim_data::trace::resolve_trace(Path::new(LANL_FILE))
                .unwrap_or_else(|_| slasim_data::trace::trace_dir().join(LANL_FILE))
        },
        Path::to_path_buf,
    )
}

/// [`lanl_file`], checked to be there. The default failure model of a run on
/// a trace is this replay, so a user's own log run outside this repository
/// ends here: the error names both ways out.
pub fn existing_lanl_file(path: Option<&Path>) -> Result<PathBuf, FailureError> {
    let file = lanl_file(path);
    if file.is_file() { Ok(file) } else { Err(FailureError::MissingLanl { path: file }) }
}

/// What happens to a node. The derive order is the order at equal times.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum NodeEventKind {
    /// The node comes back.
    Repair,
    /// The node goes down.
    Fail,
}

/// One failure or repair of one node.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct NodeEvent {
    /// When.
    pub time: Time,
    /// Repair or failure (repairs first at equal times).
    pub kind: NodeEventKind,
    /// Which node.
    pub node: NodeId,
}

/// A stream of node events for one cluster.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct FailureStream {
    /// Number of nodes the stream covers.
    pub nodes: u32,
    /// Events in delivery order.
    pub events: Vec<NodeEvent>,
    /// Source records replayed (LANL) or 0 (synthetic).
    pub source_records: usize,
}

impl FailureStream {
    /// A stream with no failures.
    pub fn none(nodes: u32) -> FailureStream {
        FailureStream { nodes, ..FailureStream::default() }
    }

    /// Number of failures.
    pub fn failures(&self) -> usize {
        self.events.iter().filter(|e| e.kind == NodeEventKind::Fail).count()
    }

    fn sort(&mut self) {
        self.events.sort_unstable();
    }
}

/// Where failures come from, as written in configs (`model = "lanl"`, …).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "model", rename_all = "kebab-case", deny_unknown_fields)]
pub enum FailureSource {
    /// No failures.
    None,
    /// Replay of the LANL records.
    Lanl {
        /// The CSV(.gz) file; default: `failures/…csv.gz` under the traces directory.
        #[serde(default)]
        path: Option<PathBuf>,
        /// Systems whose nodes the cluster maps onto, in order.
        #[serde(default = "default_lanl_systems")]
        systems: Vec<u16>,
        /// Shift of t = 0 past the first failure, hours.
        #[serde(default)]
        offset_hours: f64,
    },
    /// Exponential up times (rate λ) and repairs (rate μ).
    Poisson {
        /// λ per hour.
        lambda_per_hour: f64,
        /// μ per hour.
        mu_per_hour: f64,
    },
    /// Weibull up times, exponential repairs.
    Weibull {
        /// Shape α.
        shape: f64,
        /// Scale β in hours.
        scale_hours: f64,
        /// μ per hour.
        mu_per_hour: f64,
    },
    /// Hyper-exponential up times, exponential repairs.
    Hyperexp {
        /// Phase probabilities p_j (sum 1).
        probabilities: Vec<f64>,
        /// Phase rates λ_j per hour.
        lambdas_per_hour: Vec<f64>,
        /// μ per hour.
        mu_per_hour: f64,
    },
}

fn default_lanl_systems() -> Vec<u16> {
    vec![18, 19]
}

/// Weibull shape of the default Weibull stream: < 1, the infant mortality
/// Schroeder & Gibson fit to the LANL systems (0.7–0.8).
pub const DEFAULT_WEIBULL_SHAPE: f64 = 0.7;

impl FailureSource {
    /// Its model's name (`none`, `lanl`, `poisson`, `weibull`, `hyperexp`).
    pub fn name(&self) -> &'static str {
        match self {
            FailureSource::None => "none",
            FailureSource::Lanl { .. } => "lanl",
            FailureSource::Poisson { .. } => "poisson",
            FailureSource::Weibull { .. } => "weibull",
            FailureSource::Hyperexp { .. } => "hyperexp",
        }
    }

    /// The default source of a model name (`none`, `lanl`, `poisson`, `weibull`,
    /// `hyperexp`); synthetic defaults have the LANL mean time to failure.
    pub fn default_for(model: &str) -> Option<FailureSource> {
        let mttf_h = 1.0 / LANL_LAMBDA_PER_HOUR;
        Some(match model {
            "none" => FailureSource::None,
            "lanl" => FailureSource::Lanl { path: None, systems: default_lanl_systems(), offset_hours: 0.0 },
            "poisson" => {
                FailureSource::Poisson { lambda_per_hour: LANL_LAMBDA_PER_HOUR, mu_per_hour: LANL_MU_PER_HOUR }
            }
            "weibull" => FailureSource::Weibull {
                shape: DEFAULT_WEIBULL_SHAPE,
                scale_hours: mttf_h / libm::tgamma(1.0 + 1.0 / DEFAULT_WEIBULL_SHAPE),
                mu_per_hour: LANL_MU_PER_HOUR,
            },
            // 90 % short-lived failures, 10 % long ones, same mean as LANL.
            "hyperexp" => FailureSource::Hyperexp {
                probabilities: vec![0.9, 0.1],
                lambdas_per_hour: vec![0.9 / (0.5 * mttf_h), 0.1 / (0.5 * mttf_h)],
                mu_per_hour: LANL_MU_PER_HOUR,
            },
            _ => return None,
        })
    }

    /// The model names `default_for` accepts.
    pub const MODELS: [&'static str; 5] = ["lanl", "none", "poisson", "weibull", "hyperexp"];

    /// The up-time and repair laws of a synthetic source (per second).
    pub fn laws(&self) -> Result<Option<(FailureLaw, FailureLaw)>, InvalidSetting> {
        // A rate is checked as the user wrote it, per hour, then converted.
        let per_s = |setting, rate| positive(setting, rate).map(per_hour_to_per_second);
        let repair = |mu: f64| FailureLaw::exponential(per_s("mu_per_hour", mu)?).map_err(|e| e.renamed("mu_per_hour"));
        Ok(match self {
            FailureSource::None | FailureSource::Lanl { .. } => None,
            FailureSource::Poisson { lambda_per_hour, mu_per_hour } => Some((
                FailureLaw::exponential(per_s("lambda_per_hour", *lambda_per_hour)?)
                    .map_err(|e| e.renamed("lambda_per_hour"))?,
                repair(*mu_per_hour)?,
            )),
            FailureSource::Weibull { shape, scale_hours, mu_per_hour } => Some((
                FailureLaw::weibull(*shape, positive("scale_hours", *scale_hours)? * HOUR as f64).map_err(
                    |e| match e.setting {
                        "scale" => e.renamed("scale_hours"),
                        _ => e,
                    },
                )?,
                repair(*mu_per_hour)?,
            )),
            FailureSource::Hyperexp { probabilities, lambdas_per_hour, mu_per_hour } => {
                let rates: Vec<f64> =
                    lambdas_per_hour.iter().map(|&l| per_s("lambdas_per_hour", l)).collect::<Result<_, _>>()?;
                Some((
                    FailureLaw::hyper_exponential(probabilities, &rates).map_err(|e| match e.setting {
                        "lambdas" => e.renamed("lambdas_per_hour"),
                        _ => e,
                    })?,
                    repair(*mu_per_hour)?,
                ))
            }
        })
    }
}

/// A sweep that sets `failures.model` to another model than `table`'s
/// starts that section anew from the new model's defaults (as `--failures`
/// does), not the previous model's parameters: the section and its
/// defaults ([`slasim_core::experiment::point::PointKind::restarted_section`]).
pub fn restarted_failures(table: &toml::Table, path: &str, value: &toml::Value) -> Option<(&'static str, toml::Table)> {
    if path != "failures.model" || table.get("failures").and_then(|f| f.get("model")) == Some(value) {
        return None;
    }
    let source = value.as_str().and_then(FailureSource::default_for)?;
    match toml::Value::try_from(&source) {
        Ok(toml::Value::Table(defaults)) => Some(("failures", defaults)),
        _ => None,
    }
}

/// Errors reading or replaying failure records.
#[derive(Debug, thiserror::Error)]
pub enum FailureError {
    /// The file cannot be read.
    #[error("{path}: cannot read the failure records: {cause}", path = .path.display())]
    Read { path: PathBuf, cause: std::io::Error },
    /// The LANL log a replay needs is not there.
    #[error(
        "{path}: no such file: the LANL failure log, which the `lanl` failure model (the default with a trace) \
         replays; set {env} to the traces directory holding failures/, or choose another failure model: \
         `--failures none|poisson` (in a config, the `failures` axis or `[failures] model`)",
        path = .path.display(), env = slasim_data::trace::TRACE_DIR_ENV
    )]
    MissingLanl { path: PathBuf },
    /// A CSV-level problem.
    #[error("{path}:{line}: {detail}", path = .path.display())]
    Csv { path: PathBuf, line: u64, detail: String },
    /// A required column is missing.
    #[error("{path}: no column named `{column}` in the header", path = .path.display())]
    MissingColumn { path: PathBuf, column: &'static str },
    /// A field cannot be parsed.
    #[error("{path}:{line}: column `{column}`: cannot parse `{text}`: {why}", path = .path.display())]
    Field { path: PathBuf, line: u64, column: &'static str, text: String, why: String },
    /// A requested system is absent from the file.
    #[error("{path}: no records for LANL system {system}", path = .path.display())]
    NoSuchSystem { path: PathBuf, system: u16 },
    /// Invalid model parameters.
    #[error(transparent)]
    Setting(#[from] InvalidSetting),
}

/// One LANL failure record.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LanlRecord {
    /// System id (18, 19, 20, …).
    pub system: u16,
    /// Nodes in that system (empty for some system-wide records).
    pub system_nodes: Option<u32>,
    /// Node number starting with zero (`nodenumz`); empty for system-wide records.
    pub node: Option<u32>,
    /// Problem started, seconds since the Unix epoch (local time read as UTC).
    pub started: i64,
    /// Problem fixed, same clock.
    pub fixed: i64,
}

/// The LANL failure log (all systems) in memory.
#[derive(Debug, Clone)]
pub struct LanlLog {
    /// The file it came from.
    pub path: PathBuf,
    /// Every record, in file order.
    pub records: Vec<LanlRecord>,
}

const LANL_TIME_FORMAT: &str = "%m/%d/%Y %H:%M";

impl LanlLog {
    /// Reads the LANL CSV (plain or gzip).
    pub fn load(path: impl AsRef<Path>) -> Result<LanlLog, FailureError> {
        let path = path.as_ref().to_path_buf();
        let read_err = |cause| FailureError::Read { path: path.clone(), cause };
        if path.is_dir() {
            return Err(read_err(std::io::Error::other("is a directory")));
        }
        let mut file = BufReader::new(File::open(&path).map_err(read_err)?);
        let mut magic = [0u8; 2];
        let n = file.read(&mut magic).map_err(read_err)?;
        let file = BufReader::new(File::open(&path).map_err(read_err)?);
        let input: Box<dyn Read> =
            if n == 2 && magic == [0x1f, 0x8b] { Box::new(MultiGzDecoder::new(file)) } else { Box::new(file) };
        let mut csv = csv::ReaderBuilder::new().flexible(true).from_reader(input);

        let headers = csv
            .headers()
            .map_err(|e| FailureError::Csv { path: path.clone(), line: 1, detail: e.to_string() })?
            .clone();
        let column = |name: &'static str| {
            headers
                .iter()
                .position(|h| h.trim().eq_ignore_ascii_case(name))
                .ok_or(FailureError::MissingColumn { path: path.clone(), column: name })
        };
        let (c_system, c_nodes, c_node) = (column("System")?, column("nodes")?, column("nodenumz")?);
        let (c_started, c_fixed) = (column("Prob Started")?, column("Prob Fixed")?);

        let mut records = Vec::new();
        for row in csv.records() {
            let row = row.map_err(|e| FailureError::Csv {
                path: path.clone(),
                line: e.position().map_or(0, |p| p.line()),
                detail: e.to_string(),
            })?;
            let line = row.position().map_or(0, |p| p.line());
            let field = |col: usize, name: &'static str| -> Result<&str, FailureError> {
                row.get(col).map(str::trim).ok_or_else(|| FailureError::Field {
                    path: path.clone(),
                    line,
                    column: name,
                    text: String::new(),
                    why: "missing".into(),
                })
            };
            let number = |col: usize, name: &'static str| -> Result<Option<u32>, FailureError> {
                let text = field(col, name)?;
                if text.is_empty() {
                    return Ok(None);
                }
                text.parse().map(Some).map_err(|e: std::num::ParseIntError| FailureError::Field {
                    path: path.clone(),
                    line,
                    column: name,
                    text: text.to_string(),
                    why: e.to_string(),
                })
            };
            let time = |col: usize, name: &'static str| -> Result<i64, FailureError> {
                let text = field(col, name)?;
                NaiveDateTime::parse_from_str(text, LANL_TIME_FORMAT).map(|t| t.and_utc().timestamp()).map_err(|e| {
                    FailureError::Field {
                        path: path.clone(),
                        line,
                        column: name,
                        text: text.to_string(),
                        why: format!("{e} (expected m/d/Y H:M)"),
                    }
                })
            };
            let system = number(c_system, "System")?.ok_or_else(|| FailureError::Field {
                path: path.clone(),
                line,
                column: "System",
                text: String::new(),
                why: "empty".into(),
            })?;
            records.push(LanlRecord {
                system: u16::try_from(system).map_err(|e| FailureError::Field {
                    path: path.clone(),
                    line,
                    column: "System",
                    text: system.to_string(),
                    why: e.to_string(),
                })?,
                system_nodes: number(c_nodes, "nodes")?,
                node: number(c_node, "nodenumz")?,
                started: time(c_started, "Prob Started")?,
                fixed: time(c_fixed, "Prob Fixed")?,
            });
        }
        Ok(LanlLog { path, records })
    }

    /// Records of one system.
    pub fn system_records(&self, system: u16) -> impl Iterator<Item = &LanlRecord> {
        self.records.iter().filter(move |r| r.system == system)
    }

    /// Replays the chosen systems onto a cluster of `nodes` nodes. Events after
    /// `horizon` (if given) are dropped.
    pub fn replay(
        &self,
        systems: &[u16],
        offset_hours: f64,
        nodes: u32,
        horizon: Option<Time>,
    ) -> Result<FailureStream, FailureError> {
        // Node blocks: (system, its node count), in the order given.
        let mut blocks = Vec::with_capacity(systems.len());
        for &system in systems {
            let size = self
                .system_records(system)
                .filter_map(|r| Some(r.system_nodes?.max(r.node? + 1)))
                .max()
                .ok_or(FailureError::NoSuchSystem { path: self.path.clone(), system })?;
            blocks.push((system, size));
        }
        let total: u32 = blocks.iter().map(|b| b.1).sum();
        // (system, LANL node) → simulated nodes mapped onto it (several when wrapping).
        let mut targets: BTreeMap<(u16, u32), Vec<NodeId>> = BTreeMap::new();
        for sim in 0..nodes {
            let mut local = sim % total;
            for &(system, size) in &blocks {
                if local < size {
                    targets.entry((system, local)).or_default().push(sim);
                    break;
                }
                local -= size;
            }
        }
        let selected: Vec<&LanlRecord> = self.records.iter().filter(|r| systems.contains(&r.system)).collect();
        let origin =
            selected.iter().map(|r| r.started).min().unwrap_or(0) + (offset_hours * HOUR as f64).round() as i64;

        // Merge each LANL node's outages.
        let mut outages: BTreeMap<(u16, u32), Vec<(Time, Time)>> = BTreeMap::new();
        let mut source_records = 0;
        for r in &selected {
            let Some(node) = r.node else { continue };
            if targets.contains_key(&(r.system, node)) {
                source_records += 1;
                if r.fixed > r.started {
                    outages.entry((r.system, node)).or_default().push((r.started - origin, r.fixed - origin));
                }
            }
        }
        let mut stream = FailureStream { nodes, events: Vec::new(), source_records };
        for (key, mut intervals) in outages {
            intervals.sort_unstable();
            let mut merged: Vec<(Time, Time)> = Vec::with_capacity(intervals.len());
            for (start, end) in intervals {
                match merged.last_mut() {
                    Some(last) if start <= last.1 => last.1 = last.1.max(end),
                    _ => merged.push((start, end)),
                }
            }
            for &sim in &targets[&key] {
                for &(start, end) in &merged {
                    if end <= 0 || horizon.is_some_and(|h| start > h) {
                        continue;
                    }
                    stream.events.push(NodeEvent { time: start.max(0), kind: NodeEventKind::Fail, node: sim });
                    stream.events.push(NodeEvent { time: end, kind: NodeEventKind::Repair, node: sim });
                }
            }
        }
        stream.sort();
        Ok(stream)
    }
}

/// Generates alternating failure/repair events for `nodes` nodes up to `horizon`.
pub fn synthetic_stream(up: &FailureLaw, repair: &FailureLaw, nodes: u32, horizon: Time, seed: u64) -> FailureStream {
    let mut out = FailureStream::none(nodes);
    for node in 0..nodes {
        let mut rng = stream(seed, NODE_FAILURES, u64::from(node));
        let mut t = 0.0f64;
        loop {
            t += up.sample(&mut rng);
            let fail = t.round() as Time;
            if fail > horizon {
                break;
            }
            t += repair.sample(&mut rng);
            // A repair is at least one second after its failure.
            let back = (t.round() as Time).max(fail + 1);
            t = back as f64;
            out.events.push(NodeEvent { time: fail, kind: NodeEventKind::Fail, node });
            out.events.push(NodeEvent { time: back, kind: NodeEventKind::Repair, node });
        }
    }
    out.sort();
    out
}

/// Mean up time and mean down time of a stream observed until `horizon`:
/// total up (down) node-seconds over the number of failures (repairs), the
/// maximum-likelihood estimate that counts censored intervals. Nodes start up.
pub fn empirical_mttf_mttr(stream: &FailureStream, horizon: Time) -> (f64, f64) {
    let mut last_change = vec![0 as Time; stream.nodes as usize];
    let mut down_now = vec![false; stream.nodes as usize];
    let (mut up, mut down, mut failures, mut repairs) = (0f64, 0f64, 0usize, 0usize);
    for e in stream.events.iter().filter(|e| e.time <= horizon) {
        let node = e.node as usize;
        let since = (e.time - last_change[node]) as f64;
        match e.kind {
            NodeEventKind::Fail => {
                up += since;
                failures += 1;
                down_now[node] = true;
            }
            NodeEventKind::Repair => {
                down += since;
                repairs += 1;
                down_now[node] = false;
            }
        }
        last_change[node] = e.time;
    }
    for (node, &last) in last_change.iter().enumerate() {
        let rest = (horizon - last).max(0) as f64;
        if down_now[node] { down += rest } else { up += rest }
    }
    (up / failures.max(1) as f64, down / repairs.max(1) as f64)
}
