//! The trace catalogue: every file slasim knows by name, with its size, its
//! SHA-256, its licence, how to cite it and where it is published.
//!
//! Contract: [`CATALOGUE`] is a static table, one [`Entry`] per file; the
//! sums are those of the copies the tests and reproductions use (a test
//! checks each against the real file). An entry's file lives at
//! [`Entry::path`] under a traces directory. Its bytes are either the
//! *shipped* form ([`Entry::shipped`], usually gzip) or, for files whose
//! public source serves them uncompressed, the *plain* form
//! ([`Entry::plain`]) at the same path without `.gz`: readers take plain or
//! gzip, so resolution ([`super::resolve_trace`]) and verification accept
//! either name, each against its own sum. [`Entry::served`] says which of the
//! two the public URL serves, or that it serves neither and the user must act
//! ([`Served::Manual`]): then slasim says where to get the file and where to
//! put it, and verifies only what it has a sum for.

/// A file's length in bytes and its SHA-256 (lowercase hex).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Digest {
    /// Length in bytes.
    pub size: u64,
    /// SHA-256 of the bytes, lowercase hex.
    pub sha256: &'static str,
}

/// What an entry's public URL serves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Served {
    /// The shipped bytes ([`Entry::shipped`]), saved at [`Entry::path`].
    Shipped,
    /// The plain bytes ([`Entry::plain`]), saved at [`Entry::plain_path`].
    Plain,
    /// Neither, or nothing slasim can check: the text says what to do.
    Manual(&'static str),
}

/// One catalogued file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Entry {
    /// The name runs and `slasim trace fetch` accept.
    pub name: &'static str,
    /// Where the file lives under the traces directory.
    pub path: &'static str,
    /// The shipped file's size and sum; `None` for a file not shipped, whose
    /// sum slasim does not know.
    pub shipped: Option<Digest>,
    /// The uncompressed bytes' size and sum, accepted at [`Entry::plain_path`].
    pub plain: Option<Digest>,
    /// The public source.
    pub url: &'static str,
    /// What [`Entry::url`] serves.
    pub served: Served,
    /// Licence or terms of use.
    pub licence: &'static str,
    /// How to cite it.
    pub cite: &'static str,
}

impl Entry {
    /// The plain form's path: [`Entry::path`] without `.gz` (`None` when the
    /// entry has no plain form or its path has no `.gz`).
    pub fn plain_path(&self) -> Option<&'static str> {
        self.plain.and(self.path.strip_suffix(".gz"))
    }

    /// The file names the entry's file may have under a traces directory,
    /// each with the sum it must have (`None`: not known), shipped form first.
    pub fn forms(&self) -> Vec<(&'static str, Option<Digest>)> {
        let mut forms = vec![(self.path, self.shipped)];
        if let Some(plain) = self.plain_path() {
            forms.push((plain, self.plain));
        }
        forms
    }

    /// Whether `name` names this entry: its catalogue name, or the file name
    /// or relative path of one of its forms.
    pub fn is_named(&self, name: &str) -> bool {
        name == self.name || self.forms().iter().any(|(path, _)| name == *path || path.rsplit('/').next() == Some(name))
    }
}

/// The entry `name` names (see [`Entry::is_named`]).
pub fn find(name: &str) -> Option<&'static Entry> {
    CATALOGUE.iter().find(|entry| entry.is_named(name))
}

