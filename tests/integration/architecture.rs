//! The workspace's structure: its crates depend on one another only
//! downwards (read from their manifests, so the compiler holds each border),
//! and inside each crate, read from its own paths, no arrow runs up from the
//! cluster or the workload to the layers built on them, the cluster holds no
//! service, and files import each other without cycles.
//!
//! Every path in a file (in `use` lines and in code) is an arrow to the file
//! of the same crate that defines it (`src/a/b.rs` or `src/a/b/mod.rs`, else
//! the longest prefix that is a file): `crate::a::b::…`, and relative ones too (`super::…`,
//! `self::…`, and `x::…` through a child module `x` the file declares). A
//! child module may use what its enclosing modules define: those arrows are
//! left out. Test modules count as well; comments do not.

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

/// The module path of a file under `src/`: `a/b.rs` and `a/b/mod.rs` are `a::b`.
fn module_of(file: &str) -> Vec<String> {
    let mut parts: Vec<String> = file.trim_end_matches(".rs").split('/').map(String::from).collect();
    if matches!(parts.last().map(String::as_str), Some("mod" | "lib" | "main")) {
        parts.pop();
    }
    parts
}

fn is_ident(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// The module paths `text` names, from the crate root: every `crate::…`,
/// every relative `self::…` and `super::…` (from `module`, or from its
/// inline `#[cfg(test)] mod` below where that starts), and every `x::…`
/// through a child module `x` the file declares (`mod x;`).
fn named_paths(text: &str, module: &[String]) -> Vec<Vec<String>> {
    let inline = text.find("#[cfg(test)]\nmod ").map(|at| {
        let name: String =
            text[at..].trim_start_matches("#[cfg(test)]\nmod ").chars().take_while(|c| is_ident(*c)).collect();
        (at, name)
    });
    let children: Vec<String> = text
        .lines()
        .filter_map(|l| {
            let l = l.trim_start();
            let l = l.strip_prefix("pub(crate) ").or_else(|| l.strip_prefix("pub ")).unwrap_or(l);
            let name = l.strip_prefix("mod ")?.strip_suffix(';')?;
            name.chars().all(is_ident).then(|| name.to_string())
        })
        .collect();
    let mut heads: Vec<String> = ["crate::", "self::", "super::"].map(String::from).to_vec();
    heads.extend(children.iter().map(|c| format!("{c}::")));
    let mut out = Vec::new();
    for head in &heads {
        for (i, _) in text.match_indices(head.as_str()) {
            // A path starts here, not in the middle of another (`a::self::`, `my_crate::`).
            if text[..i].chars().next_back().is_some_and(|c| is_ident(c) || c == ':') {
                continue;
            }
            let mut base: Vec<String> = match &inline {
                Some((at, name)) if i > *at => module.iter().cloned().chain([name.clone()]).collect(),
                _ => module.to_vec(),
            };
            let mut rest = &text[i..];
            match head.as_str() {
                "crate::" => {
                    base.clear();
                    rest = &rest["crate::".len()..];
                }
                "self::" | "super::" => loop {
                    if let Some(r) = rest.strip_prefix("super::") {
                        base.pop();
                        rest = r;
                    } else if let Some(r) = rest.strip_prefix("self::") {
                        rest = r;
                    } else {
                        break;
                    }
                },
                _ => {}
            }
            // `a::{b, c}` groups: each member on its own.
            let path: String = rest.chars().take_while(|c| is_ident(*c) || *c == ':').collect();
            let mut prefix: Vec<String> = base;
            prefix.extend(path.split("::").filter(|s| !s.is_empty()).map(String::from));
            if let Some(group) = rest[path.len()..].strip_prefix('{') {
                let group: String = group.chars().take_while(|c| *c != '}').collect();
                for member in group.split(',') {
                    let mut segments = prefix.clone();
                    segments
                        .extend(member.trim().split("::").filter(|s| !s.is_empty() && *s != "self").map(String::from));
                    out.push(segments);
                }
            } else {
                out.push(prefix);
            }
        }
    }
    out
}

/// File → the files it names (see [`named_paths`]), for the crate whose
/// sources are under `src`. A child module may use what its enclosing
/// modules define (it is part of them): those arrows are left out.
fn graph_of(src: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let mut files = Vec::new();
    sources(src, &mut files);
    let mut graph = BTreeMap::new();
    for file in files {
        let me = file.strip_prefix(src).unwrap().to_string_lossy().replace('\\', "/");
        let module = module_of(&me);
        // Comments (docs' links included) name modules without importing them.
        let text: String = std::fs::read_to_string(&file)
            .unwrap()
            .lines()
            .map(|l| l.split("//").next().unwrap_or(""))
            .collect::<Vec<_>>()
            .join("\n");
        let mut to = BTreeSet::new();
        for segments in named_paths(&text, &module) {
            let segments: Vec<&str> = segments.iter().map(String::as_str).collect();
            if let Some(f) = file_of(src, &segments) {
                let target = module_of(&f);
                let enclosing = target.len() < module.len() && module.starts_with(&target);
                if !enclosing {
                    to.insert(f);
                }
            }
        }
        to.remove(&me);
        graph.insert(me, to);
    }
    graph
}

/// The workspace's crates, from the bottom up: (directory, package, level).
/// A crate may depend only on crates of a lower level: the data on the
/// kernel's units; the engine, and the machine model, on the data; the kind
/// crates on the engine, the machine model, the data and the kernel; those built on the single cluster's model (the Grid,
/// provisioning and pricing, the environments) on its crate too.
const CRATES: [(&str, &str, usize); 12] = [
    ("crates/sim", "slasim-sim", 0),
    ("crates/data", "slasim-data", 1),
    ("crates/core", "slasim-core", 2),
    ("crates/machine", "slasim-machine", 2),
    ("crates/single", "slasim-single", 3),
    ("crates/slurm", "slasim-slurm", 3),
    ("crates/grid", "slasim-grid", 4),
    ("crates/provision", "slasim-provision", 4),
    ("crates/sla-machine", "slasim-sla-machine", 4),
    // The environments step the kinds' points: the single cluster's and an
    // sla-machine point's.
    ("crates/gym", "slasim-gym", 5),
    (".", "slasim", 6),
    ("examples/custom-strategy", "slasim-custom-strategy", 7),
];

/// The slasim packages in `[dependencies]` of `dir/Cargo.toml`.
fn normal_dependencies(dir: &str) -> BTreeSet<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let manifest: toml::Table = std::fs::read_to_string(root.join(dir).join("Cargo.toml")).unwrap().parse().unwrap();
    manifest
        .get("dependencies")
        .and_then(|t| t.as_table())
        .map(|t| t.keys().filter(|k| k.starts_with("slasim")).cloned().collect())
        .unwrap_or_default()
}

