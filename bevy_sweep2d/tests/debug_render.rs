//! The debug render headless: the world's draw calls reach Bevy's gizmo buffers every frame.
#![cfg(feature = "debug-render")]

use bevy_app::prelude::*;
use bevy_app::TaskPoolPlugin;
use bevy_sweep2d::prelude::*;
use bevy_sweep2d::{PhysicsDebug, PhysicsDebugPlugin};
use bevy_time::{TimePlugin, TimeUpdateStrategy};
use bevy_transform::components::Transform;

#[test]
fn the_world_is_drawn_with_gizmos() {
    let mut app = App::new();
    app.add_plugins((
        TaskPoolPlugin::default(),
        TimePlugin,
        bevy_asset::AssetPlugin::default(),
        bevy_gizmos::GizmoPlugin,
        SweepPlugin::default(),
        PhysicsDebugPlugin,
    ))
    .insert_resource(TimeUpdateStrategy::FixedTimesteps(1));
    app.world_mut().spawn((
        RigidBody::Static,
        Collider(Shape::rectangle(5.0, 0.5).unwrap()),
        Transform::from_xyz(0.0, -0.5, 0.0),
    ));
    app.world_mut().spawn((
        RigidBody::Dynamic,
        Collider(Shape::circle(0.5).unwrap()),
        Transform::from_xyz(0.0, 3.0, 0.0),
    ));
    app.insert_resource(PhysicsDebug {
        options: sweep2d::DrawOptions::all(),
        drawn: 0,
    });
    for _ in 0..3 {
        app.update();
    }
    // Every layer on: two shapes, their boxes, the ball's swept hull and centre of mass, ...
    let drawn = app.world().resource::<PhysicsDebug>().drawn;
    let expected = app.world().resource::<Physics>().read(|w| {
        let mut list = sweep2d::DrawList::new();
        w.debug_draw(&mut list, &sweep2d::DrawOptions::all());
        list.commands.len()
    });
    assert!(drawn >= 4, "{drawn}");
    assert_eq!(
        drawn, expected,
        "every draw call of the world reached the gizmos"
    );
}
