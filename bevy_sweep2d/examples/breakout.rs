//! Breakout with balls that never tunnel: the paddle (arrow keys) sends balls into a wall of
//! bricks; every brick hit speeds its ball up by 10%, to 300 m/s (5 m per frame at 60 Hz,
//! through bricks 0.3 m tall and walls 2 cm thick), and nothing ever passes through anything.
//! Space adds a ball. Drawn with the plugin's debug render on gizmos.
//!
//! `cargo run -p bevy_sweep2d --example breakout --features example`

use bevy::prelude::*;
use bevy_sweep2d::prelude::*;
use bevy_sweep2d::{PhysicsDebug, PhysicsDebugPlugin};

/// Bricks, by entity.
#[derive(Component)]
struct Brick;

/// A ball, with its speed (m/s).
#[derive(Component)]
struct Ball(f64);

/// The paddle.
#[derive(Component)]
struct Paddle;

const TOP_SPEED: f64 = 300.0;

fn main() {
    App::new()
        .add_plugins((DefaultPlugins, SweepPlugin::default(), PhysicsDebugPlugin))
        .insert_resource(Time::<Fixed>::from_hz(60.0))
        .insert_resource(Gravity(DVec2::ZERO))
        .insert_resource(PhysicsDebug {
            options: sweep2d::DrawOptions {
                impacts: true,
                ..sweep2d::DrawOptions::default()
            },
            drawn: 0,
        })
        .add_systems(Startup, setup)
        .add_systems(FixedUpdate, (steer, serve))
        .add_systems(Update, (break_bricks, keep_speed))
        .run();
}

fn wall(commands: &mut Commands, x: f32, y: f32, hx: f64, hy: f64) {
    if let Ok(shape) = Shape::rectangle(hx, hy) {
        commands.spawn((
            RigidBody::Static,
            Collider(shape),
            Transform::from_xyz(x, y, 0.0),
            Restitution(1.0),
            Friction(0.0),
        ));
    }
}

fn setup(mut commands: Commands) {
    commands.spawn((
        Camera2d,
        Projection::Orthographic(OrthographicProjection {
            scale: 1.0 / 40.0,
            ..OrthographicProjection::default_2d()
        }),
    ));
    // The court: 16 m × 12 m, walls 2 cm thick (open at the bottom).
    wall(&mut commands, -8.01, 0.0, 0.01, 6.0);
    wall(&mut commands, 8.01, 0.0, 0.01, 6.0);
    wall(&mut commands, 0.0, 6.01, 8.0, 0.01);
    for row in 0..6 {
        for col in 0..14 {
            let (x, y) = (-6.5 + col as f32, 2.5 + 0.4 * row as f32);
            if let Ok(shape) = Shape::rectangle(0.45, 0.15) {
                commands.spawn((
                    RigidBody::Static,
                    Collider(shape),
                    Transform::from_xyz(x, y, 0.0),
                    Restitution(1.0),
                    Friction(0.0),
                    Brick,
                ));
            }
        }
    }
    if let Ok(shape) = Shape::capsule(DVec2::new(-1.0, 0.0), DVec2::new(1.0, 0.0), 0.15) {
        commands.spawn((
            RigidBody::Kinematic,
            Collider(shape),
            Transform::from_xyz(0.0, -5.0, 0.0),
            Restitution(1.0),
            Friction(0.0),
            Paddle,
        ));
    }
}

/// Arrow keys move the paddle at 12 m/s.
fn steer(keys: Res<ButtonInput<KeyCode>>, mut paddle: Query<&mut LinearVelocity, With<Paddle>>) {
    let mut dir = 0.0;
    if keys.pressed(KeyCode::ArrowLeft) {
        dir -= 1.0;
    }
    if keys.pressed(KeyCode::ArrowRight) {
        dir += 1.0;
    }
    for mut v in &mut paddle {
        v.0 = DVec2::new(12.0 * dir, 0.0);
    }
}

/// Space serves a ball from above the paddle.
fn serve(
    keys: Res<ButtonInput<KeyCode>>,
    paddle: Query<&Transform, With<Paddle>>,
    mut commands: Commands,
) {
    if !keys.just_pressed(KeyCode::Space) {
        return;
    }
    let Ok(at) = paddle.single() else { return };
    if let Ok(shape) = Shape::circle(0.1) {
        commands.spawn((
            RigidBody::Dynamic,
            Collider(shape),
            Transform::from_xyz(at.translation.x, at.translation.y + 0.5, 0.0),
            LinearVelocity(DVec2::new(4.0, 10.0)),
            Restitution(1.0),
            Friction(0.0),
            LockedAxes::ROTATION_LOCKED,
            Ball(10.8),
        ));
    }
}

/// A brick a ball hits is gone, and the ball is 10% faster.
fn break_bricks(
    mut impacts: MessageReader<Impact>,
    mut started: MessageReader<CollisionStarted>,
    bricks: Query<(), With<Brick>>,
    mut balls: Query<&mut Ball>,
    mut commands: Commands,
) {
    let hits = impacts
        .read()
        .map(|i| (i.a, i.b))
        .chain(started.read().map(|c| (c.a, c.b)))
        .collect::<Vec<_>>();
    for (a, b) in hits {
        for (brick, ball) in [(a, b), (b, a)] {
            if bricks.contains(brick) {
                if let Ok(mut speed) = balls.get_mut(ball) {
                    speed.0 = (speed.0 * 1.1).min(TOP_SPEED);
                }
                if let Ok(mut e) = commands.get_entity(brick) {
                    e.despawn();
                }
            }
        }
    }
}

/// Balls keep their speed (elastic bounces keep it anyway; this applies the speed-ups) and are
/// removed when they fall out of the court.
fn keep_speed(
    mut balls: Query<(Entity, &Ball, &Transform, &mut LinearVelocity)>,
    mut commands: Commands,
) {
    for (e, ball, at, mut v) in &mut balls {
        if at.translation.y < -8.0 {
            commands.entity(e).despawn();
            continue;
        }
        let speed = v.0.length();
        if speed > 0.0 && (speed - ball.0).abs() > 1e-6 {
            v.0 *= ball.0 / speed;
        }
    }
}
