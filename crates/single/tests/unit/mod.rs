//! The library's tests, one module per module of `slasim_single`.

mod cluster;
pub mod plan;
mod point;
mod policy;
mod report;
mod stats;
mod tables;
mod workload;

#[test]
fn the_descriptors_are_what_the_tables_history_made() {
    let registry = slasim_core::experiment::registry::Registry::new(&[&slasim_single::KIND]).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let names: Vec<&str> = slasim_single::tables::described().iter().map(|t| t.name()).collect();
    assert_eq!(names.len(), 8, "{names:?}");
    let path = dir.path().join("s.sqlite");
    let found = slasim_core::store::schema::facts::history_mismatches(&path, registry.groups(), &names).unwrap();
    assert_eq!(found, Vec::<String>::new());
}
