//! Discrete convolution of probability vectors, by FFT with cached plans.
//!
//! Reference: `overbooking-dissertation-spec.md` §2.6 (PDF_combined =
//! PDF_joint ∘ PDF_newjob, computed with FFT).
//!
//! Contract: [`Convolver::convolve`] writes `a ∗ b` (length `a.len() + b.len() − 1`)
//! into the caller's buffer. Long inputs go through one complex FFT of size
//! N = 2^⌈log2(len)⌉ with both real inputs packed into it (`a + i·b`), then one
//! inverse FFT; plans are built once per size and reused, and all buffers are
//! kept, so repeated calls do not allocate. Short inputs use the direct sum.
//! Tiny negative values from rounding are clamped to 0.

use std::collections::HashMap;
use std::sync::Arc;

use rustfft::num_complex::Complex64;
use rustfft::{Fft, FftPlanner};

/// Below this length of the shorter input the direct sum is faster.
const DIRECT_BELOW: usize = 48;

/// The forward and inverse FFT plans of one size.
type Plans = (Arc<dyn Fft<f64>>, Arc<dyn Fft<f64>>);

/// A convolution engine with cached FFT plans and buffers.
pub struct Convolver {
    planner: FftPlanner<f64>,
    plans: HashMap<usize, Plans>,
    buf: Vec<Complex64>,
    spectrum: Vec<Complex64>,
    scratch: Vec<Complex64>,
}

impl Default for Convolver {
    fn default() -> Self {
        Convolver::new()
    }
}

impl std::fmt::Debug for Convolver {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Convolver").field("cached_sizes", &self.plans.len()).finish()
    }
}

impl Convolver {
    /// An empty engine.
    pub fn new() -> Convolver {
        Convolver {
            planner: FftPlanner::new(),
            plans: HashMap::new(),
            buf: Vec::new(),
            spectrum: Vec::new(),
            scratch: Vec::new(),
        }
    }

    /// `out = a ∗ b`, choosing the direct sum or the FFT by size.
    pub fn convolve(&mut self, a: &[f64], b: &[f64], out: &mut Vec<f64>) {
        if a.len().min(b.len()) < DIRECT_BELOW {
            convolve_direct(a, b, out);
        } else {
            self.convolve_fft(a, b, out);
        }
    }

    /// `out = a ∗ b` by FFT, whatever the sizes.
    pub fn convolve_fft(&mut self, a: &[f64], b: &[f64], out: &mut Vec<f64>) {
        out.clear();
        if a.is_empty() || b.is_empty() {
            return;
        }
        let len = a.len() + b.len() - 1;
        let n = len.next_power_of_two();
        let (forward, inverse) =
            self.plans.entry(n).or_insert_with(|| (self.planner.plan_fft_forward(n), self.planner.plan_fft_inverse(n)));
        let (forward, inverse) = (Arc::clone(forward), Arc::clone(inverse));
        let scratch_len = forward.get_inplace_scratch_len().max(inverse.get_inplace_scratch_len());
        if self.scratch.len() < scratch_len {
            self.scratch.resize(scratch_len, Complex64::default());
        }

        // Pack both real inputs: z = a + i·b, zero-padded to n. Each element
        // is written once (no zero fill first: these buffers are megabytes),
        // in runs so the loop has no per-element bounds test.
        let both = a.len().min(b.len());
        self.buf.clear();
        self.buf.extend(a[..both].iter().zip(&b[..both]).map(|(&x, &y)| Complex64::new(x, y)));
        self.buf.extend(a[both..].iter().map(|&x| Complex64::new(x, 0.0)));
        self.buf.extend(b[both..].iter().map(|&y| Complex64::new(0.0, y)));
        self.buf.resize(n, Complex64::new(0.0, 0.0));
        forward.process_with_scratch(&mut self.buf, &mut self.scratch[..scratch_len]);

        // A_k = (Z_k + conj Z_{N−k}) / 2, B_k = (Z_k − conj Z_{N−k}) / 2i; C_k = A_k·B_k.
        // Z_{N−k} for k ≥ 1 is the reversed tail, so no index is reduced mod N.
        let product = |z: Complex64, mirror: Complex64| {
            let zc = mirror.conj();
            let ak = (z + zc) * 0.5;
            let bk = (z - zc) * Complex64::new(0.0, -0.5);
            ak * bk
        };
        let buf = &self.buf;
        self.spectrum.clear();
        self.spectrum.push(product(buf[0], buf[0]));
        self.spectrum.extend(buf[1..].iter().zip(buf[1..].iter().rev()).map(|(&z, &mirror)| product(z, mirror)));
        inverse.process_with_scratch(&mut self.spectrum, &mut self.scratch[..scratch_len]);
        let scale = 1.0 / n as f64;
        out.extend(self.spectrum[..len].iter().map(|c| (c.re * scale).max(0.0)));
    }
}

/// `out = a ∗ b` by the direct sum.
pub fn convolve_direct(a: &[f64], b: &[f64], out: &mut Vec<f64>) {
    out.clear();
    if a.is_empty() || b.is_empty() {
        return;
    }
    out.resize(a.len() + b.len() - 1, 0.0);
    for (i, &x) in a.iter().enumerate() {
        if x == 0.0 {
            continue;
        }
        for (o, &y) in out[i..].iter_mut().zip(b) {
            *o += x * y;
        }
    }
}
