//! `slasim trace …`: workload and failure-stream inspection and export.
//!
//! Contract: inputs are read by the loaders and the preparation a run uses
//! (`trace prepare` shows the batteries `slasim run` with the same flags
//! simulates); results go to stdout or the `--out` file; an unreadable input
//! is an error naming it.

use slasim_core::units::{Unit, amount, hours_to, percent_to};
use std::fmt::Write as _;
use std::path::PathBuf;

use anyhow::{Context, bail};
use clap::{Args, Subcommand, ValueEnum};

use crate::cli::options::{FailureModelArg, PrepareOptions};
use crate::workload::failures::{FailureSource, LanlLog, empirical_mttf_mttr, existing_lanl_file, synthetic_stream};
use crate::workload::info::TraceInfo;
use crate::workload::prepare::NodeUnit;
use crate::workload::synthetic::SyntheticConfig;
use crate::workload::{WorkloadSource, load_trace};
use slasim_core::cli::emit;
use slasim_core::units::HOUR;
use slasim_core::units::thousands;
use slasim_data::trace::catalogue::{self, CATALOGUE};
use slasim_data::trace::fetch::{FetchOptions, Fetched, Local, fetch as catalogue_fetch, local};
use slasim_data::trace::sacct::{self, SacctOptions};
use slasim_data::trace::swf::{ReadOptions, SwfHeader, SwfRecord, SwfTrace};
use slasim_data::trace::{resolve_trace, trace_dir, trace_dirs};

#[derive(Debug, Subcommand)]
pub(crate) enum TraceCommand {
    /// Print a trace's statistics: jobs, machine, span, utilisation, estimates,
    /// over-runs, the real/estimated runtime histogram and the occurrence factor.
    Info(InfoArgs),
    /// Write the embedded synthetic workload as an SWF file.
    Generate(GenerateArgs),
    /// Run the preparation pipeline and print (or export) its result.
    Prepare(PrepareArgs),
    /// Build a node-failure stream and print its statistics.
    Failures(FailuresArgs),
    /// Write a prepared battery (with --whole-log, the whole log) in another
    /// simulator's format: `--format batsim` writes a Batsim JSON workload.
    Export(ExportArgs),
    /// Convert a Slurm accounting dump (`sacct --allusers --parsable2
    /// --format=…`) to SWF, with the name maps beside it in <OUT>.maps.csv.
    Convert(ConvertArgs),
    /// List the catalogued trace files: size, sha256, licence, citation,
    /// source, and whether each is in the traces directories (and verified).
    List(ListArgs),
    /// Download catalogued files into the traces directory, verified against
    /// their sha256 (resuming a broken download; never overwriting a file).
    Fetch(FetchArgs),
}

#[derive(Debug, Args)]
pub(crate) struct ListArgs {
    /// Print the catalogue as a Markdown table, without the local status.
    #[arg(long)]
    markdown: bool,
}

#[derive(Debug, Args)]
pub(crate) struct FetchArgs {
    /// Catalogue names (or catalogued file names), as `slasim trace list` shows.
    #[arg(required = true, value_name = "NAME")]
    names: Vec<String>,
    /// Download from this base URL, laid out as the traces directory
    /// (`<URL>/swf/…`), instead of the public sources [env: SLASIM_TRACE_MIRROR].
    #[arg(long, value_name = "URL")]
    mirror: Option<String>,
}

/// `--from` values.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub(crate) enum FromFormat {
    /// `sacct --parsable2` output with its header line.
    Sacct,
}

/// `--to` values.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub(crate) enum ToFormat {
    /// The Standard Workload Format.
    Swf,
}

#[derive(Debug, Args)]
pub(crate) struct ConvertArgs {
    /// Input format (default: detected from the header line).
    #[arg(long, value_enum)]
    from: Option<FromFormat>,
    /// The dump (plain or gzip), e.g. from `sacct --allusers --parsable2
    /// --format=JobIDRaw,JobID,JobName,User,Group,Partition,Submit,Start,End,Elapsed,Timelimit,AllocCPUS,ReqCPUS,AllocNodes,State -S 2024-01-01`.
    input: PathBuf,
    /// Output format.
    #[arg(long, value_enum, default_value_t = ToFormat::Swf)]
    to: ToFormat,
    /// The SWF file to write (gzip if it ends in .gz); the maps go to the same
    /// path without .swf/.gz plus .maps.csv.
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
    /// Skip malformed lines and report how many were skipped.
    #[arg(long)]
    lenient: bool,
    /// The machine's processors, for the SWF header's MaxProcs (default: the
    /// largest allocation in the dump, with a warning).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    capacity: Option<u64>,
    /// The machine's nodes, for MaxNodes (default: the largest allocation,
    /// when the dump has NNodes).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    max_nodes: Option<u64>,
}

