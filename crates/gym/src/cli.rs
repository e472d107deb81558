//! `slasim gym …`: the environments from the command line.
//!
//! Contract: `gym record` writes an offline-RL dataset ([`crate::record`])
//! of the job-picking environment, on a trace or the embedded workload,
//! and prints what it wrote; a trace or option it cannot use is an error
//! naming it, and no dataset file is left behind.

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use anyhow::Context;
use clap::{Args, FromArgMatches, Subcommand, ValueEnum};

use crate::pick::jobs::{Estimates, JobTable};
use crate::pick::observation::RLSCHEDULER_WINDOW;
use crate::pick::reward::Score;
use crate::pick::{Episode, Options, RLSCHEDULER_SEQUENCE};
use crate::record::behaviour;
use crate::record::{Metadata, Recording, record, record_minari};
use slasim_core::cli::emit;
use slasim_core::units::thousands;
use slasim_data::trace::resolve_trace;

#[derive(Debug, Subcommand)]
pub(crate) enum GymCommand {
    /// Record an offline-RL dataset: trajectories of behaviour policies
    /// (FCFS, SJF, F1, EASY, the Slurm twin) in the job-picking environment,
    /// as one Parquet file or a Minari dataset.
    Record(RecordArgs),
    /// Write the recorded episodes of a store (a swept `[recording]`
    /// config) as a Minari dataset.
    Minari(MinariArgs),
}

#[derive(Debug, Args)]
pub(crate) struct MinariArgs {
    /// The store holding the recording points.
    #[arg(long, value_name = "PATH")]
    db: PathBuf,
    /// Only the points of the experiment of this name (the config's `name`).
    #[arg(long, value_name = "NAME")]
    experiment: Option<String>,
    /// The dataset's id, NAMESPACE/NAME-vN.
    #[arg(long, value_name = "ID")]
    dataset_id: String,
    /// The datasets root (Minari's `MINARI_DATASETS_PATH`).
    #[arg(long, value_name = "PATH")]
    out: PathBuf,
    /// Replace a dataset that exists (once the new one is complete).
    #[arg(long)]
    force: bool,
}

/// `--format` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Format {
    /// One Parquet file, a row per step.
    Parquet,
    /// A Minari dataset: a directory of episodes (Arrow) and its metadata.
    Minari,
}

/// `--estimates` values.
#[derive(Debug, Clone, Copy, ValueEnum)]
enum EstimatesArg {
    /// As logged (−1 → the run time), as RLScheduler.
    Logged,
    /// The requested time is the run time.
    Exact,
}

#[derive(Debug, Args)]
pub(crate) struct RecordArgs {
    /// An SWF log or a sacct dump (a path, or a name under the traces
    /// directory); without it, the embedded synthetic workload.
    #[arg(long)]
    trace: Option<PathBuf>,
    /// The behaviour policies, comma-separated, recorded in this order.
    #[arg(long, value_delimiter = ',', default_value = "fcfs,sjf,f1,easy,slurm")]
    policy: Vec<String>,
    /// Episodes per behaviour.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u32).range(1..))]
    episodes: u32,
    /// Seed of the episodes' start indices (the same for every behaviour).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Where to write: the Parquet file, or with `--format minari` the
    /// datasets root (Minari's `MINARI_DATASETS_PATH`).
    #[arg(long, value_name = "PATH")]
    out: PathBuf,
    /// The dataset's format: one Parquet file, or a Minari dataset (what
    /// `minari.load_dataset` and d3rlpy read).
    #[arg(long, value_enum, default_value_t = Format::Parquet)]
    format: Format,
    /// The Minari dataset's id, NAMESPACE/NAME-vN (with `--format minari`).
    #[arg(long, value_name = "ID", required_if_eq("format", "minari"))]
    dataset_id: Option<String>,
    /// Replace a Minari dataset that exists (once the new one is complete).
    #[arg(long)]
    force: bool,
    /// Rows of the window (RLScheduler's MAX_QUEUE_SIZE).
    #[arg(long, default_value_t = RLSCHEDULER_WINDOW as u32, value_parser = clap::value_parser!(u32).range(1..))]
    window: u32,
    /// Backfill while a picked job waits (EASY always does).
    #[arg(long)]
    backfill: bool,
    /// Offer the skip row (never taken by the built-in behaviours).
    #[arg(long)]
    skip: bool,
    /// RLScheduler's job_score_type: 0 bounded slowdown, 1 wait, 2 turnaround, 3 utilisation, 4 slowdown.
    #[arg(long, default_value_t = 0)]
    score: i64,
    /// Jobs per episode (RLScheduler's JOB_SEQUENCE_SIZE).
    #[arg(long, default_value_t = RLSCHEDULER_SEQUENCE as u32, conflicts_with = "whole_log", value_parser = clap::value_parser!(u32).range(1..))]
    sequence_len: u32,
    /// One episode over the whole log instead of sampled sequences.
    #[arg(long)]
    whole_log: bool,
    /// Which requested times the jobs carry.
    #[arg(long, value_enum, default_value_t = EstimatesArg::Logged)]
    estimates: EstimatesArg,
}

