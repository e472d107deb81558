use slasim_core::experiment::coordinator::*;

#[test]
fn shard_specs() {
    assert_eq!("2/4".parse::<Shard>(), Ok(Shard { index: 2, count: 4 }));
    for bad in ["3/2", "0/2", "1/0", "x/2", "2", "1/2/3", ""] {
        assert!(bad.parse::<Shard>().is_err(), "{bad}");
    }
    let s = Shard { index: 2, count: 3 };
    assert_eq!((0..7).filter(|&k| s.holds(k)).collect::<Vec<_>>(), vec![1, 4]);
}
