//! Built-in scenes, shared by the tests, the benchmarks, the examples and the command line.
//!
//! Each function builds a [`World`] and returns it with the ids of its interesting bodies. The
//! pyramid follows Box2D's `large_pyramid` benchmark exactly, so figures can be compared.

use crate::dynamics::{BodyDef, BodyId, BodyKind};
use crate::math::{Real, Transform};
use crate::shape::Shape;
use crate::world::{World, WorldConfig};
use crate::Vec2;

/// A built scene: the world and named bodies of interest.
#[derive(Debug)]
pub struct Scene {
    /// The world, ready to step.
    pub world: World,
    /// Bodies of interest (the pyramid's top box, the bullets, ...), in creation order.
    pub tracked: Vec<BodyId>,
}

fn static_box(world: &mut World, half: Vec2, center: Vec2, angle: Real, name: &str) -> BodyId {
    world
        .add_body(BodyDef {
            kind: BodyKind::Static,
            shape: Shape::rectangle(half.x, half.y).expect("positive extents"),
            transform: Transform::new(center, angle),
            name: Some(name.to_string()),
            ..Default::default()
        })
        .expect("a valid static box")
}

/// Box2D's `large_pyramid` benchmark with `rows` rows (Box2D uses 100, giving 5,050 boxes): a
/// static ground (half extents 100 × 1 at (0, −1)); boxes of half extent 0.5 in rows `i` at
/// `y = (2i + 1)·0.5`, columns `j = i..rows` at `x = (i + 1)·0.5 + (j − i) − rows/2`; density 1,
/// friction 0.6, restitution 0; gravity (0, −10), dt 1/60. `tracked` holds the top box.
#[must_use]
pub fn pyramid(rows: usize) -> Scene {
    let mut world = World::new(WorldConfig {
        gravity: Vec2::new(0.0, -10.0),
        dt: 1.0 / 60.0,
        ..WorldConfig::default()
    });
    static_box(
        &mut world,
        Vec2::new(100.0, 1.0),
        Vec2::new(0.0, -1.0),
        0.0,
        "ground",
    );
    let square = Shape::rectangle(0.5, 0.5).expect("positive extents");
    let mut top = None;
    let half_rows = rows as Real * 0.5;
    for i in 0..rows {
        let y = (2 * i + 1) as Real * 0.5;
        for j in i..rows {
            let x = (i + 1) as Real * 0.5 + (j - i) as Real - half_rows;
            top = Some(
                world
                    .add_body(BodyDef {
                        shape: square.clone(),
                        transform: Transform::new(Vec2::new(x, y), 0.0),
                        density: 1.0,
                        friction: 0.6,
                        restitution: 0.0,
                        ..Default::default()
                    })
                    .expect("a valid box"),
            );
        }
    }
    Scene {
        world,
        tracked: top.into_iter().collect(),
    }
}
