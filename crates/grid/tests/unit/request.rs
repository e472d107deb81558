use slasim_core::units::Time;
use slasim_grid::request::*;
use slasim_grid::workload::corequest::CoRequest;

fn request(earliest: Time, deadline: Time, duration: Time) -> CoRequest {
    CoRequest {
        id: 0,
        submit: 0,
        earliest_start: earliest,
        deadline,
        duration,
        parts: vec![50, 100],
        start_weight: 0.0,
        template: -1,
    }
}

#[test]
fn table_5_variant_counts() {
    // Table 5 (z = 1): rows r = 1..4, columns c = 4, 8, 12.
    let table = [[4, 8, 12], [12, 56, 132], [24, 336, 1320], [24, 1680, 11880]];
    for (r, row) in table.iter().enumerate() {
        for (k, &c) in [4u64, 8, 12].iter().enumerate() {
            assert_eq!(variant_count(1, c, r as u64 + 1), row[k], "r = {}, c = {c}", r + 1);
        }
    }
    // The thesis' example: 3 start times, 4 clusters, 2 parts → 36 variants.
    assert_eq!(variant_count(3, 4, 2), 36);
    assert_eq!(variant_count(1, 2, 3), 0);
}

#[test]
fn the_fig_3_request_has_a_nine_hour_span() {
    let r = request(1_088_764_000, 1_088_800_000, 3600);
    assert_eq!(r.span(), 32_400);
    assert_eq!(r.sorted_parts(), vec![100, 50]);
}

#[test]
fn start_grid_counts_and_spacing() {
    // Span 21,600 s (§6.8): increment max(300, 21600/20) = 1080, 20 starts.
    let r = request(1000, 1000 + 3600 + 21_600, 3600);
    let g = StartGrid::new(&r, 300, 20, Enumeration::AtMostW);
    assert_eq!((g.increment, g.count), (1080, 20));
    assert_eq!(g.last(), 1000 + 19 * 1080);
    // The literal listing also takes f_start + 21,600.
    let g = StartGrid::new(&r, 300, 20, Enumeration::Literal);
    assert_eq!(g.count, 21);
    // w = 1 gives only the earliest start: the rigid request.
    let g = StartGrid::new(&r, 1, 1, Enumeration::AtMostW);
    assert_eq!(g.starts().collect::<Vec<_>>(), vec![1000]);
    // minsize dominates a short span: 600 s span, minsize 300 → 3 starts.
    let short = request(0, 600 + 100, 100);
    let g = StartGrid::new(&short, 300, 20, Enumeration::AtMostW);
    assert_eq!(g.starts().collect::<Vec<_>>(), vec![0, 300, 600]);
    // Zero span: one start; negative span: none.
    assert_eq!(StartGrid::new(&request(0, 100, 100), 300, 20, Enumeration::AtMostW).count, 1);
    assert_eq!(StartGrid::new(&request(0, 99, 100), 300, 20, Enumeration::AtMostW).count, 0);
}

#[test]
fn minsize_1_and_200_starts_on_7_clusters_give_8400_variants() {
    // A span long enough for 200 starts at minsize 1.
    let r = request(0, 100_000, 3600);
    let g = StartGrid::new(&r, 1, 200, Enumeration::AtMostW);
    assert_eq!(g.count, 200);
    let trs = all_trs(&g, &[1160; 7], &r.sorted_parts());
    assert_eq!(trs.len(), 200 * 7 * 2);
    assert_eq!(variant_count(u64::from(g.count), 7, 2), 8400);
    // Listing 1's nesting: start outermost, then cluster, then part.
    assert_eq!(
        &trs[..3],
        &[
            Tr { cluster: 0, part: 0, start: 0, cost: 0.0 },
            Tr { cluster: 0, part: 1, start: 0, cost: 0.0 },
            Tr { cluster: 1, part: 0, start: 0, cost: 0.0 },
        ]
    );
    // A cluster too small for the larger part offers only the smaller.
    let trs = all_trs(&g, &[1160, 60], &r.sorted_parts());
    assert_eq!(trs.iter().filter(|t| t.cluster == 1).count(), 200);
    assert!(trs.iter().filter(|t| t.cluster == 1).all(|t| t.part == 1));
}
