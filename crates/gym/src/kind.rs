//! Recording as a sweep: the `recording` point kind, one behaviour's
//! episodes on one trace with one seed, stored in the store like any point.
//!
//! Contract:
//! - *Settings.* A config's `[recording]` table holds what `slasim gym
//!   record` takes on its command line, but the output: `trace` (absent:
//!   the embedded workload), `policy` (one behaviour), `episodes`, `seed`,
//!   `window`, `backfill`, `skip`, `score`, `sequence_len` or `whole_log`,
//!   and `estimates`. Sweeps vary any of them (`trace`, `policy` and `seed`
//!   are the usual axes). A behaviour that needs backfilling (EASY) records
//!   with it, and its point says so.
//! - *A point* runs its behaviour's `episodes` episodes as [`crate::record::record`]
//!   does for one behaviour: the environment seeded with the point's seed,
//!   so points that differ only in their behaviour cover the same job
//!   sequences. Each episode is kept as the Arrow file a Minari dataset
//!   holds ([`crate::record::minari::episode_file`]), so a store exports to a dataset
//!   without running anything again ([`crate::record::export`]).
//! - *Stored* in `recording_points` (one row per point) and
//!   `recorded_episodes` (one row per episode, its file a blob), in one
//!   transaction ([`crate::tables`], [`write_recording`]). Sharding, resuming and merging are the
//!   engine's, as for every kind.

use std::path::PathBuf;
use std::sync::Arc;

use anyhow::Context;
use serde::{Deserialize, Serialize};

use slasim_core::experiment::id::{PointId, Unserialisable, canonical_toml};
use slasim_core::experiment::inputs::Inputs;
use slasim_core::experiment::locate::{ConfigError, ConfigFile, SweepContext};
use slasim_core::experiment::point::{AnyPoint, Axis, Base, KindInfo, Point, PointKind, PointOutput, axis};
use slasim_core::experiment::provenance::code_version;
use slasim_core::setting::InvalidSetting;
use slasim_core::store::columns::{insert, insert_all};
use slasim_core::store::{Store, StoreError};
use slasim_core::threads::Budget;
use slasim_data::trace::resolve_trace;

use crate::pick::jobs::{Estimates, JobTable};
use crate::pick::observation::RLSCHEDULER_WINDOW;
use crate::pick::reward::Score;
use crate::pick::{Episode, Options, RLSCHEDULER_SEQUENCE};
use crate::record::behaviour::{self, Behaviour};
use crate::record::{Recording, episode_files};
use crate::tables::{EpisodeRow, GROUP, PointRow, RECORDED_EPISODES, RECORDING_POINTS, StoredEpisode};

/// `estimates` values: which requested times the jobs carry.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum RecordedEstimates {
    /// As logged (−1 → the run time), as RLScheduler.
    #[default]
    Logged,
    /// The requested time is the run time.
    Exact,
}

impl RecordedEstimates {
    /// The job table's setting.
    pub fn jobs(self) -> Estimates {
        match self {
            RecordedEstimates::Logged => Estimates::Logged,
            RecordedEstimates::Exact => Estimates::Exact,
        }
    }

    /// Its name in configs and stores.
    pub fn name(self) -> &'static str {
        match self {
            RecordedEstimates::Logged => "logged",
            RecordedEstimates::Exact => "exact",
        }
    }
}

/// A recording's settings (`[recording]`), as a config says them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct RecordingSettings {
    /// An SWF log or a sacct dump (a path, or a name under the traces
    /// directory); absent: the embedded workload.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub trace: Option<PathBuf>,
    /// The behaviour policy.
    pub policy: String,
    /// Episodes.
    pub episodes: u32,
    /// Seed of the episodes' start indices.
    pub seed: u64,
    /// Rows of the window.
    pub window: u32,
    /// Backfill while a picked job waits (EASY always does).
    pub backfill: bool,
    /// Offer the skip row.
    pub skip: bool,
    /// RLScheduler's job_score_type (0–4).
    pub score: i64,
    /// Jobs per episode.
    pub sequence_len: u32,
    /// One episode over the whole log instead of sampled sequences.
    pub whole_log: bool,
    /// Which requested times the jobs carry.
    pub estimates: RecordedEstimates,
}

impl Default for RecordingSettings {
    fn default() -> Self {
        RecordingSettings {
            trace: None,
            policy: "sjf".into(),
            episodes: 10,
            seed: 1,
            window: RLSCHEDULER_WINDOW as u32,
            backfill: false,
            skip: false,
            score: 0,
            sequence_len: RLSCHEDULER_SEQUENCE as u32,
            whole_log: false,
            estimates: RecordedEstimates::Logged,
        }
    }
}

