//! `--emit-slurm N`: an `sbatch --array` script that runs a sweep's N shards
//! on a Slurm cluster and then merges them.
//!
//! Contract: the script is what a user submits with `sbatch SCRIPT`. It is
//! one array of T ≤ N tasks: task t runs `slasim sweep CONFIG --shard i/N`
//! for i = t, t + T, t + 2T, … ≤ N, each shard into its own store; task 1
//! also submits a merge job with `--dependency=afterok:<array job>`, so the
//! merge runs only when every task succeeded (`--kill-on-invalid-dep=yes`
//! removes it otherwise). T fits the site's limits ([`SiteLimits`]): array
//! indices below `MaxArraySize`, and the T tasks plus the merge job within
//! `MaxSubmitJobs` (each array task counts as a job there), so the whole
//! sweep is queued at once and never refused. Re-submitting after a failure
//! re-runs the array: shards resume like local sweeps, so only missing
//! points are simulated.
//! Every path in the script is absolute, resolved when it is written, and
//! quoted, so directory names with blanks, quotes, `#`, `$` or `%` work.
//! Settings Slurm would reject (partition or account names, time formats)
//! are refused before anything is written.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// `#SBATCH` settings.
#[derive(Debug, Clone, PartialEq)]
pub struct SlurmOptions {
    /// Number of array tasks (shards).
    pub shards: usize,
    /// `--partition` (comma-separated list allowed).
    pub partition: Option<String>,
    /// `--time` of each task.
    pub time: String,
    /// `--cpus-per-task`; also the sweep's `--jobs`.
    pub cpus_per_task: usize,
    /// `--account`.
    pub account: Option<String>,
    /// What the site allows.
    pub limits: SiteLimits,
}

/// A site's limits on what one user may queue.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct SiteLimits {
    /// `MaxArraySize` (slurm.conf): array indices run from 0 to one less.
    pub max_array_size: Option<usize>,
    /// `MaxSubmitJobs` (the association's): jobs a user may have queued or
    /// running at once, each array task counted.
    pub max_submit_jobs: Option<usize>,
}

impl SiteLimits {
    /// The most array tasks a script may have, the merge job counted
    /// against `MaxSubmitJobs` (indices start at 1).
    pub fn most_tasks(&self) -> Option<usize> {
        let by_index = self.max_array_size.map(|m| m.saturating_sub(1));
        let by_submit = self.max_submit_jobs.map(|m| m.saturating_sub(1));
        match (by_index, by_submit) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }
}

/// An invalid Slurm setting.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("--{option} {value}: {why}")]
pub struct SlurmError {
    /// The option.
    pub option: &'static str,
    /// Its value.
    pub value: String,
    /// Why Slurm would reject it.
    pub why: String,
}

fn check_names(option: &'static str, value: &str) -> Result<(), SlurmError> {
    let ok = !value.is_empty()
        && value.split(',').all(|name| {
            !name.is_empty() && name.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.'))
        });
    if ok {
        Ok(())
    } else {
        Err(SlurmError {
            option,
            value: value.to_string(),
            why: "Slurm names are letters, digits, '_', '-' and '.', separated by commas".into(),
        })
    }
}

/// Slurm's time formats: M, M:S, H:M:S, D-H, D-H:M, D-H:M:S.
fn check_time(value: &str) -> Result<(), SlurmError> {
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    let (days, rest) = match value.split_once('-') {
        Some((d, r)) => (Some(d), r),
        None => (None, value),
    };
    let parts: Vec<&str> = rest.split(':').collect();
    let ok = days.is_none_or(digits)
        && parts.iter().all(|p| digits(p))
        && match days {
            Some(_) => (1..=3).contains(&parts.len()),
            None => (1..=3).contains(&parts.len()),
        };
    if ok {
        Ok(())
    } else {
        Err(SlurmError {
            option: "time",
            value: value.to_string(),
            why: "use minutes, MM:SS, HH:MM:SS or D-HH[:MM[:SS]]".into(),
        })
    }
}

impl SlurmOptions {
    /// The array's tasks: the shards, or fewer where the site allows fewer.
    pub fn tasks(&self) -> usize {
        self.limits.most_tasks().map_or(self.shards, |most| self.shards.min(most))
    }

