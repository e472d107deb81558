//! Offline-RL datasets: trajectories of behaviour policies in the
//! job-picking environment ([`crate::pick`]), written as Parquet or as a
//! Minari dataset ([`minari`]); [`export`] writes the episodes a store's
//! recording points hold ([`crate::kind`]) as a Minari dataset.
//!
//! Contract:
//! - *What is recorded.* For each behaviour ([`behaviour::BEHAVIOURS`]), in
//!   the order given, `episodes` episodes of the environment with the given
//!   options; the behaviour's [`Behaviour::backfill`] overrides the
//!   backfilling option (EASY records with it on). Every behaviour's
//!   environment is seeded with the same seed, so episode `k` covers the same
//!   jobs for every behaviour.
//! - *Rows.* One per step, in (behaviour, episode, step) order, with the
//!   columns of [`COLUMNS`]: the observation and mask the behaviour saw
//!   (before its action), the action (a row of the window), the reward it
//!   got and whether the episode ended. The next observation is the next
//!   row's; a terminated row has none.
//! - *File.* Written to `OUT.part` beside `OUT` and renamed when complete, so
//!   `OUT` is either absent or whole. The file's key-value metadata holds the
//!   trace, the options and the seed ([`Metadata`]). The same trace, options,
//!   behaviours, episodes and seed give the same bytes: nothing is drawn but
//!   the start indices, and no clock is read.
//! - *Memory.* Steps are written in row groups of at most [`BATCH_ROWS`]
//!   rows; the dataset is never held whole.

pub mod behaviour;
pub mod export;
pub mod minari;

use std::fs::File;
use std::io::BufWriter;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::Context;
use polars::prelude::*;

use crate::pick::jobs::JobTable;
use crate::pick::{Episode, Options, PickJobs};
pub use behaviour::Behaviour;

/// Rows per Parquet row group.
pub const BATCH_ROWS: usize = 16_384;

/// The dataset's columns, in order, with what each holds.
pub const COLUMNS: [(&str, &str); 10] = [
    ("policy", "the behaviour's name (`fcfs`, `sjf`, `f1`, `easy`, `slurm`)"),
    ("backfill", "whether the environment backfilled (EASY: always)"),
    ("episode", "the episode's number, from 0, per behaviour"),
    ("step", "the step's number in its episode, from 0"),
    ("start_index", "the episode's first job (position among the log's kept jobs)"),
    ("observation", "the observation before the action: window × 8 features in [0, 1] (float32)"),
    ("action_mask", "which rows were valid actions (window booleans)"),
    ("action", "the row the behaviour picked"),
    ("reward", "the reward of the step: 0, or minus the sequence's score at its end"),
    ("terminated", "whether the episode ended with this step"),
];

/// What the file's key-value metadata records (`slasim.` keys).
#[derive(Debug, Clone)]
pub struct Metadata {
    /// The trace's name (or the embedded workload's).
    pub trace: String,
    /// The trace file's sha256, when read from a file.
    pub trace_sha256: Option<String>,
    /// The code version.
    pub code_version: String,
    /// What the jobs request: `exact` run times or `logged` limits (`--estimates`).
    pub estimates: &'static str,
}

/// What [`record`] wrote.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Summary {
    /// Rows (steps).
    pub rows: u64,
    /// Episodes, over all behaviours.
    pub episodes: u64,
    /// The file's size in bytes.
    pub bytes: u64,
}

/// One row group's columns, filled step by step.
struct Batch {
    window: usize,
    policy: Vec<&'static str>,
    backfill: Vec<bool>,
    episode: Vec<u32>,
    step: Vec<u32>,
    start: Vec<u32>,
    observation: ListPrimitiveChunkedBuilder<Float32Type>,
    mask: ListBooleanChunkedBuilder,
    action: Vec<i64>,
    reward: Vec<f64>,
    terminated: Vec<bool>,
}

