//! Seeded random streams.
//!
//! Contract: every source of randomness (workload draws, failures, tie-breaks,
//! reservation picks) owns its own generator, derived from the experiment seed
//! and a [`Stream`] tag plus an index. Streams never share state, so adding draws
//! to one stream cannot shift the numbers another stream sees, and results do not
//! depend on thread count or on the order in which streams are created.

use rand::SeedableRng;

use crate::names::Named;
use rand_chacha::ChaCha8Rng;

/// A random stream's purpose: its name, and the number its derivation
/// mixes in, which must never be reused for another purpose. A kind declares
/// the streams it owns when it registers ([`crate::experiment::registry::Registry::add_stream`],
/// which refuses a name or a number taken); the purposes several kinds share
/// are the engine's ([`SHARED`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Stream {
    /// Its name (kebab-case).
    pub name: &'static str,
    /// The number its derivation mixes in.
    pub number: u64,
}

impl Stream {
    /// The stream `name` with derivation number `number`.
    pub const fn new(name: &'static str, number: u64) -> Stream {
        Stream { name, number }
    }
}

impl Named for Stream {
    fn name(&self) -> &'static str {
        self.name
    }
}

/// A synthetic workload's job attributes (the single cluster's and Slurm's generators).
pub const WORKLOAD_JOBS: Stream = Stream::new("workload-jobs", 1);
/// A synthetic workload's arrival process.
pub const WORKLOAD_ARRIVALS: Stream = Stream::new("workload-arrivals", 2);
/// Tie-breaking inside a scheduler.
pub const TIE_BREAK: Stream = Stream::new("tie-break", 4);
/// Which jobs of a week-shifted trace copy are kept (load scaling), and a
/// synthetic workload's load probe.
pub const LOAD_COPY: Stream = Stream::new("load-copy", 14);

/// The streams several kinds draw from, registered by every registry first.
pub const SHARED: [Stream; 4] = [WORKLOAD_JOBS, WORKLOAD_ARRIVALS, TIE_BREAK, LOAD_COPY];

/// SplitMix64 finaliser: a bijective 64-bit mixer (Steele et al., 2014).
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The generator for stream `stream`, instance `index`, of experiment seed `seed`.
pub fn stream(seed: u64, stream: Stream, index: u64) -> ChaCha8Rng {
    let key = mix(seed ^ mix(stream.number));
    let mut rng = ChaCha8Rng::seed_from_u64(key);
    // The ChaCha nonce separates instances of one stream without reseeding.
    rng.set_stream(index);
    rng
}
