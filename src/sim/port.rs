//! Typed connections between models, the way NeXosim wires a bench.
//!
//! Reference: NeXosim's output/input ports (a model sends on its output; the
//! bench, not the model, decides which model's input receives it).
//!
//! Contract:
//! - A model owns [`Output<T>`] ports and sends a `T` on them; it never names
//!   the model at the other end. An [`Input<T>`] is the typed entry point of a
//!   model kind: it turns a `T` for the model at an address into a kernel
//!   [`Event`]. The bench connects outputs to inputs when it assembles a
//!   simulation, so one model works in several assemblies (a client feeds a
//!   cluster in the single-cluster bench and the broker in the Grid bench).
//! - Sending on an output schedules one kernel event per connection, in
//!   connection order, at the given time and class. An unconnected output
//!   drops what is sent (a cluster's reply port in a bench without broker).

use crate::sim::event::Event;
use crate::sim::kernel::{Outbox, Priority, Scheduled};
use crate::units::Time;

/// The typed input of a model kind: how a `T` becomes an event for the model at an address.
pub struct Input<T> {
    route: fn(usize, T) -> Event,
}

impl<T> Clone for Input<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for Input<T> {}

impl<T> Input<T> {
    /// An input that delivers through `route`.
    pub const fn new(route: fn(usize, T) -> Event) -> Input<T> {
        Input { route }
    }
}

/// An output port: the inputs (and addresses) it is connected to.
pub struct Output<T> {
    links: Vec<(Input<T>, usize)>,
}

impl<T> Default for Output<T> {
    fn default() -> Self {
        Output { links: Vec::new() }
    }
}

impl<T> std::fmt::Debug for Output<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Output({:?})", self.links.iter().map(|(_, a)| *a).collect::<Vec<_>>())
    }
}

impl<T: Clone> Output<T> {
    /// An unconnected output.
    pub fn new() -> Output<T> {
        Output::default()
    }

    /// Connects this output to `input` of the model at `address`.
    pub fn connect(&mut self, input: Input<T>, address: usize) {
        self.links.push((input, address));
    }

    /// True if anything listens.
    pub fn is_connected(&self) -> bool {
        !self.links.is_empty()
    }

    /// Sends `msg` at `time` with class `priority` to every connected input.
    pub fn send(&self, time: Time, priority: Priority, msg: T, outbox: &mut Outbox<Event>) {
        if let Some(((last, last_address), rest)) = self.links.split_last() {
            for (input, address) in rest {
                outbox.push(Scheduled { time, priority, payload: (input.route)(*address, msg.clone()) });
            }
            outbox.push(Scheduled { time, priority, payload: (last.route)(*last_address, msg) });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::event::{ClientMsg, InjectorMsg};

    const TO_CLIENT: Input<u32> = Input::new(|i, _| Event::Client(i, ClientMsg::Occur));
    const TO_INJECTOR: Input<u32> = Input::new(|i, _| Event::Injector(i, InjectorMsg::Tick));

    #[test]
    fn sends_to_every_connection_in_order_and_drops_when_unconnected() {
        let mut out = Output::new();
        let mut outbox = Vec::new();
        out.send(5, Priority::Occurrence, 1, &mut outbox);
        assert!(outbox.is_empty() && !out.is_connected());
        out.connect(TO_INJECTOR, 3);
        out.connect(TO_CLIENT, 1);
        out.send(7, Priority::JobStart, 2, &mut outbox);
        let payloads: Vec<_> = outbox.iter().map(|s| (s.time, s.priority, s.payload.clone())).collect();
        assert_eq!(
            payloads,
            vec![
                (7, Priority::JobStart, Event::Injector(3, InjectorMsg::Tick)),
                (7, Priority::JobStart, Event::Client(1, ClientMsg::Occur)),
            ]
        );
    }
}