impl RecordingSettings {
    /// The point these settings describe: the behaviour known, the numbers
    /// in range, the backfilling the behaviour needs applied.
    pub fn resolve(&self) -> anyhow::Result<RecordingPoint> {
        let found = behaviour::behaviour(&self.policy).map_err(|e| anyhow::anyhow!("recording.policy: {e}"))?;
        Score::from_code(self.score).ok_or_else(|| {
            InvalidSetting::new("recording.score", self.score, "must be 0..=4 (RLScheduler's job_score_type)")
        })?;
        for (name, value) in [
            ("recording.episodes", self.episodes),
            ("recording.window", self.window),
            ("recording.sequence_len", self.sequence_len),
        ] {
            if value == 0 {
                return Err(InvalidSetting::new(name, value, "must be at least 1").into());
            }
        }
        Ok(RecordingPoint {
            trace: self.trace.clone(),
            policy: found.name().to_string(),
            episodes: self.episodes,
            seed: self.seed,
            window: self.window,
            backfill: found.backfill().unwrap_or(self.backfill),
            skip: self.skip,
            score: self.score,
            sequence_len: (!self.whole_log).then_some(self.sequence_len),
            estimates: self.estimates,
        })
    }
}

/// One recording point: one behaviour's episodes on one trace.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RecordingPoint {
    /// The trace as the config names it (None: the embedded workload).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub trace: Option<PathBuf>,
    /// The behaviour's name.
    pub policy: String,
    /// Episodes.
    pub episodes: u32,
    /// Seed of the episodes' start indices.
    pub seed: u64,
    /// Rows of the window.
    pub window: u32,
    /// Whether the environment backfills (EASY: always).
    pub backfill: bool,
    /// Whether the skip row is offered.
    pub skip: bool,
    /// RLScheduler's job_score_type.
    pub score: i64,
    /// Jobs per episode (None: one episode over the whole log).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sequence_len: Option<u32>,
    /// Which requested times the jobs carry.
    pub estimates: RecordedEstimates,
}

/// The jobs a recording reads, loaded once per trace and estimates.
#[derive(Debug)]
pub struct RecordingJobs(pub Arc<JobTable>);

impl RecordingPoint {
    /// The trace's name as stored (None: the embedded workload).
    pub fn trace_name(&self) -> Option<String> {
        self.trace.as_ref().map(|t| t.display().to_string())
    }

    fn inputs_key(&self) -> String {
        format!("{}|{}", self.trace_name().unwrap_or_default(), self.estimates.name())
    }

    fn behaviour(&self) -> anyhow::Result<&'static dyn Behaviour> {
        behaviour::behaviour(&self.policy).map_err(|e| anyhow::anyhow!("recording.policy: {e}"))
    }

    /// The environment's options.
    pub fn options(&self) -> anyhow::Result<Options> {
        Ok(Options {
            window: self.window as usize,
            backfill: self.backfill,
            skip: self.skip,
            score: Score::from_code(self.score).context("recording.score must be 0..=4")?,
            episode: match self.sequence_len {
                Some(len) => Episode::Sampled { len: len as usize },
                None => Episode::WholeLog,
            },
            baselines: false,
        })
    }

    /// Runs its episodes on `jobs`: each episode's file and counts.
    pub fn record(&self, jobs: Arc<JobTable>) -> anyhow::Result<Vec<EpisodeRow>> {
        let recording = Recording {
            options: self.options()?,
            behaviours: vec![self.behaviour()?],
            episodes: self.episodes as usize,
            seed: self.seed,
        };
        let mut rows = Vec::with_capacity(self.episodes as usize);
        episode_files(jobs, &recording, |e| {
            rows.push(EpisodeRow {
                episode: rows.len() as i64,
                steps: e.steps as i64,
                start_index: e.info.start_index as i64,
                reward: e.reward,
                file: e.file,
            });
            Ok(())
        })?;
        Ok(rows)
    }
}

/// What a recording point stores.
#[derive(Debug)]
pub struct RecordingOutput {
    /// Its `recording_points` row.
    pub row: PointRow,
    /// Its episodes.
    pub episodes: Vec<EpisodeRow>,
}

impl PointOutput for RecordingOutput {
    fn write(&self, store: &mut Store) -> Result<(), StoreError> {
        write_recording(store, self)
    }
}

/// A recording config file: `[recording]`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
// The top-level keys are checked by the config reader before a kind reads
// its own: the common ones are not repeated here.
struct RecordingFile {
    #[serde(default)]
    recording: Option<RecordingSettings>,
}

