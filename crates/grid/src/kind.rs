//! The Grid point: clusters, their local schedulers and a co-reservation
//! broker, and running it (cluster windows, requests, the Grid bench,
//! metrics).
//!
//! Reference: the co-reservation thesis, Ch. 5 (the simulator) and Ch. 6
//! (the experiments).
//!
//! Contract: a [`GridPoint`] reads its workload, seed, the clusters' local
//! scheduler (`strategy`) and `[grid]`; [`GridPoint::resolve`] checks them.
//! [`crate::workload::windows::GridLog`] is a log's usable jobs at their own submit times (loaded once
//! per workload, shared read-only by the workers); [`run_grid_point`] cuts
//! the point's windows and requests from it, builds one cluster (local
//! scheduler + LRS) per window and the broker with the point's algorithm,
//! simulates them on the Grid bench and turns the records into a
//! [`RunOutput`] with every job (numbered across clusters: cluster 0's jobs
//! first), every request and sub-reservation, and per-cluster metrics. Bad
//! settings that need the log (too few windows, a part wider than every
//! cluster) are `InvalidSetting`-style errors naming the setting.

use std::sync::Arc;
use std::time::{Instant, SystemTime};

use anyhow::{Context, anyhow};
use serde::{Deserialize, Serialize};

use crate::cost::CostError;
use slasim_core::experiment::id::{PointId, Unserialisable, canonical_toml};
use slasim_core::experiment::inputs::{Inputs, PointInputError};
use slasim_core::experiment::locate::{ConfigError, ConfigFile, SweepContext};
use slasim_core::experiment::point::{AnyPoint, Axis, Base, KindInfo, Point, PointKind, PointOutput, Summary, axis};
use slasim_core::store::{Store, StoreError};
use slasim_core::threads::Budget;
use slasim_single::kind::WorkloadConfig;
use slasim_single::summary::RunSummary;
use slasim_single::tables::run::{RunOf, RunRow};
use slasim_single::writer::{RunOutput, write_run_with};

use crate::algorithm::algorithm;
use crate::bench::{GridCluster, GridScenario, simulate_grid};
use crate::broker::{BrokerActor, BrokerSettings};
use crate::config::GridConfig;
use crate::cost::Calendar;
use crate::lrs::{AccuracyEstimate, Lrs};
use crate::metrics::{
    ClusterMetrics, ClusterRun, GridSummary, Prices, RequestMetrics, WaitIndex, cluster_metrics, request_metrics,
    summary,
};
use crate::streams::VARIANT_SHUFFLE;
use crate::tables::{ClusterRow, GridOutput, RequestRow};
use crate::workload::corequest::CoRequest;
use crate::workload::coreservations::requests;
use crate::workload::windows::{ClusterWindow, GridLog, WindowError, cut_windows};
use slasim_core::rng::stream;
use slasim_single::cluster::record::{JobRecord, RunRecords};
use slasim_single::policy::{BuildError, StrategyRef};
use slasim_single::workload::WorkloadSource;
use slasim_single::workload::job::Job;
use slasim_single::workload::prepare::PrepareConfig;
use slasim_single::workload::synthetic::SyntheticConfig;

/// The resolved settings of one Grid simulation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GridPoint {
    /// The clusters' local scheduler (a queueing mode that takes advance reservations).
    pub strategy: StrategyRef,
    /// Seed of the request workload and of the variant shuffle.
    pub seed: u64,
    /// The log the cluster windows are cut from.
    pub workload: WorkloadSource,
    /// Clusters, broker and requests.
    pub grid: GridConfig,
}

impl GridPoint {
    /// The point as run: its settings checked, the local scheduler one that
    /// takes advance reservations, the cost tables well-formed.
    pub fn resolve(self) -> anyhow::Result<GridPoint> {
        self.grid.validate()?;
        self.strategy.build_reserving(self.grid.capacity, self.grid.t_stop()).map_err(BuildError::unwrapped)?;
        self.grid.costs.tables(self.grid.clusters)?;
        Ok(self)
    }

