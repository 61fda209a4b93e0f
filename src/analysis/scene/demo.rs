//! The built-in demonstration scene, as a scene file (`sweep2d demo` runs it).

use super::{BodySpec, KindSpec, SceneFile};
use crate::dynamics::Filter;
use crate::math::Real;
use crate::shape::{Shape, ShapeSpec};

/// The built-in demonstration scene `sweep2d demo` runs (3 s at 60 Hz): a 6 cm bullet fired at
/// 45 m/s (75 cm per step) inside a room whose side walls and ceiling are 1 cm thick, so an engine
/// without continuous collision would lose it through a wall on its first hit; a bar spinning at
/// 25 rad/s dropped onto a ramp; a box thrown across the floor; and a ball rolling off a ledge.
#[must_use]
pub fn demo() -> SceneFile {
    let rect = |w: Real, h: Real| ShapeSpec::Rectangle {
        half_extents: [w, h],
    };
    let disc = |r: Real| ShapeSpec::Circle {
        radius: r,
        center: [0.0, 0.0],
    };
    let body = |name: &str, kind: KindSpec, position: [Real; 2], s: ShapeSpec| BodySpec {
        name: Some(name.to_string()),
        kind,
        position,
        angle: 0.0,
        velocity: [0.0, 0.0],
        angular_velocity: 0.0,
        density: 1.0,
        restitution: 0.0,
        friction: 0.6,
        shape: Shape::try_from(s).expect("the demo's shapes are valid"),
        filter: Filter::DEFAULT,
        sensor: false,
        fixed_rotation: false,
        lock_x: false,
        lock_y: false,
        shapes: Vec::new(),
    };
    let bodies = vec![
        body("floor", KindSpec::Static, [0.0, -0.25], rect(6.0, 0.25)),
        body(
            "left wall (1 cm)",
            KindSpec::Static,
            [-6.005, 3.0],
            rect(0.005, 3.0),
        ),
        body(
            "right wall (1 cm)",
            KindSpec::Static,
            [6.005, 3.0],
            rect(0.005, 3.0),
        ),
        body(
            "ceiling (1 cm)",
            KindSpec::Static,
            [0.0, 6.005],
            rect(6.01, 0.005),
        ),
        BodySpec {
            angle: -0.3,
            ..body("ramp", KindSpec::Static, [3.0, 1.0], rect(1.8, 0.05))
        },
        body("ledge", KindSpec::Static, [-4.5, 3.5], rect(1.5, 0.05)),
        BodySpec {
            velocity: [45.0, 18.0],
            restitution: 0.8,
            friction: 0.1,
            density: 7.8,
            ..body("bullet", KindSpec::Dynamic, [-5.0, 1.0], disc(0.03))
        },
        BodySpec {
            angular_velocity: 25.0,
            velocity: [1.0, 0.0],
            restitution: 0.2,
            ..body(
                "spinning bar",
                KindSpec::Dynamic,
                [2.0, 4.5],
                rect(0.6, 0.03),
            )
        },
        BodySpec {
            velocity: [5.0, 3.0],
            angle: 0.4,
            restitution: 0.3,
            ..body("box", KindSpec::Dynamic, [-3.0, 0.6], rect(0.3, 0.3))
        },
        BodySpec {
            velocity: [2.0, 0.0],
            restitution: 0.5,
            ..body("ball", KindSpec::Dynamic, [-5.5, 3.8], disc(0.25))
        },
    ];
    SceneFile {
        gravity: [0.0, -9.81],
        dt: 1.0 / 60.0,
        steps: 180,
        bodies,
        joints: Vec::new(),
        character: None,
    }
}