#[test]
fn the_architecture_page_draws_the_crates_as_cargo_does() {
    // The page's `cargo tree` block: each crate at the start of a line, its
    // slasim dependencies on the `├──`/`└──` lines below it.
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let page = std::fs::read_to_string(root.join("docs/src/dev/architecture.md")).unwrap();
    let start = page.find("$ cargo tree --workspace").expect("architecture.md: the cargo tree block");
    let block = &page[start..page[start..].find("\n```").map_or(page.len(), |e| start + e)];
    let mut drawn: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut current = String::new();
    for line in block.lines().skip(1) {
        match line.strip_prefix("├── ").or_else(|| line.strip_prefix("└── ")) {
            Some(dep) => {
                drawn.get_mut(&current).expect("a dependency under its crate").insert(dep.to_string());
            }
            None => {
                current = line.trim().to_string();
                drawn.insert(current.clone(), BTreeSet::new());
            }
        }
    }
    let manifests: BTreeMap<String, BTreeSet<String>> =
        CRATES.iter().map(|(dir, package, _)| (package.to_string(), normal_dependencies(dir))).collect();
    assert_eq!(drawn, manifests, "architecture.md's cargo tree block against the manifests");
}

/// The single-cluster kind's graph.
fn graph() -> BTreeMap<String, BTreeSet<String>> {
    graph_of(&Path::new(env!("CARGO_MANIFEST_DIR")).join("crates/single/src"))
}

/// The slasim packages a crate's manifest (`dir/Cargo.toml`) depends on, in
/// any section.
fn slasim_dependencies(dir: &str) -> Vec<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let manifest: toml::Table = std::fs::read_to_string(root.join(dir).join("Cargo.toml")).unwrap().parse().unwrap();
    let mut deps = Vec::new();
    for section in ["dependencies", "dev-dependencies", "build-dependencies"] {
        if let Some(table) = manifest.get(section).and_then(|t| t.as_table()) {
            deps.extend(table.keys().filter(|k| k.starts_with("slasim")).cloned());
        }
    }
    deps
}

