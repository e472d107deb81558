//! GPU-era job traces (Alibaba GPU v2023 and v2025, the v2026 spot-GPU node
//! list, GAIA's job slices), read as SWF records so every SWF path (trace
//! info, prepare, run, the job-picking environment) takes them unchanged.
//!
//! Sources (see the traces directory's `gpu/SOURCES.md` for sha256 values):
//! - Alibaba v2023 "openb" pods and node lists: `alibaba/clusterdata` at
//!   commit `7a6c496e4f4b6ce6150be8f881cb051bf2abff42`,
//!   `cluster-trace-gpu-v2023/`; Weng et al., "Beware of Fragmentation",
//!   USENIX ATC 2023.
//! - Alibaba v2025 DLRM instances: same commit, `cluster-trace-gpu-v2025/`;
//!   Yang et al., "GPU-Disaggregated Serving for Deep Learning
//!   Recommendation Models at Scale", USENIX NSDI 2025.
//! - Alibaba v2026 spot-GPU node list: same commit,
//!   `cluster-trace-v2026-spot-gpu/node_info_df.csv`; Duan et al., "GFS",
//!   ASPLOS 2026.
//! - GAIA slices: `umassos/GAIA` at commit
//!   `62a5efccb20fa04d6e507e12350eb4468eab9888`, `src/cluster_traces/`;
//!   Hanafy et al., "Going Green for Less Green", ASPLOS 2024 (MIT).
//!
//! Contract:
//! - The format is detected from the header line ([`detect`]); files are
//!   plain or gzip (magic bytes), streamed row by row.
//! - One kept row is one SWF record: submit, wait, run time, requested and
//!   allocated processors = **GPUs** (Alibaba) or CPUs (GAIA, which has no
//!   GPU column), requested time = run time (the traces hold no limit: the
//!   estimate is exact), requested memory per processor in KB, status 1.
//!   The job number is the 1-based data row.
//! - v2023 pods: a shared GPU (`gpu_milli` < 1000) counts as one whole GPU;
//!   `qos` becomes the SWF queue ([`QOS_QUEUES`]), each named by the
//!   header's `Queue:` lines as the SWF standard names queues. Dropped: pods never
//!   scheduled (empty `scheduled_time`) and CPU-only pods (`num_gpu` 0).
//!   The resource-only `multigpuNN` files (no times) are refused.
//!   `MaxProcs` is the GPUs of `openb_node_list_gpu_node.csv[.gz]` beside
//!   the file if present, else the documented cluster's 6,212.
//! - v2025 instances: all latency-sensitive (queue 1). Dropped: CPU-only
//!   instances (`gpu_request` 0) and instances created before the trace
//!   started (empty `creation_time`). An instance never deleted is censored
//!   at the trace's end (the largest time in the file).
//! - GAIA: times are hours in files whose name contains `100k`, seconds
//!   otherwise (`pai_1k`); rounded to whole seconds. Nothing is dropped.
//! - [`read_pods`] reads v2023 pods as they ask, for the machine model:
//!   CPU-only pods kept, exact `cpu_milli`, `gpu_milli` (a share of one card)
//!   and `gpu_spec` (the models allowed). Other formats read as above.
//! - Node lists (v2023, v2026) describe machines, not jobs: [`load`] refuses
//!   them, [`read_nodes`] reads them.
//! - Errors ([`GpuTraceError`]) name the file, the 1-based line and the
//!   column; nothing panics.

use std::fs::File;
use std::io::{self, BufRead, BufReader, Read};
use std::path::{Path, PathBuf};

use flate2::read::MultiGzDecoder;

use super::swf::{SkippedLines, SwfHeader, SwfRecord, SwfTrace};

/// The v2023 `qos` classes, in SWF queue order 1..=4.
pub const QOS_QUEUES: [&str; 4] = ["LS", "BE", "Burstable", "Guaranteed"];

/// GPUs of the v2023 openb cluster when no node list is beside the pods.
pub const OPENB_GPUS: u64 = 6212;

