use slasim_core::store::Store;
use slasim_core::store::schema::facts::*;

/// A new store is the descriptors' store, and the engine's history
/// (schema 1, then 9) makes the same experiments' tables.
#[test]
fn descriptors_match_the_schema() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("c.sqlite");
    Store::open(&path, &[]).unwrap();
    assert_eq!(schema_mismatches(&path, &[]).unwrap(), Vec::<String>::new());
    let path = dir.path().join("h.sqlite");
    assert_eq!(history_mismatches(&path, &[], &["experiments", "experiment_points"]).unwrap(), Vec::<String>::new());
}