    /// The canonical TOML text of the settings.
    pub fn canonical(&self) -> Result<String, Unserialisable> {
        canonical_toml(self)
    }

    /// The point's stable id.
    pub fn id(&self) -> Result<PointId, Unserialisable> {
        self.canonical().map(|text| PointId::of(&text))
    }

    /// The identity of its jobs: the windows of its clusters.
    pub fn battery_key(&self) -> i64 {
        let text = format!(
            "{}\n{}\nbattery = 0\ngrid windows = {}\nclusters = {}",
            toml::to_string(&self.workload).unwrap_or_default(),
            toml::to_string(&PrepareConfig::default()).unwrap_or_default(),
            toml::to_string(&self.grid.windows).unwrap_or_default(),
            self.grid.clusters
        );
        PointId::of(&text).run_id
    }
}

/// What a Grid point stores: its run (the single-cluster tables), the
/// Grid's own rows, and the run's summary.
#[derive(Debug, Clone)]
pub struct GridRunOutput {
    /// The run and every job (numbered across clusters).
    pub run: RunOutput,
    /// Requests, sub-reservations and clusters.
    pub grid: GridOutput,
    /// The run's aggregates.
    pub summary: RunSummary,
}

impl PointOutput for GridRunOutput {
    fn write(&self, store: &mut Store) -> Result<(), StoreError> {
        let (run, grid) = (&self.run, &self.grid);
        write_run_with(store, run, Some(&grid.job_clusters), |tx| crate::writer::write_grid(tx, &run.run, grid))
    }

    fn summary(&self) -> Option<Summary> {
        Some(std::sync::Arc::new(self.summary))
    }
}

/// Simulates one Grid point: what to store and its summary.
pub fn run(inputs: &Inputs, p: &GridPoint) -> anyhow::Result<GridRunOutput> {
    let log = grid_log(inputs, p)?;
    let started = SystemTime::now();
    let clock = Instant::now();
    let run = run_grid_point(&log, &p.grid, p.strategy, p.seed)?;
    let wall_seconds = clock.elapsed().as_secs_f64();
    let capacity = p.grid.capacity;
    let summary = RunSummary::of(&run.records, capacity);
    let of = RunOf {
        strategy: p.strategy.name(),
        battery: 0,
        battery_key: p.battery_key(),
        trace: &log.trace,
        seed: p.seed,
        capacity,
    };
    let row = RunRow::new(of, p.canonical()?, started, wall_seconds);
    let output = RunOutput {
        run: row,
        records: run.records,
        calibrated: None,
        node_events: Vec::new(),
        point: None,
        energy: None,
        carbon: None,
        shifting: None,
        store_jobs: true,
    };
    Ok(GridRunOutput { run: output, grid: run.output, summary })
}

/// The synthetic default of a Grid run: an SDSC-Blue-sized machine (1152
/// processors) loaded at 75 %, long enough for ten 2-week windows.
pub fn synthetic_grid_workload(seed: u64) -> SyntheticConfig {
    SyntheticConfig { seed, jobs: 36_000, processors: 1152, utilisation: 0.75, ..SyntheticConfig::default() }
}

/// A setting that needs the log is out of its domain.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum GridInputError {
    /// Too few windows, or a bad window setting.
    #[error(transparent)]
    Windows(#[from] WindowError),
    /// A request part no cluster can hold.
    #[error(
        "setting `grid.capacity` = {cpus}: request {request} (template job {template}) has a part of {part} CPUs, \
         wider than every cluster"
    )]
    PartTooWide {
        /// Cluster size.
        cpus: u32,
        /// The request.
        request: u32,
        /// Its template job.
        template: i64,
        /// The part's CPUs.
        part: u32,
    },
}

impl GridInputError {
    /// The setting at fault.
    pub fn setting(&self) -> &'static str {
        match self {
            GridInputError::Windows(e) => e.setting(),
            GridInputError::PartTooWide { .. } => "grid.capacity",
        }
    }
}