impl Batch {
    fn new(window: usize) -> Batch {
        let obs_len = window * crate::pick::observation::FEATURES;
        Batch {
            window,
            policy: Vec::with_capacity(BATCH_ROWS),
            backfill: Vec::with_capacity(BATCH_ROWS),
            episode: Vec::with_capacity(BATCH_ROWS),
            step: Vec::with_capacity(BATCH_ROWS),
            start: Vec::with_capacity(BATCH_ROWS),
            observation: ListPrimitiveChunkedBuilder::new(
                "observation".into(),
                BATCH_ROWS,
                BATCH_ROWS * obs_len,
                DataType::Float32,
            ),
            mask: ListBooleanChunkedBuilder::new("action_mask".into(), BATCH_ROWS, BATCH_ROWS * window),
            action: Vec::with_capacity(BATCH_ROWS),
            reward: Vec::with_capacity(BATCH_ROWS),
            terminated: Vec::with_capacity(BATCH_ROWS),
        }
    }

    fn len(&self) -> usize {
        self.action.len()
    }

    /// The columns so far, as a frame; the batch is left empty.
    fn take(&mut self) -> PolarsResult<DataFrame> {
        let height = self.len();
        let columns = vec![
            Column::new("policy".into(), std::mem::take(&mut self.policy)),
            Column::new("backfill".into(), std::mem::take(&mut self.backfill)),
            Column::new("episode".into(), std::mem::take(&mut self.episode)),
            Column::new("step".into(), std::mem::take(&mut self.step)),
            Column::new("start_index".into(), std::mem::take(&mut self.start)),
            self.observation.finish().into_series().into_column(),
            self.mask.finish().into_series().into_column(),
            Column::new("action".into(), std::mem::take(&mut self.action)),
            Column::new("reward".into(), std::mem::take(&mut self.reward)),
            Column::new("terminated".into(), std::mem::take(&mut self.terminated)),
        ];
        let frame = DataFrame::new(height, columns)?;
        *self = Batch::new(self.window);
        Ok(frame)
    }
}

/// What to record: the environment's options, the behaviours in order,
/// episodes per behaviour and the seed of their start indices.
#[derive(Debug, Clone)]
pub struct Recording {
    /// The environment's options (a behaviour's [`Behaviour::backfill`] overrides `backfill`).
    pub options: Options,
    /// The behaviours, in the order they are recorded.
    pub behaviours: Vec<&'static dyn Behaviour>,
    /// Episodes per behaviour.
    pub episodes: usize,
    /// Seed of every behaviour's environment.
    pub seed: u64,
}

/// Records `recording` on `jobs` into the Parquet file `out` (see the
/// module contract).
pub fn record(jobs: Arc<JobTable>, recording: &Recording, metadata: &Metadata, out: &Path) -> anyhow::Result<Summary> {
    anyhow::ensure!(!recording.behaviours.is_empty(), "no behaviour policy to record");
    let part = slasim_data::trace::fetch::part_path(out);
    let result = write(jobs, recording, metadata, &part);
    match result {
        Ok(summary) => {
            std::fs::rename(&part, out).with_context(|| format!("renaming {} to {}", part.display(), out.display()))?;
            Ok(summary)
        }
        Err(e) => {
            let _ = std::fs::remove_file(&part);
            Err(e)
        }
    }
}

fn key_values(recording: &Recording, metadata: &Metadata) -> Vec<(String, String)> {
    let Recording { options, episodes, seed, .. } = recording;
    let sequence = match options.episode {
        Episode::Sampled { len } => len.to_string(),
        Episode::WholeLog => "whole-log".into(),
    };
    [
        ("slasim.trace", metadata.trace.clone()),
        ("slasim.trace_sha256", metadata.trace_sha256.clone().unwrap_or_default()),
        ("slasim.code_version", metadata.code_version.clone()),
        ("slasim.estimates", metadata.estimates.to_string()),
        ("slasim.backfill", options.backfill.to_string()),
        ("slasim.window", options.window.to_string()),
        ("slasim.skip", options.skip.to_string()),
        ("slasim.score", options.score.code().to_string()),
        ("slasim.sequence_len", sequence),
        ("slasim.episodes", episodes.to_string()),
        ("slasim.seed", seed.to_string()),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v))
    .collect()
}

