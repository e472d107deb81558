use slasim_core::units::HOUR;
use slasim_core::units::Time;
use slasim_provision::site::scheduler::*;

#[test]
fn a_bought_reservation_delays_the_queue_as_priced() {
    let mut s = SlotScheduler::new(5, 0);
    let mut due = Vec::new();
    for (i, (procs, hours)) in [(2, 3), (4, 1), (1, 2), (3, 2)].into_iter().enumerate() {
        s.submit(0, WorkKey::Background(i as u32), procs, hours * HOUR, hours * HOUR);
    }
    s.start_due(0, &mut due);
    let key = WorkKey::Task { owner: 0, task: 0 };
    assert!(!s.reserve_priced(0, key, 0, 3, 2 * HOUR), "A and C hold 3 of 5 until 2 h");
    assert!(s.reserve_priced(0, key, 2 * HOUR, 3, 2 * HOUR));
    let starts: Vec<Time> = s.queue().iter().map(|q| q.start / HOUR).collect();
    assert_eq!(starts, vec![4, 5]);
    for t in (0..10 * HOUR).step_by(600) {
        assert_eq!(s.slot_set().free_at(t) + s.booked_at(t), 5, "t = {t}");
    }
}
