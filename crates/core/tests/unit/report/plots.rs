use slasim_core::report::plots::*;

fn figure() -> Figure {
    let series = |name: &str, colour, y0: f64| Series {
        name: name.into(),
        points: (1..=4).map(|k| (k as f64 * 0.25, y0 + k as f64, y0 + k as f64 - 0.5, y0 + k as f64 + 0.5)).collect(),
        band: true,
        error_bars: false,
        line: true,
        colour,
        ..Default::default()
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
            ..Default::default()
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

/// Two series on the same points: both named, neither hidden.
fn overlapping(a: Series, b: Series) -> Figure {
    Figure {
        id: "overlap".into(),
        caption: "two series on one spot".into(),
        panels: vec![Panel { title: "overlap".into(), series: vec![a, b], ..Default::default() }],
    }
}

fn dots(name: &str, colour: usize) -> Series {
    Series {
        name: name.into(),
        points: vec![(1.0, 2.0, 1.5, 2.5), (2.0, 3.0, 2.5, 3.5)],
        error_bars: true,
        colour,
        ..Default::default()
    }
}

/// The `<text>` contents of an SVG.
fn texts(svg: &str) -> Vec<String> {
    svg.split("<text")
        .skip(1)
        .filter_map(|t| Some(t.split_once('>')?.1.split_once("</text>")?.0.trim().to_string()))
        .collect()
}

#[test]
fn every_series_is_named_in_its_own_colour() {
    let svg = overlapping(dots("conservative-backfilling", 0), dots("comprehensive-overbooking", 1)).svg().unwrap();
    let texts = texts(&svg);
    for name in ["conservative-backfilling", "comprehensive-overbooking"] {
        assert!(texts.iter().any(|t| t == name), "legend lacks {name}: {texts:?}");
    }
    // The palette's first two colours, each at the points and in the legend.
    for colour in ["#1F77B4", "#FF7F0E"] {
        assert!(svg.matches(colour).count() >= 3, "{colour} missing");
    }
}

#[test]
fn series_alike_get_different_markers() {
    // The same colour and default marker: the second must be told apart.
    let figure = overlapping(dots("front", 2), dots("points", 2));
    let styles = figure.panels[0].styles();
    assert_ne!(styles[0], styles[1]);
    assert_ne!(styles[0].marker, styles[1].marker);
    let svg = figure.svg().unwrap();
    let texts = texts(&svg);
    assert!(texts.iter().any(|t| t == "front") && texts.iter().any(|t| t == "points"), "{texts:?}");
    // A circle for the first, a polygon (square) for the second, at the
    // points and beside each name.
    assert!(svg.matches("<circle").count() >= 3 && svg.matches("<polygon").count() >= 3, "{svg}");
    // Many series alike still all differ.
    let many = Panel { series: (0..20).map(|k| dots(&format!("s{k}"), 0)).collect(), ..Default::default() };
    let styles = many.styles();
    for (i, a) in styles.iter().enumerate() {
        assert!(styles[..i].iter().all(|b| b != a), "series {i} looks like an earlier one");
    }
}

#[test]
fn a_palette_keeps_a_name_in_its_colour() {
    let palette = Palette::new(["sla-aware", "cats", "carbon-time", "cats"]);
    assert_eq!(palette.colour("carbon-time"), 0);
    assert_eq!(palette.colour("sla-aware"), 2);
    assert_ne!(palette.colour("unknown"), palette.colour("sla-aware"));
}

#[test]
fn ticks_never_repeat() {
    for (lo, hi) in [(0.025, 0.052), (0.0, 1.0), (-3.3, 12_000.0), (99.0, 101.0), (0.001, 0.0011)] {
        let (ticks, decimals) = ticks(lo, hi, 8);
        assert!(ticks.len() >= 2, "{lo}..{hi}: {ticks:?}");
        let printed: Vec<String> = ticks.iter().map(|t| format!("{t:.decimals$}")).collect();
        let mut unique = printed.clone();
        unique.dedup();
        assert_eq!(printed, unique, "{lo}..{hi}");
        assert!(printed.iter().all(|p| !p.starts_with("-0") || !p.trim_start_matches(['-', '0', '.']).is_empty()));
    }
}

#[test]
fn a_categorical_axis_names_its_categories() {
    let series =
        Series { name: "cpu".into(), points: vec![(0.0, 1.0, 1.0, 1.0), (1.0, 2.0, 2.0, 2.0)], ..Default::default() };
    let figure = Figure {
        id: "c".into(),
        caption: "c".into(),
        panels: vec![Panel {
            series: vec![series],
            x_categories: vec!["qos.txt".into(), "qos-maxjobs-3.txt".into()],
            ..Default::default()
        }],
    };
    let texts = texts(&figure.svg().unwrap());
    for name in ["qos.txt", "qos-maxjobs-3.txt"] {
        assert_eq!(texts.iter().filter(|t| *t == name).count(), 1, "{texts:?}");
    }
    assert!(!texts.iter().any(|t| t == "0.50" || t == "1.00"), "no numeric ticks: {texts:?}");
}

#[test]
fn a_time_axis_takes_the_unit_of_its_scale() {
    assert_eq!(TimeUnit::of(100.0).name, "s");
    assert_eq!(TimeUnit::of(3000.0).name, "min");
    assert_eq!(TimeUnit::of(-30_000.0).name, "h");
    assert_eq!(TimeUnit::of(f64::NAN).name, "s");
}
