//! Derives and attributes of single types (`[schema."PATH".types."POINTER"]`): the fixture's
//! `Cell` is `Copy`, `Eq`, `Hash` and `Ord`, `Label` (which holds a `Cell`) `Eq` and `Hash`, and
//! the root, which holds an `f64`, none of them.

use std::collections::{BTreeSet, HashSet};

use fixture_types::type_options::{Cell, Label, Placement};

fn copy<T: Copy>(value: T) -> (T, T) {
    (value, value)
}

#[test]
fn per_type_derives_are_there_and_usable() {
    let placement: Placement =
        schemac_runtime::from_str(r#"{"cell": {"row": 1, "column": 2}, "label": {"text": "a", "cell": {"row": 0, "column": 0}}}"#).unwrap();
    let (a, b) = copy(placement.cell);
    // `Cell` is `#[non_exhaustive]` (the project default): built with its builder.
    let built = Cell::builder().row(0u8).column(5u8).build().unwrap();
    let ordered: BTreeSet<Cell> = [b, a, built].into_iter().collect();
    assert_eq!(ordered.iter().map(|c| (c.row, c.column)).collect::<Vec<_>>(), [(0, 5), (1, 2)]);
    let labels: HashSet<Label> = [placement.label.clone().unwrap(), placement.label.unwrap()].into_iter().collect();
    assert_eq!(labels.len(), 1);
}