/// The point's cluster windows and requests.
pub fn grid_workload(
    log: &GridLog,
    g: &GridConfig,
    seed: u64,
) -> Result<(Vec<ClusterWindow>, Vec<CoRequest>), GridInputError> {
    let windows = cut_windows(&log.jobs, g.clusters as usize, &g.windows)?;
    let t_stop = g.t_stop();
    let requests = requests(&windows[0].jobs, &g.requests, t_stop, g.capacity, seed);
    if let Some((r, &part)) = requests.iter().find_map(|r| r.parts.iter().find(|&&p| p > g.capacity).map(|p| (r, p))) {
        return Err(GridInputError::PartTooWide { cpus: g.capacity, request: r.id, template: r.template, part });
    }
    Ok((windows, requests))
}

/// Checks the settings of a Grid point against its log (nothing is simulated).
pub fn check_grid_point(log: &GridLog, g: &GridConfig, seed: u64) -> Result<(), GridInputError> {
    grid_workload(log, g, seed).map(|_| ())
}

/// What a Grid simulation produced, ready for the store.
pub struct GridRun {
    /// Every job and its record, numbered across clusters.
    pub records: RunRecords,
    /// The Grid tables' rows.
    pub output: GridOutput,
    /// Each cluster's executions (job ids local to the cluster), for Gantt charts.
    pub executions: Vec<Vec<slasim_single::cluster::ExecutionRecord>>,
}

/// Simulates one Grid point.
pub fn run_grid_point(
    log: &Arc<GridLog>,
    g: &GridConfig,
    local_scheduler: StrategyRef,
    seed: u64,
) -> anyhow::Result<GridRun> {
    g.validate()?;
    let (windows, requests) = grid_workload(log, g, seed)?;
    let info = algorithm(&g.algorithm)?;
    let t_stop = g.t_stop();
    let tables = g.costs.tables(g.clusters)?;
    let calendar = Calendar { offset: g.costs.calendar_offset };
    let mut clusters = Vec::with_capacity(windows.len());
    let accuracy = |w: &ClusterWindow| match g.lrs.accuracy {
        AccuracyEstimate::Mean => w.wc_acc,
        AccuracyEstimate::WorkWeighted => w.wc_acc_work,
    };
    for w in &windows {
        let wc_acc = accuracy(w);
        let costs = Some(Arc::new(tables[w.index].clone()));
        let lrs = Lrs { cluster: w.index as u32, cpus: g.capacity, wc_acc, costs, settings: g.lrs };
        clusters.push(GridCluster {
            capacity: g.capacity,
            jobs: w.jobs.clone(),
            strategy: local_scheduler.build_reserving(g.capacity, t_stop)?,
            lrs,
        });
    }
    let settings = BrokerSettings {
        minsize: g.minsize,
        windows: g.starts,
        enumeration: g.enumeration,
        tolerances: (g.start_tolerance, g.cost_tolerance),
    };
    let broker =
        BrokerActor::new(info.build(), settings, vec![g.capacity; windows.len()], stream(seed, VARIANT_SHUFFLE, 0));
    let simulated = simulate_grid(GridScenario { clusters, requests, broker })?;
    let unresolved: u32 = simulated.clusters.iter().map(|c| c.unresolved).sum();
    if unresolved > 0 {
        return Err(anyhow!("{unresolved} jobs were left without an outcome (a scheduler bug)"));
    }
    let waits: Vec<WaitIndex> = simulated.clusters.iter().map(|c| WaitIndex::new(&c.records)).collect();
    let records = simulated.broker.records;
    let prices = Prices { tables: &tables, calendar };
    let metrics: Vec<RequestMetrics> = records.iter().map(|r| request_metrics(r, &waits, &prices)).collect();
    let mut cluster_rows = Vec::with_capacity(windows.len());
    let mut cluster_stats: Vec<ClusterMetrics> = Vec::with_capacity(windows.len());
    let (mut jobs, mut job_records) = (Vec::new(), Vec::new());
    for (i, (c, w)) in simulated.clusters.iter().zip(&windows).enumerate() {
        let run = ClusterRun {
            cluster: i as u32,
            cpus: g.capacity,
            records: &c.records,
            blocks: &c.report.blocks,
            backlog_integrals: c.report.backlog_integrals,
            wc_acc: accuracy(w),
        };
        let m = cluster_metrics(&run, &records, t_stop, calendar.first_weekend());
        cluster_rows.push(ClusterRow {
            cluster: i as u32,
            window: w.index as u32,
            window_offset: w.offset,
            raw_jobs: w.raw_jobs as u32,
            wc_acc: w.wc_acc,
            metrics: m.clone(),
        });
        cluster_stats.push(m);
        let base = jobs.len() as u32;
        for (job, r) in c.records.iter() {
            jobs.push(Job { id: job.id + base, ..*job });
            job_records.push(JobRecord { job: r.job + base, ..r.clone() });
        }
    }
    let job_clusters = simulated
        .clusters
        .iter()
        .enumerate()
        .flat_map(|(i, c)| std::iter::repeat_n(i as u32, c.records.len()))
        .collect();
    let summary: GridSummary = summary(&records, &metrics, &cluster_stats);
    let request_rows =
        records.into_iter().zip(metrics).map(|(record, metrics)| RequestRow { record, metrics }).collect();
    let executions = simulated.clusters.into_iter().map(|c| c.executions).collect();
    Ok(GridRun {
        executions,
        records: RunRecords { jobs: jobs.into(), records: job_records },
        output: GridOutput {
            algorithm: g.algorithm.clone(),
            clusters: g.clusters,
            request_workload: g.requests.workload.name().to_string(),
            minsize: g.minsize,
            starts: g.starts,
            local_scheduler: local_scheduler.to_string(),
            start_weight: g.requests.start_weight,
            t_stop,
            summary,
            requests: request_rows,
            clusters_rows: cluster_rows,
            job_clusters,
        },
    })
}