/// Every catalogued file. Generated from the files under
/// `/work/shared/data/traces` and cross-checked with their `SOURCES.md`;
/// `tests/integration/catalogue.rs` checks the sums against the files.
pub static CATALOGUE: &[Entry] = &[
    Entry {
        name: "CEA-Curie-2011-2.1-cln",
        path: "swf/CEA-Curie-2011-2.1-cln.swf.gz",
        shipped: Some(Digest {
            size: 3629411,
            sha256: "2a0fdbd40837590b491bbbac7d4cfe521de1f0b14c0dc39bbf82c4e49ea75bce",
        }),
        plain: Some(Digest {
            size: 29099943,
            sha256: "b732a04aea71e2f154c8feee580be549d0bba1462bc91ec581944cb3dd6d442d",
        }),
        url: "https://www.cs.huji.ac.il/labs/parallel/workload/l_cea_curie/CEA-Curie-2011-2.1-cln.swf.gz",
        served: Served::Shipped,
        licence: "PWA: no formal licence; credit the archive and the log's source",
        cite: "D. G. Feitelson, D. Tsafrir, D. Krakov, \"Experience with using the Parallel Workloads Archive\", JPDC 74(10), 2014; acknowledge Joseph Emeras (CEA/CNRS)",
    },
    Entry {
        name: "CTC-SP2-1996-3.1-cln",
        path: "swf/CTC-SP2-1996-3.1-cln.swf.gz",
        shipped: Some(Digest {
            size: 1487336,
            sha256: "9fa28ac16c4386fb81b72a91d8bd8888281df2948a9d912769d387c5ee285bb4",
        }),
        plain: Some(Digest {
            size: 7167987,
            sha256: "8e33a9b597e1ddda2d2164347bac08c9444e1a2620a7947df52f0a1622ec4cde",
        }),
        url: "https://www.cs.huji.ac.il/labs/parallel/workload/l_ctc_sp2/CTC-SP2-1996-3.1-cln.swf.gz",
        served: Served::Shipped,
        licence: "PWA: no formal licence; credit the archive and the log's source",
        cite: "D. G. Feitelson, D. Tsafrir, D. Krakov, \"Experience with using the Parallel Workloads Archive\", JPDC 74(10), 2014; acknowledge Dan Dwyer and Steve Hotovy (Cornell Theory Center)",
    },
    Entry {
        name: "HPC2N-2002-2.2-cln",
        path: "swf/HPC2N-2002-2.2-cln.swf.gz",
        shipped: Some(Digest {
            size: 2997773,
            sha256: "3c534857d6065cfd9cc35aac8d064c9c17172be7acf336de835006f43a626e64",
        }),
        plain: Some(Digest {
            size: 19242100,
            sha256: "77b8993c73ae438385f6c0015708251f52dc316267b03ac19a406fbea2802afa",
        }),
        url: "https://www.cs.huji.ac.il/labs/parallel/workload/l_hpc2n/HPC2N-2002-2.2-cln.swf.gz",
        served: Served::Shipped,
        licence: "PWA: no formal licence; credit the archive and the log's source",
        cite: "D. G. Feitelson, D. Tsafrir, D. Krakov, \"Experience with using the Parallel Workloads Archive\", JPDC 74(10), 2014; acknowledge Ake Sandgren (HPC2N)",
    },
    Entry {
        name: "KTH-SP2-1996-2.1-cln",
        path: "swf/KTH-SP2-1996-2.1-cln.swf.gz",
        shipped: Some(Digest {
            size: 411455,
            sha256: "3e152f201fd2e96808a735bced6ea6eb0bb07fdc447689cafb0750d87b264c0b",
        }),
        plain: Some(Digest {
            size: 2620495,
            sha256: "fba36494c4e4257f72182e8b629ebb0bcb054b3b82851ef957445bd627adcc87",
        }),
        url: "https://www.cs.huji.ac.il/labs/parallel/workload/l_kth_sp2/KTH-SP2-1996-2.1-cln.swf.gz",
        served: Served::Shipped,
        licence: "PWA: no formal licence; credit the archive and the log's source",
        cite: "D. G. Feitelson, D. Tsafrir, D. Krakov, \"Experience with using the Parallel Workloads Archive\", JPDC 74(10), 2014; acknowledge Lars Malinowsky (KTH)",
    },
    Entry {
        name: "LANL-CM5-1994-4.1-cln",
        path: "swf/LANL-CM5-1994-4.1-cln.swf.gz",
        shipped: Some(Digest {
            size: 2138864,
            sha256: "71ff3dfa301b3ee1bd30ebc63c5363b5e8ec488e75f1f9398aa46d485ef23c3c",
        }),
        plain: Some(Digest {
            size: 11354840,
            sha256: "4766a62dabcc7403ec0a55534aff297203e692ddbf6637bd40100a3800f6354a",
        }),
        url: "https://www.cs.huji.ac.il/labs/parallel/workload/l_lanl_cm5/LANL-CM5-1994-4.1-cln.swf.gz",
        served: Served::Shipped,
        licence: "PWA: no formal licence; credit the archive and the log's source",
        cite: "D. G. Feitelson, D. Tsafrir, D. Krakov, \"Experience with using the Parallel Workloads Archive\", JPDC 74(10), 2014; acknowledge Curt Canada (LANL)",
    },
    Entry {
        name: "LLNL-Atlas-2006-2.1-cln",
        path: "swf/LLNL-Atlas-2006-2.1-cln.swf.gz",
        shipped: Some(Digest {
            size: 503642,
            sha256: "48cc83b7a0490252aa1ae41a4b03dd598bc0683e146be94047febee36e7e0b36",
        }),
        plain: Some(Digest {
            size: 4059977,
            sha256: "8b3aaab739fa0bda8abaccc37c207d0b19d9d147b19e7f47a1641133a56fd07f",
        }),
        url: "https://www.cs.huji.ac.il/labs/parallel/workload/l_llnl_atlas/LLNL-Atlas-2006-2.1-cln.swf.gz",
        served: Served::Shipped,
        licence: "PWA: no formal licence; credit the archive and the log's source",
        cite: "D. G. Feitelson, D. Tsafrir, D. Krakov, \"Experience with using the Parallel Workloads Archive\", JPDC 74(10), 2014; acknowledge Moe Jette (LLNL)",
    },
    Entry {
        name: "LLNL-Thunder-2007-1.1-cln",
        path: "swf/LLNL-Thunder-2007-1.1-cln.swf.gz",
        shipped: Some(Digest {
            size: 1312559,
            sha256: "00d9bce501efd3a23cd0713bbae591516b7a69217d5f4b851725f601f3b75247",
        }),
        plain: Some(Digest {
            size: 11267879,
            sha256: "aad5a3120a6adf0342d46fb4830e022121cdfbd3de9ecdd9cf10145b8864b6a5",
        }),
        url: "https://www.cs.huji.ac.il/labs/parallel/workload/l_llnl_thunder/LLNL-Thunder-2007-1.1-cln.swf.gz",
        served: Served::Shipped,
        licence: "PWA: no formal licence; credit the archive and the log's source",
        cite: "D. G. Feitelson, D. Tsafrir, D. Krakov, \"Experience with using the Parallel Workloads Archive\", JPDC 74(10), 2014; acknowledge Moe Jette (LLNL)",
    },
    Entry {
        name: "NASA-iPSC-1993-3.1-cln",
        path: "swf/NASA-iPSC-1993-3.1-cln.swf.gz",
        shipped: Some(Digest {
            size: 207976,
            sha256: "5589ae9b2fb78e3bf92de097497cf33a91607de1ad54563e43533f7827597f29",
        }),
        plain: Some(Digest {
            size: 1678956,
            sha256: "9d997a2c20a7f7b0b6d81638d756ce8b2c524c4f2e9ec78da36001743ca33d76",
        }),
        url: "https://www.cs.huji.ac.il/labs/parallel/workload/l_nasa_ipsc/NASA-iPSC-1993-3.1-cln.swf.gz",
        served: Served::Shipped,
        licence: "PWA: no formal licence; credit the archive and the log's source",
        cite: "D. G. Feitelson, D. Tsafrir, D. Krakov, \"Experience with using the Parallel Workloads Archive\", JPDC 74(10), 2014; acknowledge Bill Nitzberg (NASA Ames)",
    },
    Entry {
        name: "OSC-Clust-2000-3.1-cln",
        path: "swf/OSC-Clust-2000-3.1-cln.swf.gz",
        shipped: Some(Digest {
            size: 536437,
            sha256: "f2d762130a55ab26cfedc37a9f4ab55923dd07bf185912ded67628f14dbf09ab",
        }),
        plain: Some(Digest {
            size: 3321819,
            sha256: "0ed54b81ccb10b11fbead557af8a37dd135e07e27756f1016c80ebceb7c8f79a",
        }),
        url: "https://www.cs.huji.ac.il/labs/parallel/workload/l_osc/OSC-Clust-2000-3.1-cln.swf.gz",
        served: Served::Shipped,
        licence: "PWA: no formal licence; credit the archive and the log's source",
        cite: "D. G. Feitelson, D. Tsafrir, D. Krakov, \"Experience with using the Parallel Workloads Archive\", JPDC 74(10), 2014; acknowledge the SuperCluster HPC Workload/Resource Trace Repository (OSC)",
    },
    Entry {
        name: "RICC-2010-2",
        path: "swf/RICC-2010-2.swf.gz",
        shipped: Some(Digest {
            size: 3673454,
            sha256: "38b7c5c9843d9a9f3d61a2d8b927f6d39b68b368fb713886b5f2ce3499f2ec82",
        }),
        plain: Some(Digest {
            size: 42432598,
            sha256: "986a2a12df85adc3c2a2eb80a31b4ff9a056b92637526ee53fb70637b1bf0518",
        }),
        url: "https://www.cs.huji.ac.il/labs/parallel/workload/l_ricc/RICC-2010-2.swf.gz",
        served: Served::Shipped,
        licence: "PWA: no formal licence; credit the archive and the log's source",
        cite: "D. G. Feitelson, D. Tsafrir, D. Krakov, \"Experience with using the Parallel Workloads Archive\", JPDC 74(10), 2014; acknowledge Motoyoshi Kurokawa (RIKEN ACCC)",
    },
    Entry {
        name: "SDSC-BLUE-2000-4.2-cln",
        path: "swf/SDSC-BLUE-2000-4.2-cln.swf.gz",
        shipped: Some(Digest {
            size: 4070091,
            sha256: "9aab21f3cfa108f3ecefa52391b384d996dcf4216f920186f47a734646b2c658",
        }),
        plain: Some(Digest {
            size: 22531816,
            sha256: "13892839f430583231a14bb811fd50a31b5b529eb37faacdbbefb71e73390e3e",
        }),
        url: "https://www.cs.huji.ac.il/labs/parallel/workload/l_sdsc_blue/SDSC-BLUE-2000-4.2-cln.swf.gz",
        served: Served::Shipped,
        licence: "PWA: no formal licence; credit the archive and the log's source",
        cite: "D. G. Feitelson, D. Tsafrir, D. Krakov, \"Experience with using the Parallel Workloads Archive\", JPDC 74(10), 2014; acknowledge Travis Earheart and Nancy Wilkins-Diehr (SDSC)",
    },
    Entry {
        name: "SDSC-DS-2004-2.1-cln",
        path: "swf/SDSC-DS-2004-2.1-cln.swf.gz",
        shipped: Some(Digest {
            size: 1639097,
            sha256: "0ddb885a96a7f5ee9009d8a36ef350b1d1c451044c205811938995aac80fcc36",
        }),
        plain: Some(Digest {
            size: 8856328,
            sha256: "76814a412fa415e68ffb8cc0ae801c870988e5577e60275588050332f6b1e690",
        }),
        url: "https://www.cs.huji.ac.il/labs/parallel/workload/l_sdsc_ds/SDSC-DS-2004-2.1-cln.swf.gz",
        served: Served::Shipped,
        licence: "PWA: no formal licence; credit the archive and the log's source",
        cite: "D. G. Feitelson, D. Tsafrir, D. Krakov, \"Experience with using the Parallel Workloads Archive\", JPDC 74(10), 2014; acknowledge Victor Hazlewood (SDSC)",
    },
    Entry {
        name: "SDSC-Par-1996-3.1-cln",
        path: "swf/SDSC-Par-1996-3.1-cln.swf.gz",
        shipped: Some(Digest {
            size: 497990,
            sha256: "cb1aab02b5e3c34659d1c1d6f73c002d415229c59f40c03fab4e20331abdaff7",
        }),
        plain: Some(Digest {
            size: 2958414,
            sha256: "fcb46fa6462b7ac460963025749f604f28b2e813101edd082a720842e80a7aa8",
        }),
        url: "https://www.cs.huji.ac.il/labs/parallel/workload/l_sdsc_par/SDSC-Par-1996-3.1-cln.swf.gz",
        served: Served::Shipped,
        licence: "PWA: no formal licence; credit the archive and the log's source",
        cite: "D. G. Feitelson, D. Tsafrir, D. Krakov, \"Experience with using the Parallel Workloads Archive\", JPDC 74(10), 2014; acknowledge Reagan Moore and Allen Downey (SDSC)",
    },
    Entry {
        name: "SDSC-SP2-1998-4.2-cln",
        path: "swf/SDSC-SP2-1998-4.2-cln.swf.gz",
        shipped: Some(Digest {
            size: 1205570,
            sha256: "e03fe48be50c4ab04d6bb2285296d9c3399e9c1f27ee79b754ad32a14abd9bac",
        }),
        plain: Some(Digest {
            size: 5601165,
            sha256: "2bb635f4b5793f52bd49ccb8fd913d95f9c5be6346925162cadcaf0117e28cf2",
        }),
        url: "https://www.cs.huji.ac.il/labs/parallel/workload/l_sdsc_sp2/SDSC-SP2-1998-4.2-cln.swf.gz",
        served: Served::Shipped,
        licence: "PWA: no formal licence; credit the archive and the log's source",
        cite: "D. G. Feitelson, D. Tsafrir, D. Krakov, \"Experience with using the Parallel Workloads Archive\", JPDC 74(10), 2014; acknowledge Victor Hazlewood (SDSC)",
    },
    Entry {
        name: "Sandia-Ross-2001-1.1-cln",
        path: "swf/Sandia-Ross-2001-1.1-cln.swf.gz",
        shipped: Some(Digest {
            size: 1151095,
            sha256: "08b390c160c41c5d3a70d66c48884b5bb68aa277506988ccdc408913342b38df",
        }),
        plain: Some(Digest {
            size: 5375406,
            sha256: "acee6b96aa76f815d9a6a81ee6d3e3026f462b6e0c340f9f4ef465e05b3c22b3",
        }),
        url: "https://www.cs.huji.ac.il/labs/parallel/workload/l_sandia_ross/Sandia-Ross-2001-1.1-cln.swf.gz",
        served: Served::Shipped,
        licence: "PWA: no formal licence; credit the archive and the log's source",
        cite: "D. G. Feitelson, D. Tsafrir, D. Krakov, \"Experience with using the Parallel Workloads Archive\", JPDC 74(10), 2014; acknowledge Jon Stearley (Sandia)",
    },
    Entry {
        name: "UniLu-Gaia-2014-2",
        path: "swf/UniLu-Gaia-2014-2.swf.gz",
        shipped: Some(Digest {
            size: 813764,
            sha256: "8c72a18a65b54cf73bfc122064ba65e3a44349d02aea261226e516fe61810d49",
        }),
        plain: Some(Digest {
            size: 4874463,
            sha256: "56fce4136ef8eec4e8403fb07e194e96bd5d6a519fef87ca7b6111d169e62646",
        }),
        url: "https://raw.githubusercontent.com/oar-team/evalys/1a1d812ac85183b1ce9e278157e2af90027edb2e/examples/UniLu-Gaia-2014-2.swf",
        served: Served::Plain,
        licence: "PWA: no formal licence; credit the archive and the log's source",
        cite: "D. G. Feitelson, D. Tsafrir, D. Krakov, \"Experience with using the Parallel Workloads Archive\", JPDC 74(10), 2014; acknowledge Joseph Emeras (SnT, University of Luxembourg)",
    },
    Entry {
        name: "LCG",
        path: "other/LCG.swf.gz",
        shipped: Some(Digest {
            size: 2397852,
            sha256: "cda5d512febf84a3e07b3ad7b9481f8a0ba0f4c6e10f5d639aae73d2587448d9",
        }),
        plain: Some(Digest {
            size: 21459793,
            sha256: "f8e60cbd08ca990bdd39effc3b3787d7e60539419e2345661c0d5c3b4fa60f4e",
        }),
        url: "https://raw.githubusercontent.com/Cloudslab/cloudsim/476ceef2c0ffe02e0b637bbeed4d6805dbd1707a/modules/cloudsim/src/test/LCG.swf.gz",
        served: Served::Shipped,
        licence: "PWA: no formal licence; credit the archive and the log's source (PWA log LCG-2005-1)",
        cite: "D. G. Feitelson, D. Tsafrir, D. Krakov, \"Experience with using the Parallel Workloads Archive\", JPDC 74(10), 2014; acknowledge Hui Li (LCG)",
    },
    Entry {
        name: "LA-UR-05-7318-failure-data-1996-2005",
        path: "failures/LA-UR-05-7318-failure-data-1996-2005.csv.gz",
        shipped: Some(Digest {
            size: 327708,
            sha256: "d13082c753cbabf30b42bd85c2e192db369c475ac30118688c072635f4adcbdf",
        }),
        plain: Some(Digest {
            size: 2939652,
            sha256: "516c88f0fa07b9d4c8b0d68974e8569f2ec2c98d6eefba372c12e7350bd2d175",
        }),
        url: "https://raw.githubusercontent.com/Derek-Jones/ESEUR-code-data/1a49d102b38680531cb1d79ca131510b11b64e06/reliability/LA-UR-05-7318-failure-data-1996-2005.csv.xz",
        served: Served::Manual(
            "the URL serves the log xz-compressed (sha256 ed32fd254a013df79f5f475f4eac85980f7229735e100ac427343ef449a75140); decompress it with `xz -d` into the plain CSV below, which runs read as it is",
        ),
        licence: "LANL universal release: recognise Los Alamos for providing the data (CFDR: cite LANL, LA-UR-05-7318)",
        cite: "B. Schroeder, G. Gibson, \"A large-scale study of failures in high-performance computing systems\", DSN 2006; data: Los Alamos National Laboratory, LA-UR-05-7318",
    },
    Entry {
        name: "openb_node_list_all_node",
        path: "gpu/alibaba/cluster-trace-gpu-v2023/openb_node_list_all_node.csv.gz",
        shipped: Some(Digest {
            size: 4556,
            sha256: "03e9de63d351d3ad4ce232efc18432d36b5008b3d2d5ccc2c1680600e5ab427a",
        }),
        plain: Some(Digest { size: 52287, sha256: "5a85c2af79c66a1efff8bbcbda430400aae56d8431370d738480967e1a9c6b15" }),
        url: "https://raw.githubusercontent.com/alibaba/clusterdata/7a6c496e4f4b6ce6150be8f881cb051bf2abff42/cluster-trace-gpu-v2023/csv/openb_node_list_all_node.csv",
        served: Served::Plain,
        licence: "Alibaba clusterdata: research and study use only (no licence file)",
        cite: "Q. Weng et al., \"Beware of Fragmentation: Scheduling GPU-Sharing Workloads with Fragmentation Gradient Descent\", USENIX ATC 2023",
    },
    Entry {
        name: "openb_node_list_gpu_node",
        path: "gpu/alibaba/cluster-trace-gpu-v2023/openb_node_list_gpu_node.csv.gz",
        shipped: Some(Digest {
            size: 3601,
            sha256: "e16ebefa8337f852d9f918f595f6fe67e02cfc2ce1e1c7b0181a15a992bea345",
        }),
        plain: Some(Digest { size: 42353, sha256: "2beca64b4d3dfa342036a34b56a495c6cef9225db836c81f541282cb1df320b5" }),
        url: "https://raw.githubusercontent.com/alibaba/clusterdata/7a6c496e4f4b6ce6150be8f881cb051bf2abff42/cluster-trace-gpu-v2023/csv/openb_node_list_gpu_node.csv",
        served: Served::Plain,
        licence: "Alibaba clusterdata: research and study use only (no licence file)",
        cite: "Q. Weng et al., \"Beware of Fragmentation: Scheduling GPU-Sharing Workloads with Fragmentation Gradient Descent\", USENIX ATC 2023",
    },
    Entry {
        name: "openb_pod_list_cpu0",
        path: "gpu/alibaba/cluster-trace-gpu-v2023/openb_pod_list_cpu0.csv.gz",
        shipped: Some(Digest {
            size: 97194,
            sha256: "e25817c43fe10025c8e65c3664ae806620a8d8f8f794e8779174414853c600b4",
        }),
        plain: Some(Digest {
            size: 499765,
            sha256: "1bc3fd9ee5c1468ccd018f624d9222746e08d59f963f66b925804734271c0eaa",
        }),
        url: "https://raw.githubusercontent.com/alibaba/clusterdata/7a6c496e4f4b6ce6150be8f881cb051bf2abff42/cluster-trace-gpu-v2023/csv/openb_pod_list_cpu0.csv",
        served: Served::Plain,
        licence: "Alibaba clusterdata: research and study use only (no licence file)",
        cite: "Q. Weng et al., \"Beware of Fragmentation: Scheduling GPU-Sharing Workloads with Fragmentation Gradient Descent\", USENIX ATC 2023",
    },
    Entry {
        name: "openb_pod_list_cpu037",
        path: "gpu/alibaba/cluster-trace-gpu-v2023/openb_pod_list_cpu037.csv.gz",
        shipped: Some(Digest {
            size: 101386,
            sha256: "6bdd213f5c2c31d4caba8502f83c6fe1bf75b217907ed9fb59c0e8ab0dfd2e61",
        }),
        plain: Some(Digest {
            size: 518687,
            sha256: "8ed554026d041b15ff21ddc104d9a21dbd9a93c496262fa23ef7b5be27e220dc",
        }),
        url: "https://raw.githubusercontent.com/alibaba/clusterdata/7a6c496e4f4b6ce6150be8f881cb051bf2abff42/cluster-trace-gpu-v2023/csv/openb_pod_list_cpu037.csv",
        served: Served::Plain,
        licence: "Alibaba clusterdata: research and study use only (no licence file)",
        cite: "Q. Weng et al., \"Beware of Fragmentation: Scheduling GPU-Sharing Workloads with Fragmentation Gradient Descent\", USENIX ATC 2023",
    },
    Entry {
        name: "openb_pod_list_cpu050",
        path: "gpu/alibaba/cluster-trace-gpu-v2023/openb_pod_list_cpu050.csv.gz",
        shipped: Some(Digest {
            size: 102761,
            sha256: "1926f73006f371f90747d9612518b9eaf29672fd0ce16d0e2bc08c4505523ec2",
        }),
        plain: Some(Digest {
            size: 525811,
            sha256: "747f43247bffc2b0bb081d7f61f0705ca8d390dafc0b647e642c92f3baf3ba1e",
        }),
        url: "https://raw.githubusercontent.com/alibaba/clusterdata/7a6c496e4f4b6ce6150be8f881cb051bf2abff42/cluster-trace-gpu-v2023/csv/openb_pod_list_cpu050.csv",
        served: Served::Plain,
        licence: "Alibaba clusterdata: research and study use only (no licence file)",
        cite: "Q. Weng et al., \"Beware of Fragmentation: Scheduling GPU-Sharing Workloads with Fragmentation Gradient Descent\", USENIX ATC 2023",
    },
    Entry {
        name: "openb_pod_list_cpu072",
        path: "gpu/alibaba/cluster-trace-gpu-v2023/openb_pod_list_cpu072.csv.gz",
        shipped: Some(Digest {
            size: 105235,
            sha256: "57cd120fc557723fb4f38833e8245a2f5e3fcd554e9f611ce6314810310516fa",
        }),
        plain: Some(Digest {
            size: 537576,
            sha256: "f8a2b031461b54d7b9f06d55473c2371eb3357b78a255c646bdca5e0833a8a2f",
        }),
        url: "https://raw.githubusercontent.com/alibaba/clusterdata/7a6c496e4f4b6ce6150be8f881cb051bf2abff42/cluster-trace-gpu-v2023/csv/openb_pod_list_cpu072.csv",
        served: Served::Plain,
        licence: "Alibaba clusterdata: research and study use only (no licence file)",
        cite: "Q. Weng et al., \"Beware of Fragmentation: Scheduling GPU-Sharing Workloads with Fragmentation Gradient Descent\", USENIX ATC 2023",
    },
    Entry {
        name: "openb_pod_list_cpu100",
        path: "gpu/alibaba/cluster-trace-gpu-v2023/openb_pod_list_cpu100.csv.gz",
        shipped: Some(Digest {
            size: 108814,
            sha256: "f84b3957aa74ee9d0f6ec95d6b67485b915f5bbcef5aff0f34ab6ba9bfbc4a1f",
        }),
        plain: Some(Digest {
            size: 554709,
            sha256: "bec1c33fbdde61fd463877534ec79b393aec73e1cbb22d55fab9f166ac480982",
        }),
        url: "https://raw.githubusercontent.com/alibaba/clusterdata/7a6c496e4f4b6ce6150be8f881cb051bf2abff42/cluster-trace-gpu-v2023/csv/openb_pod_list_cpu100.csv",
        served: Served::Plain,
        licence: "Alibaba clusterdata: research and study use only (no licence file)",
        cite: "Q. Weng et al., \"Beware of Fragmentation: Scheduling GPU-Sharing Workloads with Fragmentation Gradient Descent\", USENIX ATC 2023",
    },
    Entry {
        name: "openb_pod_list_cpu200",
        path: "gpu/alibaba/cluster-trace-gpu-v2023/openb_pod_list_cpu200.csv.gz",
        shipped: Some(Digest {
            size: 118135,
            sha256: "3a243d23495cdc36680e282f4ca1de01519a6861ace380e3573c88063e8744e6",
        }),
        plain: Some(Digest {
            size: 622703,
            sha256: "b7e9d8a1a601da84d6e0b4110b19ef5001be5e4796d33e7b82f166ba95161f87",
        }),
        url: "https://raw.githubusercontent.com/alibaba/clusterdata/7a6c496e4f4b6ce6150be8f881cb051bf2abff42/cluster-trace-gpu-v2023/csv/openb_pod_list_cpu200.csv",
        served: Served::Plain,
        licence: "Alibaba clusterdata: research and study use only (no licence file)",
        cite: "Q. Weng et al., \"Beware of Fragmentation: Scheduling GPU-Sharing Workloads with Fragmentation Gradient Descent\", USENIX ATC 2023",
    },
    Entry {
        name: "openb_pod_list_cpu235",
        path: "gpu/alibaba/cluster-trace-gpu-v2023/openb_pod_list_cpu235.csv.gz",
        shipped: Some(Digest {
            size: 125863,
            sha256: "e6337ca7825586fdbaea4ae2b4ee3070bffd4915d3ff4dd5193f713f8dd4ea20",
        }),
        plain: Some(Digest {
            size: 651171,
            sha256: "87bebd4d012faa8305ce1fd82737f51cf03361aac28b75d42e34aa656d7f4ee0",
        }),
        url: "https://raw.githubusercontent.com/alibaba/clusterdata/7a6c496e4f4b6ce6150be8f881cb051bf2abff42/cluster-trace-gpu-v2023/csv/openb_pod_list_cpu235.csv",
        served: Served::Plain,
        licence: "Alibaba clusterdata: research and study use only (no licence file)",
        cite: "Q. Weng et al., \"Beware of Fragmentation: Scheduling GPU-Sharing Workloads with Fragmentation Gradient Descent\", USENIX ATC 2023",
    },
    Entry {
        name: "openb_pod_list_cpu250",
        path: "gpu/alibaba/cluster-trace-gpu-v2023/openb_pod_list_cpu250.csv.gz",
        shipped: Some(Digest {
            size: 125167,
            sha256: "3d96713b76d518d7303da943da77f382c9db98bd34191b082733a54358e0ec52",
        }),
        plain: Some(Digest {
            size: 663708,
            sha256: "134c21ff96d57533df8a37b67632972884fec9396e77cd0898ddc370cc8e607d",
        }),
        url: "https://raw.githubusercontent.com/alibaba/clusterdata/7a6c496e4f4b6ce6150be8f881cb051bf2abff42/cluster-trace-gpu-v2023/csv/openb_pod_list_cpu250.csv",
        served: Served::Plain,
        licence: "Alibaba clusterdata: research and study use only (no licence file)",
        cite: "Q. Weng et al., \"Beware of Fragmentation: Scheduling GPU-Sharing Workloads with Fragmentation Gradient Descent\", USENIX ATC 2023",
    },
    Entry {
        name: "openb_pod_list_cpu300",
        path: "gpu/alibaba/cluster-trace-gpu-v2023/openb_pod_list_cpu300.csv.gz",
        shipped: Some(Digest {
            size: 132594,
            sha256: "a66c7df84407c5013458c0f5dfc2c2090733bfba2b6e7cf330bcac4c4f637fe7",
        }),
        plain: Some(Digest {
            size: 710698,
            sha256: "76528825f40ee662cb098b3b6e683c1efd9f87a0c8af7e628df1f32c639636d1",
        }),
        url: "https://raw.githubusercontent.com/alibaba/clusterdata/7a6c496e4f4b6ce6150be8f881cb051bf2abff42/cluster-trace-gpu-v2023/csv/openb_pod_list_cpu300.csv",
        served: Served::Plain,
        licence: "Alibaba clusterdata: research and study use only (no licence file)",
        cite: "Q. Weng et al., \"Beware of Fragmentation: Scheduling GPU-Sharing Workloads with Fragmentation Gradient Descent\", USENIX ATC 2023",
    },
    Entry {
        name: "openb_pod_list_default",
        path: "gpu/alibaba/cluster-trace-gpu-v2023/openb_pod_list_default.csv.gz",
        shipped: Some(Digest {
            size: 111735,
            sha256: "dc395ddbd156933a57da9caee1d79ddd745146deb1255bcb1f4aac54bc3047f3",
        }),
        plain: Some(Digest {
            size: 575468,
            sha256: "1ee7ed79c27a3b0861cda8ddba86a004c6aba904caafa329a76ae93ca63834a8",
        }),
        url: "https://raw.githubusercontent.com/alibaba/clusterdata/7a6c496e4f4b6ce6150be8f881cb051bf2abff42/cluster-trace-gpu-v2023/csv/openb_pod_list_default.csv",
        served: Served::Plain,
        licence: "Alibaba clusterdata: research and study use only (no licence file)",
        cite: "Q. Weng et al., \"Beware of Fragmentation: Scheduling GPU-Sharing Workloads with Fragmentation Gradient Descent\", USENIX ATC 2023",
    },
    Entry {
        name: "openb_pod_list_gpushare100",
        path: "gpu/alibaba/cluster-trace-gpu-v2023/openb_pod_list_gpushare100.csv.gz",
        shipped: Some(Digest {
            size: 109670,
            sha256: "31706cd1f34e4ecc92e601179572f306c0061eb6cb0429e6513fab6b92151958",
        }),
        plain: Some(Digest {
            size: 561220,
            sha256: "12dbc07d6a49bf8641e2275a2ff5bf7be74b5df7d148d531e135b140b95f9a3d",
        }),
        url: "https://raw.githubusercontent.com/alibaba/clusterdata/7a6c496e4f4b6ce6150be8f881cb051bf2abff42/cluster-trace-gpu-v2023/csv/openb_pod_list_gpushare100.csv",
        served: Served::Plain,
        licence: "Alibaba clusterdata: research and study use only (no licence file)",
        cite: "Q. Weng et al., \"Beware of Fragmentation: Scheduling GPU-Sharing Workloads with Fragmentation Gradient Descent\", USENIX ATC 2023",
    },
    Entry {
        name: "openb_pod_list_gpushare20",
        path: "gpu/alibaba/cluster-trace-gpu-v2023/openb_pod_list_gpushare20.csv.gz",
        shipped: Some(Digest {
            size: 116882,
            sha256: "a071021fc3d1a7fa5399eb26ae0d9cf800b749534d7fa0f0860d157edd5413d9",
        }),
        plain: Some(Digest {
            size: 574603,
            sha256: "9be2d0efb52e242c32e23dd184cc5fcc1983478c6c9c02cbb6b4b62925c0ffcd",
        }),
        url: "https://raw.githubusercontent.com/alibaba/clusterdata/7a6c496e4f4b6ce6150be8f881cb051bf2abff42/cluster-trace-gpu-v2023/csv/openb_pod_list_gpushare20.csv",
        served: Served::Plain,
        licence: "Alibaba clusterdata: research and study use only (no licence file)",
        cite: "Q. Weng et al., \"Beware of Fragmentation: Scheduling GPU-Sharing Workloads with Fragmentation Gradient Descent\", USENIX ATC 2023",
    },
    Entry {
        name: "openb_pod_list_gpushare40",
        path: "gpu/alibaba/cluster-trace-gpu-v2023/openb_pod_list_gpushare40.csv.gz",
        shipped: Some(Digest {
            size: 115023,
            sha256: "29dcd6f7c5aff5e0896195cd79b430f36103d3c4f55db03ce9ea872248ad4cc4",
        }),
        plain: Some(Digest {
            size: 572662,
            sha256: "d83ce79a4eb6987524bedbb0c65e41aed3a36bf6c1b78b86234c3687a07e1d40",
        }),
        url: "https://raw.githubusercontent.com/alibaba/clusterdata/7a6c496e4f4b6ce6150be8f881cb051bf2abff42/cluster-trace-gpu-v2023/csv/openb_pod_list_gpushare40.csv",
        served: Served::Plain,
        licence: "Alibaba clusterdata: research and study use only (no licence file)",
        cite: "Q. Weng et al., \"Beware of Fragmentation: Scheduling GPU-Sharing Workloads with Fragmentation Gradient Descent\", USENIX ATC 2023",
    },
    Entry {
        name: "openb_pod_list_gpushare60",
        path: "gpu/alibaba/cluster-trace-gpu-v2023/openb_pod_list_gpushare60.csv.gz",
        shipped: Some(Digest {
            size: 113571,
            sha256: "831137b4d3aaca209a28db1a2e423db8c92d813fe2d03decd4d56cf6c1c1e817",
        }),
        plain: Some(Digest {
            size: 566361,
            sha256: "d31809628128a1f24491086eda4af3e23882b9213d3ef57a56ee2d1af69492fe",
        }),
        url: "https://raw.githubusercontent.com/alibaba/clusterdata/7a6c496e4f4b6ce6150be8f881cb051bf2abff42/cluster-trace-gpu-v2023/csv/openb_pod_list_gpushare60.csv",
        served: Served::Plain,
        licence: "Alibaba clusterdata: research and study use only (no licence file)",
        cite: "Q. Weng et al., \"Beware of Fragmentation: Scheduling GPU-Sharing Workloads with Fragmentation Gradient Descent\", USENIX ATC 2023",
    },
    Entry {
        name: "openb_pod_list_gpushare80",
        path: "gpu/alibaba/cluster-trace-gpu-v2023/openb_pod_list_gpushare80.csv.gz",
        shipped: Some(Digest {
            size: 111158,
            sha256: "500eee198740baa92722081f9430484d52025a683fd97bfc6d29e7aa6c366da3",
        }),
        plain: Some(Digest {
            size: 563740,
            sha256: "88b6649369ced40d0fde287d2498ea61ff4b05fccba8bdc95daf6042f2f8431e",
        }),
        url: "https://raw.githubusercontent.com/alibaba/clusterdata/7a6c496e4f4b6ce6150be8f881cb051bf2abff42/cluster-trace-gpu-v2023/csv/openb_pod_list_gpushare80.csv",
        served: Served::Plain,
        licence: "Alibaba clusterdata: research and study use only (no licence file)",
        cite: "Q. Weng et al., \"Beware of Fragmentation: Scheduling GPU-Sharing Workloads with Fragmentation Gradient Descent\", USENIX ATC 2023",
    },
    Entry {
        name: "openb_pod_list_gpuspec05",
        path: "gpu/alibaba/cluster-trace-gpu-v2023/openb_pod_list_gpuspec05.csv.gz",
        shipped: Some(Digest {
            size: 113187,
            sha256: "de8e431e4e18c3955c2ceb86ba9a44b043588fd0dd4e074415c52e8bf0795bd0",
        }),
        plain: Some(Digest {
            size: 577176,
            sha256: "8f1c0ef7e4e511e982bd2818898ba22ee6d273bf5fce124b7ace285b5928cf4e",
        }),
        url: "https://raw.githubusercontent.com/alibaba/clusterdata/7a6c496e4f4b6ce6150be8f881cb051bf2abff42/cluster-trace-gpu-v2023/csv/openb_pod_list_gpuspec05.csv",
        served: Served::Plain,
        licence: "Alibaba clusterdata: research and study use only (no licence file)",
        cite: "Q. Weng et al., \"Beware of Fragmentation: Scheduling GPU-Sharing Workloads with Fragmentation Gradient Descent\", USENIX ATC 2023",
    },
    Entry {
        name: "openb_pod_list_gpuspec10",
        path: "gpu/alibaba/cluster-trace-gpu-v2023/openb_pod_list_gpuspec10.csv.gz",
        shipped: Some(Digest {
            size: 114087,
            sha256: "aa37f89cafdbd60a6222ac120651f231555e8255c76f58f7f7e6e9ba03287ab8",
        }),
        plain: Some(Digest {
            size: 579461,
            sha256: "2dc7e4cb9480484f08539720b433a9ec9ab5d76b396f3f7557c53a2ff78a7611",
        }),
        url: "https://raw.githubusercontent.com/alibaba/clusterdata/7a6c496e4f4b6ce6150be8f881cb051bf2abff42/cluster-trace-gpu-v2023/csv/openb_pod_list_gpuspec10.csv",
        served: Served::Plain,
        licence: "Alibaba clusterdata: research and study use only (no licence file)",
        cite: "Q. Weng et al., \"Beware of Fragmentation: Scheduling GPU-Sharing Workloads with Fragmentation Gradient Descent\", USENIX ATC 2023",
    },
    Entry {
        name: "openb_pod_list_gpuspec20",
        path: "gpu/alibaba/cluster-trace-gpu-v2023/openb_pod_list_gpuspec20.csv.gz",
        shipped: Some(Digest {
            size: 115359,
            sha256: "e891fb100a20951638677aae75548aff25c68766eaa2812986e8e41bc0974279",
        }),
        plain: Some(Digest {
            size: 582612,
            sha256: "6b9b89ab8913c1c074e994e98f548cf1a872fc5f76f2442ca8cd514a478b00a9",
        }),
        url: "https://raw.githubusercontent.com/alibaba/clusterdata/7a6c496e4f4b6ce6150be8f881cb051bf2abff42/cluster-trace-gpu-v2023/csv/openb_pod_list_gpuspec20.csv",
        served: Served::Plain,
        licence: "Alibaba clusterdata: research and study use only (no licence file)",
        cite: "Q. Weng et al., \"Beware of Fragmentation: Scheduling GPU-Sharing Workloads with Fragmentation Gradient Descent\", USENIX ATC 2023",
    },
    Entry {
        name: "openb_pod_list_gpuspec25",
        path: "gpu/alibaba/cluster-trace-gpu-v2023/openb_pod_list_gpuspec25.csv.gz",
        shipped: Some(Digest {
            size: 115817,
            sha256: "91341c044e7668f15e2ca444c9561f1c2af8c8fda65df73c1f18f84c066f0122",
        }),
        plain: Some(Digest {
            size: 584915,
            sha256: "9d030679a2ccd7e27a7ec9ff15baff34480d22a0012515691fc187e3f35ee68c",
        }),
        url: "https://raw.githubusercontent.com/alibaba/clusterdata/7a6c496e4f4b6ce6150be8f881cb051bf2abff42/cluster-trace-gpu-v2023/csv/openb_pod_list_gpuspec25.csv",
        served: Served::Plain,
        licence: "Alibaba clusterdata: research and study use only (no licence file)",
        cite: "Q. Weng et al., \"Beware of Fragmentation: Scheduling GPU-Sharing Workloads with Fragmentation Gradient Descent\", USENIX ATC 2023",
    },
    Entry {
        name: "openb_pod_list_gpuspec33",
        path: "gpu/alibaba/cluster-trace-gpu-v2023/openb_pod_list_gpuspec33.csv.gz",
        shipped: Some(Digest {
            size: 116718,
            sha256: "de1c217eb656cca14cfcd8f5f17ea2dc72a8f33cebd65fc93054aa696ad256c3",
        }),
        plain: Some(Digest {
            size: 587467,
            sha256: "eca4f746db1e5b25864ad021b55ece3943e101a3ebd4574d09dcb95c46117652",
        }),
        url: "https://raw.githubusercontent.com/alibaba/clusterdata/7a6c496e4f4b6ce6150be8f881cb051bf2abff42/cluster-trace-gpu-v2023/csv/openb_pod_list_gpuspec33.csv",
        served: Served::Plain,
        licence: "Alibaba clusterdata: research and study use only (no licence file)",
        cite: "Q. Weng et al., \"Beware of Fragmentation: Scheduling GPU-Sharing Workloads with Fragmentation Gradient Descent\", USENIX ATC 2023",
    },
    Entry {
        name: "openb_pod_list_multigpu20",
        path: "gpu/alibaba/cluster-trace-gpu-v2023/openb_pod_list_multigpu20.csv.gz",
        shipped: Some(Digest {
            size: 28374,
            sha256: "c8e76ce9f36218375dc286ef8ddf6ccacc123ea1e129892164dbf32c500e18a0",
        }),
        plain: Some(Digest {
            size: 271530,
            sha256: "d9ec6f6c74fb980cc0b81239470c6353fceea077ea9abd610003b604c7cc2b01",
        }),
        url: "https://raw.githubusercontent.com/alibaba/clusterdata/7a6c496e4f4b6ce6150be8f881cb051bf2abff42/cluster-trace-gpu-v2023/csv/openb_pod_list_multigpu20.csv",
        served: Served::Plain,
        licence: "Alibaba clusterdata: research and study use only (no licence file)",
        cite: "Q. Weng et al., \"Beware of Fragmentation: Scheduling GPU-Sharing Workloads with Fragmentation Gradient Descent\", USENIX ATC 2023",
    },
    Entry {
        name: "openb_pod_list_multigpu30",
        path: "gpu/alibaba/cluster-trace-gpu-v2023/openb_pod_list_multigpu30.csv.gz",
        shipped: Some(Digest {
            size: 28953,
            sha256: "07b96e06955b5edad1e41e8640777ff7ba54ac949c1429963eb393226130cf82",
        }),
        plain: Some(Digest {
            size: 277920,
            sha256: "a5e479c6444b1d83eef848159cf00c3cfa13441b2d1e2c113c391b91f1cc5b11",
        }),
        url: "https://raw.githubusercontent.com/alibaba/clusterdata/7a6c496e4f4b6ce6150be8f881cb051bf2abff42/cluster-trace-gpu-v2023/csv/openb_pod_list_multigpu30.csv",
        served: Served::Plain,
        licence: "Alibaba clusterdata: research and study use only (no licence file)",
        cite: "Q. Weng et al., \"Beware of Fragmentation: Scheduling GPU-Sharing Workloads with Fragmentation Gradient Descent\", USENIX ATC 2023",
    },
    Entry {
        name: "openb_pod_list_multigpu40",
        path: "gpu/alibaba/cluster-trace-gpu-v2023/openb_pod_list_multigpu40.csv.gz",
        shipped: Some(Digest {
            size: 29671,
            sha256: "c4052802df7223f3d19dfe20508dad68775a39290ac07e5cadbdbfe33d6ab283",
        }),
        plain: Some(Digest {
            size: 286202,
            sha256: "32c9e8731ca07ef96108aa65f2a289bb9aacb47f642ed9e3789f99b242df60eb",
        }),
        url: "https://raw.githubusercontent.com/alibaba/clusterdata/7a6c496e4f4b6ce6150be8f881cb051bf2abff42/cluster-trace-gpu-v2023/csv/openb_pod_list_multigpu40.csv",
        served: Served::Plain,
        licence: "Alibaba clusterdata: research and study use only (no licence file)",
        cite: "Q. Weng et al., \"Beware of Fragmentation: Scheduling GPU-Sharing Workloads with Fragmentation Gradient Descent\", USENIX ATC 2023",
    },
    Entry {
        name: "openb_pod_list_multigpu50",
        path: "gpu/alibaba/cluster-trace-gpu-v2023/openb_pod_list_multigpu50.csv.gz",
        shipped: Some(Digest {
            size: 30625,
            sha256: "d77e9899ab1544856ec40847ee380800df8b4da7fedda0f15c2b2648425da3fc",
        }),
        plain: Some(Digest {
            size: 297219,
            sha256: "206f2f5959db30ecb7c44e7f13197c8ec50b7a35558ad3777cc3662ef0fe5373",
        }),
        url: "https://raw.githubusercontent.com/alibaba/clusterdata/7a6c496e4f4b6ce6150be8f881cb051bf2abff42/cluster-trace-gpu-v2023/csv/openb_pod_list_multigpu50.csv",
        served: Served::Plain,
        licence: "Alibaba clusterdata: research and study use only (no licence file)",
        cite: "Q. Weng et al., \"Beware of Fragmentation: Scheduling GPU-Sharing Workloads with Fragmentation Gradient Descent\", USENIX ATC 2023",
    },
    Entry {
        name: "disaggregated_DLRM_trace",
        path: "gpu/alibaba/cluster-trace-gpu-v2025/disaggregated_DLRM_trace.csv.gz",
        shipped: Some(Digest {
            size: 231719,
            sha256: "7c51226c8efb01512e0502f505db47bc7e56d2767a34226d6adb54602ef965cf",
        }),
        plain: Some(Digest {
            size: 2118900,
            sha256: "fb17bc4b3f412d5280f70f04a1bdf2adfc4429d1e61237a5b106e86206414295",
        }),
        url: "https://raw.githubusercontent.com/alibaba/clusterdata/7a6c496e4f4b6ce6150be8f881cb051bf2abff42/cluster-trace-gpu-v2025/disaggregated_DLRM_trace.csv",
        served: Served::Plain,
        licence: "Alibaba clusterdata: research and study use only (no licence file)",
        cite: "L. Yang et al., \"GPU-Disaggregated Serving for Deep Learning Recommendation Models at Scale\", USENIX NSDI 2025",
    },
    Entry {
        name: "node_info_df",
        path: "gpu/alibaba/cluster-trace-v2026-spot-gpu/node_info_df.csv.gz",
        shipped: Some(Digest {
            size: 12380,
            sha256: "0b28b9ca5d3fb5a7647bb430e796ad944416d5e27e11a90efbd39264b75878cf",
        }),
        plain: Some(Digest { size: 78330, sha256: "1aba161961a5a4a1a61aa581383c5e5abe3400b59f8597ba8c4eef7597bc9d18" }),
        url: "https://raw.githubusercontent.com/alibaba/clusterdata/7a6c496e4f4b6ce6150be8f881cb051bf2abff42/cluster-trace-v2026-spot-gpu/node_info_df.csv",
        served: Served::Plain,
        licence: "Alibaba clusterdata: research and study use only (no licence file)",
        cite: "J. Duan et al., \"GFS: A Preemptive Scheduling Framework for GPU Clusters with Predictive Spot Management\", ASPLOS 2026",
    },
    Entry {
        name: "gaia-azure-100k",
        path: "gpu/gaia-derived/azure-100k.csv.gz",
        shipped: Some(Digest {
            size: 410586,
            sha256: "96ea46ea38911d0ecdf415af80b19a46a5c0143ef001615e72636ae8e93a5fcf",
        }),
        plain: Some(Digest {
            size: 3108471,
            sha256: "5ade611d7ed3a577032e9d028d3560254504d29f8d06e0a1d800dab85a259868",
        }),
        url: "https://raw.githubusercontent.com/umassos/GAIA/62a5efccb20fa04d6e507e12350eb4468eab9888/src/cluster_traces/azure-100k.csv",
        served: Served::Plain,
        licence: "MIT (GAIA repository); cite GAIA and the original trace",
        cite: "W. A. Hanafy et al., \"Going Green for Less Green: Optimizing the Cost of Reducing Cloud Carbon Emissions\", ASPLOS 2024",
    },
    Entry {
        name: "gaia-mustang-trace-2015-100k",
        path: "gpu/gaia-derived/mustang-trace-2015-100k.csv.gz",
        shipped: Some(Digest {
            size: 456820,
            sha256: "1d1af4f193f9f1f0ae2516f88cb1162b68b304a536587c0dad1791bf527e899f",
        }),
        plain: Some(Digest {
            size: 3732120,
            sha256: "a914ff95e1fc5ec497e0856dc2197d735f7f47548426d9e1c75415a8bc6a8b7d",
        }),
        url: "https://raw.githubusercontent.com/umassos/GAIA/62a5efccb20fa04d6e507e12350eb4468eab9888/src/cluster_traces/mustang-trace-2015-100k.csv",
        served: Served::Plain,
        licence: "MIT (GAIA repository); cite GAIA and the original trace",
        cite: "W. A. Hanafy et al., \"Going Green for Less Green: Optimizing the Cost of Reducing Cloud Carbon Emissions\", ASPLOS 2024",
    },
    Entry {
        name: "gaia-pai-100k",
        path: "gpu/gaia-derived/pai-100k.csv.gz",
        shipped: Some(Digest {
            size: 802190,
            sha256: "722df6f9964e5c0e61f933cd446b8dad3c772b008b2a2fee46e3b7d7f1237f6c",
        }),
        plain: Some(Digest {
            size: 3738595,
            sha256: "b2325599b3b3ac19dcf7377f2452633f9c02cd0e4a8f1e0cf553f63b68558a2d",
        }),
        url: "https://raw.githubusercontent.com/umassos/GAIA/62a5efccb20fa04d6e507e12350eb4468eab9888/src/cluster_traces/pai-100k.csv",
        served: Served::Plain,
        licence: "MIT (GAIA repository); cite GAIA and the original trace",
        cite: "W. A. Hanafy et al., \"Going Green for Less Green: Optimizing the Cost of Reducing Cloud Carbon Emissions\", ASPLOS 2024",
    },
    Entry {
        name: "gaia-pai_1k",
        path: "gpu/gaia-derived/pai_1k.csv.gz",
        shipped: Some(Digest {
            size: 6341,
            sha256: "2767ca660b418e9d5ca5ed665a79c1b47d51def01fed6752333468cc7263f50a",
        }),
        plain: Some(Digest { size: 17754, sha256: "f1fb822a29bff1a12948a482423f761d68ac7c88ae541f646fe4e6e149361069" }),
        url: "https://raw.githubusercontent.com/umassos/GAIA/62a5efccb20fa04d6e507e12350eb4468eab9888/src/cluster_traces/pai_1k.csv",
        served: Served::Plain,
        licence: "MIT (GAIA repository); cite GAIA and the original trace",
        cite: "W. A. Hanafy et al., \"Going Green for Less Green: Optimizing the Cost of Reducing Cloud Carbon Emissions\", ASPLOS 2024",
    },
    Entry {
        name: "job_info_df",
        path: "gpu/alibaba/cluster-trace-v2026-spot-gpu/job_info_df.csv",
        shipped: None,
        plain: None,
        url: "https://raw.githubusercontent.com/alibaba/clusterdata/7a6c496e4f4b6ce6150be8f881cb051bf2abff42/cluster-trace-v2026-spot-gpu/job_info_df.csv",
        served: Served::Manual(
            "not shipped (over 4 MiB); download it from the URL (upstream git blob f2a0dcbc26b5a1a047e49a7efa886e86ec9cde32); slasim records no sha256 for it, so it cannot verify it",
        ),
        licence: "Alibaba clusterdata: research and study use only (no licence file)",
        cite: "J. Duan et al., \"GFS: A Preemptive Scheduling Framework for GPU Clusters with Predictive Spot Management\", ASPLOS 2026",
    },
    Entry {
        name: "pai_job_duration_estimate_100K",
        path: "gpu/alibaba/cluster-trace-gpu-v2020/pai_job_duration_estimate_100K.csv",
        shipped: None,
        plain: None,
        url: "https://raw.githubusercontent.com/alibaba/clusterdata/7a6c496e4f4b6ce6150be8f881cb051bf2abff42/cluster-trace-gpu-v2020/simulator/traces/pai/pai_job_duration_estimate_100K.csv",
        served: Served::Manual(
            "not shipped (about 12.7 MB); download it from the URL (upstream git blob 46ae2491dc951af5b38385baa0a2a9872acb2893); slasim records no sha256 for it, so it cannot verify it",
        ),
        licence: "CC BY 4.0 (Alibaba cluster-trace-gpu-v2020)",
        cite: "Q. Weng et al., \"MLaaS in the Wild: Workload Analysis and Scheduling in Large-Scale Heterogeneous GPU Clusters\", USENIX NSDI 2022",
    },
    Entry {
        name: "philly-trace-data",
        path: "gpu/philly/trace-data.tar.gz",
        shipped: None,
        plain: None,
        url: "https://github.com/msr-fiddle/philly-traces",
        served: Served::Manual(
            "not shipped (1,055,988,361 bytes, a Git LFS object); clone the repository with git-lfs (LFS oid sha256 2037ccf63a725a02be718b0e1aeee6142c90b7f62d0d849295120e9f6ba13d2c, which git-lfs checks); slasim does not verify it",
        ),
        licence: "Microsoft Philly traces: see the repository's licence",
        cite: "M. Jeon et al., \"Analysis of Large-Scale Multi-Tenant GPU Clusters for DNN Training Workloads\", USENIX ATC 2019",
    },
    Entry {
        name: "helios-data",
        path: "gpu/helios/data.zip",
        shipped: None,
        plain: None,
        url: "https://github.com/S-Lab-System-Group/HeliosData",
        served: Served::Manual(
            "not shipped (data.zip, 36.4 MB); download it as the repository says; slasim records no sha256 for it, so it cannot verify it",
        ),
        licence: "SenseTime Helios: see the repository's licence",
        cite: "Q. Hu et al., \"Characterization and Prediction of Deep Learning Workloads in Large-Scale GPU Datacenters\", SC 2021",
    },
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_files_are_unique_and_each_source_has_the_sum_it_needs() {
        for (i, entry) in CATALOGUE.iter().enumerate() {
            for other in &CATALOGUE[i + 1..] {
                assert_ne!(entry.name, other.name);
                for (path, _) in entry.forms() {
                    assert!(!other.is_named(path.rsplit('/').next().unwrap_or(path)), "{path} names two entries");
                }
            }
            for digest in entry.shipped.iter().chain(entry.plain.iter()) {
                assert!(digest.sha256.len() == 64 && digest.sha256.bytes().all(|b| b.is_ascii_hexdigit()));
            }
            match entry.served {
                Served::Shipped => assert!(entry.shipped.is_some(), "{}", entry.name),
                Served::Plain => assert!(entry.plain_path().is_some(), "{}", entry.name),
                Served::Manual(_) => {}
            }
            assert_eq!(find(entry.name), Some(entry));
        }
    }

    #[test]
    fn an_entry_is_found_by_its_name_file_name_path_or_plain_name() {
        let ctc = find("CTC-SP2-1996-3.1-cln").unwrap();
        assert_eq!(find("CTC-SP2-1996-3.1-cln.swf.gz"), Some(ctc));
        assert_eq!(find("swf/CTC-SP2-1996-3.1-cln.swf.gz"), Some(ctc));
        assert_eq!(find("CTC-SP2-1996-3.1-cln.swf"), Some(ctc));
        assert_eq!(find("CTC"), None);
    }
}
