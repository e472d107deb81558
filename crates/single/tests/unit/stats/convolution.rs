use slasim_single::stats::convolution::*;

#[test]
fn small_hand_example() {
    let mut out = Vec::new();
    convolve_direct(&[0.5, 0.5], &[0.25, 0.75], &mut out);
    assert_eq!(out, vec![0.125, 0.5, 0.375]);
    let mut c = Convolver::new();
    c.convolve_fft(&[0.5, 0.5], &[0.25, 0.75], &mut out);
    for (x, y) in out.iter().zip([0.125, 0.5, 0.375]) {
        assert!((x - y).abs() < 1e-15);
    }
}