/// A Grid config file: `[workload]` (the log its cluster windows are cut
/// from) and `[grid]`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
// The top-level keys are checked by the config reader before a kind reads
// its own (`Experiment::kind_of`): the common ones are not repeated here.
struct GridConfigFile {
    /// The log the cluster windows are cut from.
    #[serde(default)]
    workload: WorkloadConfig,
    /// Clusters, broker and requests.
    #[serde(default)]
    grid: Option<GridConfig>,
}

/// The Grid kind.
pub struct GridKind;

/// The Grid kind, registered second.
pub static GRID: GridKind = GridKind;

/// Its short axis names.
const AXES: &[Axis] = &[
    axis("strategy", "strategy", "the clusters' local scheduler: easy, conservative or fcfs"),
    axis("trace", "workload.swf.path", "the SWF log the cluster windows are cut from"),
    axis("clusters", "grid.clusters", "cluster candidates, each running its own window of the log"),
    axis("algorithm", "grid.algorithm", "the co-reservation algorithm (`slasim list algorithms`)"),
    axis("request_workload", "grid.requests.workload", "the request workload (`slasim list request-workloads`)"),
    axis("minsize", "grid.minsize", "lower bound of the start-time increment, seconds"),
    axis("starts", "grid.starts", "start times per request at most"),
    axis("start_weight", "grid.requests.start_weight", "s of Alg. 5: start time (1) against cost (0)"),
    axis("capacity", "grid.capacity", "CPUs of every cluster"),
];

/// The Grid kind, as data.
static INFO: KindInfo = KindInfo {
    name: "grid",
    described: "a Grid experiment ([grid])",
    setting_of: "Grid",
    section: Some("grid"),
    sections: &["workload", "grid"],
    settings_in_section: false,
    axes: AXES,
    tables: &crate::tables::GROUP,
};