/// A GPU-era file's format, from its header line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GpuFormat {
    /// Alibaba v2023 pods with times.
    Pods2023,
    /// Alibaba v2023 `multigpuNN` pods: resources only, no times.
    PodsNoTimes2023,
    /// Alibaba v2023 node list.
    Nodes2023,
    /// Alibaba v2025 DLRM instances.
    Instances2025,
    /// Alibaba v2026 spot-GPU node list.
    Nodes2026,
    /// GAIA slice (`arrival_time,length,cpus`).
    Gaia,
}

/// Errors reading a GPU-era file. Every variant names the file.
#[derive(Debug, thiserror::Error)]
pub enum GpuTraceError {
    /// Cannot open or read.
    #[error("{path}: {cause}", path = .path.display())]
    Io { path: PathBuf, cause: io::Error },
    /// Not a known GPU-era header.
    #[error("{path}: not a known GPU trace header: \"{header}\"", path = .path.display())]
    UnknownHeader { path: PathBuf, header: String },
    /// A file that cannot be run as jobs.
    #[error("{path}: {why}", path = .path.display())]
    NotJobs { path: PathBuf, why: String },
    /// A malformed row.
    #[error("{path}:{line}: column {column}: {detail}: \"{text}\"", path = .path.display())]
    Malformed { path: PathBuf, line: u64, column: String, detail: String, text: String },
    /// Rows read, none kept.
    #[error("{path}: no job records ({why})", path = .path.display())]
    NoRecords { path: PathBuf, why: String },
}

fn open(path: &Path) -> Result<Box<dyn BufRead + Send>, GpuTraceError> {
    let io_err = |cause| GpuTraceError::Io { path: path.to_path_buf(), cause };
    let mut file = File::open(path).map_err(io_err)?;
    let mut magic = [0u8; 2];
    let n = file.read(&mut magic).map_err(io_err)?;
    let file = File::open(path).map_err(io_err)?;
    Ok(if n == 2 && magic == [0x1f, 0x8b] {
        Box::new(BufReader::new(MultiGzDecoder::new(file)))
    } else {
        Box::new(BufReader::new(file))
    })
}

fn format_of(header: &str) -> Option<GpuFormat> {
    let h = header.trim().trim_start_matches('\u{feff}');
    if h.starts_with("name,cpu_milli,memory_mib,num_gpu,gpu_milli") {
        return Some(if h.contains("scheduled_time") { GpuFormat::Pods2023 } else { GpuFormat::PodsNoTimes2023 });
    }
    match h {
        "sn,cpu_milli,memory_mib,gpu,model" => Some(GpuFormat::Nodes2023),
        "gpu_model,gpu_capacity_num,cpu_num,node_name" => Some(GpuFormat::Nodes2026),
        "arrival_time,length,cpus" => Some(GpuFormat::Gaia),
        _ if h.starts_with("instance_sn,role,app_name,") && h.contains("gpu_request") => Some(GpuFormat::Instances2025),
        _ => None,
    }
}

/// The file's GPU-era format, or `None` if its first line is not one (or it
/// cannot be read).
pub fn detect(path: &Path) -> Option<GpuFormat> {
    let mut input = open(path).ok()?;
    let mut line = String::new();
    input.read_line(&mut line).ok()?;
    format_of(&line)
}

/// A CSV row reader with located field parsing.
struct Rows {
    path: PathBuf,
    input: Box<dyn BufRead + Send>,
    columns: Vec<String>,
    line: u64,
    text: String,
    /// Byte ranges of the current row's fields in `text`, reused.
    spans: Vec<(usize, usize)>,
}

impl Rows {
    fn open(path: &Path) -> Result<(Rows, GpuFormat), GpuTraceError> {
        let mut input = open(path)?;
        let mut header = String::new();
        input.read_line(&mut header).map_err(|cause| GpuTraceError::Io { path: path.to_path_buf(), cause })?;
        let format = format_of(&header).ok_or_else(|| GpuTraceError::UnknownHeader {
            path: path.to_path_buf(),
            header: header.trim().chars().take(120).collect(),
        })?;
        let columns = header.trim().trim_start_matches('\u{feff}').split(',').map(str::to_string).collect();
        Ok((Rows { path: path.to_path_buf(), input, columns, line: 1, text: String::new(), spans: Vec::new() }, format))
    }

