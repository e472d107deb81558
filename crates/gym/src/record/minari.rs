//! Minari datasets: the offline-RL format that d3rlpy and others load
//! (Farama Foundation, Minari 0.5, its Arrow storage).
//!
//! Contract:
//! - *Layout.* A dataset `NAMESPACE/NAME-vN` under a datasets root (what
//!   Minari reads from `MINARI_DATASETS_PATH`) is the directory
//!   `ROOT/NAMESPACE/NAME-vN/data/` holding `metadata.json` (the dataset's:
//!   its id, counts, spaces and provenance) and one directory per episode,
//!   `0`, `1`, …, each with `part-0.arrow` and `metadata.json` (its id, its
//!   steps, the reset options that replay it and its behaviour).
//! - *An episode's file* is an Arrow IPC file of one record batch of T + 1
//!   rows for T steps, as Minari writes it but compressed (zstd buffers,
//!   which pyarrow reads as it reads Minari's own; an observation is mostly
//!   the zeros of empty window rows): `observations`
//!   (the window's features, T + 1 rows: the observation after the last step
//!   is the last row), `actions`, `rewards`, `terminations` and
//!   `truncations` (T rows and a padding row Minari drops), and `infos`, a
//!   struct of `action_mask` (each observation's valid rows, int8, with the
//!   field metadata `shape` Minari reshapes by) and `start_index` (the
//!   episode's first job). Every episode has this schema.
//! - *Spaces.* The observation space is the environment's
//!   `Box(0, 1, (window × 8,), float32)`, the action space
//!   `Discrete(window)`, serialised as Minari's `serialize_space` does.
//! - *Whole or absent.* The dataset is written into `NAME-vN.part` beside
//!   its place and renamed when complete; a dataset already there is
//!   refused unless the caller replaces it (`--force`), and then it is
//!   removed only once the new one is complete.
//!
//! Departure: Minari keeps each episode's reset `seed`; an episode here is
//! replayed by its `options` (`{"start": first job}`), which fix it whole.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::{Context, bail};
use polars::prelude::PlSmallStr;
use polars_arrow::array::{Array, BooleanArray, FixedSizeListArray, PrimitiveArray, StructArray};
use polars_arrow::datatypes::{ArrowDataType, ArrowSchema, Field, Metadata};
use polars_arrow::io::ipc::write::{Compression, FileWriter, WriteOptions};
use polars_arrow::record_batch::RecordBatchT;
use serde_json::json;

/// The Minari version whose format this is.
pub const MINARI_VERSION: &str = "0.5.4";

/// Steps Minari reads as one episode batch at most (its reader splits
/// longer ones).
pub const MAX_EPISODE_STEPS: usize = 131_071;

/// A dataset id: `NAMESPACE/NAME-vN` (Minari's own pattern, which
/// `minari.load_dataset` and `list_local_datasets` rely on).
pub fn check_id(id: &str) -> anyhow::Result<()> {
    let bad =
        |why: &str| anyhow::anyhow!("--dataset-id `{id}`: {why} (expected NAMESPACE/NAME-vN, e.g. slasim/ctc-sp2-v0)");
    let (path, version) = id.rsplit_once("-v").ok_or_else(|| bad("no version `-vN`"))?;
    if version.is_empty() || !version.bytes().all(|b| b.is_ascii_digit()) {
        return Err(bad("the version after `-v` must be a number"));
    }
    let (namespace, name) = path.rsplit_once('/').ok_or_else(|| bad("no namespace"))?;
    let word = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_alphanumeric() || b"-_.".contains(&b));
    if namespace.split('/').any(|part| !word(part)) || namespace.len() < 2 {
        return Err(bad("the namespace must be words of letters, digits, `-`, `_` or `.`, at least 2 characters"));
    }
    if !word(name) {
        return Err(bad("the name must be letters, digits, `-`, `_` or `.`"));
    }
    Ok(())
}

