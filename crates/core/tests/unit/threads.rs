use slasim_core::threads::*;

/// `acquire` waits for a slot another thread gives back.
#[test]
fn acquire_waits_for_a_returned_slot() {
    let budget = Budget::new(1);
    let held = budget.acquire();
    let order = std::sync::Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        scope.spawn(|| {
            let _slot = budget.acquire();
            order.lock().unwrap().push("second");
        });
        std::thread::sleep(std::time::Duration::from_millis(50));
        order.lock().unwrap().push("first");
        drop(held);
    });
    assert_eq!(*order.lock().unwrap(), ["first", "second"]);
    assert_eq!(budget.free(), 1);
}

#[test]
fn map_gives_items_in_order_whatever_the_slots() {
    let items: Vec<u64> = (0..100).collect();
    for slots in [0, 1, 3, 8] {
        let budget = if slots == 0 { Budget::serial() } else { Budget::new(slots) };
        let out = budget.map(
            "square",
            &items,
            &mut 0u64,
            || 0u64,
            |calls, &x| {
                *calls += 1;
                x * x
            },
        );
        assert_eq!(out.unwrap(), items.iter().map(|x| x * x).collect::<Vec<_>>(), "{slots} slots");
        // Every slot is back.
        assert_eq!(budget.free(), slots);
    }
}

#[test]
fn leases_never_exceed_the_budget_and_come_back() {
    let budget = Budget::new(3);
    let a = budget.lease(2);
    let b = budget.lease(5);
    let c = budget.lease(1);
    assert_eq!((a.slots(), b.slots(), c.slots()), (2, 1, 0));
    drop(a);
    assert_eq!(budget.lease(9).slots(), 2);
    drop((b, c));
    assert_eq!(Budget::serial().lease(4).slots(), 0);
}

#[test]
fn a_panicking_helper_is_an_error() {
    let budget = Budget::new(4);
    let items: Vec<u32> = (0..64).collect();
    let out = budget.map(
        "evaluation",
        &items,
        &mut (),
        || (),
        |_, &x| {
            assert!(x != 40, "item forty");
            x
        },
    );
    let err = out.unwrap_err();
    assert_eq!(err.what, "evaluation");
    assert!(err.message.contains("item forty"), "{err}");
}
