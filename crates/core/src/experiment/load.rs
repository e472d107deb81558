//! Loading what a run's points need: each point loads its own inputs into
//! the shared [`Inputs`] (a cache that knows no kind), once, before
//! anything is simulated.

use crate::experiment::inputs::Inputs;
use crate::experiment::point::Point;

impl Inputs {
    /// Loads everything `points` need.
    pub fn load(points: &[Point]) -> anyhow::Result<Inputs> {
        Inputs::load_with(points, Inputs::default())
    }

    /// [`Inputs::load`], starting from what the caller `given` (see
    /// [`Inputs::give`]); what was given is dropped once every point has
    /// loaded, before anything is simulated.
    pub fn load_with(points: &[Point], given: Inputs) -> anyhow::Result<Inputs> {
        Inputs::load_each(points.iter().map(Ok), given)
    }

    /// [`Inputs::load_with`] for points made one at a time (a sweep's, from
    /// its config): none is held after its inputs are loaded.
    pub fn load_each<P: std::borrow::Borrow<Point>>(
        points: impl IntoIterator<Item = anyhow::Result<P>>,
        given: Inputs,
    ) -> anyhow::Result<Inputs> {
        let mut inputs = given;
        for (index, point) in points.into_iter().enumerate() {
            point?.borrow().settings().load(index, &mut inputs)?;
        }
        inputs.loaded();
        Ok(inputs)
    }
}

/// The input files `points` would read that are not there, each once, as
/// messages naming the file and the way out; reads nothing. `--dry-run`
/// checks this, so a clean dry run means the sweep finds its files.
pub fn missing_inputs<'a>(points: impl IntoIterator<Item = &'a Point>) -> Vec<String> {
    let mut missing: Vec<String> = Vec::new();
    for point in points {
        for e in point.settings().missing() {
            let text = format!("{e:#}");
            if !missing.contains(&text) {
                missing.push(text);
            }
        }
    }
    missing
}
