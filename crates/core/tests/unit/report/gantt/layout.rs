use slasim_core::report::gantt::layout::*;
use slasim_core::units::{DAY, Time};

fn item(job: u32, start: Time, end: Time, nodes: Vec<u32>, mark: Mark) -> Item {
    Item {
        job,
        swf_id: i64::from(job),
        start,
        end,
        nodes,
        mark,
        overbooked: false,
        planned_start: None,
        planned_end: None,
        link: None,
        cpus: 0,
        provision: None,
    }
}

fn source() -> Source {
    Source {
        title: "t".into(),
        bands: vec![BandSource {
            label: "c".into(),
            nodes: 8,
            items: vec![item(0, 0, 100, vec![0, 1, 2, 5], Mark::Success), item(1, 100, 200, vec![3], Mark::Failed)],
            outages: vec![Outage { node: 4, from: 150, to: 250, kind: OutageKind::Down }],
            ..BandSource::default()
        }],
    }
}

#[test]
fn runs_split_at_gaps() {
    assert_eq!(runs(&[0, 1, 2, 5, 7, 8]).collect::<Vec<_>>(), vec![(0, 2), (5, 5), (7, 8)]);
    assert_eq!(runs(&[]).count(), 0);
}

#[test]
fn bars_cover_nodes_once_and_rows_merge() {
    let chart = layout(&source(), None).unwrap();
    let nodes: Vec<(u32, u32, u32)> = chart.bars.iter().map(|b| (b.item.job, b.first, b.last)).collect();
    assert_eq!(nodes, vec![(0, 0, 2), (0, 5, 5), (1, 3, 3)]);
    let rows: Vec<&str> = chart.rows.iter().map(|r| r.label.as_str()).collect();
    assert_eq!(rows, vec!["0–2", "3", "4", "5", "6–7"]);
    assert_eq!(chart.shades.len(), 1);
    assert_eq!(chart.window, Window { from: 0, to: 200 });
}

#[test]
fn an_empty_window_is_an_error() {
    let e = layout(&source(), Some(Window { from: 500, to: 600 })).unwrap_err();
    assert!(e.to_string().contains("[500, 600)"), "{e}");
    assert!(layout(&source(), Some(Window { from: 50, to: 50 })).is_err());
}

#[test]
fn parts_of_one_request_are_linked_across_bands() {
    let part = |job, swf_id, start| Item {
        link: Some(job),
        cpus: 16,
        swf_id,
        ..item(job, start, start + 50, Vec::new(), Mark::Reserved)
    };
    let mut s = source();
    let mut other = s.bands[0].clone();
    s.bands[0].lanes = vec![part(7, 0, 10), part(8, 0, 20)];
    other.lanes = vec![part(7, 1, 10)];
    s.bands.push(other);
    let chart = layout(&s, None).unwrap();
    let links: Vec<&Line> = chart.lines.iter().filter(|l| l.kind == LineKind::Link).collect();
    assert_eq!(links.len(), 1, "{links:?}");
    assert_eq!(links[0].job, 7);
    // Overlapping parts on one cluster take two lanes; nodes start below them.
    assert_eq!(chart.bands[0].nodes_y0, 2);
    assert!(chart.bands[1].y0 > chart.bands[0].y1);
    let lanes: Vec<(u32, u32)> = chart.bars.iter().filter(|b| b.lane && b.band == 0).map(|b| (b.y0, b.y1)).collect();
    assert_eq!(lanes, vec![(0, 1), (1, 2)]);
}

#[test]
fn the_busiest_week_holds_the_most_work() {
    let mut s = source();
    s.bands[0].items.push(item(2, 20 * DAY, 22 * DAY, vec![0, 1, 2, 3, 4, 5, 6, 7], Mark::Success));
    let (w, busiest) = busiest_week(&s).unwrap();
    assert!(busiest);
    assert!(w.from <= 20 * DAY && w.to >= 22 * DAY, "{w:?}");
}
