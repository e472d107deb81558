use std::path::Path;

use slasim_slurm::conf::{Consumable, parse};
use slasim_slurm::generated::{NodeSpec, conf_text};

#[test]
fn the_text_reads_back_as_the_machine() {
    let text = conf_text(&[
        NodeSpec { names: "g[1-2]".into(), cpus: 64, memory_mib: Some(262144), gpus: 8 },
        NodeSpec { names: "c1".into(), cpus: 96, memory_mib: Some(1024), gpus: 0 },
    ]);
    let conf = parse(&text, Path::new("generated")).expect("parses");
    // What a real slurmctld needs but the twin does not read.
    assert!(conf.ignored.iter().all(|i| ["GresTypes", "State"].contains(&i.key.as_str())), "{:?}", conf.ignored);
    assert_eq!(conf.nodes.len(), 3);
    assert_eq!((conf.nodes[0].cpus, conf.nodes[0].gpus, conf.nodes[0].real_memory_mib), (64, 8, 262144));
    assert_eq!((conf.nodes[2].cpus, conf.nodes[2].gpus), (96, 0));
    assert_eq!(conf.partitions[0].nodes, vec![0, 1, 2]);
    assert_eq!(conf.consumable, Consumable::CoreMemory);
}
