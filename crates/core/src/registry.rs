//! Registries: the strategies, broker algorithms and model kinds a config or
//! the command line can name.
//!
//! Contract:
//! - A [`Registry`] holds the built-in entries (a static slice, in report
//!   order) and the entries a program depending on the `slasim` crate adds
//!   with [`Registry::register`] before it runs a config or the CLI. Added
//!   entries come after the built-in ones, in the order they were added.
//! - A name is registered once: registering a name already there, or one
//!   that is not kebab-case (`[a-z0-9-]`, starting with a letter), is an
//!   error ([`BadName`]) naming it.
//! - Looking up an unknown name fails with [`UnknownName`], which lists every
//!   registered name.
//! - Registration is process-wide and append-only: an entry is never removed,
//!   so the `&'static` reference a lookup returns stays valid. Lookups take a
//!   read lock; they happen when a point is built, never inside a simulation.

use std::sync::RwLock;

/// An entry a registry finds by name.
pub trait Named: Send + Sync + 'static {
    /// Its stable name (configs, command line, store).
    fn name(&self) -> &'static str;
}

/// Makes `&'static dyn Trait` a registry entry, found by the trait's own
/// `name()`, and prints `dyn Trait` as `Trait(name)`: for the registries of
/// trait objects (point kinds, report sections, subcommands).
#[macro_export]
macro_rules! named_trait_objects {
    ($trait:ident) => {
        impl $crate::registry::Named for &'static dyn $trait {
            fn name(&self) -> &'static str {
                $trait::name(*self)
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
}

/// Entries of one kind, found by name.
pub struct Registry<T: 'static> {
    kind: &'static str,
    builtin: &'static [T],
    added: RwLock<Vec<&'static T>>,
}

impl<T: Named> Registry<T> {
    /// A registry of `kind` holding `builtin`.
    pub const fn new(kind: &'static str, builtin: &'static [T]) -> Registry<T> {
        Registry { kind, builtin, added: RwLock::new(Vec::new()) }
    }

    /// What kind of entries it holds ("strategy", "algorithm", …).
    pub fn kind(&self) -> &'static str {
        self.kind
    }

    /// Adds `entry` after every entry registered so far.
    pub fn register(&self, entry: T) -> Result<&'static T, BadName> {
        let name = entry.name();
        let kebab = name.starts_with(|c: char| c.is_ascii_lowercase())
            && name.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
        if !kebab {
            return Err(BadName::NotKebabCase { kind: self.kind, name });
        }
        let mut added = self.added.write().unwrap_or_else(|poisoned| poisoned.into_inner());
        if self.builtin.iter().map(Named::name).chain(added.iter().map(|e| e.name())).any(|n| n == name) {
            return Err(BadName::Duplicate { kind: self.kind, name });
        }
        // Entries live as long as the process (see the module contract).
        let entry: &'static T = Box::leak(Box::new(entry));
        added.push(entry);
        Ok(entry)
    }

    /// Every entry: the built-in ones, then the added ones.
    pub fn all(&self) -> Vec<&'static T> {
        let added = self.added.read().unwrap_or_else(|poisoned| poisoned.into_inner());
        self.builtin.iter().chain(added.iter().copied()).collect()
    }

    /// Every registered name, in order.
    pub fn names(&self) -> Vec<&'static str> {
        self.all().into_iter().map(Named::name).collect()
    }

    /// The entry named `name`.
    pub fn get(&self, name: &str) -> Result<&'static T, UnknownName> {
        if let Some(entry) = self.builtin.iter().find(|e| e.name() == name) {
            return Ok(entry);
        }
        let added = self.added.read().unwrap_or_else(|poisoned| poisoned.into_inner());
        match added.iter().find(|e| e.name() == name) {
            Some(entry) => Ok(entry),
            None => {
                drop(added);
                Err(UnknownName { kind: self.kind, name: name.to_string(), valid: self.names() })
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Entry(&'static str);

    impl Named for Entry {
        fn name(&self) -> &'static str {
            self.0
        }
    }

    static BUILTIN: [Entry; 2] = [Entry("first"), Entry("second")];

    #[test]
    fn added_names_follow_the_built_in_ones_and_each_name_is_registered_once() {
        let registry = Registry::new("thing", &BUILTIN);
        assert_eq!(registry.names(), ["first", "second"]);
        registry.register(Entry("third-2")).unwrap();
        assert_eq!(registry.names(), ["first", "second", "third-2"]);
        assert_eq!(registry.get("third-2").map(Named::name), Ok("third-2"));
        assert_eq!(
            registry.register(Entry("second")).err(),
            Some(BadName::Duplicate { kind: "thing", name: "second" })
        );
        assert_eq!(
            registry.register(Entry("third-2")).err().map(|e| e.to_string()),
            Some("the thing name `third-2` is registered twice".to_string())
        );
        for bad in ["", "Third", "3rd", "a b", "a_b"] {
            assert!(matches!(registry.register(Entry(bad)), Err(BadName::NotKebabCase { .. })), "{bad:?}");
        }
        assert_eq!(
            registry.get("fourth").err().map(|e| e.to_string()),
            Some("unknown thing `fourth`; valid thing names: first, second, third-2".to_string())
        );
    }
}
