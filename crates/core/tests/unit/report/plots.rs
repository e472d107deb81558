use slasim_core::report::plots::*;

fn figure() -> Figure {
    let series = |name: &str, colour, y0: f64| Series {
        name: name.into(),
        points: (1..=4).map(|k| (k as f64 * 0.25, y0 + k as f64, y0 + k as f64 - 0.5, y0 + k as f64 + 0.5)).collect(),
        band: true,
        error_bars: false,
        line: true,
        colour,
    };
    Figure {
        id: "t".into(),
        caption: "test".into(),
        panels: vec![Panel {
            title: "gain vs PoF_max".into(),
            x_label: "PoF_max".into(),
            y_label: "gain".into(),
            series: vec![series("a", 0, 10.0), series("b", 1, 12.0)],
            diagonal: false,
        }],
    }
}

#[test]
fn draws_svg_and_png() {
    let svg = figure().svg().unwrap();
    assert!(svg.starts_with("<svg") && svg.contains("gain vs PoF_max"), "{}", &svg[..200.min(svg.len())]);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.png");
    figure().png(&path).unwrap();
    let bytes = std::fs::read(&path).unwrap();
    assert_eq!(&bytes[1..4], b"PNG");
}
