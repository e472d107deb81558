use slasim_single::cluster::*;
use slasim_single::workload::job::Job;
use std::sync::Arc;

#[test]
fn by_id_shares_sorts_or_refuses() {
    let jobs =
        |ids: &[u32]| -> Arc<[Job]> { ids.iter().map(|&i| Job::without_sla(i, 10 * i64::from(i), 1, 5, 5)).collect() };
    let battery = jobs(&[0, 1, 2]);
    assert!(by_id(&battery).is_some_and(|b| Arc::ptr_eq(&b, &battery)));
    let mixed = jobs(&[0, 3, 1, 2]);
    let sorted = by_id(&mixed).expect("ids 0..4");
    assert_eq!(sorted.iter().map(|j| j.id).collect::<Vec<_>>(), [0, 1, 2, 3]);
    assert_eq!(sorted[3], mixed[1]);
    assert!(by_id(&jobs(&[0, 2])).is_none());
    assert!(by_id(&jobs(&[1, 0, 1])).is_none());
}

#[test]
fn node_set_lowest_and_count() {
    let mut s = NodeSet::full(130);
    assert_eq!(s.len(), 130);
    s.remove(0);
    s.remove(64);
    s.remove(64);
    assert_eq!(s.len(), 128);
    let mut out = Vec::new();
    s.lowest(3, &mut out);
    assert_eq!(out, vec![1, 2, 3]);
    out.clear();
    s.lowest(200, &mut out);
    assert_eq!(out.len(), 128);
    assert_eq!(*out.last().unwrap(), 129);
    assert!(!s.contains(64) && s.contains(65));
    s.insert(64);
    assert!(s.contains(64));
}