    /// Checks every setting against the experiment's point count.
    pub fn validate(&self, points: usize) -> Result<(), SlurmError> {
        let limits = [
            (
                "max-array-size",
                self.limits.max_array_size,
                "the site allows no array index from 1 (MaxArraySize must be at least 2)",
            ),
            (
                "max-submit-jobs",
                self.limits.max_submit_jobs,
                "an array task and the merge job need two queued jobs (MaxSubmitJobs must be at least 2)",
            ),
        ];
        if let Some((option, Some(m), why)) = limits.into_iter().find(|(_, m, _)| m.is_some_and(|m| m < 2)) {
            return Err(SlurmError { option, value: m.to_string(), why: why.into() });
        }
        if self.shards == 0 {
            return Err(SlurmError { option: "emit-slurm", value: "0".into(), why: "needs at least one shard".into() });
        }
        if self.shards > points {
            return Err(SlurmError {
                option: "emit-slurm",
                value: self.shards.to_string(),
                why: format!("more shards than the experiment's {points} points; use at most {points}"),
            });
        }
        if self.cpus_per_task == 0 {
            return Err(SlurmError {
                option: "cpus-per-task",
                value: "0".into(),
                why: "needs at least one CPU".into(),
            });
        }
        if let Some(p) = &self.partition {
            check_names("partition", p)?;
        }
        if let Some(a) = &self.account {
            check_names("account", a)?;
        }
        check_time(&self.time)
    }
}

fn absolute(path: &Path) -> PathBuf {
    std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf())
}

fn quote(path: &Path) -> String {
    format!("'{}'", path.display().to_string().replace('\'', r"'\''"))
}

/// One shell word: as it is when no character in it means something to the
/// shell, else single-quoted.
fn sh_word(text: &str) -> String {
    if !text.is_empty() && text.bytes().all(|b| b.is_ascii_alphanumeric() || b"/._-+,:=@%".contains(&b)) {
        text.to_string()
    } else {
        format!("'{}'", text.replace('\'', r"'\''"))
    }
}

/// Text that stays literal inside a double-quoted shell string.
fn dq_escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if matches!(c, '\\' | '"' | '$' | '`') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// One argument of an `#SBATCH` line: sbatch splits those at blanks, ends
/// them at an unquoted `#` and takes `\\` as an escape, so a path with any of
/// these (or quotes) is double-quoted with `\\` and `"` escaped.
fn sbatch_word(text: &str) -> String {
    if text.chars().any(|c| c.is_whitespace() || matches!(c, '#' | '\\' | '\'' | '"')) {
        format!("\"{}\"", text.replace('\\', r"\\").replace('"', "\\\""))
    } else {
        text.to_string()
    }
}

/// Refuses a store whose directory Slurm cannot name in `--output`: slurmd
/// drops a backslash from output file names (it is its "no patterns" mark),
/// and a line break would end the `#SBATCH` line.
pub fn check_store(db: &Path) -> Result<(), SlurmError> {
    let dir = absolute(db).parent().map(|d| d.display().to_string()).unwrap_or_default();
    if dir.contains(['\\', '\n', '\r']) {
        return Err(SlurmError {
            option: "db",
            value: db.display().to_string(),
            why: "Slurm cannot write the task logs under a directory whose name has a backslash or a line break; \
                  choose another directory"
                .into(),
        });
    }
    Ok(())
}

/// A Slurm output file `name` (with its `%` patterns) in `dir`, whose own `%` are doubled.
fn output_file(dir: &Path, name: &str) -> String {
    format!("{}/{name}", dir.display().to_string().trim_end_matches('/').replace('%', "%%"))
}

/// The store of shard `i` of `n` next to `db`.
pub fn shard_db(db: &Path, index: &str, n: usize) -> PathBuf {
    let stem = db.file_stem().map_or_else(|| "slasim".into(), |s| s.to_string_lossy().into_owned());
    db.with_file_name(format!("{stem}.shard-{index}-of-{n}.sqlite"))
}

