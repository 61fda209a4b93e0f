//! Debug render (feature `debug-render`): the engine's `DebugDraw` back end on Bevy gizmos. Each
//! frame [`PhysicsDebugPlugin`] asks the world to draw the layers [`PhysicsDebug`] selects
//! (shapes by body kind and sleep state, contact points and normals, impacts with their step
//! fractions, swept hulls, joints, bounding boxes, sensors, centres of mass) in the engine's
//! suggested colours, shapes interpolated as the `Transform`s are.

use crate::Physics;
use bevy_app::prelude::*;
use bevy_color::{Color, Srgba};
use bevy_ecs::prelude::*;
use bevy_gizmos::prelude::Gizmos;
use bevy_math::{Isometry2d, Vec2};
use bevy_time::{Fixed, Time};
use sweep2d::{DebugDraw, DrawOptions, DrawStyle, Real, Vec2 as DVec2};

/// Which layers to draw (the engine's [`DrawOptions`]; its `alpha` is set each frame from the
/// fixed timestep's overstep; default: shapes, joints and impacts), and how many items the last
/// frame drew.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq)]
pub struct PhysicsDebug {
    /// The layers.
    pub options: DrawOptions,
    /// Items (polygons, circles, capsules, segments, points, texts) drawn in the last frame.
    pub drawn: usize,
}

/// Draws the world with gizmos every frame (needs Bevy's `GizmoPlugin`, part of
/// `DefaultPlugins`).
#[derive(Clone, Copy, Debug, Default)]
pub struct PhysicsDebugPlugin;

impl Plugin for PhysicsDebugPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<PhysicsDebug>()
            .add_systems(PostUpdate, draw);
    }
}

/// The engine's draw calls as gizmos (world metres → Bevy units, 1:1).
struct GizmoDraw<'a, 'w, 's> {
    gizmos: &'a mut Gizmos<'w, 's>,
    drawn: usize,
}

fn point(v: DVec2) -> Vec2 {
    Vec2::new(v.x as f32, v.y as f32)
}

fn color(style: &DrawStyle) -> Color {
    let c = style.color;
    Color::Srgba(Srgba::rgba_u8(c.r, c.g, c.b, c.a))
}

impl DebugDraw for GizmoDraw<'_, '_, '_> {
    fn polygon(&mut self, vertices: &[DVec2], radius: Real, style: &DrawStyle) {
        self.drawn += 1;
        let c = color(style);
        let mut ring: Vec<Vec2> = vertices.iter().map(|v| point(*v)).collect();
        if let Some(first) = ring.first().copied() {
            ring.push(first);
        }
        self.gizmos.linestrip_2d(ring, c);
        if radius > 0.0 {
            // A rounded polygon: its core, and a circle at each vertex for the rounding.
            for v in vertices {
                self.gizmos
                    .circle_2d(Isometry2d::from_translation(point(*v)), radius as f32, c);
            }
        }
    }

    fn circle(&mut self, center: DVec2, radius: Real, axis: DVec2, style: &DrawStyle) {
        self.drawn += 1;
        let c = color(style);
        let at = point(center);
        self.gizmos
            .circle_2d(Isometry2d::from_translation(at), radius as f32, c);
        self.gizmos.line_2d(at, at + point(axis) * radius as f32, c);
    }

    fn capsule(&mut self, a: DVec2, b: DVec2, radius: Real, style: &DrawStyle) {
        self.drawn += 1;
        let c = color(style);
        let (pa, pb) = (point(a), point(b));
        let side = (pb - pa).normalize_or_zero().perp() * radius as f32;
        self.gizmos.line_2d(pa + side, pb + side, c);
        self.gizmos.line_2d(pa - side, pb - side, c);
        for end in [pa, pb] {
            self.gizmos
                .circle_2d(Isometry2d::from_translation(end), radius as f32, c);
        }
    }

    fn segment(&mut self, a: DVec2, b: DVec2, style: &DrawStyle) {
        self.drawn += 1;
        self.gizmos.line_2d(point(a), point(b), color(style));
    }

    fn point(&mut self, p: DVec2, size: Real, style: &DrawStyle) {
        self.drawn += 1;
        self.gizmos.circle_2d(
            Isometry2d::from_translation(point(p)),
            size as f32,
            color(style),
        );
    }

    fn text(&mut self, at: DVec2, text: &str, style: &DrawStyle) {
        self.drawn += 1;
        self.gizmos.text_2d(
            Isometry2d::from_translation(point(at)),
            text,
            0.2,
            Vec2::new(-0.5, 0.5),
            color(style),
        );
    }
}

/// Draws the selected layers, shapes at the frame's place between the last two steps.
fn draw(
    physics: Res<Physics>,
    mut debug: ResMut<PhysicsDebug>,
    time: Res<Time<Fixed>>,
    mut gizmos: Gizmos,
) {
    let options = DrawOptions {
        alpha: time.overstep_fraction_f64().clamp(0.0, 1.0),
        ..debug.options
    };
    let mut out = GizmoDraw {
        gizmos: &mut gizmos,
        drawn: 0,
    };
    physics.read(|world| world.debug_draw(&mut out, &options));
    debug.drawn = out.drawn;
}