/// Where dataset `id` goes under the datasets root `root`: its id checked,
/// and refused if it exists unless `replace` (checked before recording, so a
/// refusal costs nothing, and again when the writer starts).
pub fn place(root: &Path, id: &str, replace: bool) -> anyhow::Result<PathBuf> {
    check_id(id)?;
    let place = root.join(id);
    if place.exists() && !replace {
        bail!("{}: the dataset exists; --force replaces it", place.display());
    }
    Ok(place)
}

/// One episode's columns, filled step by step.
#[derive(Debug, Default)]
pub struct EpisodeColumns {
    /// Observations, `window × 8` values each, one more than the steps.
    pub observations: Vec<f32>,
    /// Each observation's action mask (`window` values, 0 or 1).
    pub masks: Vec<i8>,
    /// The actions.
    pub actions: Vec<i64>,
    /// The rewards.
    pub rewards: Vec<f64>,
    /// Whether each step ended the episode.
    pub terminations: Vec<bool>,
}

impl EpisodeColumns {
    /// Adds an observation and its mask.
    pub fn observe(&mut self, obs: &[f32], mask: &[u8]) {
        self.observations.extend_from_slice(obs);
        self.masks.extend(mask.iter().map(|&m| m as i8));
    }

    /// Adds a step's action, reward and ending.
    pub fn act(&mut self, action: i64, reward: f64, terminated: bool) {
        self.actions.push(action);
        self.rewards.push(reward);
        self.terminations.push(terminated);
    }

    /// Steps so far.
    pub fn steps(&self) -> usize {
        self.actions.len()
    }

    /// Empties it for the next episode.
    pub fn clear(&mut self) {
        self.observations.clear();
        self.masks.clear();
        self.actions.clear();
        self.rewards.clear();
        self.terminations.clear();
    }
}

/// What an episode's `metadata.json` says beside its counts.
#[derive(Debug, Clone)]
pub struct EpisodeInfo {
    /// Its behaviour's name.
    pub policy: &'static str,
    /// Whether the environment backfilled.
    pub backfill: bool,
    /// Its first job (the reset option that replays it).
    pub start_index: usize,
}

impl EpisodeInfo {
    /// What its `metadata.json` says beside its id and steps
    /// ([`episode_metadata`]).
    pub fn metadata(&self) -> serde_json::Map<String, serde_json::Value> {
        episode_metadata(self.start_index as i64, self.policy, self.backfill)
    }
}

/// What an episode's `metadata.json` says beside its id and steps: the
/// reset options that replay it (`{"start": first job}`), its behaviour and
/// whether the environment backfilled.
pub fn episode_metadata(start: i64, policy: &str, backfill: bool) -> serde_json::Map<String, serde_json::Value> {
    let mut m = serde_json::Map::new();
    m.insert("options".into(), json!({ "start": start }));
    m.insert("policy".into(), policy.into());
    m.insert("backfill".into(), backfill.into());
    m
}

/// Writes a Minari dataset one episode at a time ([module contract](self)).
pub struct DatasetWriter {
    /// Where it goes, and where it is written until complete.
    place: PathBuf,
    part: PathBuf,
    id: String,
    window: usize,
    episodes: usize,
    steps: u64,
}

/// The episode schema for a window of `window` rows.
fn schema(window: usize) -> ArrowSchema {
    let list = |item: ArrowDataType, size: usize| {
        ArrowDataType::FixedSizeList(Box::new(Field::new("item".into(), item, true)), size)
    };
    let shape: Metadata = [(PlSmallStr::from("shape"), PlSmallStr::from(window.to_string()))].into_iter().collect();
    let infos = ArrowDataType::Struct(vec![
        Field::new("action_mask".into(), list(ArrowDataType::Int8, window), true).with_metadata(shape),
        Field::new("start_index".into(), ArrowDataType::Int64, true),
    ]);
    ArrowSchema::from_iter([
        Field::new(
            "observations".into(),
            list(ArrowDataType::Float32, window * crate::pick::observation::FEATURES),
            true,
        ),
        Field::new("actions".into(), ArrowDataType::Int64, true),
        Field::new("rewards".into(), ArrowDataType::Float64, true),
        Field::new("terminations".into(), ArrowDataType::Boolean, true),
        Field::new("truncations".into(), ArrowDataType::Boolean, true),
        Field::new("infos".into(), infos, true),
    ])
}