/// `trace export --format` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum ExportFormat {
    /// A Batsim JSON workload: jobs with subtime, res, walltime and a delay profile.
    Batsim,
}

#[derive(Debug, Args)]
pub(crate) struct ExportArgs {
    /// An SWF trace (or a Batsim JSON workload); without it the embedded synthetic workload is used.
    #[arg(long)]
    trace: Option<PathBuf>,
    /// Skip malformed lines.
    #[arg(long)]
    lenient: bool,
    /// Seed of the synthetic workload.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Output format.
    #[arg(long, value_enum, default_value_t = ExportFormat::Batsim)]
    format: ExportFormat,
    /// The battery to write.
    #[arg(long, default_value_t = 0)]
    battery: usize,
    /// Prepare as the classic queueing modes (fcfs, easy, batsim) do: the
    /// whole log, no deadlines, every job kept.
    #[arg(long)]
    classic: bool,
    /// Output file.
    #[arg(short, long)]
    out: PathBuf,
    #[command(flatten)]
    prepare: PrepareOptions,
}

#[derive(Debug, Args)]
pub(crate) struct InfoArgs {
    /// The SWF file (plain or .gz), a Slurm accounting dump (detected by its
    /// sacct header line), or a name under the traces directory.
    file: PathBuf,
    /// Skip malformed lines and report how many were skipped.
    #[arg(long)]
    lenient: bool,
    #[command(flatten)]
    prepare: PrepareOptions,
}

#[derive(Debug, Args)]
pub(crate) struct GenerateArgs {
    /// The SWF file to write; gzip-compressed if it ends in .gz.
    #[arg(long)]
    out: PathBuf,
    /// Random seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Number of jobs.
    #[arg(long, default_value_t = SyntheticConfig::default().jobs)]
    count: usize,
    /// Machine size in processors.
    #[arg(long, default_value_t = SyntheticConfig::default().processors)]
    capacity: u32,
}

#[derive(Debug, Args)]
pub(crate) struct PrepareArgs {
    /// An SWF trace; without it the embedded synthetic workload is used.
    #[arg(long)]
    trace: Option<PathBuf>,
    /// Skip malformed lines.
    #[arg(long)]
    lenient: bool,
    /// Seed of the synthetic workload.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Write history.swf.gz and battery-NNN.swf into this directory.
    #[arg(long)]
    out: Option<PathBuf>,
    #[command(flatten)]
    prepare: PrepareOptions,
}

