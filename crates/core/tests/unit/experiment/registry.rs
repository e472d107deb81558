use slasim_core::experiment::registry::*;
use slasim_core::rng::Stream;

struct Entry(&'static str);

impl Named for Entry {
    fn name(&self) -> &'static str {
        self.0
    }
}

enum Things {}

impl Entries for Things {
    type Entry = Entry;
    const WHAT: &'static str = "thing";
    fn builtin() -> Vec<&'static Entry> {
        static BUILTIN: [Entry; 2] = [Entry("first"), Entry("second")];
        BUILTIN.iter().collect()
    }
}

#[test]
fn a_list_holds_its_built_in_entries_then_those_added() {
    static ADDED: Entry = Entry("added");
    let mut registry = Registry::empty();
    let names = |v: Vec<&'static Entry>| v.into_iter().map(|e| e.0).collect::<Vec<_>>();
    assert_eq!(names(registry.all::<Things>()), ["first", "second"]);
    registry.add::<Things>(&ADDED).unwrap();
    assert_eq!(names(registry.all::<Things>()), ["first", "second", "added"]);
    assert!(matches!(registry.add::<Things>(&ADDED), Err(BadName::Duplicate { .. })));
    assert_eq!(
        registry.find::<Things>("none").err().map(|e| e.to_string()),
        Some("unknown thing `none`; valid thing names: first, second, added".to_string())
    );
    // Outside a reading, the built-in entries; inside, the registry's.
    assert_eq!(names(all::<Things>()), ["first", "second"]);
    assert!(find::<Things>("added").is_err());
    registry.reading(|| {
        assert_eq!(names(all::<Things>()), ["first", "second", "added"]);
        assert_eq!(find::<Things>("added").map(|e| e.0), Ok("added"));
    });
}

#[test]
fn a_stream_name_or_number_is_registered_once() {
    let mut registry = Registry::empty();
    registry.add_stream(Stream::new("jobs", 1)).unwrap();
    registry.add_stream(Stream::new("failures", 2)).unwrap();
    assert_eq!(
        registry.add_stream(Stream::new("again", 1)).err().map(|e| e.to_string()),
        Some("random streams `again` and `jobs` both have number 1".to_string())
    );
    assert!(matches!(registry.add_stream(Stream::new("jobs", 3)), Err(BadName::Duplicate { .. })));
}

#[test]
fn reading_scopes_the_registry_to_the_thread_and_restores_the_outer_one() {
    let outer = Registry::empty();
    let mut inner = Registry::empty();
    inner.add_stream(Stream::new("inner", 7)).unwrap();
    let streams = || lookup(|r| r.map(|r| r.streams.names()));
    assert_eq!(streams(), None);
    outer.reading(|| {
        assert_eq!(streams(), Some(vec![]));
        inner.reading(|| assert_eq!(streams(), Some(vec!["inner"])));
        assert_eq!(streams(), Some(vec![]));
        // Another thread sees none.
        std::thread::scope(|s| s.spawn(|| assert_eq!(streams(), None)).join().unwrap());
    });
    assert_eq!(streams(), None);
}