    /// Reads the next non-empty row; `false` at the end.
    fn next_row(&mut self) -> Result<bool, GpuTraceError> {
        loop {
            self.text.clear();
            let n = self
                .input
                .read_line(&mut self.text)
                .map_err(|cause| GpuTraceError::Io { path: self.path.clone(), cause })?;
            if n == 0 {
                return Ok(false);
            }
            self.line += 1;
            if self.text.trim().is_empty() {
                continue;
            }
            let row = self.text.trim_end_matches(['\n', '\r']);
            self.spans.clear();
            let mut from = 0;
            for field in row.split(',') {
                self.spans.push((from, from + field.len()));
                from += field.len() + 1;
            }
            if self.spans.len() != self.columns.len() {
                return Err(GpuTraceError::Malformed {
                    path: self.path.clone(),
                    line: self.line,
                    column: "(row)".into(),
                    detail: format!("{} fields, the header has {}", self.spans.len(), self.columns.len()),
                    text: self.text.trim().chars().take(160).collect(),
                });
            }
            return Ok(true);
        }
    }

    fn field(&self, column: usize) -> &str {
        let (from, to) = self.spans[column];
        &self.text[from..to]
    }

    fn index(&self, name: &str) -> Result<usize, GpuTraceError> {
        self.columns
            .iter()
            .position(|c| c == name)
            .ok_or_else(|| GpuTraceError::NotJobs { path: self.path.clone(), why: format!("no column {name}") })
    }

    fn malformed(&self, column: usize, detail: impl Into<String>) -> GpuTraceError {
        GpuTraceError::Malformed {
            path: self.path.clone(),
            line: self.line,
            column: self.columns[column].clone(),
            detail: detail.into(),
            text: self.text.trim().chars().take(160).collect(),
        }
    }
}

/// A non-negative finite number, or `None` for an empty field.
fn number(rows: &Rows, column: usize) -> Result<Option<f64>, GpuTraceError> {
    let text = rows.field(column).trim();
    if text.is_empty() {
        return Ok(None);
    }
    match text.parse::<f64>() {
        Ok(v) if v.is_finite() && v >= 0.0 => Ok(Some(v)),
        Ok(_) => Err(rows.malformed(column, format!("negative or infinite value {text}"))),
        Err(_) => Err(rows.malformed(column, format!("not a number: {text}"))),
    }
}

fn required(rows: &Rows, column: usize) -> Result<f64, GpuTraceError> {
    number(rows, column)?.ok_or_else(|| rows.malformed(column, "empty"))
}

/// Rows dropped by the documented rules, per reason.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Drops {
    /// Rows read (data lines).
    pub rows: u64,
    /// `(reason, count)` in rule order.
    pub reasons: Vec<(&'static str, u64)>,
}

impl Drops {
    fn add(&mut self, reason: &'static str) {
        match self.reasons.iter_mut().find(|(r, _)| *r == reason) {
            Some((_, n)) => *n += 1,
            None => self.reasons.push((reason, 1)),
        }
    }

    /// Total rows dropped.
    pub fn total(&self) -> u64 {
        self.reasons.iter().map(|(_, n)| n).sum()
    }
}

/// Whether the file is a GPU-era job or node file this module reads.
pub fn is_gpu_trace(path: &Path) -> bool {
    detect(path).is_some()
}