/// The `gym` command.
pub struct GymSubcommand;

impl slasim_core::cli::subcommand::Subcommand for GymSubcommand {
    fn name(&self) -> &'static str {
        "gym"
    }

    fn command(&self) -> clap::Command {
        let gym = clap::Command::new("gym")
            .about("The reinforcement-learning environments: record offline datasets, export recorded stores")
            .subcommand_required(true)
            .arg_required_else_help(true);
        GymCommand::augment_subcommands(gym)
    }

    fn run(
        &self,
        _registry: &slasim_core::experiment::registry::Registry,
        matches: &clap::ArgMatches,
    ) -> anyhow::Result<ExitCode> {
        match GymCommand::from_arg_matches(matches)? {
            GymCommand::Record(args) => record_dataset(args),
            GymCommand::Minari(args) => export_dataset(args),
        }
    }
}

fn export_dataset(args: MinariArgs) -> anyhow::Result<ExitCode> {
    let (written, summary, points) =
        crate::record::export::export(&args.db, args.experiment.as_deref(), &args.out, &args.dataset_id, args.force)?;
    emit(&format!(
        "{}: {} steps of {} episodes from {} recording points, {} bytes\n",
        written.display(),
        thousands(summary.rows as usize),
        thousands(summary.episodes as usize),
        thousands(points),
        thousands(summary.bytes as usize)
    ))?;
    Ok(ExitCode::SUCCESS)
}

fn record_dataset(args: RecordArgs) -> anyhow::Result<ExitCode> {
    if args.format == Format::Parquet && (args.dataset_id.is_some() || args.force) {
        anyhow::bail!("--dataset-id and --force are for --format minari");
    }
    if let Some(id) = &args.dataset_id {
        crate::record::minari::place(&args.out, id, args.force)?;
    }
    let behaviours = args
        .policy
        .iter()
        .map(|name| behaviour::behaviour(name).map_err(|e| anyhow::anyhow!("--policy: {e}")))
        .collect::<anyhow::Result<Vec<_>>>()?;
    let score = Score::from_code(args.score)
        .with_context(|| format!("--score must be 0..=4 (RLScheduler's job_score_type), got {}", args.score))?;
    let estimates = match args.estimates {
        EstimatesArg::Logged => Estimates::Logged,
        EstimatesArg::Exact => Estimates::Exact,
    };
    let trace = args.trace.as_deref().map(resolve_trace).transpose().map_err(anyhow::Error::msg)?;
    let jobs = JobTable::open(trace.as_deref(), estimates)?;
    let episode = if args.whole_log { Episode::WholeLog } else { Episode::Sampled { len: args.sequence_len as usize } };
    let options = Options {
        window: args.window as usize,
        backfill: args.backfill,
        skip: args.skip,
        score,
        episode,
        baselines: false,
    };
    let trace_sha256 = match &trace {
        Some(path) => {
            Some(slasim_data::trace::fetch::digest_of(path).with_context(|| format!("reading {}", path.display()))?.1)
        }
        None => None,
    };
    let metadata = Metadata {
        trace: jobs.name.clone(),
        trace_sha256,
        code_version: slasim_core::experiment::provenance::code_version(),
        estimates: match args.estimates {
            EstimatesArg::Logged => "logged",
            EstimatesArg::Exact => "exact",
        },
    };
    let recording = Recording { options, behaviours, episodes: args.episodes as usize, seed: args.seed };
    let (written, summary) = match &args.dataset_id {
        Some(id) => record_minari(Arc::new(jobs), &recording, &metadata, &args.out, id, args.force)?,
        None => (args.out.clone(), record(Arc::new(jobs), &recording, &metadata, &args.out)?),
    };
    emit(&format!(
        "{}: {} steps of {} episodes ({}), {} bytes\n",
        written.display(),
        thousands(summary.rows as usize),
        thousands(summary.episodes as usize),
        args.policy.join(", "),
        thousands(summary.bytes as usize)
    ))?;
    Ok(ExitCode::SUCCESS)
}
