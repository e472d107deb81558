//! `a3b-unshuffled`: Alg. 3b (backfill admission; co-reservation thesis
//! §4.5) with its variants tried in the order Listing 1 generates them
//! rather than shuffled. An ablation: how much of Alg. 3b's acceptance comes
//! from trying variants in a random order?

use rand_chacha::ChaCha8Rng;
use slasim::grid::algorithm::{BrokerStrategy, StatusPolicy};
use slasim::grid::lrs::Admission;
use slasim::grid::request::Tr;

/// Alg. 3b, variants in generation order.
#[derive(Debug, Clone, Copy, Default)]
pub struct Unshuffled;

impl BrokerStrategy for Unshuffled {
    fn status(&self) -> Option<StatusPolicy> {
        Some(StatusPolicy { admission: Admission::Backfill, wc_acc: None, costs: false })
    }

    /// Keeps Listing 1's order (start, then cluster, then part).
    fn arrange(&self, _trs: &mut [Tr], _rng: &mut ChaCha8Rng) {}
}