/// One kept job row, in slasim's units: whole seconds on the trace's own
/// time axis, whole CPUs and GPUs, memory in MiB.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GpuJob {
    /// The 1-based data row (the SWF job number).
    pub row: u64,
    /// The file's 1-based line.
    pub line: u64,
    /// Creation (arrival).
    pub submit: i64,
    /// Scheduling (start) as logged.
    pub start: i64,
    /// Deletion (end) as logged, or the censoring time.
    pub end: i64,
    /// CPUs asked for: v2023 `cpu_milli` / 1000 rounded up, v2025
    /// `cpu_request`, GAIA `cpus`.
    pub cpus: u32,
    /// GPUs asked for (0 in GAIA); a shared v2023 GPU counts as one.
    pub gpus: u32,
    /// Thousandths of a CPU asked for: v2023 `cpu_milli` as logged, else
    /// `cpus` × 1000.
    pub cpu_milli: u32,
    /// Thousandths of each GPU asked for: v2023 `gpu_milli` (below 1000 for
    /// a share of one card), else 1000.
    pub gpu_milli: u32,
    /// The GPU models allowed (v2023 `gpu_spec`, names separated by `|`), an
    /// index into [`GpuJobs::specs`]; `None` for any model.
    pub spec: Option<u16>,
    /// Memory asked for, MiB; `None` where the trace has none (GAIA).
    pub memory_mib: Option<f64>,
    /// The QoS class as an SWF queue (1-based index into [`QOS_QUEUES`]),
    /// or `None` where the trace has no class (GAIA).
    pub queue: Option<u8>,
}

impl GpuJob {
    /// The QoS class name, if the trace has one.
    pub fn qos(&self) -> Option<&'static str> {
        self.queue.map(|q| QOS_QUEUES[usize::from(q) - 1])
    }
}

/// The kept jobs of a GPU-era file and what was dropped.
#[derive(Debug, Clone)]
pub struct GpuJobs {
    /// The file's format.
    pub format: GpuFormat,
    /// Kept rows, in file order.
    pub jobs: Vec<GpuJob>,
    /// What was dropped, per rule.
    pub drops: Drops,
    /// GPUs of the machine the trace documents, where it documents one.
    pub max_gpus: Option<u64>,
    /// The distinct `gpu_spec` texts, in order of first use.
    pub specs: Vec<String>,
}

impl GpuJobs {
    /// Whether the trace counts GPUs (Alibaba) or CPUs (GAIA).
    pub fn counts_gpus(&self) -> bool {
        self.format != GpuFormat::Gaia
    }
}

/// Reads a GPU-era job file as an SWF trace (module contract). The header
/// notes say what was counted and dropped.
pub fn load(path: &Path) -> Result<SwfTrace, GpuTraceError> {
    load_with_drops(path).map(|(trace, _)| trace)
}

/// [`load`], also returning the drop counts.
pub fn load_with_drops(path: &Path) -> Result<(SwfTrace, Drops), GpuTraceError> {
    let read = read_jobs(path)?;
    let mut header = SwfHeader::default();
    match read.format {
        GpuFormat::Pods2023 => {
            header.push_line(format!(" MaxProcs: {}", read.max_gpus.unwrap_or(OPENB_GPUS)));
            header.push_line(" Note: Alibaba GPU v2023 pods; processors are GPUs (a shared GPU counts as 1)".into());
            header.push_line(" Note: the queues are the pods' QoS classes (qos)".into());
            header.push_line(format!(" MaxQueues: {}", QOS_QUEUES.len()));
            for (i, class) in QOS_QUEUES.iter().enumerate() {
                header.push_line(format!(" Queue: {} {class}", i + 1));
            }
        }
        GpuFormat::Instances2025 => {
            header.push_line(
                " Note: Alibaba GPU v2025 DLRM instances; processors are GPUs; all latency-sensitive".into(),
            );
            header.push_line(" MaxQueues: 1".into());
            header.push_line(format!(" Queue: 1 {}", QOS_QUEUES[0]));
        }
        _ => {
            let hours = path.file_name().is_some_and(|n| n.to_string_lossy().contains("100k"));
            header.push_line(format!(
                " Note: GAIA slice; processors are CPUs (no GPU column); times read in {}",
                if hours { "hours" } else { "seconds" }
            ));
        }
    }
    for (reason, n) in &read.drops.reasons {
        header.push_line(format!(" Note: dropped {n} rows: {reason}"));
    }
    let counts_gpus = read.counts_gpus();
    let records = read
        .jobs
        .iter()
        .map(|j| {
            let procs = i64::from(if counts_gpus { j.gpus } else { j.cpus });
            let memory_kb = j.memory_mib.map_or(-1.0, |m| m * 1024.0);
            record(j, procs, memory_kb)
        })
        .collect();
    let dropped = read.drops.reasons.iter().map(|&(reason, n)| (reason.to_string(), n)).collect();
    let trace =
        SwfTrace { name: path.display().to_string(), header, records, skipped: SkippedLines::default(), dropped };
    Ok((trace, read.drops))
}

