use slasim_sim::kernel::{Class, Model, ModelId, Outbox, To};
use slasim_sim::port::*;
use slasim_sim::units::Time;

struct Counter;
struct Echo;

impl Model for Counter {
    type Msg = u64;
    fn handle(&mut self, _: Time, _: u64, outbox: Outbox<u64>) -> Outbox<u64> {
        outbox
    }
}

impl Receive<u32> for Counter {
    fn receive(item: u32) -> u64 {
        u64::from(item) * 10
    }
}

impl Model for Echo {
    type Msg = String;
    fn handle(&mut self, _: Time, _: String, outbox: Outbox<String>) -> Outbox<String> {
        outbox
    }
}

impl Receive<u32> for Echo {
    fn receive(item: u32) -> String {
        item.to_string()
    }
}

#[test]
fn sends_to_every_connection_in_order_and_drops_when_unconnected() {
    let mut out = Output::new();
    let mut outbox: Outbox<()> = Vec::new();
    out.send(5, Class(5), 1u32, &mut outbox);
    assert!(outbox.is_empty() && !out.is_connected());
    out.connect(Address::<Echo>::new(ModelId(3)).input());
    out.connect(Address::<Counter>::new(ModelId(1)).input());
    out.send(7, Class(4), 2, &mut outbox);
    let sent: Vec<_> = outbox
        .into_iter()
        .map(|s| match s.to {
            To::Model(to, msg) => (s.time, s.class, to, msg),
            To::Me(()) => panic!("an output never sends to its own model"),
        })
        .collect();
    assert_eq!(sent.len(), 2);
    assert_eq!((sent[0].0, sent[0].1, sent[0].2), (7, Class(4), ModelId(3)));
    assert_eq!(sent[0].3.get::<String>().map(String::as_str), Some("2"));
    assert_eq!((sent[1].0, sent[1].1, sent[1].2), (7, Class(4), ModelId(1)));
    assert_eq!(sent[1].3.get::<u64>(), Some(&20));
}
