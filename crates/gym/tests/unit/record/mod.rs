//! Offline datasets: what each behaviour picks in a hand-checked state, and
//! a recorded dataset read back and replayed through the environment.

mod behaviour;
mod minari;

use std::fs::File;
use std::sync::Arc;

use polars::prelude::*;
use slasim_gym::pick::jobs::{Estimates, JobTable};
use slasim_gym::pick::{Options, PickJobs};
use slasim_gym::record::behaviour::{Behaviours, behaviour};
use slasim_gym::record::{COLUMNS, Metadata, Recording, record};

fn metadata() -> Metadata {
    Metadata { trace: "embedded".into(), trace_sha256: None, code_version: "test".into(), estimates: "logged" }
}

fn read(path: &std::path::Path) -> DataFrame {
    ParquetReader::new(File::open(path).unwrap()).finish().unwrap()
}

fn embedded() -> Arc<JobTable> {
    Arc::new(JobTable::embedded(Estimates::Logged).unwrap())
}

#[test]
fn a_recorded_episode_replays_with_the_same_actions_and_rewards() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("d.parquet");
    let jobs = embedded();
    let behaviours = vec![behaviour("sjf").unwrap(), behaviour("easy").unwrap()];
    let recording = Recording { options: Options::default(), behaviours, episodes: 2, seed: 11 };
    let summary = record(Arc::clone(&jobs), &recording, &metadata(), &out).unwrap();
    let data = read(&out);
    assert_eq!(data.height() as u64, summary.rows);
    assert_eq!(summary.episodes, 4);
    let names: Vec<&str> = data.get_column_names().iter().map(|n| n.as_str()).collect();
    assert_eq!(names, COLUMNS.map(|(name, _)| name));
    for (policy, backfill) in [("sjf", false), ("easy", true)] {
        let rows = data
            .clone()
            .lazy()
            .filter(col("policy").eq(lit(policy)).and(col("episode").eq(lit(1u32))))
            .sort(["step"], Default::default())
            .collect()
            .unwrap();
        assert!(rows.column("backfill").unwrap().bool().unwrap().iter().all(|b| b == Some(backfill)));
        let start = rows.column("start_index").unwrap().u32().unwrap().get(0).unwrap() as usize;
        let actions: Vec<i64> = rows.column("action").unwrap().i64().unwrap().into_no_null_iter().collect();
        let rewards: Vec<f64> = rows.column("reward").unwrap().f64().unwrap().into_no_null_iter().collect();
        let mut env = PickJobs::new(Arc::clone(&jobs), Options { backfill, ..Options::default() }).unwrap();
        env.reset(Some(start)).unwrap();
        let replayed: Vec<f64> = actions.iter().map(|&a| env.step(a).unwrap().reward).collect();
        assert!(env.is_over(), "{policy}: the recorded actions end the episode");
        assert_eq!(replayed, rewards, "{policy}");
        assert!(rewards.last().unwrap() < &0.0);
    }
}

#[test]
fn every_behaviour_shares_the_episodes_start_indices() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("d.parquet");
    let all = slasim_core::experiment::registry::all::<Behaviours>();
    let recording = Recording { options: Options::default(), behaviours: all.clone(), episodes: 3, seed: 5 };
    record(embedded(), &recording, &metadata(), &out).unwrap();
    let starts = read(&out)
        .lazy()
        .filter(col("step").eq(lit(0u32)))
        .group_by([col("policy")])
        .agg([col("start_index")])
        .collect()
        .unwrap();
    assert_eq!(starts.height(), all.len());
    let lists = starts.column("start_index").unwrap().list().unwrap();
    let first = lists.get_as_series(0).unwrap();
    for i in 1..all.len() {
        assert!(lists.get_as_series(i).unwrap().equals(&first));
    }
}

#[test]
fn a_failed_record_leaves_no_file() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("missing").join("d.parquet");
    let fcfs =
        Recording { options: Options::default(), behaviours: vec![behaviour("fcfs").unwrap()], episodes: 1, seed: 0 };
    let err = record(embedded(), &fcfs, &metadata(), &out);
    assert!(format!("{:#}", err.unwrap_err()).contains("missing/d.parquet.part"));
    assert!(!out.exists());
    // A log too short for a sampled sequence of 256 jobs.
    let short = JobTable::from_records(
        "short",
        &[slasim_data::trace::swf::SwfRecord {
            job: 1,
            runtime: 5,
            allocated_procs: 1,
            ..slasim_data::trace::swf::SwfRecord::UNKNOWN
        }],
        1,
        1,
        Estimates::Logged,
    )
    .unwrap();
    let out = dir.path().join("d.parquet");
    let err = record(Arc::new(short), &fcfs, &metadata(), &out);
    assert!(err.is_err());
    assert!(!out.exists() && !dir.path().join("d.parquet.part").exists());
}