/// Reads the kept job rows of a GPU-era job file (module contract).
pub fn read_jobs(path: &Path) -> Result<GpuJobs, GpuTraceError> {
    read(path, Pods::Flattened)
}

/// Reads a GPU-era job file without flattening: as [`read_jobs`], but v2023
/// pods keep their CPU-only rows (`num_gpu` 0), and each row its exact
/// `cpu_milli`, `gpu_milli` and `gpu_spec`. A `gpu_milli` above 1000, or a
/// share (below 1000) of more than one GPU, is a located error.
pub fn read_pods(path: &Path) -> Result<GpuJobs, GpuTraceError> {
    read(path, Pods::AsAsked)
}

/// How v2023 pods are read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Pods {
    /// GPUs only, a share as one GPU (the SWF view).
    Flattened,
    /// Every scheduled pod as it asks.
    AsAsked,
}

fn read(path: &Path, pods: Pods) -> Result<GpuJobs, GpuTraceError> {
    let (mut rows, format) = Rows::open(path)?;
    let mut specs: Vec<String> = Vec::new();
    let mut drops = Drops::default();
    let mut jobs = Vec::new();
    let mut max_gpus = None;
    let whole_up = |v: f64| v.ceil() as u32;
    match format {
        GpuFormat::PodsNoTimes2023 => {
            return Err(GpuTraceError::NotJobs {
                path: path.to_path_buf(),
                why: "an Alibaba v2023 multigpu file has resource columns only (no creation, scheduled or deletion \
                      time): it cannot be run"
                    .into(),
            });
        }
        GpuFormat::Nodes2023 | GpuFormat::Nodes2026 => {
            return Err(GpuTraceError::NotJobs {
                path: path.to_path_buf(),
                why: "a node list describes machines, not jobs (use `slasim trace info` on a pod file)".into(),
            });
        }
        GpuFormat::Pods2023 => {
            let [cpu, mem, gpus, qos, created, deleted, scheduled, milli, spec] = [
                "cpu_milli",
                "memory_mib",
                "num_gpu",
                "qos",
                "creation_time",
                "deletion_time",
                "scheduled_time",
                "gpu_milli",
                "gpu_spec",
            ]
            .map(|c| rows.index(c));
            let (cpu, mem, gpus, qos, created, deleted, scheduled, milli, spec) =
                (cpu?, mem?, gpus?, qos?, created?, deleted?, scheduled?, milli?, spec?);
            while rows.next_row()? {
                drops.rows += 1;
                let cpu_milli = required(&rows, cpu)?;
                let memory = required(&rows, mem)?;
                let num_gpu = required(&rows, gpus)?;
                let queue = QOS_QUEUES
                    .iter()
                    .position(|q| *q == rows.field(qos).trim())
                    .ok_or_else(|| rows.malformed(qos, format!("unknown QoS class {:?}", rows.field(qos))))?;
                let submit = required(&rows, created)?;
                let end = required(&rows, deleted)?;
                let start = number(&rows, scheduled)?;
                if num_gpu.fract() != 0.0 {
                    return Err(rows.malformed(gpus, "not a whole number"));
                }
                let Some(start) = start else {
                    drops.add("never scheduled (empty scheduled_time)");
                    continue;
                };
                // Flattened, a shared GPU (num_gpu 1, gpu_milli < 1000) occupies one whole GPU.
                if num_gpu == 0.0 && pods == Pods::Flattened {
                    drops.add("CPU-only pod (num_gpu 0)");
                    continue;
                }
                if start < submit || end < start {
                    return Err(rows.malformed(scheduled, "times out of order (creation ≤ scheduled ≤ deletion)"));
                }
                let mut j = job(
                    &rows,
                    [submit, start, end],
                    whole_up(cpu_milli / 1000.0),
                    num_gpu as u32,
                    Some(memory),
                    Some(queue as u8 + 1),
                );
                if pods == Pods::AsAsked {
                    if cpu_milli.fract() != 0.0 || cpu_milli > f64::from(u32::MAX) {
                        return Err(rows.malformed(cpu, "not a whole number of thousandths"));
                    }
                    j.cpu_milli = cpu_milli as u32;
                    let share = if num_gpu == 0.0 { 1000.0 } else { required(&rows, milli)? };
                    if share.fract() != 0.0 || share == 0.0 || share > 1000.0 {
                        return Err(rows.malformed(milli, "not a share of one GPU (1 to 1000 thousandths)"));
                    }
                    if share < 1000.0 && num_gpu > 1.0 {
                        return Err(rows.malformed(milli, "a share below a whole GPU of more than one GPU"));
                    }
                    j.gpu_milli = share as u32;
                    let text = rows.field(spec).trim();
                    if !text.is_empty() && num_gpu > 0.0 {
                        let at = specs.iter().position(|s| s == text).unwrap_or_else(|| {
                            specs.push(text.to_string());
                            specs.len() - 1
                        });
                        j.spec = Some(at as u16);
                    }
                }
                jobs.push(j);
            }
            let nodes = ["openb_node_list_gpu_node.csv.gz", "openb_node_list_gpu_node.csv"]
                .iter()
                .map(|n| path.with_file_name(n))
                .find(|p| p.exists());
            if let Some(nodes) = nodes {
                max_gpus = Some(read_nodes(&nodes)?.iter().map(|n| n.gpus).sum());
            }
        }
        GpuFormat::Instances2025 => {
            let [cpu, mem, gpus, created, scheduled, deleted] =
                ["cpu_request", "memory_request", "gpu_request", "creation_time", "scheduled_time", "deletion_time"]
                    .map(|c| rows.index(c));
            let (cpu, mem, gpus, created, scheduled, deleted) = (cpu?, mem?, gpus?, created?, scheduled?, deleted?);
            let mut trace_end = 0f64;
            let mut censored = Vec::new();
            while rows.next_row()? {
                drops.rows += 1;
                let cpus = required(&rows, cpu)?;
                let memory = required(&rows, mem)?;
                let gpu = required(&rows, gpus)?;
                let submit = number(&rows, created)?;
                let start = number(&rows, scheduled)?;
                let end = number(&rows, deleted)?;
                for t in [submit, start, end].into_iter().flatten() {
                    trace_end = trace_end.max(t);
                }
                if gpu.fract() != 0.0 {
                    return Err(rows.malformed(gpus, "not a whole number"));
                }
                if gpu == 0.0 {
                    drops.add("CPU-only instance (gpu_request 0)");
                    continue;
                }
                let Some(submit) = submit else {
                    drops.add("created before the trace started (empty creation_time)");
                    continue;
                };
                let start = start.ok_or_else(|| rows.malformed(scheduled, "empty, but creation_time is set"))?;
                if start < submit || end.is_some_and(|e| e < start) {
                    return Err(rows.malformed(scheduled, "times out of order (creation ≤ scheduled ≤ deletion)"));
                }
                if end.is_none() {
                    censored.push(jobs.len());
                }
                let end = end.unwrap_or(start);
                // memory_request is in GiB.
                jobs.push(job(&rows, [submit, start, end], whole_up(cpus), gpu as u32, Some(memory * 1024.0), Some(1)));
            }
            // Never deleted: alive at the end, so censored there.
            let trace_end = trace_end.round() as i64;
            for &i in &censored {
                let j: &mut GpuJob = &mut jobs[i];
                j.end = trace_end.max(j.start);
            }
        }
        GpuFormat::Gaia => {
            let hours = path.file_name().is_some_and(|n| n.to_string_lossy().contains("100k"));
            let unit = if hours { 3600.0 } else { 1.0 };
            while rows.next_row()? {
                drops.rows += 1;
                let submit = required(&rows, 0)? * unit;
                let length = required(&rows, 1)? * unit;
                let cpus = required(&rows, 2)?;
                if cpus < 1.0 || cpus.fract() != 0.0 {
                    return Err(rows.malformed(2, "not a positive whole number"));
                }
                jobs.push(job(&rows, [submit, submit, submit + length], cpus as u32, 0, None, None));
            }
        }
    }
    if jobs.is_empty() {
        let why = if drops.rows == 0 { "no data rows".to_string() } else { format!("all {} rows dropped", drops.rows) };
        return Err(GpuTraceError::NoRecords { path: path.to_path_buf(), why });
    }
    Ok(GpuJobs { format, jobs, drops, max_gpus, specs })
}

