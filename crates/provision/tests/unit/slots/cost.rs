use slasim_core::units::Time;
use slasim_provision::slots::cost::*;

fn offer(divisible: bool, extensible: bool) -> OfferedSlot {
    // 4 processors from 10 s for 100 s, c = 2 per processor-second, f = 5.
    OfferedSlot { start: 10, duration: 100, procs: 4, c: 2.0, f: 5.0, divisible, extensible }
}

fn sub(start: Time, procs: u32, duration: Time) -> SubSlot {
    SubSlot { start, procs, duration }
}

/// Table 1, row b = false, e = false (§1.3).
#[test]
fn table_1_rigid_hole() {
    let o = offer(false, false);
    // n_i d_i c + f = 4 × 100 × 2 + 5.
    assert_eq!(sub_slot_cost(&o, sub(10, 4, 100)), Ok(805.0));
    assert_eq!(o.total_cost(), 805.0);
    assert_eq!(sub_slot_cost(&o, sub(10, 3, 100)), Err(SubSlotError::ProcsMustEqual { offered: 4, requested: 3 }));
    assert_eq!(sub_slot_cost(&o, sub(20, 4, 100)), Err(SubSlotError::StartMustEqual { offered: 10, requested: 20 }));
    assert_eq!(sub_slot_cost(&o, sub(10, 4, 50)), Err(SubSlotError::DurationMustEqual { offered: 100, requested: 50 }));
    assert_eq!(
        sub_slot_cost(&o, sub(10, 4, 150)),
        Err(SubSlotError::DurationMustEqual { offered: 100, requested: 150 })
    );
}

/// Table 1, row b = false, e = true.
#[test]
fn table_1_non_divisible_extensible() {
    let o = offer(false, true);
    // n_i d_k c + f = 4 × 150 × 2 + 5.
    assert_eq!(sub_slot_cost(&o, sub(10, 4, 150)), Ok(1205.0));
    assert_eq!(sub_slot_cost(&o, sub(10, 4, 100)), Ok(805.0));
    assert_eq!(sub_slot_cost(&o, sub(10, 4, 99)), Err(SubSlotError::DurationTooShort { offered: 100, requested: 99 }));
    assert_eq!(sub_slot_cost(&o, sub(10, 2, 150)), Err(SubSlotError::ProcsMustEqual { offered: 4, requested: 2 }));
    assert_eq!(sub_slot_cost(&o, sub(11, 4, 150)), Err(SubSlotError::StartMustEqual { offered: 10, requested: 11 }));
}

/// Table 1, row b = true, e = false.
#[test]
fn table_1_divisible_bounded() {
    let o = offer(true, false);
    // n_k d_k c + f = 3 × 40 × 2 + 5; [50, 90) lies inside [10, 110).
    assert_eq!(sub_slot_cost(&o, sub(50, 3, 40)), Ok(245.0));
    // Exactly up to the end: [60, 110).
    assert_eq!(sub_slot_cost(&o, sub(60, 1, 50)), Ok(105.0));
    assert_eq!(sub_slot_cost(&o, sub(60, 1, 51)), Err(SubSlotError::EndsTooLate { offered: 110, requested: 111 }));
    assert_eq!(sub_slot_cost(&o, sub(9, 1, 10)), Err(SubSlotError::StartsTooEarly { offered: 10, requested: 9 }));
    assert_eq!(sub_slot_cost(&o, sub(10, 5, 10)), Err(SubSlotError::TooManyProcs { offered: 4, requested: 5 }));
}

/// Table 1, row b = true, e = true (edge slots).
#[test]
fn table_1_edge_slot() {
    let o = offer(true, true);
    // Past the advertised end is fine: 2 × 1000 × 2 + 5.
    assert_eq!(sub_slot_cost(&o, sub(500, 2, 1000)), Ok(4005.0));
    assert_eq!(sub_slot_cost(&o, sub(5, 2, 10)), Err(SubSlotError::StartsTooEarly { offered: 10, requested: 5 }));
    assert_eq!(sub_slot_cost(&o, sub(10, 5, 10)), Err(SubSlotError::TooManyProcs { offered: 4, requested: 5 }));
    assert_eq!(sub_slot_cost(&o, sub(10, 0, 10)), Err(SubSlotError::Empty { procs: 0, duration: 10 }));
    assert_eq!(sub_slot_cost(&o, sub(10, 1, 0)), Err(SubSlotError::Empty { procs: 1, duration: 0 }));
    assert_eq!(
        SubSlotError::EndsTooLate { offered: 110, requested: 111 }.to_string(),
        "divisible, non-extensible slot: s_k + d_k = 111 must not exceed s_i + d_i = 110"
    );
}