impl DatasetWriter {
    /// A writer of dataset `id` under the datasets root `root`, for a
    /// window of `window` rows; an existing dataset is refused unless
    /// `replace`.
    pub fn create(root: &Path, id: &str, window: usize, replace: bool) -> anyhow::Result<DatasetWriter> {
        let place = place(root, id, replace)?;
        let part = place.with_file_name(format!(
            "{}.part",
            place.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default()
        ));
        if part.exists() {
            std::fs::remove_dir_all(&part).with_context(|| format!("removing {}", part.display()))?;
        }
        std::fs::create_dir_all(part.join("data")).with_context(|| format!("creating {}", part.display()))?;
        Ok(DatasetWriter { place, part, id: id.to_string(), window, episodes: 0, steps: 0 })
    }

    /// Adds an episode already encoded ([`episode_file`]) of `steps` steps,
    /// with `about` (its reset options, behaviour, …) in its `metadata.json`
    /// after its id and steps.
    pub fn add_episode(
        &mut self,
        file: &[u8],
        steps: usize,
        about: serde_json::Map<String, serde_json::Value>,
    ) -> anyhow::Result<()> {
        let dir = self.part.join("data").join(self.episodes.to_string());
        std::fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
        let path = dir.join("part-0.arrow");
        std::fs::write(&path, file).with_context(|| format!("writing {}", path.display()))?;
        let mut metadata = serde_json::Map::new();
        metadata.insert("id".into(), self.episodes.into());
        metadata.insert("total_steps".into(), steps.into());
        metadata.extend(about);
        write_json(&dir.join("metadata.json"), &serde_json::Value::Object(metadata))?;
        self.episodes += 1;
        self.steps += steps as u64;
        Ok(())
    }

    /// Writes the dataset's `metadata.json` with `about` (its description,
    /// behaviours and provenance) and puts the dataset in its place.
    /// Returns its directory, episodes, steps and bytes.
    pub fn finish(self, about: &About) -> anyhow::Result<(PathBuf, usize, u64, u64)> {
        if self.episodes == 0 {
            bail!("no episode to write");
        }
        let data = self.part.join("data");
        // Minari's `dataset_size`: the data tree in MB, to 0.1.
        let bytes = tree_bytes(&data)?;
        let observation_space = json!({
            "type": "Box",
            "dtype": "float32",
            "shape": [self.window * crate::pick::observation::FEATURES],
            "low": vec![0.0; self.window * crate::pick::observation::FEATURES],
            "high": vec![1.0; self.window * crate::pick::observation::FEATURES],
        });
        let action_space = json!({ "type": "Discrete", "dtype": "int64", "start": 0, "n": self.window });
        let metadata = json!({
            "dataset_id": self.id,
            "total_episodes": self.episodes,
            "total_steps": self.steps,
            "data_format": "arrow",
            "jpeg_encoding": false,
            "observation_space": observation_space.to_string(),
            "action_space": action_space.to_string(),
            "algorithm_name": about.algorithm,
            "description": about.description,
            "minari_version": MINARI_VERSION,
            "dataset_size": (bytes as f64 / 1e5).round() / 10.0,
            "slasim": about.provenance,
        });
        write_json(&data.join("metadata.json"), &metadata)?;
        let total = tree_bytes(&self.part)?;
        if self.place.exists() {
            // Replaced only now that the new one is whole.
            std::fs::remove_dir_all(&self.place).with_context(|| format!("removing {}", self.place.display()))?;
        }
        std::fs::rename(&self.part, &self.place)
            .with_context(|| format!("renaming {} to {}", self.part.display(), self.place.display()))?;
        Ok((self.place, self.episodes, self.steps, total))
    }

