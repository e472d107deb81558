//! The library's tests, one module per module of `slasim_provision`.

mod greedy;
mod kind;
mod load;
mod moga;
mod pricing;
mod report;
mod site;
mod slots;
mod workflow;

#[test]
fn the_descriptors_are_what_the_tables_history_made() {
    let registry = slasim_core::experiment::registry::Registry::new(&[&slasim_provision::KIND]).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let described: Vec<&str> = slasim_provision::tables::described().iter().map(|t| t.name()).collect();
    assert_eq!(described.len(), 7, "{described:?}");
    let path = dir.path().join("p.sqlite");
    let mismatches =
        slasim_core::store::schema::facts::history_mismatches(&path, registry.groups(), &described).unwrap();
    assert_eq!(mismatches, Vec::<String>::new());
    let replace = slasim_provision::tables::provision::PROVISION_POINTS.insert_sql(1);
    assert!(replace.starts_with("INSERT OR REPLACE INTO provision_points (point_id, kind,"), "{replace}");
}
