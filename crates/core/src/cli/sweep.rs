//! `slasim sweep` and `slasim merge`: run (or resume) an experiment config,
//! split it across machines, combine the parts.

use std::fmt::Write as _;
use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use anyhow::Context;
use clap::Args;

use crate::cli::emit;
use crate::cli::options::DEFAULT_DB;
use crate::experiment::config::Experiment;
use crate::experiment::coordinator::{Shard, SweepOptions, SweepOutcome, already_stored, run_sweep, shard_positions};
use crate::experiment::point::PointKind;
use crate::experiment::registry::Registry;
use crate::experiment::slurm::{
    SiteLimits, SlurmOptions, check_store, limits_text, max_array_size_of, max_submit_jobs_of, script, shard_db,
};
use crate::store::merge;
use crate::units::{seconds, thousands};

#[derive(Debug, Args)]
pub(crate) struct SweepArgs {
    /// The experiment config (TOML), e.g. configs/quick.toml.
    config: PathBuf,
    /// Threads busy at once (default: one per core).
    #[arg(long)]
    jobs: Option<usize>,
    /// The store (default: slasim.sqlite; with --shard i/N, slasim.shard-i-of-N.sqlite).
    #[arg(long)]
    db: Option<PathBuf>,
    /// Run only part i of N of the points, e.g. 2/4.
    #[arg(long, value_parser = |s: &str| s.parse::<Shard>())]
    shard: Option<Shard>,
    /// Do not draw the progress bar.
    #[arg(long)]
    no_progress: bool,
    /// The most combinations the config's sweeps may make (before equal points fold).
    #[arg(long, value_name = "N", default_value_t = crate::experiment::config::MAX_POINTS)]
    max_points: usize,
    /// Print the points the sweep would run and how many are stored already; run nothing.
    #[arg(long, conflicts_with = "emit_slurm")]
    dry_run: bool,
    /// Instead of running, write an `sbatch --array` script for N shards plus the merge.
    #[arg(long, value_name = "N")]
    emit_slurm: Option<usize>,
    /// Slurm partition(s) for --emit-slurm.
    #[arg(long, requires = "emit_slurm")]
    partition: Option<String>,
    /// Slurm time limit per shard for --emit-slurm.
    #[arg(long, default_value = "04:00:00", requires = "emit_slurm")]
    time: String,
    /// CPUs per shard for --emit-slurm (the shard's worker threads).
    #[arg(long, default_value_t = 2, requires = "emit_slurm")]
    cpus_per_task: usize,
    /// Slurm account for --emit-slurm.
    #[arg(long, requires = "emit_slurm")]
    account: Option<String>,
    /// Where to write the script (default: slasim-<name>.sbatch next to the store).
    #[arg(long, requires = "emit_slurm")]
    script: Option<PathBuf>,
    /// The site's MaxArraySize for --emit-slurm: array indices stay below it
    /// (default: read from `scontrol show config` where scontrol is on the PATH).
    #[arg(long, value_name = "N", requires = "emit_slurm")]
    max_array_size: Option<usize>,
    /// Jobs you may have queued at once for --emit-slurm, each array task
    /// counted (default: your association's MaxSubmitJobs, read with
    /// `sacctmgr` where it is on the PATH).
    #[arg(long, value_name = "N", requires = "emit_slurm")]
    max_submit_jobs: Option<usize>,
}

#[derive(Debug, Args)]
pub(crate) struct MergeArgs {
    /// Stores to merge (shards of one experiment).
    #[arg(required = true)]
    inputs: Vec<PathBuf>,
    /// The new merged store (it must not exist).
    #[arg(long, default_value = DEFAULT_DB)]
    db: PathBuf,
}

/// Counts Ctrl-C presses: the first stops the dispatch, the second abandons.
pub(crate) fn interrupt_counter() -> Arc<AtomicUsize> {
    let counter = Arc::new(AtomicUsize::new(0));
    let handler_counter = Arc::clone(&counter);
    let installed = ctrlc::set_handler(move || {
        if handler_counter.fetch_add(1, Ordering::SeqCst) == 0 {
            eprintln!("\ninterrupted: finishing the points in flight (Ctrl-C again to abandon them)");
        } else {
            eprintln!("\ninterrupted again: abandoning the points in flight; committed points are safe");
            std::process::exit(130);
        }
    });
    if let Err(e) = installed {
        tracing::warn!("cannot install the Ctrl-C handler: {e}");
    }
    counter
}

