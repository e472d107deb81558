//! The registry: the one value that says what a program's engine knows by
//! name: point kinds and their tables, random streams, report groupings,
//! and lists of named entries ([`Entries`]: report sections, Gantt sources,
//! lists, subcommands, and each kind's own tables of strategies,
//! algorithms, …).
//!
//! Contract:
//! - A program builds one [`Registry`] from an ordered list of [`Kind`]s
//!   ([`Registry::new`]) and passes it down: the binary, the Python package
//!   and the tests each build theirs. There is no process-global registry.
//!   The list's order is the order of everything that has one: merge order,
//!   report order, the order commands and lists stand in.
//! - Each kind adds what it brings in [`Kind::register`], after the kinds
//!   before it. A list of entries ([`Entries`]) starts with its built-in
//!   entries, whichever kind adds to it first: a kind from outside (the
//!   example's) adds a strategy to the single cluster's list as the single
//!   cluster adds its own.
//! - A name is added once to its list: a name already there, or one that is
//!   not kebab-case, is an error ([`BadName`]) naming it; so is a random
//!   stream number already taken. Looking up an unknown name fails with
//!   [`UnknownName`], which lists every name there is.
//! - Entries are `&'static` (statics, or leaked once when a kind builds
//!   one), so a point may keep what it looked up.
//! - Settings name entries (a strategy, an energy policy) and are read with
//!   serde, which takes no argument: while the engine reads a config, runs a
//!   point or runs a command, it makes its registry the one those lookups see
//!   on its thread ([`Registry::reading`], [`all`], [`find`]); outside, a
//!   list holds its built-in entries.
//! - This module names only the engine's data types it keeps (point kinds,
//!   tables, streams, report groupings); the traits whose methods take a
//!   registry (report sections, lists, subcommands) name it, and their
//!   entries are kept by [`Entries`] types beside them, so no file of the
//!   engine imports one that imports it back.

use std::any::{Any, TypeId};
use std::collections::HashMap;

pub use crate::names::{BadName, Named, Names, UnknownName};

use crate::experiment::point::PointKind;
use crate::rng::Stream;
use crate::store::columns::Section;
use crate::store::tables::groups::PointTables;

/// A list of named entries a registry keeps, named by a type: the engine's
/// (report sections, Gantt sources, lists, subcommands) or a kind's own (its
/// strategies, its broker algorithms, …). It starts with its built-in
/// entries, then those kinds add ([`Registry::add`]).
pub trait Entries: 'static {
    /// What it lists (a trait object, or an info struct).
    type Entry: Named + Sync + ?Sized + 'static;
    /// What one is, for messages ("strategy").
    const WHAT: &'static str;
    /// Its built-in entries, in order (none unless a kind has them).
    fn builtin() -> Vec<&'static Self::Entry> {
        Vec::new()
    }
}

/// A kind: what one crate adds to a program's engine.
pub trait Kind: Sync {
    /// Its name (kebab-case), for messages.
    fn name(&self) -> &'static str;

    /// Adds its entries to `registry`, after the kinds listed before it.
    fn register(&self, registry: &mut Registry) -> Result<(), BadName>;
}

/// What a program's engine knows by name (see the module contract).
pub struct Registry {
    /// Point kinds, in list order: a config's kind, the executor, merge.
    pub point_kinds: Names<&'static dyn PointKind>,
    /// The kinds' groups of tables, each once, in list order: the store's
    /// tables, merge order, the `all_jobs` view.
    pub tables: Names<&'static PointTables>,
    /// Random streams, each with its own number.
    pub streams: Names<Stream>,
    /// The groupings of stored rows report sections use.
    pub report_groups: Names<Section>,
    /// The lists of [`Entries`], by their type.
    lists: HashMap<TypeId, Box<dyn Any + Send + Sync>>,
}

impl Registry {
    /// The registry of `kinds`, each registered in order, after the random
    /// streams kinds share ([`crate::rng::SHARED`]).
    pub fn new(kinds: &[&dyn Kind]) -> Result<Registry, BadName> {
        let mut registry = Registry::empty();
        for stream in crate::rng::SHARED {
            registry.add_stream(stream)?;
        }
        for kind in kinds {
            kind.register(&mut registry)?;
        }
        Ok(registry)
    }

    /// A registry with nothing registered.
    pub fn empty() -> Registry {
        Registry {
            point_kinds: Names::new("point kind"),
            tables: Names::new("table group"),
            streams: Names::new("random stream"),
            report_groups: Names::new("report grouping"),
            lists: HashMap::new(),
        }
    }