/// The current row as a job; times in seconds, rounded to whole seconds.
fn job(
    rows: &Rows,
    [submit, start, end]: [f64; 3],
    cpus: u32,
    gpus: u32,
    memory_mib: Option<f64>,
    queue: Option<u8>,
) -> GpuJob {
    GpuJob {
        row: rows.line - 1,
        line: rows.line,
        submit: submit.round() as i64,
        start: start.round() as i64,
        end: end.round() as i64,
        cpus,
        gpus,
        cpu_milli: cpus.saturating_mul(1000),
        gpu_milli: 1000,
        spec: None,
        memory_mib,
        queue,
    }
}

/// A job as an SWF record of `procs` processors and `memory_kb` in all.
fn record(j: &GpuJob, procs: i64, memory_kb: f64) -> SwfRecord {
    let runtime = j.end - j.start;
    SwfRecord {
        job: j.row as i64,
        submit: j.submit,
        wait: j.start - j.submit,
        runtime,
        allocated_procs: procs,
        requested_procs: procs,
        requested_time: runtime,
        requested_memory: if memory_kb < 0.0 { -1.0 } else { memory_kb / procs as f64 },
        status: 1,
        queue: j.queue.map_or(-1, i64::from),
        ..SwfRecord::UNKNOWN
    }
}