#[test]
fn no_crate_depends_on_one_above_it() {
    // The compiler holds each border: a crate can name only the crates its
    // manifest lists, and every one listed is below it. So the kernel names
    // no domain, the engine no kind, Slurm no other kind, a kind crate only
    // the single cluster it is built on, and the environments the kinds they
    // step.
    let level = |package: &str| CRATES.iter().find(|(_, p, _)| *p == package).map(|c| c.2);
    for (dir, package, at) in CRATES {
        for dep in slasim_dependencies(dir) {
            let below = level(&dep).is_some_and(|l| l < at);
            assert!(below, "{package} ({dir}) depends on {dep}, which is not below it");
        }
    }
    // The test reads the manifests: it must see the real arrows.
    assert_eq!(slasim_dependencies("crates/sim"), Vec::<String>::new());
    assert_eq!(slasim_dependencies("crates/data"), ["slasim-sim"]);
    assert_eq!(slasim_dependencies("crates/core"), ["slasim-sim", "slasim-data"]);
    assert_eq!(slasim_dependencies("crates/machine"), ["slasim-sim", "slasim-data"]);
    assert_eq!(slasim_dependencies("crates/single"), ["slasim-core", "slasim-data", "slasim-machine"]);
    assert_eq!(slasim_dependencies("crates/grid"), ["slasim-core", "slasim-single"]);
    assert_eq!(slasim_dependencies("crates/provision"), ["slasim-core", "slasim-single"]);
    assert_eq!(slasim_dependencies("crates/slurm"), ["slasim-core", "slasim-data", "slasim-machine", "slasim-sim"]);
    assert_eq!(
        slasim_dependencies("crates/gym"),
        [
            "slasim-core",
            "slasim-data",
            "slasim-machine",
            "slasim-single",
            "slasim-sla-machine",
            "slasim-slurm",
            "slasim-sim"
        ]
    );
    assert_eq!(
        slasim_dependencies("crates/sla-machine"),
        ["slasim-core", "slasim-data", "slasim-machine", "slasim-single", "slasim-slurm"]
    );
    // Every member is in the list (a new crate gets its place in it).
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let manifest: toml::Table = std::fs::read_to_string(root.join("Cargo.toml")).unwrap().parse().unwrap();
    let members = manifest["workspace"]["members"].as_array().unwrap();
    let mut listed: Vec<&str> = members.iter().map(|m| m.as_str().unwrap()).collect();
    let mut known: Vec<&str> = CRATES.iter().map(|(d, _, _)| *d).collect();
    listed.sort_unstable();
    known.sort_unstable();
    assert_eq!(listed, known);
    // And the kernel's and the kinds' files live in their crates alone.
    let moved = [
        "crates/core/src/workload",
        "crates/core/src/stats",
        "crates/core/src/plan",
        "crates/core/src/cluster",
        "crates/core/src/policy",
        "crates/core/src/experiment/kinds/single.rs",
        "crates/core/src/experiment/kinds/single_kind.rs",
        "crates/core/src/experiment/summary.rs",
        "crates/core/src/store/tables/run.rs",
        "crates/core/src/store/tables/points.rs",
        "crates/core/src/store/writer/single.rs",
        "crates/core/src/report/single",
        "crates/core/src/cli/single",
        "crates/core/src/sim",
        "crates/core/src/units.rs",
        "crates/core/src/slurm",
        "crates/core/src/gym",
        "crates/core/src/provision",
        "crates/core/src/experiment/kinds/provision",
        "crates/core/src/experiment/kinds/pricing.rs",
        "crates/core/src/grid",
        "crates/core/src/experiment/kinds/grid.rs",
        "crates/core/src/workload/corequest.rs",
        "crates/core/src/workload/windows.rs",
        "crates/core/src/trace",
        "crates/core/src/signal",
        "crates/core/src/data_dirs.rs",
    ];
    for moved in moved {
        assert!(!root.join(moved).exists(), "{moved}");
    }
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
    // The cluster is mechanics: the Grid attaches its services from outside
    // (from its own crate, which the engine's cannot name). A workload is
    // data: it names no scheduler or statistics.
    let graph = graph();
    for (from, to) in [("workload/", "policy/"), ("workload/", "stats/")] {
        let wrong = arrows(&graph, from, to);
        assert!(wrong.is_empty(), "{from} imports {to}: {wrong:#?}");
    }
    // The test reads paths: it must see real arrows the other way.
    assert!(arrows(&graph, "policy/", "cluster/").iter().any(|a| a.starts_with("policy/calibrator.rs -> cluster/")));
    assert!(arrows(&graph, "stats/", "workload/").contains(&"stats/pos.rs -> workload/failure_law.rs".to_string()));
}