#[derive(Debug, Args)]
pub(crate) struct FailuresArgs {
    /// Failure model; synthetic models default to the LANL mean rates.
    #[arg(long, value_enum, default_value_t = FailureModelArg::Lanl)]
    failures: FailureModelArg,
    /// LANL CSV file (default: failures/… under the traces directory).
    #[arg(long)]
    file: Option<PathBuf>,
    /// LANL systems the nodes map onto, in order.
    #[arg(long, value_delimiter = ',', default_value = "18,19")]
    systems: Vec<u16>,
    /// Number of simulated nodes.
    #[arg(long, default_value_t = 1024)]
    nodes: u32,
    /// Horizon in hours (default: about 4 years, the LANL span).
    #[arg(long, default_value_t = 35_000.0)]
    hours: f64,
    /// Seed of synthetic streams.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

pub(crate) fn run(command: TraceCommand) -> anyhow::Result<()> {
    match command {
        TraceCommand::Info(args) => info(args),
        TraceCommand::Generate(args) => generate(args),
        TraceCommand::Prepare(args) => prepare(args),
        TraceCommand::Failures(args) => failures(args),
        TraceCommand::Export(args) => export_trace(args),
        TraceCommand::Convert(args) => convert(args),
        TraceCommand::List(args) => list(&args),
        TraceCommand::Fetch(args) => fetch(args),
    }
}

/// `trace list`: the catalogue, each entry with where it is locally.
fn list(args: &ListArgs) -> anyhow::Result<()> {
    let mut text = String::new();
    if args.markdown {
        writeln!(text, "| name | file under the traces directory | bytes | sha256 | licence |")?;
        writeln!(text, "|---|---|---|---|---|")?;
        for entry in CATALOGUE.iter() {
            let (size, sha256) = entry.shipped.map_or_else(
                || ("-".to_string(), "not shipped".to_string()),
                |d| (bytes(d.size), format!("`{}`", d.sha256)),
            );
            writeln!(text, "| `{}` | `{}` | {size} | {sha256} | {} |", entry.name, entry.path, entry.licence)?;
        }
        return emit(&text);
    }
    writeln!(text, "traces directories (in lookup order; fetch writes to the first):")?;
    for dir in trace_dirs() {
        writeln!(text, "  {}", dir.display())?;
    }
    for entry in CATALOGUE.iter() {
        writeln!(text)?;
        writeln!(text, "{}", entry.name)?;
        for (path, digest) in entry.forms() {
            match digest {
                Some(d) => writeln!(text, "  file     {path}  {} bytes  sha256 {}", bytes(d.size), d.sha256)?,
                None => writeln!(text, "  file     {path}  (not shipped; no sum known)")?,
            }
        }
        writeln!(text, "  licence  {}", entry.licence)?;
        writeln!(text, "  cite     {}", entry.cite)?;
        writeln!(text, "  source   {}", entry.url)?;
        let status = match local(entry)? {
            Local::Missing => format!("missing (slasim trace fetch {})", entry.name),
            Local::Verified(path) => format!("present, verified: {}", path.display()),
            Local::Unverified(path) => format!("present, not verified (no sum known): {}", path.display()),
            Local::Differs(path) => format!("present but DIFFERS from the catalogue: {}", path.display()),
        };
        writeln!(text, "  local    {status}")?;
    }
    emit(&text)
}

/// A byte count with thousands separators.
fn bytes(size: u64) -> String {
    usize::try_from(size).map_or_else(|_| size.to_string(), thousands)
}

/// `trace fetch`: each name downloaded and verified, or why not; fails when
/// any was not.
fn fetch(args: FetchArgs) -> anyhow::Result<()> {
    let mut options = FetchOptions::new(trace_dir());
    if args.mirror.is_some() {
        options.mirror = args.mirror;
    }
    let mut failed = 0;
    for name in &args.names {
        let Some(entry) = catalogue::find(name) else {
            eprintln!("error: {name}: not in the catalogue (`slasim trace list` shows the names)");
            failed += 1;
            continue;
        };
        options.dir = entry.dataset.dirs().swap_remove(0);
        match catalogue_fetch(entry, &options) {
            Ok(Fetched::Present(path)) => {
                emit(&format!("{}: already present and verified: {}\n", entry.name, path.display()))?;
            }
            Ok(Fetched::Downloaded { path, resumed_from, .. }) => {
                let resumed =
                    if resumed_from > 0 { format!(" (resumed from byte {resumed_from})") } else { String::new() };
                emit(&format!("{}: downloaded and verified{resumed}: {}\n", entry.name, path.display()))?;
            }
            Err(e) => {
                eprintln!("error: {e}");
                failed += 1;
            }
        }
    }
    if failed > 0 {
        bail!("{failed} of {} files not fetched", args.names.len());
    }
    Ok(())
}

/// Writes a prepared battery as a Batsim workload.
fn export_trace(args: ExportArgs) -> anyhow::Result<()> {
    let ExportFormat::Batsim = args.format;
    let source = match &args.trace {
        Some(path) => WorkloadSource::Swf { path: path.clone(), lenient: args.lenient },
        None => WorkloadSource::Synthetic(SyntheticConfig { seed: args.seed, ..SyntheticConfig::default() }),
    };
    let trace = source.load()?;
    let mut config = args.prepare.config();
    if args.classic {
        config = config.for_classic_modes();
    }
    let prepared = config.prepare(&trace)?;
    let battery = prepared.batteries.get(args.battery).with_context(|| {
        format!("battery {} does not exist: the workload has {} batteries", args.battery, prepared.batteries.len())
    })?;
    let description =
        format!("{} battery {} prepared by slasim {}", prepared.trace, battery.index, env!("CARGO_PKG_VERSION"));
    let json = crate::workload::batsim::to_json(&battery.jobs, prepared.capacity, &description);
    let text = serde_json::to_string(&json)?;
    std::fs::write(&args.out, text).with_context(|| format!("{}: cannot write", args.out.display()))?;
    emit(&format!(
        "wrote {} jobs on {} machines ({}) to {}\n",
        thousands(battery.jobs.len()),
        prepared.capacity,
        prepared.trace,
        args.out.display()
    ))
}

fn info(args: InfoArgs) -> anyhow::Result<()> {
    let path = resolve_trace(&args.file).map_err(anyhow::Error::msg)?;
    let options = ReadOptions { lenient: args.lenient, ..ReadOptions::default() };
    let config = args.prepare.config();
    // A dump has no header of its own: --capacity is its machine's size, in
    // the node unit's terms.
    let trace = match config.capacity.map(u64::from) {
        Some(size) if sacct::is_sacct_file(&path) => match config.node_unit {
            NodeUnit::Processors => sacct::load_sized(&path, options, Some(size), None)?,
            NodeUnit::Nodes => sacct::load_sized(&path, options, None, Some(size))?,
        },
        _ => load_trace(&path, options)?,
    };
    config.validate_split()?;
    emit(&TraceInfo::of(&trace, &config).to_string())
}

fn generate(args: GenerateArgs) -> anyhow::Result<()> {
    let config =
        SyntheticConfig { seed: args.seed, jobs: args.count, processors: args.capacity, ..SyntheticConfig::default() };
    let trace = config.generate()?;
    trace.save(&args.out)?;
    emit(&format!("wrote {} jobs of {} to {}\n", thousands(trace.records.len()), trace.name, args.out.display()))
}

/// A workload as an embedding program reads it.
pub enum Workload {
    /// The whole log as read (`prepared` false).
    Read(SwfTrace),
    /// Prepared for a run: history and batteries, as `slasim run` simulates them.
    Prepared(crate::workload::prepare::Prepared),
}

/// The workload `trace prepare`'s options name.
fn source(args: &PrepareArgs) -> WorkloadSource {
    match &args.trace {
        Some(path) => WorkloadSource::Swf { path: path.clone(), lenient: args.lenient },
        None => WorkloadSource::Synthetic(SyntheticConfig { seed: args.seed, ..SyntheticConfig::default() }),
    }
}

/// `trace prepare` for an embedding program: the prepared workload, or
/// (`prepared` false) the log as read; `--out` writes the export as here.
pub(crate) fn workload_embedded(args: PrepareArgs, prepared: bool) -> anyhow::Result<Workload> {
    let trace = source(&args).load()?;
    if !prepared {
        return Ok(Workload::Read(trace));
    }
    let result = args.prepare.config().prepare(&trace)?;
    if let Some(dir) = &args.out {
        export(&result, &trace.header, dir)?;
    }
    Ok(Workload::Prepared(result))
}

fn prepare(args: PrepareArgs) -> anyhow::Result<()> {
    let trace = source(&args).load()?;
    let config = args.prepare.config();
    let prepared = config.prepare(&trace)?;
    let mut text = String::new();
    writeln!(text, "trace         {}", prepared.trace)?;
    writeln!(text, "filtering     {}", prepared.filter)?;
    writeln!(text, "capacity      {}", prepared.capacity)?;
    writeln!(text, "history       {} jobs (PDF training)", thousands(prepared.history.len()))?;
    writeln!(
        text,
        "batteries     {} × {} jobs",
        prepared.batteries.len(),
        prepared.batteries.first().map_or(0, |b| b.jobs.len())
    )?;
    writeln!(
        text,
        "scaling       input load {} × 1/{:.4} → {} (occurrence factor {:.4})",
        percent_to(prepared.input_load, 2),
        prepared.occurrence_factor,
        percent_to(prepared.input_load / prepared.occurrence_factor, 0),
        prepared.occurrence_factor
    )?;
    if let Some(dir) = &args.out {
        export(&prepared, &trace.header, dir)?;
        writeln!(text, "exported      {}", dir.display())?;
    }
    emit(&text)
}

/// Writes the prepared history and batteries as SWF (job times as prepared).
fn export(
    prepared: &crate::workload::prepare::Prepared,
    header: &SwfHeader,
    dir: &std::path::Path,
) -> anyhow::Result<()> {
    if dir.exists() && !dir.is_dir() {
        bail!("{}: exists and is not a directory", dir.display());
    }
    std::fs::create_dir_all(dir).with_context(|| format!("{}: cannot create directory", dir.display()))?;
    let to_record = |j: &crate::workload::job::Job| SwfRecord {
        job: j.swf_id,
        submit: j.occurrence,
        runtime: j.runtime,
        allocated_procs: i64::from(j.nodes),
        requested_procs: i64::from(j.nodes),
        requested_time: j.estimate,
        status: 1,
        user: j.user,
        executable: j.application,
        queue: j.queue,
        ..SwfRecord::UNKNOWN
    };
    let mut out_header = header.clone();
    out_header.push_line(format!(
        " Note: prepared by slasim: occurrence factor {}, capacity {}",
        prepared.occurrence_factor, prepared.capacity
    ));
    let history = SwfTrace {
        name: "history".into(),
        header: out_header.clone(),
        records: prepared.history.iter().map(to_record).collect(),
        ..SwfTrace::default()
    };
    history.save(dir.join("history.swf.gz"))?;
    for battery in &prepared.batteries {
        let trace = SwfTrace {
            name: format!("battery {}", battery.index),
            header: out_header.clone(),
            records: battery.jobs.iter().map(to_record).collect(),
            ..SwfTrace::default()
        };
        trace.save(dir.join(format!("battery-{:03}.swf", battery.index)))?;
    }
    Ok(())
}

fn failures(args: FailuresArgs) -> anyhow::Result<()> {
    let horizon = (args.hours * HOUR as f64) as i64;
    let source = FailureSource::default_for(args.failures.name()).context("unknown failure model")?;
    let mut text = String::new();
    let stream = match &source {
        FailureSource::None => crate::workload::failures::FailureStream::none(args.nodes),
        FailureSource::Lanl { .. } => {
            let log = LanlLog::load(existing_lanl_file(args.file.as_deref())?)?;
            for &system in &args.systems {
                writeln!(text, "LANL system {system}: {} records", thousands(log.system_records(system).count()))?;
            }
            log.replay(&args.systems, 0.0, args.nodes, Some(horizon))?
        }
        synthetic => {
            let (up, repair) = synthetic.laws()?.context("synthetic model without laws")?;
            writeln!(text, "model MTTF {}, MTTR {}", hours_to(up.mean(), 1), hours_to(repair.mean(), 3))?;
            synthetic_stream(&up, &repair, args.nodes, horizon, args.seed)
        }
    };
    let (mttf, mttr) = empirical_mttf_mttr(&stream, horizon);
    writeln!(text, "nodes         {}", args.nodes)?;
    writeln!(text, "horizon       {}", amount(args.hours, Unit::Hours))?;
    if stream.source_records > 0 {
        writeln!(text, "records       {} replayed", thousands(stream.source_records))?;
    }
    writeln!(text, "failures      {}", thousands(stream.failures()))?;
    writeln!(
        text,
        "empirical     MTTF {} (λ = {:.4e}/h), MTTR {} (μ = {:.4}/h)",
        hours_to(mttf, 1),
        HOUR as f64 / mttf,
        hours_to(mttr, 3),
        HOUR as f64 / mttr
    )?;
    emit(&text)
}

fn convert(args: ConvertArgs) -> anyhow::Result<()> {
    let ToFormat::Swf = args.to;
    let input = &args.input;
    if args.from.is_none() && !sacct::is_sacct_file(input) {
        // Let the open errors speak first (missing file, directory, empty file).
        let meta = std::fs::metadata(input).with_context(|| format!("{}: cannot open", input.display()))?;
        if meta.is_dir() {
            bail!("{}: is a directory, not a sacct dump", input.display());
        }
        if meta.len() > 0 {
            bail!(
                "{}: not a sacct dump: its first line is no `|`-separated header naming JobID or JobIDRaw \
                 (--from sacct reads it anyway and says what is wrong)",
                input.display()
            );
        }
    }
    if same_file(input, &args.out) {
        bail!("{}: the output would overwrite the input", args.out.display());
    }
    let options = SacctOptions { lenient: args.lenient, max_procs: args.capacity, max_nodes: args.max_nodes };
    let conversion = sacct::convert_file(input, &options)?;
    let maps = conversion.write(&args.out)?;
    let report = &conversion.report;
    for warning in report.warnings("--capacity sets it", "--max-nodes sets it") {
        eprintln!("warning: {warning}");
    }
    let m = &conversion.maps;
    let mut text = String::new();
    writeln!(text, "read       {}: {report}", input.display())?;
    if conversion.trace.skipped.total() > 0 {
        writeln!(text, "malformed  {}", conversion.trace.skipped)?;
    }
    writeln!(
        text,
        "wrote      {}: {} jobs, MaxProcs {}{}",
        args.out.display(),
        thousands(conversion.trace.records.len()),
        conversion.trace.header.max_procs().map_or_else(|| "-".to_string(), |p| p.to_string()),
        conversion.trace.header.max_nodes().map_or_else(String::new, |n| format!(", MaxNodes {n}")),
    )?;
    writeln!(
        text,
        "maps       {}: {} users, {} groups, {} partitions, {} job names, {} jobs",
        maps.display(),
        m.users.len(),
        m.groups.len(),
        m.partitions.len(),
        m.job_names.len(),
        m.jobs.len()
    )?;
    emit(&text)
}

/// Whether two paths name one existing file.
fn same_file(a: &std::path::Path, b: &std::path::Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}
