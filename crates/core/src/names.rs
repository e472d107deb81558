//! Names: tables of entries found by name, and the errors of naming.
//!
//! Contract: a [`Names`] holds entries in the order they were added; a name
//! is added once, and is kebab-case (`[a-z0-9-]`, starting with a letter):
//! anything else is a [`BadName`] naming it. Looking up an unknown name is
//! an [`UnknownName`] listing every name there is. This module knows nothing
//! of what is named, so a module can name its entries without naming the
//! registry that keeps them.

/// An entry a table of names finds by name.
pub trait Named: Send + Sync + 'static {
    /// Its stable name (configs, command line, store).
    fn name(&self) -> &'static str;
}

impl<T: Named + ?Sized> Named for &'static T {
    fn name(&self) -> &'static str {
        T::name(self)
    }
}

/// Makes `dyn Trait` an entry of a table of names, found by the trait's own
/// `name()`, and prints it as `Trait(name)`: for the registry's trait
/// objects (point kinds, report sections, subcommands).
#[macro_export]
macro_rules! named_trait_objects {
    ($trait:ident) => {
        impl $crate::names::Named for dyn $trait {
            fn name(&self) -> &'static str {
                $trait::name(self)
            }
        }

        impl std::fmt::Debug for dyn $trait {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                write!(f, "{}({})", stringify!($trait), self.name())
            }
        }
    };
}

/// An unknown strategy, algorithm, placement or model name, with the valid ones.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("unknown {kind} `{name}`; valid {kind} names: {}", .valid.join(", "))]
pub struct UnknownName {
    /// What kind of name ("strategy", "algorithm", …).
    pub kind: &'static str,
    /// What was asked for.
    pub name: String,
    /// What exists.
    pub valid: Vec<&'static str>,
}

/// A name that cannot be registered.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BadName {
    /// Already registered.
    #[error("the {kind} name `{name}` is registered twice")]
    Duplicate {
        /// What kind of name.
        kind: &'static str,
        /// The name.
        name: &'static str,
    },
    /// Not kebab-case.
    #[error("the {kind} name `{name}` is not kebab-case (lowercase letters, digits and `-`, starting with a letter)")]
    NotKebabCase {
        /// What kind of name.
        kind: &'static str,
        /// The name.
        name: &'static str,
    },
    /// A random stream number another stream has.
    #[error("random streams `{name}` and `{taken_by}` both have number {number}")]
    StreamNumber {
        /// The stream registered second.
        name: &'static str,
        /// The one registered first.
        taken_by: &'static str,
        /// Their number.
        number: u64,
    },
    /// A kind needs an entry an earlier kind of the list registers.
    #[error("the kind `{kind}` needs {needs}: list the kind that registers it before `{kind}`")]
    Missing {
        /// The kind registering.
        kind: &'static str,
        /// What it needs.
        needs: &'static str,
    },
}

/// Entries of one kind, found by name, in the order they were added.
#[derive(Debug, Clone)]
pub struct Names<T: 'static> {
    what: &'static str,
    entries: Vec<T>,
}

impl<T: Named> Names<T> {
    /// An empty table of `what` ("strategy", "algorithm", …).
    pub const fn new(what: &'static str) -> Names<T> {
        Names { what, entries: Vec::new() }
    }

    /// What kind of entries it holds ("strategy", "algorithm", …).
    pub fn what(&self) -> &'static str {
        self.what
    }

    /// Adds `entry` after every entry added so far.
    pub fn register(&mut self, entry: T) -> Result<(), BadName> {
        let name = entry.name();
        let kebab = name.starts_with(|c: char| c.is_ascii_lowercase())
            && name.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
        if !kebab {
            return Err(BadName::NotKebabCase { kind: self.what, name });
        }
        self.push(entry)
    }

    /// Adds `entry`, whose name need not be kebab-case (an SQL table's),
    /// after every entry added so far.
    pub fn push(&mut self, entry: T) -> Result<(), BadName> {
        let name = entry.name();
        if self.entries.iter().any(|e| T::name(e) == name) {
            return Err(BadName::Duplicate { kind: self.what, name });
        }
        self.entries.push(entry);
        Ok(())
    }

    /// Every entry, in the order they were added.
    pub fn all(&self) -> &[T] {
        &self.entries
    }

    /// Every name, in order.
    pub fn names(&self) -> Vec<&'static str> {
        self.entries.iter().map(T::name).collect()
    }

    /// The entry named `name`.
    pub fn get(&self, name: &str) -> Result<&T, UnknownName> {
        self.entries.iter().find(|e| T::name(e) == name).ok_or_else(|| UnknownName {
            kind: self.what,
            name: name.to_string(),
            valid: self.names(),
        })
    }
}
