mod facts;

use slasim_core::store::schema::*;
use slasim_core::store::tables::experiment;

/// The generated `CREATE TABLE` keeps a one-column key on its column, a
/// composite one at the end, and every constraint.
#[test]
fn create_table_is_generated_from_the_descriptors() {
    assert_eq!(
        create_table(&experiment::EXPERIMENT_POINTS),
        "CREATE TABLE experiment_points (\n    experiment TEXT NOT NULL REFERENCES experiments(hash),\n    \
         run_id INTEGER NOT NULL,\n    sweep TEXT NOT NULL,\n    PRIMARY KEY (experiment, run_id, sweep)\n) \
         WITHOUT ROWID;\n"
    );
    assert!(create_table(&experiment::EXPERIMENTS).contains("    hash TEXT PRIMARY KEY,\n"));
}