    /// Removes what was written (an error stopped the recording).
    pub fn abandon(self) {
        let _ = std::fs::remove_dir_all(&self.part);
    }
}

/// An episode's Arrow IPC file ([module contract](self)): its columns
/// (observations one more than its steps) for a window of `window` rows, and
/// `start_index` in its infos.
pub fn episode_file(window: usize, c: &EpisodeColumns, start_index: usize) -> anyhow::Result<Vec<u8>> {
    let (steps, obs_len) = (c.steps(), window * crate::pick::observation::FEATURES);
    if steps == 0 || c.observations.len() != (steps + 1) * obs_len || c.masks.len() != (steps + 1) * window {
        bail!("{steps} steps need {} observations and masks", steps + 1);
    }
    if steps > MAX_EPISODE_STEPS {
        bail!(
            "{steps} steps; Minari reads at most {MAX_EPISODE_STEPS} steps an episode \
             (record sampled sequences, not the whole log)"
        );
    }
    let schema = Arc::new(schema(window));
    let rows = steps + 1;
    let fields: Vec<&Field> = schema.iter_values().collect();
    let list = |field: &Field, values: Box<dyn Array>| -> anyhow::Result<Box<dyn Array>> {
        Ok(FixedSizeListArray::try_new(field.dtype.clone(), rows, values, None)?.boxed())
    };
    // The last row of the per-step columns is padding, as Minari's own.
    let padded = |v: &[i64]| PrimitiveArray::<i64>::from_vec([v, &[0]].concat()).boxed();
    let infos_dtype = fields[5].dtype.clone();
    let ArrowDataType::Struct(info_fields) = &infos_dtype else { bail!("the infos column is a struct") };
    let infos = StructArray::try_new(
        infos_dtype.clone(),
        rows,
        vec![
            list(&info_fields[0], PrimitiveArray::<i8>::from_slice(&c.masks).boxed())?,
            PrimitiveArray::<i64>::from_vec(vec![start_index as i64; rows]).boxed(),
        ],
        None,
    )?;
    let arrays: Vec<Box<dyn Array>> = vec![
        list(fields[0], PrimitiveArray::<f32>::from_slice(&c.observations).boxed())?,
        padded(&c.actions),
        PrimitiveArray::<f64>::from_vec([&c.rewards[..], &[0.0]].concat()).boxed(),
        BooleanArray::from_slice([&c.terminations[..], &[false]].concat()).boxed(),
        BooleanArray::from_slice(vec![false; rows]).boxed(),
        infos.boxed(),
    ];
    let batch = RecordBatchT::try_new(rows, Arc::clone(&schema), arrays)?;
    let mut bytes = Vec::new();
    let mut writer = FileWriter::try_new(
        &mut bytes,
        schema,
        None,
        WriteOptions { compression: Some(Compression::ZSTD(polars_utils::compression::ZstdLevel::default())) },
    )?;
    writer.write(&batch, None)?;
    writer.finish()?;
    Ok(bytes)
}

/// What the dataset's metadata says of it.
#[derive(Debug, Clone)]
pub struct About {
    /// The behaviours, comma-separated (Minari's `algorithm_name`).
    pub algorithm: String,
    /// A sentence on what it holds.
    pub description: String,
    /// slasim's own keys: trace, options, seed, build.
    pub provenance: serde_json::Value,
}

fn write_json(path: &Path, value: &serde_json::Value) -> anyhow::Result<()> {
    std::fs::write(path, value.to_string()).with_context(|| format!("writing {}", path.display()))
}

fn tree_bytes(dir: &Path) -> anyhow::Result<u64> {
    let mut total = 0;
    for entry in std::fs::read_dir(dir).with_context(|| format!("reading {}", dir.display()))? {
        let entry = entry?;
        let meta = entry.metadata()?;
        total += if meta.is_dir() { tree_bytes(&entry.path())? } else { meta.len() };
    }
    Ok(total)
}