#[test]
fn no_model_names_the_actor_runtime() {
    // kameo is the kernel's adapter (crates/sim) and the runtime of the
    // executor's own actors (the coordinator and the writer); a model is a
    // plain type.
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut naming = Vec::new();
    for dir in [
        "crates/core/src",
        "crates/single/src",
        "crates/grid/src",
        "crates/provision/src",
        "crates/slurm/src",
        "crates/gym/src",
        "src",
    ] {
        let mut files = Vec::new();
        sources(&root.join(dir), &mut files);
        files.sort();
        for f in files {
            let text = std::fs::read_to_string(&f).unwrap();
            if text.lines().map(|l| l.split("//").next().unwrap_or("")).any(|code| code.contains("kameo")) {
                naming.push(f.strip_prefix(root).unwrap().to_string_lossy().into_owned());
            }
        }
    }
    assert_eq!(naming, ["crates/core/src/experiment/coordinator.rs"], "files naming kameo");
}

#[test]
fn only_the_bench_runs_a_simulation_runtime() {
    // A bench owns the runtime its models run on and drives it in its plain
    // calls (crates/sim): no caller builds or blocks on one to run a bench,
    // the environments and the Python package included. The runtimes left
    // are the executor's own actors' and the Batsim link's socket I/O.
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut naming = Vec::new();
    let mut files = Vec::new();
    for dir in ["crates", "src", "python/src"] {
        sources(&root.join(dir), &mut files);
    }
    files.retain(|f| !f.components().any(|c| c.as_os_str() == "tests"));
    files.sort();
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap();
        let code = text.lines().map(|l| l.split("//").next().unwrap_or("")).collect::<Vec<_>>().join("\n");
        if ["new_current_thread", "new_multi_thread", "block_on(", ".enter()", "bench::runtime"]
            .iter()
            .any(|n| code.contains(n))
        {
            naming.push(f.strip_prefix(root).unwrap().to_string_lossy().into_owned());
        }
    }
    assert_eq!(
        naming,
        [
            "crates/core/src/experiment/coordinator.rs",
            "crates/sim/src/bench.rs",
            "crates/single/src/policy/batsim/link.rs"
        ],
        "files that start, enter or block on a runtime"
    );
}

