//! FFT convolution equals the direct sum on random PDFs.

use crate::common;

use proptest::prelude::*;
use slasim::single::stats::convolution::{Convolver, convolve_direct};

fn pdf(max_len: usize) -> impl Strategy<Value = Vec<f64>> {
    prop::collection::vec(0.0..1.0f64, 1..max_len).prop_map(|v| {
        let sum: f64 = v.iter().sum::<f64>().max(1e-300);
        v.into_iter().map(|x| x / sum).collect()
    })
}

proptest! {
    #![proptest_config(common::testing::cases(200))]

    #[test]
    fn fft_equals_direct_to_1e_12(a in pdf(1500), b in pdf(1500)) {
        let mut direct = Vec::new();
        let mut fft = Vec::new();
        convolve_direct(&a, &b, &mut direct);
        let mut c = Convolver::new();
        c.convolve_fft(&a, &b, &mut fft);
        prop_assert_eq!(direct.len(), fft.len());
        for (x, y) in direct.iter().zip(&fft) {
            prop_assert!((x - y).abs() < 1e-12, "{} vs {}", x, y);
        }
        // The engine's own choice agrees too, and the result is a PDF.
        let mut chosen = Vec::new();
        c.convolve(&a, &b, &mut chosen);
        prop_assert!((chosen.iter().sum::<f64>() - 1.0).abs() < 1e-9);
    }
}
