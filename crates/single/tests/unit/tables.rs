use slasim_single::tables::*;

#[test]
fn inserts_name_their_columns_and_number_no_parameter() {
    let sql = run::NODE_EVENTS.insert_sql(2);
    assert_eq!(sql, "INSERT INTO node_events (run_id, seq, time, node, kind, job) VALUES (?,?,?,?,?,?),(?,?,?,?,?,?)");
}

/// A sorted rank per section and part: no two columns of a table share one.
#[test]
fn report_ranks_are_unique() {
    assert_eq!(points::POINTS.shared_ranks(), Vec::<String>::new());
}