/// One machine of a node list.
#[derive(Debug, Clone, PartialEq)]
pub struct GpuNode {
    /// Node name.
    pub name: String,
    /// CPUs (v2023: milli-cores / 1000, rounded down; v2026: vCPUs).
    pub cpus: u64,
    /// Memory in MiB (v2023); `None` in v2026, which has no memory column.
    pub memory_mib: Option<u64>,
    /// GPUs.
    pub gpus: u64,
    /// GPU model, empty for CPU-only nodes.
    pub model: String,
}

/// Reads a v2023 or v2026 node list.
pub fn read_nodes(path: &Path) -> Result<Vec<GpuNode>, GpuTraceError> {
    let (mut rows, format) = Rows::open(path)?;
    let mut nodes = Vec::new();
    let whole = |rows: &Rows, c: usize| -> Result<u64, GpuTraceError> {
        let v = required(rows, c)?;
        if v.fract() != 0.0 {
            return Err(rows.malformed(c, "not a whole number"));
        }
        Ok(v as u64)
    };
    match format {
        GpuFormat::Nodes2023 => {
            while rows.next_row()? {
                let node = GpuNode {
                    name: rows.field(0).trim().to_string(),
                    cpus: whole(&rows, 1)? / 1000,
                    memory_mib: Some(whole(&rows, 2)?),
                    gpus: whole(&rows, 3)?,
                    model: rows.field(4).trim().to_string(),
                };
                nodes.push(node);
            }
        }
        GpuFormat::Nodes2026 => {
            while rows.next_row()? {
                let node = GpuNode {
                    name: rows.field(3).trim().to_string(),
                    cpus: whole(&rows, 2)?,
                    memory_mib: None,
                    gpus: whole(&rows, 1)?,
                    model: rows.field(0).trim().to_string(),
                };
                nodes.push(node);
            }
        }
        _ => {
            return Err(GpuTraceError::NotJobs { path: path.to_path_buf(), why: "not a node list".into() });
        }
    }
    Ok(nodes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn file(text: &str) -> tempfile::NamedTempFile {
        let mut f = tempfile::NamedTempFile::new().expect("temp file");
        f.write_all(text.as_bytes()).expect("write");
        f
    }

    const POD_HEADER: &str = "name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,creation_time,deletion_time,scheduled_time\n";

    #[test]
    fn pods_map_and_drop() {
        let f = file(&format!(
            "{POD_HEADER}p0,1000,1024,1,500,,BE,Running,10,100,20\np1,1000,1024,0,0,,LS,Running,0,5,1\np2,1000,1024,2,1000,,LS,Pending,3,9,\np3,1000,1024,8,1000,,Guaranteed,Succeeded,0,50,0\n"
        ));
        let (trace, drops) = load_with_drops(f.path()).expect("reads");
        assert_eq!(drops.rows, 4);
        assert_eq!(drops.total(), 2);
        assert_eq!(trace.records.len(), 2);
        let r = trace.records[0];
        assert_eq!((r.job, r.submit, r.wait, r.runtime, r.requested_procs, r.queue), (1, 10, 10, 80, 1, 2));
        assert_eq!(r.requested_time, 80);
        assert_eq!(trace.records[1].requested_procs, 8);
        assert_eq!(trace.records[1].queue, 4);
    }

    #[test]
    fn broken_row_names_line_and_column() {
        let f = file(&format!(
            "{POD_HEADER}p0,1000,1024,1,500,,BE,Running,10,100,20\np1,1000,1024,x,0,,LS,Running,0,5,1\n"
        ));
        let message = load(f.path()).expect_err("malformed").to_string();
        assert!(message.contains(":3: column num_gpu: not a number: x"), "{message}");
        let f = file(&format!("{POD_HEADER}p0,1000,1024,1,500,,XX,Running,10,100,20\n"));
        let message = load(f.path()).expect_err("malformed").to_string();
        assert!(message.contains(":2: column qos: unknown QoS class"), "{message}");
        let f = file(&format!("{POD_HEADER}p0,1000,1024,1,500\n"));
        let message = load(f.path()).expect_err("malformed").to_string();
        assert!(message.contains(":2: column (row): 5 fields"), "{message}");
    }

    #[test]
    fn multigpu_and_node_lists_are_refused_as_jobs() {
        let f = file("name,cpu_milli,memory_mib,num_gpu,gpu_milli\np0,1,1,1,1000\n");
        assert!(load(f.path()).expect_err("no times").to_string().contains("resource columns only"));
        let f = file("gpu_model,gpu_capacity_num,cpu_num,node_name\nA10,1,32,n0\n");
        assert!(load(f.path()).expect_err("nodes").to_string().contains("node list"));
        assert_eq!(read_nodes(f.path()).expect("nodes")[0].gpus, 1);
    }

    #[test]
    fn dlrm_censors_and_drops() {
        let f = file(
            "instance_sn,role,app_name,cpu_request,cpu_limit,gpu_request,gpu_limit,rdma_request,rdma_limit,memory_request,memory_limit,disk_request,disk_limit,max_instance_per_node,creation_time,scheduled_time,deletion_time\n\
             i0,HN,a,12,12,1,1,25,25,1.0,1.0,1,1,8,10,12,\n\
             i1,CN,a,12,12,0,0,25,25,1.0,1.0,1,1,8,10,12,500\n\
             i2,HN,a,12,12,1,1,25,25,1.0,1.0,1,1,8,,,300\n\
             i3,HN,a,12,12,1,1,25,25,1.0,1.0,1,1,8,20,20,100\n",
        );
        let (trace, drops) = load_with_drops(f.path()).expect("reads");
        assert_eq!((drops.rows, drops.total(), trace.records.len()), (4, 2, 2));
        assert_eq!(trace.records[0].runtime, 500 - 12);
        assert_eq!(trace.records[1].runtime, 80);
    }

    #[test]
    fn gaia_units_follow_the_name() {
        let dir = tempfile::tempdir().expect("dir");
        let hours = dir.path().join("x-100k.csv");
        std::fs::write(&hours, "arrival_time,length,cpus\n1.0,0.5,2\n").expect("write");
        let r = load(&hours).expect("reads").records[0];
        assert_eq!((r.submit, r.runtime, r.requested_procs), (3600, 1800, 2));
        let secs = dir.path().join("pai_1k.csv");
        std::fs::write(&secs, "arrival_time,length,cpus\n1.0,0.5,2\n").expect("write");
        assert_eq!(load(&secs).expect("reads").records[0].submit, 1);
    }
}