/// What the recording loop hands its writer.
pub(crate) enum Event<'a> {
    /// A step: the observation and mask the behaviour saw, what it did and got.
    Step {
        behaviour: &'static dyn Behaviour,
        backfill: bool,
        episode: usize,
        step: u32,
        start: u32,
        obs: &'a [f32],
        mask: &'a [u8],
        action: i64,
        reward: f64,
        terminated: bool,
    },
    /// An episode ended: the observation and mask after its last step.
    End { obs: &'a [f32], mask: &'a [u8], info: minari::EpisodeInfo },
}

/// Runs every behaviour's episodes (module contract), handing each step
/// and each episode's end to `on`.
pub(crate) fn episodes(
    jobs: Arc<JobTable>,
    recording: &Recording,
    mut on: impl FnMut(Event<'_>) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    let Recording { options, ref behaviours, episodes, seed } = *recording;
    let mut obs = vec![0f32; options.window * crate::pick::observation::FEATURES];
    let mut mask = vec![0u8; options.window];
    for &behaviour in behaviours.iter() {
        let options = Options { backfill: behaviour.backfill().unwrap_or(options.backfill), ..options };
        let mut env = PickJobs::new(Arc::clone(&jobs), options)?;
        env.seed(seed);
        for episode in 0..episodes {
            env.reset(None)?;
            let plan =
                behaviour.begin(&env).with_context(|| format!("behaviour {}, episode {episode}", behaviour.name()))?;
            let start = u32::try_from(env.start_index()).context("a start index past u32")?;
            for step in 0u32.. {
                env.write_observation(&mut obs, &mut mask);
                let action = behaviour.choose(&env, &plan) as i64;
                let outcome = env.step(action).with_context(|| {
                    format!("behaviour {} picked an invalid action in episode {episode}", behaviour.name())
                })?;
                on(Event::Step {
                    behaviour,
                    backfill: options.backfill,
                    episode,
                    step,
                    start,
                    obs: &obs,
                    mask: &mask,
                    action,
                    reward: outcome.reward,
                    terminated: outcome.terminated,
                })?;
                if outcome.terminated {
                    break;
                }
            }
            env.write_observation(&mut obs, &mut mask);
            let info = minari::EpisodeInfo {
                policy: behaviour.name(),
                backfill: options.backfill,
                start_index: start as usize,
            };
            on(Event::End { obs: &obs, mask: &mask, info })?;
        }
    }
    Ok(())
}

/// One recorded episode, encoded as a Minari dataset holds it.
pub(crate) struct EpisodeFile {
    /// Its behaviour, backfilling and first job.
    pub info: minari::EpisodeInfo,
    /// Its steps.
    pub steps: usize,
    /// The sum of its rewards.
    pub reward: f64,
    /// Its Arrow file ([`minari::episode_file`]).
    pub file: Vec<u8>,
}

/// Runs every behaviour's episodes ([`episodes`]) and hands each to `on`
/// as its Minari episode file: what `--format minari` writes and what a
/// recording point stores.
pub(crate) fn episode_files(
    jobs: Arc<JobTable>,
    recording: &Recording,
    mut on: impl FnMut(EpisodeFile) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    let window = recording.options.window;
    let mut columns = minari::EpisodeColumns::default();
    let mut count = 0usize;
    episodes(jobs, recording, |event| match event {
        Event::Step { obs, mask, action, reward, terminated, .. } => {
            columns.observe(obs, mask);
            columns.act(action, reward, terminated);
            Ok(())
        }
        Event::End { obs, mask, info } => {
            columns.observe(obs, mask);
            let file = minari::episode_file(window, &columns, info.start_index)
                .with_context(|| format!("episode {count} of {}", info.policy))?;
            count += 1;
            let episode = EpisodeFile { steps: columns.steps(), reward: columns.rewards.iter().sum(), file, info };
            columns.clear();
            on(episode)
        }
    })
}

fn write(jobs: Arc<JobTable>, recording: &Recording, metadata: &Metadata, part: &Path) -> anyhow::Result<Summary> {
    let file = File::create(part).with_context(|| format!("creating {}", part.display()))?;
    let writing = |e: PolarsError| anyhow::anyhow!("writing {}: {e}", part.display());
    let mut batch = Batch::new(recording.options.window);
    let schema = batch.take().map_err(writing)?.schema().as_ref().clone();
    let mut writer = ParquetWriter::new(BufWriter::new(file))
        .with_key_value_metadata(Some(KeyValueMetadata::from_static(key_values(recording, metadata))))
        .batched(&schema)
        .map_err(writing)?;
    let mut summary = Summary { rows: 0, episodes: 0, bytes: 0 };
    episodes(jobs, recording, |event| {
        match event {
            Event::Step { behaviour, backfill, episode, step, start, obs, mask, action, reward, terminated } => {
                batch.policy.push(behaviour.name());
                batch.backfill.push(backfill);
                batch.episode.push(episode as u32);
                batch.step.push(step);
                batch.start.push(start);
                batch.observation.append_slice(obs);
                batch.mask.append_iter(mask.iter().map(|&m| Some(m != 0)));
                batch.action.push(action);
                batch.reward.push(reward);
                batch.terminated.push(terminated);
                if batch.len() == BATCH_ROWS {
                    summary.rows += BATCH_ROWS as u64;
                    writer.write_batch(&batch.take().map_err(writing)?).map_err(writing)?;
                }
            }
            Event::End { .. } => summary.episodes += 1,
        }
        Ok(())
    })?;
    if batch.len() > 0 {
        summary.rows += batch.len() as u64;
        writer.write_batch(&batch.take().map_err(writing)?).map_err(writing)?;
    }
    summary.bytes = writer.finish().map_err(writing)?;
    Ok(summary)
}

/// Records `recording` on `jobs` as the Minari dataset `id` under the
/// datasets root `root` ([`minari`]); a dataset already there is replaced
/// only when `replace`. Returns what was written (`bytes`: the dataset's
/// files).
pub fn record_minari(
    jobs: Arc<JobTable>,
    recording: &Recording,
    metadata: &Metadata,
    root: &Path,
    id: &str,
    replace: bool,
) -> anyhow::Result<(PathBuf, Summary)> {
    anyhow::ensure!(!recording.behaviours.is_empty(), "no behaviour policy to record");
    let mut writer = minari::DatasetWriter::create(root, id, recording.options.window, replace)?;
    let recorded = episode_files(jobs, recording, |e| writer.add_episode(&e.file, e.steps, e.info.metadata()));
    if let Err(e) = recorded {
        writer.abandon();
        return Err(e);
    }
    let names: Vec<&str> = recording.behaviours.iter().map(|b| b.name()).collect();
    // The Parquet file's `slasim.*` keys, without the prefix; no sum (a
    // generated workload) is null.
    let provenance: serde_json::Map<String, serde_json::Value> = key_values(recording, metadata)
        .into_iter()
        .map(|(k, v)| {
            let k = k.trim_start_matches("slasim.").to_string();
            let v = if k == "trace_sha256" && v.is_empty() { serde_json::Value::Null } else { v.into() };
            (k, v)
        })
        .collect();
    let about = minari::About {
        algorithm: names.join(","),
        description: format!(
            "slasim job-picking environment (RLScheduler's MDP) on {}: {} episodes each of {}",
            metadata.trace,
            recording.episodes,
            names.join(", ")
        ),
        provenance: serde_json::Value::Object(provenance),
    };
    let (place, episodes, rows, bytes) = writer.finish(&about)?;
    Ok((place, Summary { rows, episodes: episodes as u64, bytes }))
}