/// The script text for a sweep of `config` into `db`.
pub fn script(name: &str, config: &Path, db: &Path, slasim: &Path, options: &SlurmOptions) -> String {
    let (config, db, slasim) = (absolute(config), absolute(db), absolute(slasim));
    let dir = db.parent().map_or_else(|| PathBuf::from("."), Path::to_path_buf);
    let n = options.shards;
    let job = format!("slasim-{}", name.replace(|c: char| !(c.is_ascii_alphanumeric() || c == '-' || c == '_'), "_"));
    // Paths go into the script quoted for where they stand (shell word, double-quoted
    // string, #SBATCH argument), so any directory name works. `\0` marks the task id.
    let shard_db = shard_db(&db, "\0", n).display().to_string();
    let (shard_prefix, shard_suffix) = shard_db.split_once('\0').unwrap_or((&shard_db, ""));
    let all_shards = format!("{}*{}", sh_word(shard_prefix), sh_word(shard_suffix));
    let db_word = sh_word(&db.display().to_string());
    let merge =
        format!("rm -f {db_word} && {} merge {all_shards} --db {db_word}", sh_word(&slasim.display().to_string()));
    let mut extra = String::new();
    if let Some(p) = &options.partition {
        extra.push_str(&format!(" --partition={p}"));
    }
    if let Some(a) = &options.account {
        extra.push_str(&format!(" --account={a}"));
    }
    let mut s = String::new();
    let _ = writeln!(s, "#!/bin/bash");
    let tasks = options.tasks();
    let _ =
        writeln!(s, "# slasim sweep of experiment `{name}` in {n} shards, written by `slasim sweep --emit-slurm {n}`.");
    let _ = writeln!(s, "# Submit with: sbatch {}", quote(&dir.join(format!("{job}.sbatch"))));
    if tasks < n {
        let _ = writeln!(s, "# {tasks} array tasks, to fit the site's limits ({}):", limits_text(&options.limits));
        let _ = writeln!(s, "# task t runs shards t, t+{tasks}, t+{}, … in turn.", 2 * tasks);
    }
    let _ = writeln!(s, "# Each shard i runs into its own store; task 1 also submits the merge job,");
    let _ = writeln!(s, "# which runs only after every task succeeded (afterok). After a failure, submit this");
    let _ = writeln!(s, "# script again: the shards resume and skip the points they already stored.");
    let _ = writeln!(s, "# All paths are absolute, resolved when the script was written.");
    let _ = writeln!(s, "#SBATCH --job-name={job}");
    let _ = writeln!(s, "#SBATCH --array=1-{tasks}");
    let _ = writeln!(s, "#SBATCH --time={}", options.time);
    let _ = writeln!(s, "#SBATCH --cpus-per-task={}", options.cpus_per_task);
    let _ = writeln!(s, "#SBATCH --output={}", sbatch_word(&output_file(&dir, &format!("{job}-%A_%a.out"))));
    if let Some(p) = &options.partition {
        let _ = writeln!(s, "#SBATCH --partition={p}");
    }
    if let Some(a) = &options.account {
        let _ = writeln!(s, "#SBATCH --account={a}");
    }
    let _ = writeln!(s, "set -euo pipefail");
    let _ = writeln!(s, "SLASIM={}", quote(&slasim));
    let _ = writeln!(s, "CONFIG={}", quote(&config));
    let _ = writeln!(s, "DB={}", quote(&db));

    let _ = writeln!(s, "if [ \"${{SLURM_ARRAY_TASK_ID}}\" = \"1\" ]; then");
    let _ = writeln!(
        s,
        "  sbatch --parsable --dependency=afterok:${{SLURM_ARRAY_JOB_ID}} --kill-on-invalid-dep=yes \\\n    \
         --job-name={job}-merge --time={} --output={}{extra} \\\n    \
         --wrap=\"{}\"",
        options.time,
        sh_word(&output_file(&dir, &format!("{job}-merge-%j.out"))),
        dq_escape(&merge)
    );
    let _ = writeln!(s, "fi");
    let _ = writeln!(s, "for SHARD in $(seq \"${{SLURM_ARRAY_TASK_ID}}\" {tasks} {n}); do");
    let _ = writeln!(s, "  SHARD_DB=\"{}${{SHARD}}{}\"", dq_escape(shard_prefix), dq_escape(shard_suffix));
    let _ = writeln!(
        s,
        "  \"$SLASIM\" sweep \"$CONFIG\" --shard \"${{SHARD}}/{n}\" --db \"$SHARD_DB\" --jobs \"${{SLURM_CPUS_PER_TASK:-1}}\" --no-progress"
    );
    let _ = writeln!(s, "done");
    s
}

/// The limits as a site's settings name them: `MaxArraySize=5, MaxSubmitJobs=4`.
pub fn limits_text(limits: &SiteLimits) -> String {
    let mut parts = Vec::new();
    if let Some(m) = limits.max_array_size {
        parts.push(format!("MaxArraySize={m}"));
    }
    if let Some(m) = limits.max_submit_jobs {
        parts.push(format!("MaxSubmitJobs={m}"));
    }
    if parts.is_empty() { "none known".to_string() } else { parts.join(", ") }
}

/// `MaxArraySize` in `scontrol show config`'s output.
pub fn max_array_size_of(scontrol_show_config: &str) -> Option<usize> {
    scontrol_show_config.lines().find_map(|line| {
        let (key, value) = line.split_once('=')?;
        (key.trim() == "MaxArraySize").then(|| value.trim().parse().ok()).flatten()
    })
}

/// The smallest `MaxSubmit` of the user's associations in `sacctmgr -nP show
/// assoc … format=MaxSubmit` (one value per line, empty when unset).
pub fn max_submit_jobs_of(sacctmgr_assoc: &str) -> Option<usize> {
    sacctmgr_assoc.lines().filter_map(|l| l.trim().parse::<usize>().ok()).min()
}
