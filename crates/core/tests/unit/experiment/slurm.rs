use slasim_core::experiment::slurm::*;
use std::path::Path;

fn options() -> SlurmOptions {
    SlurmOptions {
        shards: 4,
        partition: None,
        time: "01:00:00".into(),
        cpus_per_task: 2,
        account: None,
        limits: SiteLimits::default(),
    }
}

#[test]
fn refuses_what_slurm_would_reject() {
    assert!(options().validate(10).is_ok());
    assert_eq!(SlurmOptions { shards: 0, ..options() }.validate(10).unwrap_err().option, "emit-slurm");
    assert!(SlurmOptions { shards: 11, ..options() }.validate(10).unwrap_err().why.contains("at most 10"));
    for bad in ["my partition", "a;b", "", "x,", "p$"] {
        let o = SlurmOptions { partition: Some(bad.into()), ..options() };
        assert_eq!(o.validate(10).unwrap_err().option, "partition", "{bad}");
    }
    assert!(SlurmOptions { partition: Some("gpu-a100,cpu.long".into()), ..options() }.validate(10).is_ok());
    for good in ["30", "30:00", "1:00:00", "2-00", "2-12:30", "2-12:30:00"] {
        assert!(SlurmOptions { time: good.into(), ..options() }.validate(10).is_ok(), "{good}");
    }
    for bad in ["1h", "1:2:3:4", "-5", "a-1"] {
        assert_eq!(SlurmOptions { time: bad.into(), ..options() }.validate(10).unwrap_err().option, "time", "{bad}");
    }
}

#[test]
fn script_runs_shards_then_merges_after_ok() {
    let o = SlurmOptions { partition: Some("batch".into()), account: Some("proj1".into()), ..options() };
    let s = script("quick", Path::new("/c/quick.toml"), Path::new("/d/quick.sqlite"), Path::new("/b/slasim"), &o);
    for needle in [
        "#SBATCH --array=1-4",
        "#SBATCH --time=01:00:00",
        "#SBATCH --cpus-per-task=2",
        "#SBATCH --partition=batch",
        "#SBATCH --account=proj1",
        "#SBATCH --output=/d/slasim-quick-%A_%a.out",
        "--dependency=afterok:${SLURM_ARRAY_JOB_ID}",
        "--shard \"${SHARD}/4\"",
        "SHARD_DB=\"/d/quick.shard-${SHARD}-of-4.sqlite\"",
        "for SHARD in $(seq \"${SLURM_ARRAY_TASK_ID}\" 4 4); do",
        "--wrap=\"rm -f /d/quick.sqlite && /b/slasim merge /d/quick.shard-*-of-4.sqlite --db /d/quick.sqlite\"",
        "All paths are absolute",
    ] {
        assert!(s.contains(needle), "missing `{needle}` in:\n{s}");
    }
}

/// The paths survive a directory name with blanks, quotes, `#`, `$`, a
/// backquote and a backslash: the shell part run by bash (sbatch a stand-in
/// that prints its arguments), the merge command run by sh.
#[cfg(unix)]
#[test]
fn script_quotes_any_directory_name() {
    use std::os::unix::fs::PermissionsExt as _;
    use std::process::Command;
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("it's a \"run\" #1 $HOME `x` 100%");
    std::fs::create_dir(&dir).unwrap();
    let slasim = dir.join("sla sim");
    std::fs::write(&slasim, "#!/bin/sh\nfor a in \"$@\"; do printf '%s\\n' \"$a\"; done\n").unwrap();
    std::fs::set_permissions(&slasim, std::fs::Permissions::from_mode(0o755)).unwrap();
    let db = dir.join("quick.sqlite");
    let text = script("quick", Path::new("/c/quick.toml"), &db, &slasim, &options());
    let escaped = dir.display().to_string().replace('"', "\\\"").replace('%', "%%");
    assert!(text.contains(&format!("#SBATCH --output=\"{escaped}/slasim-quick-%A_%a.out\"\n")), "{text}");

    let body = text.replace("\"$SLASIM\" sweep", "printf '%s\\n' \"$SHARD_DB\" #");
    let out = Command::new("bash")
        .arg("-c")
        .arg(format!("sbatch() {{ printf '%s\\n' \"$@\"; }}\n{body}"))
        .env("SLURM_ARRAY_TASK_ID", "1")
        .env("SLURM_ARRAY_JOB_ID", "7")
        .output()
        .unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(out.status.success(), "{stdout}{}", String::from_utf8_lossy(&out.stderr));
    let lines: Vec<&str> = stdout.lines().collect();
    let shard = |i: usize| dir.join(format!("quick.shard-{i}-of-4.sqlite")).display().to_string();
    assert_eq!(lines.last().copied(), Some(shard(1).as_str()), "{stdout}");
    let output = format!("--output={}/slasim-quick-merge-%j.out", dir.display().to_string().replace('%', "%%"));
    assert!(lines.contains(&output.as_str()), "{stdout}");
    assert!(lines.contains(&"--dependency=afterok:7"), "{stdout}");
    let wrap = lines.iter().find_map(|l| l.strip_prefix("--wrap=")).expect("--wrap");

    for i in 1..=4 {
        std::fs::write(shard(i), "").unwrap();
    }
    std::fs::write(&db, "old").unwrap();
    let out = Command::new("sh").arg("-c").arg(wrap).output().unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(out.status.success(), "{wrap}: {}", String::from_utf8_lossy(&out.stderr));
    let db = db.display().to_string();
    let expected = ["merge", &shard(1), &shard(2), &shard(3), &shard(4), "--db", &db];
    assert_eq!(stdout.lines().collect::<Vec<_>>(), expected, "{wrap}");
    assert!(!Path::new(&db).exists(), "the merge job removes the old store first");
}