/// The recording kind.
pub struct RecordingKind;

/// The recording kind.
pub static RECORDING: RecordingKind = RecordingKind;

/// Its short axis names.
const AXES: &[Axis] = &[
    axis("trace", "trace", "an SWF log or sacct dump (a path, or a name under the traces directory)"),
    axis("policy", "policy", "the behaviour policy: fcfs, sjf, f1, easy, slurm"),
    axis("episodes", "episodes", "episodes per point"),
    axis("sequence_len", "sequence_len", "jobs per episode"),
    axis("backfill", "backfill", "backfill while a picked job waits"),
    axis("score", "score", "RLScheduler's job_score_type (0–4)"),
    axis("estimates", "estimates", "logged or exact requested times"),
];

/// The recording kind, as data.
static INFO: KindInfo = KindInfo {
    name: "recording",
    described: "a recording of offline-RL episodes ([recording])",
    setting_of: "recording",
    section: Some("recording"),
    sections: &["recording"],
    settings_in_section: true,
    axes: AXES,
    tables: &GROUP,
};

impl PointKind for RecordingKind {
    fn info(&self) -> &'static KindInfo {
        &INFO
    }

    fn base(&self, file: &ConfigFile<'_>) -> Result<Base, ConfigError> {
        let loc = &file.loc;
        let config: RecordingFile = toml::from_str(loc.text).map_err(|e| loc.syntax(e))?;
        let settings = config.recording.unwrap_or_default();
        let base = RecordingSettings { seed: file.seed_of("recording", settings.seed), ..settings };
        Base::of(file, base, 1)
    }

    fn resolve(&self, value: toml::Value, sweep: &SweepContext<'_>) -> Result<Point, ConfigError> {
        let settings: RecordingSettings = value.try_into().map_err(|e| sweep.unreadable(e))?;
        Ok(Point::new(settings.resolve().map_err(|e| sweep.invalid(e))?))
    }
}

impl AnyPoint for RecordingPoint {
    fn kind(&self) -> &'static dyn PointKind {
        &RECORDING
    }

    fn canonical(&self) -> Result<String, Unserialisable> {
        canonical_toml(self)
    }

    fn label(&self) -> String {
        let on = self.trace_name().unwrap_or_else(|| "the embedded workload".into());
        format!("{} on {on}, seed {}", self.policy, self.seed)
    }

    fn load(&self, _index: usize, inputs: &mut Inputs) -> anyhow::Result<()> {
        inputs.load_once(self.inputs_key(), || {
            let path = self.trace.as_deref().map(resolve_trace).transpose().map_err(anyhow::Error::msg)?;
            Ok(RecordingJobs(Arc::new(JobTable::open(path.as_deref(), self.estimates.jobs())?)))
        })
    }

    fn missing(&self) -> Vec<anyhow::Error> {
        match self.trace.as_deref().map(resolve_trace) {
            Some(Err(e)) => vec![anyhow::Error::msg(e)],
            _ => Vec::new(),
        }
    }

    fn run(
        &self,
        inputs: &Inputs,
        _budget: &Arc<Budget>,
        _experiment: Option<&str>,
    ) -> anyhow::Result<Box<dyn PointOutput>> {
        let jobs = inputs.get::<RecordingJobs>(&self.inputs_key()).context("the recording's jobs were not loaded")?;
        let episodes = self.record(Arc::clone(&jobs.0))?;
        let config = self.canonical()?;
        let id = PointId::of(&config).run_id;
        let row = PointRow {
            point_id: id,
            trace: self.trace_name(),
            policy: self.policy.clone(),
            backfill: self.backfill,
            seed: self.seed,
            episodes: i64::from(self.episodes),
            window: i64::from(self.window),
            sequence_len: self.sequence_len.map(i64::from),
            skip: self.skip,
            score: self.score,
            estimates: self.estimates.name(),
            steps: episodes.iter().map(|e| e.steps).sum(),
            config,
            code_version: code_version(),
        };
        Ok(Box::new(RecordingOutput { row, episodes }))
    }

    slasim_core::point_boilerplate!();
}

/// Writes a recording point in one transaction.
pub fn write_recording(store: &mut Store, out: &RecordingOutput) -> Result<(), StoreError> {
    let point_id = out.row.point_id;
    store.write_with(|tx| {
        insert(tx, &RECORDING_POINTS, &&out.row)?;
        insert_all(tx, &RECORDED_EPISODES, out.episodes.iter().map(|episode| StoredEpisode { point_id, episode }))
    })
}
