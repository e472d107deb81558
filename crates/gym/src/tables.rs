//! The recording points' store group, by descriptors: `recording_points`
//! (one row per point: its settings and counts) and `recorded_episodes`
//! (one row per episode: its counts, return and Minari file).
//!
//! Contract: a point's rows are written in one transaction
//! ([`crate::kind::write_recording`]); an episode's `file` is the Arrow IPC
//! file a Minari dataset holds for it, byte for byte
//! ([`crate::record::minari::episode_file`]).

use slasim_core::store::columns::{Described, Rows, Table, column};
use slasim_core::store::tables::groups::{PointTables, all};

/// A recording point's row.
#[derive(Debug, Clone)]
pub struct PointRow {
    /// Its id.
    pub point_id: i64,
    /// The trace as the config names it (None: the embedded workload).
    pub trace: Option<String>,
    /// The behaviour.
    pub policy: String,
    /// Whether the environment backfilled.
    pub backfill: bool,
    /// Seed of the start indices.
    pub seed: u64,
    /// Episodes.
    pub episodes: i64,
    /// Rows of the window.
    pub window: i64,
    /// Jobs per episode (None: the whole log).
    pub sequence_len: Option<i64>,
    /// Whether the skip row was offered.
    pub skip: bool,
    /// RLScheduler's job_score_type.
    pub score: i64,
    /// `logged` or `exact`.
    pub estimates: &'static str,
    /// Steps over its episodes.
    pub steps: i64,
    /// Its canonical settings.
    pub config: String,
    /// The slasim version that recorded it.
    pub code_version: String,
}

/// One recorded episode.
#[derive(Debug, Clone)]
pub struct EpisodeRow {
    /// Its number in its point, from 0.
    pub episode: i64,
    /// Its steps.
    pub steps: i64,
    /// Its first job (the reset option `start` that replays it).
    pub start_index: i64,
    /// The sum of its rewards: minus the sequence's score.
    pub reward: f64,
    /// Its Minari episode file.
    pub file: Vec<u8>,
}

/// The row type of `recording_points`.
pub enum Points {}

impl Rows for Points {
    type Row<'a> = &'a PointRow;
    type Summary = ();
}

/// Each recording point.
pub static RECORDING_POINTS: Table<Points> = Table::new(
    "recording_points",
    15,
    "One row per recording point: one behaviour's episodes on one trace with one seed.",
)
.key(&["point_id"])
.columns(&[
    column!("point_id", Int, "the point's id", |r| r.point_id),
    column!("trace", Text null, "the trace as the config names it (NULL: the embedded workload)", |r| r.trace.as_deref()),
    column!("policy", Text, "the behaviour policy", |r| r.policy.as_str()),
    column!("backfill", Int, "1 if the environment backfilled (EASY: always)", |r| r.backfill),
    column!("seed", Int, "seed of the episodes' start indices", |r| r.seed as i64),
    column!("episodes", Int, "episodes recorded", |r| r.episodes),
    column!("window", Int, "rows of the window (the observation is window × 8 features)", |r| r.window),
    column!("sequence_len", Int null, "jobs per episode (NULL: one episode over the whole log)", |r| r.sequence_len),
    column!("skip", Int, "1 if the skip row was offered", |r| r.skip),
    column!("score", Int, "RLScheduler's job_score_type (0 bounded slowdown … 4 slowdown)", |r| r.score),
    column!("estimates", Text, "`logged` or `exact` requested times", |r| r.estimates),
    column!("steps", Int, "steps over its episodes", |r| r.steps),
    column!("config", Text, "the point's canonical settings (TOML)", |r| r.config.as_str()),
    column!("code_version", Text, "the slasim version that recorded it", |r| r.code_version.as_str()),
]);

/// An episode of a point.
#[derive(Debug, Clone, Copy)]
pub struct StoredEpisode<'a> {
    /// The point.
    pub point_id: i64,
    /// The episode.
    pub episode: &'a EpisodeRow,
}

/// The row type of `recorded_episodes`.
pub enum Episodes {}

impl Rows for Episodes {
    type Row<'a> = StoredEpisode<'a>;
    type Summary = ();
}

/// Each recorded episode.
pub static RECORDED_EPISODES: Table<Episodes> = Table::new(
    "recorded_episodes",
    15,
    "One row per recorded episode: its steps, first job, return and Minari episode file.",
)
.key(&["point_id", "episode"])
.columns(&[
    column!("point_id", Int, "the point", |r| r.point_id; references "recording_points(point_id)"),
    column!("episode", Int, "its number in its point, from 0", |r| r.episode.episode),
    column!("steps", Int, "its steps", |r| r.episode.steps),
    column!("start_index", Int, "its first job: the reset option `start` that replays it", |r| r.episode.start_index),
    column!("reward", Real, "the sum of its rewards (minus the sequence's score)", |r| r.episode.reward),
    column!("file", Blob, "its Minari episode file (Arrow IPC, zstd)", |r| r.episode.file.as_slice()),
]);

/// The group's tables, in creation order.
pub fn described() -> Vec<&'static dyn Described> {
    vec![&RECORDING_POINTS, &RECORDED_EPISODES]
}

/// Recording points.
pub static GROUP: PointTables = PointTables {
    key_table: "recording_points",
    key: "point_id",
    metrics: "recording_points",
    tables: &[all("recording_points"), all("recorded_episodes")],
    described,
    steps: &[],
    views: &[],
    ids_since: None,
    jobs: None,
    provenance: Some("SELECT point_id AS point, trace, seed, config, code_version FROM recording_points"),
};