#[test]
fn refuses_a_store_slurm_cannot_log_next_to() {
    assert!(check_store(Path::new("/d/it's a \"run\" #1 100%/q.sqlite")).is_ok());
    for bad in ["/d/a\\b/q.sqlite", "/d/a\nb/q.sqlite"] {
        assert_eq!(check_store(Path::new(bad)).unwrap_err().option, "db", "{bad}");
    }
}

/// With the site's limits (MaxArraySize 5, MaxSubmitJobs 4), 12 shards fold
/// into 3 array tasks (the merge job is the fourth queued job): task t runs
/// shards t, t+3, t+6, t+9, checked by running the script's loop.
#[cfg(unix)]
#[test]
fn shards_fold_into_the_tasks_a_site_allows() {
    use std::process::Command;
    let limits = SiteLimits { max_array_size: Some(5), max_submit_jobs: Some(4) };
    let o = SlurmOptions { shards: 12, limits, ..options() };
    assert_eq!(o.tasks(), 3);
    assert!(o.validate(52).is_ok());
    assert_eq!(
        SlurmOptions { limits: SiteLimits { max_array_size: Some(3), max_submit_jobs: None }, ..o.clone() }.tasks(),
        2
    );
    assert_eq!(SlurmOptions { limits: SiteLimits::default(), ..o.clone() }.tasks(), 12);
    let s = script("quick", Path::new("/c/quick.toml"), Path::new("/d/quick.sqlite"), Path::new("/b/slasim"), &o);
    assert!(s.contains("#SBATCH --array=1-3\n"), "{s}");
    assert!(s.contains("(MaxArraySize=5, MaxSubmitJobs=4)"), "{s}");
    let body = s.replace("\"$SLASIM\" sweep", "printf '%s\\n' \"$SHARD_DB\" #");
    for (task, shards) in [(1, [1, 4, 7, 10]), (2, [2, 5, 8, 11]), (3, [3, 6, 9, 12])] {
        let out = Command::new("bash")
            .arg("-c")
            .arg(format!("sbatch() {{ :; }}\n{body}"))
            .env("SLURM_ARRAY_TASK_ID", task.to_string())
            .env("SLURM_ARRAY_JOB_ID", "7")
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let expected: Vec<String> = shards.iter().map(|i| format!("/d/quick.shard-{i}-of-12.sqlite")).collect();
        assert_eq!(String::from_utf8(out.stdout).unwrap().lines().collect::<Vec<_>>(), expected, "task {task}");
    }
    // A site that leaves no room is refused, naming the limit.
    let tight = |a, b| SlurmOptions { limits: SiteLimits { max_array_size: a, max_submit_jobs: b }, ..o.clone() };
    assert_eq!(tight(None, Some(1)).validate(52).unwrap_err().option, "max-submit-jobs");
    assert!(tight(Some(1), None).validate(52).unwrap_err().why.contains("MaxArraySize must be at least 2"));
}

#[test]
fn site_limits_are_read_from_scontrol_and_sacctmgr() {
    let config = "Configuration data as of 2026-11-28T12:00:00\nMaxArraySize            = 1001\nMaxJobCount             = 10000\n";
    assert_eq!(max_array_size_of(config), Some(1001));
    assert_eq!(max_array_size_of("MaxJobCount = 10\n"), None);
    assert_eq!(max_submit_jobs_of("\n100\n40\n"), Some(40));
    assert_eq!(max_submit_jobs_of("\n\n"), None);
}