/// The lines a sweep prints before and after its points: what runs, and
/// what was stored.
fn header(name: &str, config: &std::path::Path, points: usize, part: &str) -> String {
    format!("experiment {name} ({}): {} points{part}\n", config.display(), thousands(points))
}

fn stored_line(db: &std::path::Path, report: &SweepOutcome) -> String {
    let rate = if report.wall_seconds > 0.0 { report.done as f64 / report.wall_seconds } else { 0.0 };
    format!(
        "stored in {}: {} already there, {} simulated now in {} ({rate:.1} points/s)\n",
        db.display(),
        thousands(report.already),
        thousands(report.done),
        seconds(format_args!("{:.1}", report.wall_seconds))
    )
}

/// A whole sweep (no shard) whose store holds every point of its config, as
/// the store's count of the experiment's points says: recognised without
/// making its points. `None` when it is not finished, or cannot tell.
fn finished(registry: &Registry, args: &SweepArgs) -> anyhow::Result<Option<std::process::ExitCode>> {
    let clock = std::time::Instant::now();
    let db = args.db.clone().unwrap_or_else(|| PathBuf::from(DEFAULT_DB));
    if args.shard.is_some() || !db.is_file() {
        return Ok(None);
    }
    // An unreadable config is reported by the load that follows.
    let Ok(text) = std::fs::read_to_string(&args.config) else { return Ok(None) };
    let hash = crate::experiment::config::config_hash(&text);
    let Some((name, points)) = crate::store::finished(&db, registry.groups(), &hash)? else { return Ok(None) };
    tracing::debug!(points, "finished: the store holds every point its experiment counts; none is made");
    emit(&header(&name, &args.config, points, ""))?;
    let report = SweepOutcome {
        total: points,
        already: points,
        wall_seconds: clock.elapsed().as_secs_f64(),
        ..SweepOutcome::default()
    };
    emit(&stored_line(&db, &report))?;
    Ok(Some(std::process::ExitCode::SUCCESS))
}

pub(crate) fn sweep(registry: &Registry, args: SweepArgs) -> anyhow::Result<std::process::ExitCode> {
    if !args.dry_run
        && args.emit_slurm.is_none()
        && let Some(code) = finished(registry, &args)?
    {
        return Ok(code);
    }
    let experiment = Experiment::load_at_most(registry, &args.config, args.max_points)?;
    let default_db = || PathBuf::from(DEFAULT_DB);
    if args.dry_run {
        return dry_run(
            registry,
            &experiment,
            &args,
            args.db.clone().unwrap_or_else(|| match args.shard {
                Some(shard) => shard_db(&default_db(), &shard.index.to_string(), shard.count),
                None => default_db(),
            }),
        );
    }
    if let Some(shards) = args.emit_slurm {
        let mut options = SlurmOptions {
            shards,
            partition: args.partition.clone(),
            time: args.time.clone(),
            cpus_per_task: args.cpus_per_task,
            account: args.account.clone(),
            limits: SiteLimits { max_array_size: args.max_array_size, max_submit_jobs: args.max_submit_jobs },
        };
        // What the user typed first; then the limits the site sets, asked
        // only for what was not given.
        options.validate(experiment.points.len())?;
        if options.limits.max_array_size.is_none() {
            options.limits.max_array_size = ask("scontrol", &["show", "config"], "MaxArraySize", "--max-array-size")
                .and_then(|out| max_array_size_of(&out));
        }
        if options.limits.max_submit_jobs.is_none()
            && let Ok(user) = std::env::var("USER").or_else(|_| std::env::var("LOGNAME"))
        {
            let filter = format!("user={user}");
            let args = ["-nP", "show", "assoc", "where", &filter, "format=MaxSubmit"];
            options.limits.max_submit_jobs =
                ask("sacctmgr", &args, "MaxSubmitJobs", "--max-submit-jobs").and_then(|out| max_submit_jobs_of(&out));
        }
        options.validate(experiment.points.len())?;
        let db = args.db.clone().unwrap_or_else(default_db);
        check_store(&db)?;
        let slasim = std::env::current_exe().context("locating the slasim binary")?;
        let text = script(&experiment.name, &args.config, &db, &slasim, &options);
        let path = args.script.clone().unwrap_or_else(|| {
            db.with_file_name(format!(
                "slasim-{}.sbatch",
                experiment.name.replace(|c: char| !(c.is_ascii_alphanumeric() || c == '-' || c == '_'), "_")
            ))
        });
        std::fs::write(&path, &text).with_context(|| format!("{}: cannot write the script", path.display()))?;
        let tasks = options.tasks();
        let fit = if options.limits == SiteLimits::default() {
            String::new()
        } else if tasks < shards {
            format!(", run by {tasks} array tasks within the site's {}", limits_text(&options.limits))
        } else {
            format!(", within the site's {}", limits_text(&options.limits))
        };
        emit(&format!(
            "wrote {} for {} points in {shards} shards{fit} (stores {}); submit it with: sbatch {}\n",
            path.display(),
            thousands(experiment.points.len()),
            shard_db(&db, "<i>", shards).display(),
            path.display()
        ))?;
        return Ok(std::process::ExitCode::SUCCESS);
    }
    // The header before the work: a pipe, a batch log or CI sees at once
    // what runs.
    let mine = shard_positions(&experiment, args.shard).len();
    let part = args.shard.map_or_else(String::new, |s| format!(", shard {s}: {} points", thousands(mine)));
    emit(&header(&experiment.name, &args.config, experiment.points.len(), &part))?;
    let (db, report) = run_points(registry, &experiment, &args, None)?;
    let mut text = stored_line(&db, &report);
    if report.interrupted {
        let left = report.total - report.already - report.done;
        writeln!(text, "interrupted: {} points left; run the same command again to resume", thousands(left))?;
        emit(&text)?;
        return Ok(std::process::ExitCode::from(130));
    }
    emit(&text)?;
    Ok(std::process::ExitCode::SUCCESS)
}