/// The single-cluster kind's files under `dir` whose text (comments
/// included) contains `needle`, ignoring case.
fn files_naming(dir: &str, needle: &str) -> Vec<String> {
    let mut files = Vec::new();
    sources(&Path::new(env!("CARGO_MANIFEST_DIR")).join("crates/single/src").join(dir), &mut files);
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
    // The strategy port beside the mechanics (`cluster/strategy.rs`, and the
    // view a decorator sees it through, `cluster/view.rs`) names the hook a
    // calibrating decorator answers; the mechanics name none.
    for needle in ["calibrat", "crate::grid"] {
        let found: Vec<String> = files_naming("cluster", needle)
            .into_iter()
            .filter(|f| !f.ends_with("cluster/strategy.rs") && !f.ends_with("cluster/view.rs"))
            .collect();
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
    // In every crate.
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for (dir, _, _) in CRATES {
        let graph = graph_of(&root.join(dir).join("src"));
        // The test reads real files.
        assert!(!graph.is_empty(), "{dir}");
        let found = cycles(&graph);
        assert!(found.is_empty(), "import cycles in {dir}: {found:#?}");
    }
}

#[test]
fn a_cycle_written_through_relative_paths_is_found() {
    // A planted crate: siblings naming each other through `super::`, a
    // parent reaching a child through its `mod` name, the child naming its
    // parent back only as its enclosing module (no cycle), and a test
    // module's `super::*`.
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path();
    std::fs::create_dir_all(src.join("a")).unwrap();
    let files = [
        ("lib.rs", "pub mod a;\npub mod b;\n"),
        ("a/mod.rs", "mod x;\nmod y;\npub struct P;\npub fn f() -> x::T { x::T }\n"),
        ("a/x.rs", "use super::y::U;\nuse super::P;\npub struct T;\n#[cfg(test)]\nmod tests {\n    use super::*;\n}\n"),
        ("a/y.rs", "pub struct U(super::x::T);\n"),
        ("b.rs", "use self::inner::V;\nmod inner { pub struct V; }\npub fn g() -> crate::a::P { crate::a::P }\n"),
    ];
    for (path, text) in files {
        std::fs::write(src.join(path), text).unwrap();
    }
    let graph = graph_of(src);
    assert_eq!(graph["a/mod.rs"], BTreeSet::from(["a/x.rs".to_string()]));
    assert_eq!(
        graph["a/x.rs"],
        BTreeSet::from(["a/y.rs".to_string()]),
        "the parent and the test module are not arrows"
    );
    assert_eq!(graph["b.rs"], BTreeSet::from(["a/mod.rs".to_string()]));
    assert_eq!(cycles(&graph), vec![vec!["a/x.rs".to_string(), "a/y.rs".to_string()]]);
    // Without the arrow back, no cycle.
    std::fs::write(src.join("a/y.rs"), "pub struct U;\n").unwrap();
    assert!(cycles(&graph_of(src)).is_empty());
}

#[test]
fn the_cycle_finder_finds_a_cycle() {
    let mut g = BTreeMap::new();
    g.insert("a.rs".to_string(), BTreeSet::from(["b.rs".to_string()]));
    g.insert("b.rs".to_string(), BTreeSet::from(["a.rs".to_string()]));
    g.insert("c.rs".to_string(), BTreeSet::from(["a.rs".to_string()]));
    assert_eq!(cycles(&g), vec![vec!["a.rs".to_string(), "b.rs".to_string()]]);
}

/// The graph of a crate's folders: folder → the folders its files name
/// (files at the top of `src/` and `lib.rs`, which encloses all, are left
/// out).
fn folders_of(graph: &BTreeMap<String, BTreeSet<String>>) -> BTreeMap<String, BTreeSet<String>> {
    let folder = |f: &str| f.split_once('/').map(|(d, _)| d.to_string());
    let mut folders: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (from, targets) in graph {
        let Some(a) = folder(from) else { continue };
        let to = folders.entry(a.clone()).or_default();
        to.extend(targets.iter().filter_map(|t| folder(t)).filter(|b| *b != a));
    }
    folders
}

/// The arrows that run up between the folders of the crate whose sources
/// are under `src`: every file-to-file arrow between two folders that name
/// each other, directly or through others (a cycle of folders has an arrow up
/// in any order of them).
fn arrows_up_between_folders(src: &Path) -> Vec<String> {
    let graph = graph_of(src);
    let folder = |f: &str| f.split_once('/').map(|(d, _)| d.to_string());
    let mut up = Vec::new();
    for group in cycles(&folders_of(&graph)) {
        for (from, targets) in &graph {
            let Some(a) = folder(from).filter(|a| group.contains(a)) else { continue };
            for to in targets {
                if folder(to).is_some_and(|b| b != a && group.contains(&b)) {
                    up.push(format!("{from} -> {to}"));
                }
            }
        }
    }
    up
}

#[test]
fn no_arrow_runs_up_between_the_folders_of_a_crate() {
    // Inside a crate, folders stand in layers too: the cluster's mechanics
    // below the strategies that drive them through the port beside them
    // (`cluster/strategy.rs`), a kind's outcomes below its tables and
    // writers, the engine's store below its experiments.
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for (dir, _, _) in CRATES {
        let src = root.join(dir).join("src");
        let up = arrows_up_between_folders(&src);
        assert!(up.is_empty(), "arrows up between the folders of {dir}: {up:#?}");
    }
    // The test reads real folders and the arrows down between them.
    let single = folders_of(&graph_of(&root.join("crates/single/src")));
    assert!(single["policy"].contains("cluster") && single["cluster"].contains("workload"), "{single:#?}");
}

#[test]
fn an_arrow_up_between_folders_is_found() {
    // A planted crate: `low/` below `high/`, then one arrow back up.
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path();
    for folder in ["low", "high"] {
        std::fs::create_dir_all(src.join(folder)).unwrap();
    }
    let files = [
        ("lib.rs", "pub mod high;\npub mod low;\npub mod top;\n"),
        ("low/mod.rs", "pub mod part;\n"),
        ("low/part.rs", "pub struct Part;\n"),
        ("high/mod.rs", "use crate::low::part::Part;\npub struct Whole(pub Part);\n"),
        ("top.rs", "use crate::high::Whole;\nuse crate::low::part::Part;\n"),
    ];
    for (path, text) in files {
        std::fs::write(src.join(path), text).unwrap();
    }
    assert!(arrows_up_between_folders(src).is_empty(), "arrows down only");
    std::fs::write(src.join("low/part.rs"), "pub struct Part(Box<crate::high::Whole>);\n").unwrap();
    assert_eq!(
        arrows_up_between_folders(src),
        vec!["high/mod.rs -> low/part.rs".to_string(), "low/part.rs -> high/mod.rs".to_string()]
    );
}
