use slasim_core::names::*;

struct Entry(&'static str);

impl Named for Entry {
    fn name(&self) -> &'static str {
        self.0
    }
}

#[test]
fn names_keep_their_order_and_each_name_is_added_once() {
    let mut names = Names::new("thing");
    names.register(Entry("first")).unwrap();
    names.register(Entry("second")).unwrap();
    names.register(Entry("third-2")).unwrap();
    assert_eq!(names.names(), ["first", "second", "third-2"]);
    assert_eq!(names.get("third-2").map(|e| e.0), Ok("third-2"));
    assert_eq!(names.register(Entry("second")).err(), Some(BadName::Duplicate { kind: "thing", name: "second" }));
    assert_eq!(
        names.register(Entry("third-2")).err().map(|e| e.to_string()),
        Some("the thing name `third-2` is registered twice".to_string())
    );
    for bad in ["", "Third", "3rd", "a b", "a_b"] {
        assert!(matches!(names.register(Entry(bad)), Err(BadName::NotKebabCase { .. })), "{bad:?}");
    }
    // A table's SQL name is kept as given, once.
    names.push(Entry("key_table")).unwrap();
    assert!(matches!(names.push(Entry("key_table")), Err(BadName::Duplicate { .. })));
    assert_eq!(
        names.get("fourth").err().map(|e| e.to_string()),
        Some("unknown thing `fourth`; valid thing names: first, second, third-2, key_table".to_string())
    );
}
