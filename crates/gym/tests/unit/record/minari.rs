//! Minari datasets: the id Minari can load, and a dataset that exists kept
//! unless replaced, nothing half-written either way.

use slasim_gym::pick::Options;
use slasim_gym::record::behaviour::behaviour;
use slasim_gym::record::minari::check_id;
use slasim_gym::record::{Recording, record_minari};

use super::{embedded, metadata};

#[test]
fn a_dataset_id_is_namespace_name_and_version() {
    for good in ["slasim/ctc-sp2-v0", "a/b/name_1.x-v12", "ns/x-v0"] {
        assert!(check_id(good).is_ok(), "{good}");
    }
    for (bad, why) in [
        ("ctc-v0", "no namespace"),
        ("slasim/ctc", "no version"),
        ("slasim/ctc-vx", "must be a number"),
        ("s/ctc-v0", "at least 2 characters"),
        ("slasim/c tc-v0", "the name must be"),
    ] {
        let e = check_id(bad).unwrap_err().to_string();
        assert!(e.contains(why) && e.contains("--dataset-id"), "{bad}: {e}");
    }
}

#[test]
fn an_existing_dataset_is_kept_unless_replaced() {
    let root = tempfile::tempdir().unwrap();
    let recording = |episodes| Recording {
        options: Options::default(),
        behaviours: vec![behaviour("fcfs").unwrap()],
        episodes,
        seed: 3,
    };
    let id = "slasim/kept-v0";
    let (place, summary) = record_minari(embedded(), &recording(2), &metadata(), root.path(), id, false).unwrap();
    assert_eq!((summary.episodes, place.clone()), (2, root.path().join(id)));
    let listing = |dir: &std::path::Path| {
        let mut names: Vec<String> = std::fs::read_dir(dir.join("data"))
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        names.sort();
        names
    };
    assert_eq!(listing(&place), ["0", "1", "metadata.json"]);
    let e = record_minari(embedded(), &recording(1), &metadata(), root.path(), id, false).unwrap_err().to_string();
    assert!(e.contains("the dataset exists; --force replaces it"), "{e}");
    assert_eq!(listing(&place), ["0", "1", "metadata.json"], "kept as it was");
    let (_, summary) = record_minari(embedded(), &recording(1), &metadata(), root.path(), id, true).unwrap();
    assert_eq!(summary.episodes, 1);
    assert_eq!(listing(&place), ["0", "metadata.json"], "replaced whole");
    assert!(!root.path().join("slasim/kept-v0.part").exists(), "nothing half-written is left");
}