    /// Adds a point kind and its tables (once: kinds may share them).
    pub fn add_point_kind(&mut self, kind: &'static dyn PointKind) -> Result<(), BadName> {
        self.point_kinds.register(kind)?;
        self.add_tables(kind.tables());
        Ok(())
    }

    /// Adds a group of tables, unless a kind added it already.
    pub fn add_tables(&mut self, tables: &'static PointTables) {
        // Kinds may share a group: a second addition of it is no error.
        let _ = self.tables.push(tables);
    }

    /// The groups of tables, in list order (what the store is opened with).
    pub fn groups(&self) -> &[&'static PointTables] {
        self.tables.all()
    }

    /// Adds a random stream: its name and its number are its own.
    pub fn add_stream(&mut self, stream: Stream) -> Result<(), BadName> {
        if let Some(taken) = self.streams.all().iter().find(|s| s.number == stream.number) {
            return Err(BadName::StreamNumber { name: stream.name, taken_by: taken.name, number: stream.number });
        }
        self.streams.register(stream)
    }

    /// Adds `entry` to the list `E`, after its entries so far (its built-in
    /// ones first).
    pub fn add<E: Entries>(&mut self, entry: &'static E::Entry) -> Result<(), BadName> {
        self.list_mut::<E>()?.register(entry)
    }

    /// Puts the list `E`, with its built-in entries, in the registry (a kind
    /// whose list it is, so that it holds them even when no kind adds to it).
    pub fn add_list<E: Entries>(&mut self) -> Result<(), BadName> {
        self.list_mut::<E>().map(|_| ())
    }

    /// The list `E`, made with its built-in entries on first use.
    fn list_mut<E: Entries>(&mut self) -> Result<&mut Names<&'static E::Entry>, BadName> {
        let key = TypeId::of::<Names<&'static E::Entry>>();
        let list = match self.lists.entry(key) {
            std::collections::hash_map::Entry::Occupied(list) => list.into_mut(),
            std::collections::hash_map::Entry::Vacant(slot) => {
                let mut names = Names::new(E::WHAT);
                for entry in E::builtin() {
                    names.register(entry)?;
                }
                slot.insert(Box::new(names))
            }
        };
        Ok(list.downcast_mut().expect("a list is stored under its own type"))
    }

    /// The entries of `E` in this registry: its built-in ones if no kind
    /// added to it.
    pub fn all<E: Entries>(&self) -> Vec<&'static E::Entry> {
        match self.lists.get(&TypeId::of::<Names<&'static E::Entry>>()).and_then(|l| l.downcast_ref()) {
            Some(names) => {
                let names: &Names<&'static E::Entry> = names;
                names.all().to_vec()
            }
            None => E::builtin(),
        }
    }

    /// The entry of `E` named `name` in this registry.
    pub fn find<E: Entries>(&self, name: &str) -> Result<&'static E::Entry, UnknownName> {
        named::<E>(self.all::<E>(), name)
    }

    /// Runs `read` with this registry as the one name lookups inside serde
    /// see on this thread ([`all`], [`find`]); nested calls restore the
    /// outer one.
    pub fn reading<R>(&self, read: impl FnOnce() -> R) -> R {
        READING.set(self, read)
    }
}

scoped_tls::scoped_thread_local! {
    /// The registry the engine is reading settings with on this thread.
    static READING: Registry
}

/// `find` asked of the registry the engine is reading settings with on this
/// thread ([`Registry::reading`]), or of `None` outside.
pub fn lookup<R>(find: impl FnOnce(Option<&Registry>) -> R) -> R {
    if READING.is_set() { READING.with(|r| find(Some(r))) } else { find(None) }
}

/// The entries of `E` in the registry being read with on this thread, else
/// its built-in ones ([`lookup`]).
pub fn all<E: Entries>() -> Vec<&'static E::Entry> {
    lookup(|r| match r {
        Some(registry) => registry.all::<E>(),
        None => E::builtin(),
    })
}

/// The entry of `E` named `name` in the registry being read with on this
/// thread, else among its built-in ones ([`lookup`]).
pub fn find<E: Entries>(name: &str) -> Result<&'static E::Entry, UnknownName> {
    named::<E>(all::<E>(), name)
}

/// The entry of `entries` (of `E`) named `name`.
fn named<E: Entries>(entries: Vec<&'static E::Entry>, name: &str) -> Result<&'static E::Entry, UnknownName> {
    match entries.iter().copied().find(|e| E::Entry::name(e) == name) {
        Some(entry) => Ok(entry),
        None => Err(UnknownName {
            kind: E::WHAT,
            name: name.to_string(),
            valid: entries.iter().map(|e| E::Entry::name(e)).collect(),
        }),
    }
}