impl PointKind for GridKind {
    fn info(&self) -> &'static KindInfo {
        &INFO
    }

    /// The base Grid point: the clusters' local scheduler EASY; without a
    /// trace, an SDSC-Blue-sized synthetic log.
    fn base(&self, file: &ConfigFile<'_>) -> Result<Base, ConfigError> {
        let loc = &file.loc;
        let config: GridConfigFile = toml::from_str(loc.text).map_err(|e| loc.syntax(e))?;
        let workload = match (&config.workload.trace, &config.workload.synthetic) {
            (None, None) => WorkloadSource::Synthetic(synthetic_grid_workload(file.seed)),
            _ => config.workload.source(),
        };
        let grid = config.grid.unwrap_or_default();
        let base = GridPoint {
            strategy: StrategyRef::named("easy").map_err(|e| loc.at(0, e))?,
            seed: file.seed,
            workload,
            grid,
        };
        Base::of(file, base, 1)
    }

    fn resolve(&self, value: toml::Value, sweep: &SweepContext<'_>) -> Result<Point, ConfigError> {
        let p: GridPoint = value.try_into().map_err(|e| sweep.unreadable(e))?;
        let p = p.resolve().map_err(|e| match e.downcast_ref::<CostError>() {
            Some(c) => sweep.at(cost_table_offset(sweep.loc.text, c), format!("{}: {e:#}", sweep.label)),
            None => sweep.invalid(e),
        })?;
        Ok(Point::new(p))
    }
}

/// Where a cost-table error points: the table's `clusters` key, its `rates`
/// key, or the offending rate's `{`.
fn cost_table_offset(text: &str, e: &CostError) -> usize {
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

// The Grid kind's points: clusters and a broker, stored as runs.
impl AnyPoint for GridPoint {
    fn kind(&self) -> &'static dyn PointKind {
        &GRID
    }

    fn canonical(&self) -> Result<String, Unserialisable> {
        GridPoint::canonical(self)
    }

    fn label(&self) -> String {
        format!("{} on {} clusters, {}", self.grid.algorithm, self.grid.clusters, self.strategy)
    }

    fn load(&self, index: usize, inputs: &mut Inputs) -> anyhow::Result<()> {
        load_grid(inputs, index, self)
    }

    fn missing(&self) -> Vec<anyhow::Error> {
        self.workload.check().err().into_iter().collect()
    }

    fn run(
        &self,
        inputs: &Inputs,
        _budget: &Arc<Budget>,
        _experiment: Option<&str>,
    ) -> anyhow::Result<Box<dyn PointOutput>> {
        Ok(Box::new(run(inputs, self)?))
    }

    slasim_core::point_boilerplate!();
}

// A Grid point's inputs: its log, shared by the points of one workload.

/// The key of a Grid point's log among the inputs.
fn log_key(p: &GridPoint) -> String {
    toml::to_string(&p.workload).unwrap_or_default()
}

/// Loads a Grid point's log (once per workload) and checks the point's
/// settings against it.
fn load_grid(inputs: &mut Inputs, index: usize, p: &GridPoint) -> anyhow::Result<()> {
    let key = log_key(p);
    inputs.load_once(key.clone(), || {
        let log = GridLog::load(&p.workload).with_context(|| format!("loading {}", p.workload.name()))?;
        tracing::info!(trace = %log.trace, jobs = log.jobs.len(), "grid log loaded");
        Ok(log)
    })?;
    p.grid.validate()?;
    let log = inputs.get::<GridLog>(&key).ok_or_else(|| anyhow!("grid log of point {index} not loaded"))?;
    check_grid_point(&log, &p.grid, p.seed).map_err(|error| PointInputError {
        index,
        setting: error.setting(),
        error: error.into(),
    })?;
    Ok(())
}

/// The log a Grid point cuts its cluster windows from.
pub fn grid_log(inputs: &Inputs, p: &GridPoint) -> anyhow::Result<Arc<GridLog>> {
    inputs.get::<GridLog>(&log_key(p)).ok_or_else(|| anyhow!("grid log of point not loaded"))
}
