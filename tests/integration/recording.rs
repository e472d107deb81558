//! Recording as a sweep (`[recording]` configs, `slasim gym minari`): a
//! swept recording exports to the same Minari episode files as `gym record`
//! writes for the same behaviours, seed and episodes; shards merge to the
//! same dataset; a store the export cannot use is refused, naming why, and
//! nothing is written.

use std::path::{Path, PathBuf};

use crate::common::run;

/// A recording config: `policies` × `seeds` on a real trace, `episodes` each.
fn config(dir: &Path, window: u32, policies: &str, seeds: &str) -> PathBuf {
    let path = dir.join(format!("recording-{window}.toml"));
    std::fs::write(
        &path,
        format!(
            "name = \"recording-{window}\"\nseed = 1\n\n[recording]\ntrace = \"SDSC-SP2-1998-4.2-cln.swf.gz\"\n\
             episodes = 2\nsequence_len = 64\nwindow = {window}\n\n[[sweep]]\nname = \"behaviours\"\n\
             [sweep.axes]\npolicy = {policies}\nseed = {seeds}\n"
        ),
    )
    .unwrap();
    path
}

fn ok(args: &[&str]) -> String {
    let (success, stdout, stderr) = run(args);
    assert!(success, "slasim {}: {stderr}", args.join(" "));
    stdout
}

/// Each episode file of a dataset, in episode order.
fn episode_files(dataset: &Path) -> Vec<Vec<u8>> {
    let data = dataset.join("data");
    let count = std::fs::read_dir(&data).unwrap().filter(|e| e.as_ref().unwrap().path().is_dir()).count();
    (0..count).map(|i| std::fs::read(data.join(i.to_string()).join("part-0.arrow")).unwrap()).collect()
}

#[test]
fn a_swept_recording_exports_the_episodes_gym_record_writes() {
    let dir = tempfile::tempdir().unwrap();
    let d = |name: &str| dir.path().join(name).display().to_string();
    let cfg = config(dir.path(), 32, "[\"easy\", \"sjf\"]", "[7]");
    let cfg = cfg.to_str().unwrap();
    ok(&["sweep", cfg, "--db", &d("whole.sqlite"), "--no-progress"]);
    let out =
        ok(&["gym", "minari", "--db", &d("whole.sqlite"), "--dataset-id", "slasim/swept-v0", "--out", &d("root")]);
    assert!(out.contains("from 2 recording points"), "{out}");
    // The export orders points by trace, behaviour and seed: EASY, then SJF.
    ok(&[
        "gym",
        "record",
        "--trace",
        "SDSC-SP2-1998-4.2-cln.swf.gz",
        "--policy",
        "easy,sjf",
        "--episodes",
        "2",
        "--seed",
        "7",
        "--sequence-len",
        "64",
        "--window",
        "32",
        "--format",
        "minari",
        "--dataset-id",
        "slasim/direct-v0",
        "--out",
        &d("root"),
    ]);
    let swept = episode_files(&dir.path().join("root/slasim/swept-v0"));
    assert_eq!(swept.len(), 4);
    assert!(swept == episode_files(&dir.path().join("root/slasim/direct-v0")), "episode files differ");
    // The report's table: one row per trace and behaviour.
    let table = ok(&["report", "--db", &d("whole.sqlite"), "--table", "recording"]);
    for behaviour in ["easy", "sjf"] {
        assert!(table.contains(&format!("| SDSC-SP2-1998-4.2-cln | {behaviour} | 1 | 2 |")), "{table}");
    }
    let meta: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.path().join("root/slasim/swept-v0/data/3/metadata.json")).unwrap())
            .unwrap();
    assert_eq!((meta["policy"].as_str(), meta["seed"].as_i64()), (Some("sjf"), Some(7)));
    assert_eq!(meta["trace"].as_str(), Some("SDSC-SP2-1998-4.2-cln.swf.gz"));

    // Two shards, merged, export the same files; a finished sweep runs nothing.
    for shard in ["1/2", "2/2"] {
        ok(&["sweep", cfg, "--shard", shard, "--db", &d(&format!("shard{}.sqlite", &shard[..1])), "--no-progress"]);
    }
    ok(&["merge", &d("shard1.sqlite"), &d("shard2.sqlite"), "--db", &d("merged.sqlite")]);
    ok(&["gym", "minari", "--db", &d("merged.sqlite"), "--dataset-id", "slasim/merged-v0", "--out", &d("root")]);
    assert!(swept == episode_files(&dir.path().join("root/slasim/merged-v0")), "the merged store's episodes differ");
    let again = ok(&["sweep", cfg, "--db", &d("merged.sqlite"), "--no-progress"]);
    assert!(again.contains("2 already there, 0 simulated now"), "{again}");
}

#[test]
fn an_export_the_store_cannot_give_is_refused_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let d = |name: &str| dir.path().join(name).display().to_string();
    let export = |db: &str, id: &str| run(&["gym", "minari", "--db", db, "--dataset-id", id, "--out", &d("root")]);
    // A store of other points.
    ok(&["sweep", "configs/quick.toml", "--db", &d("quick.sqlite"), "--no-progress"]);
    let (success, _, e) = export(&d("quick.sqlite"), "slasim/none-v0");
    assert!(!success && e.contains("no recording point in this store"), "{e}");
    // Two windows: two observation spaces.
    for window in [16, 32] {
        let cfg = config(dir.path(), window, "[\"fcfs\"]", "[1]");
        ok(&["sweep", cfg.to_str().unwrap(), "--db", &d("mixed.sqlite"), "--no-progress"]);
    }
    let (success, _, e) = export(&d("mixed.sqlite"), "slasim/mixed-v0");
    assert!(!success && e.contains("points of windows 16 and 32"), "{e}");
    let (success, _, e) = run(&[
        "gym",
        "minari",
        "--db",
        &d("mixed.sqlite"),
        "--experiment",
        "recording-16",
        "--dataset-id",
        "slasim/mixed-v0",
        "--out",
        &d("root"),
    ]);
    assert!(success, "{e}");
    // An existing dataset is kept without --force.
    let (success, _, e) = export(&d("mixed.sqlite"), "slasim/mixed-v0");
    assert!(!success && e.contains("the dataset exists; --force replaces it"), "{e}");
    let names: Vec<_> =
        std::fs::read_dir(dir.path().join("root/slasim")).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(names, ["mixed-v0"], "only the one dataset, no .part left");
}
