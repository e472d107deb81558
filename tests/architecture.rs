//! The crate's structure, read from its own `crate::` paths: the simulator
//! core imports no domain module, no arrow runs up from the cluster or the
//! workload to the layers built on them, the cluster holds no service, and
//! files import each other without cycles.
//!
//! Every `crate::a::b::…` path in a file (in `use` lines and in code) is an
//! arrow to the file that defines `a::b` (`src/a/b.rs` or `src/a/b/mod.rs`,
//! else the longest prefix that is a file). Test modules count as well;
//! comments do not.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The file (relative to `src/`) that module path `segments` lives in.
fn file_of(src: &Path, segments: &[&str]) -> Option<String> {
    for n in (1..=segments.len()).rev() {
        let base = segments[..n].join("/");
        for candidate in [format!("{base}.rs"), format!("{base}/mod.rs")] {
            if src.join(&candidate).is_file() {
                return Some(candidate);
            }
        }
    }
    None
}

/// File → the files it names through `crate::` paths.
fn graph() -> BTreeMap<String, BTreeSet<String>> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&src, &mut files);
    let mut graph = BTreeMap::new();
    for file in files {
        let me = file.strip_prefix(&src).unwrap().to_string_lossy().replace('\\', "/");
        // Comments (docs' links included) name modules without importing them.
        let text: String = std::fs::read_to_string(&file)
            .unwrap()
            .lines()
            .map(|l| l.split("//").next().unwrap_or(""))
            .collect::<Vec<_>>()
            .join("\n");
        let mut to = BTreeSet::new();
        for (i, _) in text.match_indices("crate::") {
            let rest = &text[i + "crate::".len()..];
            let path: String = rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_' || *c == ':').collect();
            let segments: Vec<&str> = path.split("::").filter(|s| !s.is_empty()).collect();
            // `crate::{a, b}` groups: each member on its own.
            if let Some(group) = rest.strip_prefix('{') {
                let group: String = group.chars().take_while(|c| *c != '}').collect();
                for member in group.split(',') {
                    let segs: Vec<&str> = member.trim().split("::").filter(|s| !s.is_empty()).collect();
                    if let Some(f) = file_of(&src, &segs) {
                        to.insert(f);
                    }
                }
            } else if let Some(f) = file_of(&src, &segments) {
                to.insert(f);
            }
        }
        to.remove(&me);
        graph.insert(me, to);
    }
    graph
}

#[test]
fn the_simulator_core_imports_no_domain_module() {
    let graph = graph();
    let mut wrong = Vec::new();
    for (file, to) in graph.iter().filter(|(f, _)| f.starts_with("sim/")) {
        for target in to.iter().filter(|t| !t.starts_with("sim/") && *t != "units.rs") {
            wrong.push(format!("{file} -> {target}"));
        }
    }
    assert!(wrong.is_empty(), "sim/ imports domain modules: {wrong:#?}");
    // The test reads paths: it must see the core's own arrows.
    assert!(graph["sim/bench.rs"].contains("sim/kernel.rs"));
}

/// The arrows from files under `from` to files under `to` (directories of `src/`).
fn arrows(graph: &BTreeMap<String, BTreeSet<String>>, from: &str, to: &str) -> Vec<String> {
    graph
        .iter()
        .filter(|(f, _)| f.starts_with(from))
        .flat_map(|(f, targets)| targets.iter().filter(|t| t.starts_with(to)).map(move |t| format!("{f} -> {t}")))
        .collect()
}

#[test]
fn no_arrow_runs_up_from_the_cluster_or_the_workload() {
    // The cluster is mechanics: the Grid attaches its services from outside.
    // A workload is data: it names no scheduler, Grid or statistics.
    let graph = graph();
    for (from, to) in [("cluster/", "grid/"), ("workload/", "grid/"), ("workload/", "policy/"), ("workload/", "stats/")]
    {
        let wrong = arrows(&graph, from, to);
        assert!(wrong.is_empty(), "{from} imports {to}: {wrong:#?}");
    }
    // The test reads paths: it must see real arrows the other way.
    assert!(arrows(&graph, "grid/", "cluster/").contains(&"grid/bench.rs -> cluster/mod.rs".to_string()));
    assert!(arrows(&graph, "grid/", "workload/").contains(&"grid/broker.rs -> workload/corequest.rs".to_string()));
    assert!(arrows(&graph, "stats/", "workload/").contains(&"stats/pos.rs -> workload/failure_law.rs".to_string()));
}

/// The `src/` files under `dir` whose text (comments included) contains `needle`, ignoring case.
fn files_naming(dir: &str, needle: &str) -> Vec<String> {
    let mut files = Vec::new();
    sources(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src").join(dir), &mut files);
    files
        .into_iter()
        .filter(|f| std::fs::read_to_string(f).unwrap().to_lowercase().contains(needle))
        .map(|f| f.to_string_lossy().into_owned())
        .collect()
}

#[test]
fn the_cluster_holds_no_service() {
    // The PoF calibrator is overbooking's, the reservation service the
    // Grid's: both attach around the strategy from outside.
    for needle in ["calibrat", "crate::grid"] {
        let found = files_naming("cluster", needle);
        assert!(found.is_empty(), "src/cluster names `{needle}`: {found:#?}");
    }
    // The scan reads real files: the calibrator is found where it lives.
    assert!(!files_naming("policy", "calibrat").is_empty());
}

/// Strongly connected groups of more than one file (Tarjan).
fn cycles(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    struct State<'a> {
        graph: &'a BTreeMap<String, BTreeSet<String>>,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        on_stack: BTreeSet<&'a str>,
        found: Vec<Vec<String>>,
    }
    fn visit<'a>(s: &mut State<'a>, v: &'a str) {
        let i = s.index.len();
        s.index.insert(v, i);
        s.low.insert(v, i);
        s.stack.push(v);
        s.on_stack.insert(v);
        for w in s.graph.get(v).into_iter().flatten() {
            let w = w.as_str();
            if !s.index.contains_key(w) {
                visit(s, w);
                let low = s.low[v].min(s.low[w]);
                s.low.insert(v, low);
            } else if s.on_stack.contains(w) {
                let low = s.low[v].min(s.index[w]);
                s.low.insert(v, low);
            }
        }
        if s.low[v] == s.index[v] {
            let mut group = Vec::new();
            while let Some(w) = s.stack.pop() {
                s.on_stack.remove(w);
                group.push(w.to_string());
                if w == v {
                    break;
                }
            }
            if group.len() > 1 {
                group.sort();
                s.found.push(group);
            }
        }
    }
    let mut s = State {
        graph,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        found: Vec::new(),
    };
    for v in graph.keys() {
        if !s.index.contains_key(v.as_str()) {
            visit(&mut s, v);
        }
    }
    s.found
}

#[test]
fn no_import_cycle() {
    // The kernel, the models, the strategies and the point kinds are acyclic:
    // a model kind imports the core, a strategy the interface it implements,
    // a point kind the inputs and ids it reads; never the other way round.
    let found = cycles(&graph());
    assert!(found.is_empty(), "import cycles: {found:#?}");
}

#[test]
fn the_cycle_finder_finds_a_cycle() {
    let mut g = BTreeMap::new();
    g.insert("a.rs".to_string(), BTreeSet::from(["b.rs".to_string()]));
    g.insert("b.rs".to_string(), BTreeSet::from(["a.rs".to_string()]));
    g.insert("c.rs".to_string(), BTreeSet::from(["a.rs".to_string()]));
    assert_eq!(cycles(&g), vec![vec!["a.rs".to_string(), "b.rs".to_string()]]);
}