/// What an embedded `slasim sweep` stored.
pub struct Swept {
    /// The store it wrote.
    pub db: PathBuf,
    /// The config's point kind (its tables say where the points are).
    pub kind: &'static dyn PointKind,
    /// The ids of the points it was to run (its shard's), stored now or before.
    pub point_ids: Vec<i64>,
    /// What it did; `interrupted` when the counter stopped it.
    pub outcome: SweepOutcome,
}

/// Runs (or resumes) the sweep's points, or its shard's, into its store:
/// the command line's, or an embedding program's with its own interrupt
/// counter (no Ctrl-C handler, no progress bar). Returns the store's path
/// and what was done.
pub(crate) fn run_points(
    registry: &Registry,
    experiment: &Experiment,
    args: &SweepArgs,
    interrupts: Option<Arc<AtomicUsize>>,
) -> anyhow::Result<(PathBuf, SweepOutcome)> {
    let db = match (&args.db, args.shard) {
        (Some(db), _) => db.clone(),
        (None, Some(shard)) => shard_db(&PathBuf::from(DEFAULT_DB), &shard.index.to_string(), shard.count),
        (None, None) => PathBuf::from(DEFAULT_DB),
    };
    let options = SweepOptions {
        threads: crate::cli::options::threads(args.jobs),
        shard: args.shard,
        progress: interrupts.is_none() && !args.no_progress && std::io::stdout().is_terminal(),
        interrupts: Some(interrupts.unwrap_or_else(interrupt_counter)),
    };
    let report = run_sweep(registry, experiment, &db, &options)?;
    Ok((db, report))
}

/// The embedding program's `slasim sweep`: the config loaded and its points
/// (or its shard's) run; `--dry-run` and `--emit-slurm` print, so they are
/// the command line's only.
/// With `text`, the config is that text and `args.config` only its name
/// (what messages and the store's `experiments` row call it).
pub(crate) fn sweep_embedded(
    registry: &Registry,
    args: SweepArgs,
    text: Option<&str>,
    interrupts: Arc<AtomicUsize>,
) -> anyhow::Result<Swept> {
    if args.dry_run || args.emit_slurm.is_some() {
        anyhow::bail!("--dry-run and --emit-slurm print their result: run them with the slasim command");
    }
    let experiment = match text {
        Some(text) => Experiment::parse_at_most(registry, &args.config.display().to_string(), text, args.max_points)?,
        None => Experiment::load_at_most(registry, &args.config, args.max_points)?,
    };
    let (db, outcome) = run_points(registry, &experiment, &args, Some(interrupts))?;
    let ids = shard_positions(&experiment, args.shard).into_iter().map(|k| experiment.points.id(k)).collect();
    Ok(Swept { db, kind: experiment.kind, point_ids: ids, outcome })
}

pub(crate) fn merge_command(registry: &Registry, args: MergeArgs) -> anyhow::Result<()> {
    let report = merge(registry.groups(), &args.inputs, &args.db)?;
    emit(&format!("merged {} stores into {}: {} points\n", report.inputs, args.db.display(), thousands(report.runs)))
}

/// `--dry-run`: every point of the shard, with whether it is stored.
fn dry_run(
    registry: &Registry,
    experiment: &Experiment,
    args: &SweepArgs,
    db: PathBuf,
) -> anyhow::Result<std::process::ExitCode> {
    let mine = shard_positions(experiment, args.shard);
    let stored = if db.is_file() { crate::store::stored_points(&db, registry.groups())? } else { Default::default() };
    let mut text = String::new();
    let mut missing: Vec<String> = Vec::new();
    for &k in &mine {
        let p = experiment.points.get(registry, k)?;
        let mark = if stored.contains(&p.id) { "stored" } else { "to run" };
        writeln!(text, "{k:>6}  {:<6}  {:>19}  {:<24}  {}", mark, p.id, p.sweep, p.point.label())?;
        for m in crate::experiment::load::missing_inputs([&p.point]) {
            if !missing.contains(&m) {
                missing.push(m);
            }
        }
    }
    let already = already_stored(registry, experiment, &db, args.shard)?;
    let part = args.shard.map_or_else(String::new, |s| format!(", shard {s}"));
    writeln!(
        text,
        "experiment {} ({} points, {}{part}): {} points, {} already in {}, {} to run",
        experiment.name,
        thousands(experiment.points.len()),
        experiment.kind.name(),
        thousands(mine.len()),
        thousands(already),
        db.display(),
        thousands(mine.len() - already)
    )?;
    emit(&text)?;
    // A clean dry run promises the sweep finds its files.
    if !missing.is_empty() {
        anyhow::bail!("the sweep would fail: {}", missing.join("\n"));
    }
    Ok(std::process::ExitCode::SUCCESS)
}

/// What `program args` prints, for a site limit `limit` the user did not
/// give with `flag`: `None`, silently, where the program is not on the PATH;
/// `None` with a note on stderr where it fails or takes more than 10 s (a
/// controller out of reach).
fn ask(program: &str, args: &[&str], limit: &str, flag: &str) -> Option<String> {
    use std::process::{Command, Stdio};
    let mut child = match Command::new(program).args(args).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn() {
        Ok(child) => child,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return None,
        Err(e) => {
            eprintln!("note: cannot run {program} ({e}); no {limit} applied (give {flag})");
            return None;
        }
    };
    let until = std::time::Instant::now() + std::time::Duration::from_secs(10);
    loop {
        match child.try_wait() {
            Ok(Some(_)) => break,
            Ok(None) if std::time::Instant::now() < until => std::thread::sleep(std::time::Duration::from_millis(50)),
            Ok(None) | Err(_) => {
                let _ = child.kill();
                let _ = child.wait();
                eprintln!(
                    "note: {program} {} did not answer within 10 s; no {limit} applied (give {flag})",
                    args.join(" ")
                );
                return None;
            }
        }
    }
    let out = match child.wait_with_output() {
        Ok(out) => out,
        Err(e) => {
            eprintln!("note: {program} {}: {e}; no {limit} applied (give {flag})", args.join(" "));
            return None;
        }
    };
    if !out.status.success() {
        let why = String::from_utf8_lossy(&out.stderr);
        let why = why.lines().next().unwrap_or("no message");
        eprintln!("note: {program} {} failed ({why}); no {limit} applied (give {flag})", args.join(" "));
        return None;
    }
    Some(String::from_utf8_lossy(&out.stdout).into_owned())
}
