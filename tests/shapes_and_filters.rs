//! Several shapes per body and collision filters, against independent references: mass
//! properties by grid integration, the filter rule written out from its definition, and hand-built
//! scenes whose outcome is known.

use approx::assert_relative_eq;
use proptest::prelude::*;
use sweep2d::query::contains_point;
use sweep2d::{
    BodyDef, BodyError, BodyKind, Filter, Shape, ShapeDef, Transform, Vec2, World, WorldConfig,
};

fn v(x: f64, y: f64) -> Vec2 {
    Vec2::new(x, y)
}

fn world(gravity: Vec2) -> World {
    World::new(WorldConfig {
        gravity,
        ..WorldConfig::default()
    })
}

/// Mass, centre and inertia about the centre of a union of disjoint placed shapes, by summing
/// density over a grid of `n × n` cell centres in `[lo, hi]²`.
fn grid_mass(parts: &[(Shape, Transform, f64)], lo: f64, hi: f64, n: usize) -> (f64, Vec2, f64) {
    let h = (hi - lo) / n as f64;
    let (mut m, mut first, mut second) = (0.0, Vec2::ZERO, 0.0);
    for i in 0..n {
        for j in 0..n {
            let p = v(lo + (i as f64 + 0.5) * h, lo + (j as f64 + 0.5) * h);
            let rho: f64 = parts
                .iter()
                .filter(|(s, x, _)| contains_point(s, x, p))
                .map(|(_, _, d)| d)
                .sum();
            let dm = rho * h * h;
            m += dm;
            first += dm * p;
            second += dm * p.length_squared();
        }
    }
    let c = first / m;
    (m, c, second - m * c.length_squared())
}

#[test]
fn a_body_of_several_shapes_has_the_mass_of_their_union() {
    // A box at the origin, a rotated bar to its right (denser), a disc above: disjoint.
    let bar_at = Transform::new(v(2.0, 0.3), 0.4);
    let disc_at = Transform::new(v(-0.2, 1.6), 0.0);
    let parts = [
        (
            Shape::rectangle(0.5, 0.5).unwrap(),
            Transform::IDENTITY,
            1.0,
        ),
        (Shape::rectangle(0.8, 0.2).unwrap(), bar_at, 3.0),
        (Shape::circle(0.4).unwrap(), disc_at, 0.5),
    ];
    let frame = Transform::new(v(5.0, -2.0), 0.7);
    let mut w = world(Vec2::ZERO);
    let id = w
        .add_body(BodyDef {
            shape: parts[0].0.clone(),
            transform: frame,
            ..BodyDef::default()
        })
        .unwrap();
    for (shape, offset, density) in &parts[1..] {
        w.add_shape(
            id,
            ShapeDef {
                shape: shape.clone(),
                offset: *offset,
                density: *density,
                ..ShapeDef::default()
            },
        )
        .unwrap();
    }
    let (m, c, i) = grid_mass(&parts, -1.5, 3.5, 2000);
    let b = w.body(id).unwrap();
    assert_relative_eq!(b.mass(), m, max_relative = 2e-3);
    assert_relative_eq!(b.inertia(), i, max_relative = 2e-3);
    // The centre of mass, in the world: the body frame placed at `frame`.
    let world_c = frame.transform_point(c);
    assert!(
        (b.center_of_mass() - world_c).length() < 2e-3,
        "{:?} vs {world_c:?}",
        b.center_of_mass()
    );
    // The frame did not move when shapes were added.
    let t = b.transform();
    assert!((t.translation - frame.translation).length() < 1e-12);
    assert_eq!(b.shape_count(), 3);
}

#[test]
fn removing_a_shape_restores_the_mass_and_keeps_the_frame() {
    let mut w = world(Vec2::ZERO);
    let id = w
        .add_body(BodyDef {
            transform: Transform::new(v(1.0, 2.0), 0.3),
            angular_velocity: 2.0,
            ..BodyDef::default()
        })
        .unwrap();
    let alone = w.body(id).unwrap().clone();
    let extra = w
        .add_shape(
            id,
            ShapeDef {
                shape: Shape::circle(0.5).unwrap(),
                offset: Transform::new(v(3.0, 0.0), 0.0),
                ..ShapeDef::default()
            },
        )
        .unwrap();
    let with = w.body(id).unwrap().clone();
    assert!(with.mass() > alone.mass());
    // Every material point keeps its velocity: the frame origin's velocity is unchanged.
    let origin = alone.transform().translation;
    let (va, vb) = (alone.velocity_at(origin), with.velocity_at(origin));
    assert!((va - vb).length() < 1e-12, "{va:?} vs {vb:?}");
    let removed = w.remove_shape(extra).unwrap();
    assert_eq!(removed.shape, Shape::circle(0.5).unwrap());
    let back = w.body(id).unwrap();
    assert_relative_eq!(back.mass(), alone.mass(), max_relative = 1e-12);
    assert_relative_eq!(back.inertia(), alone.inertia(), max_relative = 1e-12);
    assert!((back.center_of_mass() - alone.center_of_mass()).length() < 1e-12);
    // The id of a removed shape, and the last shape, are refused; the world is unchanged.
    let before = w.body(id).unwrap().clone();
    assert!(matches!(
        w.remove_shape(extra),
        Err(BodyError::UnknownShape { index: 1, .. })
    ));
    let first = w.shape_ids(id)[0];
    assert!(matches!(
        w.remove_shape(first),
        Err(BodyError::LastShape { .. })
    ));
    let bad = ShapeDef {
        density: f64::NAN,
        ..ShapeDef::default()
    };
    assert!(matches!(
        w.add_shape(id, bad),
        Err(BodyError::NonFinite { .. })
    ));
    let after = w.body(id).unwrap();
    assert_eq!(after.mass(), before.mass());
    assert_eq!(after.shape_count(), 1);
}

#[test]
fn a_dynamic_body_needs_mass_from_its_shapes() {
    let mut w = world(Vec2::ZERO);
    let id = w.add_body(BodyDef::default()).unwrap();
    let light = w
        .add_shape(
            id,
            ShapeDef {
                density: 0.0,
                offset: Transform::new(v(2.0, 0.0), 0.0),
                ..ShapeDef::default()
            },
        )
        .unwrap();
    let first = w.shape_ids(id)[0];
    // Removing the only massive shape would leave a dynamic body without mass.
    let err = w.remove_shape(first).unwrap_err();
    assert!(err.to_string().contains("positive"), "{err}");
    assert_eq!(w.body(id).unwrap().shape_count(), 2);
    w.remove_shape(light).unwrap();
}

/// A ball dropped onto the second shape of a two-shape static body reports that shape.
#[test]
fn contacts_and_impacts_name_the_shape_that_was_hit() {
    let mut w = world(v(0.0, -10.0));
    let ground = w
        .add_body(BodyDef {
            kind: BodyKind::Static,
            shape: Shape::rectangle(1.0, 0.1).unwrap(),
            ..BodyDef::default()
        })
        .unwrap();
    let ledge = w
        .add_shape(
            ground,
            ShapeDef {
                shape: Shape::rectangle(1.0, 0.1).unwrap(),
                offset: Transform::new(v(5.0, 0.0), 0.0),
                ..ShapeDef::default()
            },
        )
        .unwrap();
    // A slow ball (a contact) and a fast one (an impact of the continuous pass).
    let slow = w
        .add_body(BodyDef {
            shape: Shape::circle(0.2).unwrap(),
            transform: Transform::new(v(5.0, 0.5), 0.0),
            ..BodyDef::default()
        })
        .unwrap();
    let fast = w
        .add_body(BodyDef {
            shape: Shape::circle(0.05).unwrap(),
            transform: Transform::new(v(5.5, 3.0), 0.0),
            linear_velocity: v(0.0, -400.0),
            ..BodyDef::default()
        })
        .unwrap();
    let (mut began, mut hit) = (None, None);
    for _ in 0..60 {
        w.step();
        for c in &w.events().contact_begin {
            if c.body_b == slow || c.body_a == slow {
                began.get_or_insert(if c.body_a == ground {
                    c.shape_a
                } else {
                    c.shape_b
                });
            }
        }
        for i in &w.events().impacts {
            if i.body_a == fast || i.body_b == fast {
                hit.get_or_insert(if i.body_a == ground {
                    i.shape_a
                } else {
                    i.shape_b
                });
            }
        }
    }
    assert_eq!(began, Some(ledge));
    assert_eq!(hit, Some(ledge));
    // Both rest on the ledge, not on the first shape.
    for id in [slow, fast] {
        let y = w.body(id).unwrap().transform().translation.y;
        assert!(y > 0.1 && y < 0.35, "{y}");
    }
}

/// The rule as Box2D documents it, written out independently of `Filter::should_collide`.
fn reference_rule(a: &Filter, b: &Filter) -> bool {
    let same_group = a.group == b.group && a.group != 0;
    if same_group {
        a.group > 0
    } else {
        (a.category & b.mask) != 0 && (b.category & a.mask) != 0
    }
}

fn filter() -> impl Strategy<Value = Filter> {
    // Few bits and groups, so that every branch of the rule is taken often.
    (0u64..8, 0u64..8, -2i32..=2).prop_map(|(category, mask, group)| Filter {
        category,
        mask,
        group,
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Two overlapping boxes touch after a step exactly when the rule says they collide.
    #[test]
    fn the_filter_truth_table_decides_which_pairs_touch(fa in filter(), fb in filter()) {
        prop_assert_eq!(fa.should_collide(&fb), reference_rule(&fa, &fb));
        prop_assert_eq!(fa.should_collide(&fb), fb.should_collide(&fa));
        let mut w = world(Vec2::ZERO);
        let a = w.add_body(BodyDef { filter: fa, ..BodyDef::default() }).unwrap();
        let b = w
            .add_body(BodyDef {
                filter: fb,
                transform: Transform::new(v(0.9, 0.0), 0.0),
                ..BodyDef::default()
            })
            .unwrap();
        w.step();
        let touched = !w.events().contact_begin.is_empty();
        prop_assert_eq!(touched, reference_rule(&fa, &fb));
        // Colliding boxes are pushed apart; filtered ones keep their overlap.
        let gap = w.body(b).unwrap().transform().translation.x
            - w.body(a).unwrap().transform().translation.x;
        prop_assert_eq!(gap > 0.9, reference_rule(&fa, &fb), "gap {}", gap);
    }

    /// A bullet whose filter excludes the wall passes it at any speed, with no impact; one whose
    /// filter includes it never does.
    #[test]
    fn filtered_bullets_pass_and_others_stop(speed in 50.0..1_000.0f64, y in -0.4..0.4f64) {
        for passes in [true, false] {
            let mut w = world(Vec2::ZERO);
            w.add_body(BodyDef {
                kind: BodyKind::Static,
                shape: Shape::rectangle(0.005, 1.0).unwrap(),
                filter: Filter { category: 2, ..Filter::DEFAULT },
                ..BodyDef::default()
            })
            .unwrap();
            let mask = if passes { !2 } else { u64::MAX };
            let bullet = w
                .add_body(BodyDef {
                    shape: Shape::circle(0.01).unwrap(),
                    transform: Transform::new(v(-1.0, y), 0.0),
                    linear_velocity: v(speed, 0.0),
                    filter: Filter { mask, ..Filter::DEFAULT },
                    ..BodyDef::default()
                })
                .unwrap();
            let mut impacts = 0;
            for _ in 0..10 {
                w.step();
                impacts += w.events().impacts.len() + w.events().contact_begin.len();
            }
            let x = w.body(bullet).unwrap().transform().translation.x;
            if passes {
                prop_assert_eq!(impacts, 0);
                prop_assert!(x > 0.5, "filtered bullet stopped at {}", x);
            } else {
                prop_assert!(impacts > 0);
                prop_assert!(x < 0.0, "bullet passed the wall: {}", x);
            }
        }
    }
}

#[test]
fn a_filter_changed_at_run_time_takes_effect_on_the_next_step() {
    let mut w = world(v(0.0, -10.0));
    let ground = w
        .add_body(BodyDef {
            kind: BodyKind::Static,
            shape: Shape::rectangle(5.0, 0.5).unwrap(),
            transform: Transform::new(v(0.0, -0.5), 0.0),
            ..BodyDef::default()
        })
        .unwrap();
    let crate_ = w
        .add_body(BodyDef {
            transform: Transform::new(v(0.0, 0.5), 0.0),
            ..BodyDef::default()
        })
        .unwrap();
    for _ in 0..30 {
        w.step();
    }
    let resting = w.body(crate_).unwrap().transform().translation.y;
    assert!((resting - 0.5).abs() < 0.02, "{resting}");
    // The crate's group and the ground's group are the same negative number: never collide.
    let no = Filter {
        group: -7,
        ..Filter::DEFAULT
    };
    w.set_filter(w.shape_ids(crate_)[0], no).unwrap();
    w.set_filter(w.shape_ids(ground)[0], no).unwrap();
    w.step();
    assert_eq!(w.events().contact_end.len(), 1, "the touching pair ends");
    for _ in 0..30 {
        w.step();
    }
    let fallen = w.body(crate_).unwrap().transform().translation.y;
    // Free fall from rest for 0.5 s: 1.25 m below the resting height.
    assert!(fallen < -0.5, "the crate falls through: {fallen}");
}

/// Shapes of one body with different filters: a ball passes through the body's first shape
/// (filtered) and lands on its second.
#[test]
fn filters_apply_shape_by_shape() {
    let mut w = world(v(0.0, -10.0));
    let floor = w
        .add_body(BodyDef {
            kind: BodyKind::Static,
            shape: Shape::rectangle(2.0, 0.1).unwrap(),
            transform: Transform::new(v(0.0, 1.0), 0.0),
            filter: Filter {
                category: 4,
                ..Filter::DEFAULT
            },
            ..BodyDef::default()
        })
        .unwrap();
    let lower = w
        .add_shape(
            floor,
            ShapeDef {
                shape: Shape::rectangle(2.0, 0.1).unwrap(),
                offset: Transform::new(v(0.0, -1.0), 0.0),
                ..ShapeDef::default()
            },
        )
        .unwrap();
    let ball = w
        .add_body(BodyDef {
            shape: Shape::circle(0.2).unwrap(),
            transform: Transform::new(v(0.0, 2.0), 0.0),
            linear_velocity: v(0.0, -30.0),
            filter: Filter {
                mask: !4,
                ..Filter::DEFAULT
            },
            ..BodyDef::default()
        })
        .unwrap();
    let mut touched = Vec::new();
    for _ in 0..90 {
        w.step();
        let of_floor =
            |a: sweep2d::ShapeId, b: sweep2d::ShapeId| if a.body() == floor { a } else { b };
        touched.extend(
            w.events()
                .contact_begin
                .iter()
                .map(|c| of_floor(c.shape_a, c.shape_b)),
        );
        touched.extend(
            w.events()
                .impacts
                .iter()
                .map(|c| of_floor(c.shape_a, c.shape_b)),
        );
    }
    assert!(
        !touched.is_empty() && touched.iter().all(|&s| s == lower),
        "{touched:?}"
    );
    let y = w.body(ball).unwrap().transform().translation.y;
    assert!((y - 0.3).abs() < 0.02, "rests on the lower shape: {y}");
}

/// Shapes given at once to `add_shapes` make the same body, with the same ids, as the same shapes
/// added one call at a time (and the two worlds then step bit for bit alike); a refused list
/// names the position of the shape at fault and adds none of the list.
#[test]
fn shapes_added_at_once_match_one_by_one_and_a_refused_list_adds_nothing() {
    let tile = |k: usize| ShapeDef {
        shape: Shape::rectangle(0.25, 0.1 + 0.01 * (k % 7) as f64).unwrap(),
        offset: Transform::new(
            v(0.5 * k as f64 - 10.0, 0.1 * (k % 3) as f64),
            0.05 * k as f64,
        ),
        density: 1.0 + k as f64,
        ..ShapeDef::default()
    };
    let build = |at_once: bool| {
        let mut w = world(v(0.0, -10.0));
        let id = w
            .add_body(BodyDef {
                kind: BodyKind::Dynamic,
                transform: Transform::new(v(0.0, 2.0), 0.2),
                ..BodyDef::default()
            })
            .unwrap();
        let ids = if at_once {
            w.add_shapes(id, (0..40).map(tile)).unwrap()
        } else {
            (0..40).map(|k| w.add_shape(id, tile(k)).unwrap()).collect()
        };
        w.add_body(BodyDef {
            kind: BodyKind::Static,
            shape: Shape::rectangle(30.0, 0.5).unwrap(),
            ..BodyDef::default()
        })
        .unwrap();
        (w, id, ids)
    };
    let (mut a, id_a, ids_a) = build(true);
    let (mut b, id_b, ids_b) = build(false);
    // (Ids name their world; the shape numbers match.)
    let numbers = |ids: &[sweep2d::ShapeId]| ids.iter().map(|s| s.index()).collect::<Vec<_>>();
    assert_eq!(numbers(&ids_a), numbers(&ids_b));
    assert_eq!(numbers(&ids_a), (1..=40).collect::<Vec<u32>>());
    assert_eq!(numbers(&a.shape_ids(id_a)), numbers(&b.shape_ids(id_b)));
    let (ba, bb) = (a.body(id_a).unwrap(), b.body(id_b).unwrap());
    assert_eq!(ba.mass(), bb.mass());
    assert_eq!(ba.inertia(), bb.inertia());
    // (One call at a time re-derives the body's frame from its centre of mass after each shape,
    // which may round the last bit differently.)
    let near = |p: Vec2, q: Vec2| (p - q).length() < 1e-12;
    assert!(near(ba.center_of_mass(), bb.center_of_mass()));
    assert!(near(ba.aabb().min, bb.aabb().min) && near(ba.aabb().max, bb.aabb().max));
    for _ in 0..90 {
        a.step();
        b.step();
    }
    let (ta, tb) = (a.body(id_a).unwrap(), b.body(id_b).unwrap());
    assert!(
        a.contacts().next().is_some(),
        "the body has landed on the ground: the comparison covers contacts"
    );
    assert!(
        (ta.transform().translation - tb.transform().translation).length() < 1e-9,
        "{:?} vs {:?}",
        ta.transform(),
        tb.transform()
    );
    assert!((ta.transform().rotation.angle() - tb.transform().rotation.angle()).abs() < 1e-9);

    // The third shape of a list has a negative density: nothing of the list is added.
    let shapes_before = a.shape_ids(id_a);
    let hash_before = a.state_hash();
    let mass_before = a.body(id_a).unwrap().mass();
    let mut bad = vec![tile(0), tile(1), tile(2), tile(3)];
    bad[2].density = -1.0;
    let e = a.add_shapes(id_a, bad).unwrap_err();
    assert!(
        matches!(&e, BodyError::InShapeList { position: 2, source } if matches!(**source, BodyError::OutOfRange { .. })),
        "{e:?}"
    );
    assert!(e.to_string().contains("shape 2 of the list"), "{e}");
    assert_eq!(a.shape_ids(id_a), shapes_before);
    assert_eq!(a.state_hash(), hash_before);
    assert_eq!(a.body(id_a).unwrap().mass(), mass_before);
    // Too many shapes: refused at the first shape past the limit.
    let room = sweep2d::dynamics::MAX_SHAPES_PER_BODY - shapes_before.len();
    let e = a
        .add_shapes(id_a, (0..room + 3).map(|k| tile(k % 40)))
        .unwrap_err();
    assert!(
        matches!(&e, BodyError::InShapeList { position, source } if *position == room && matches!(**source, BodyError::TooManyShapes { .. })),
        "{e:?}"
    );
    assert_eq!(a.shape_ids(id_a), shapes_before);
    // A removed body: the plain error.
    a.remove_body(id_a).unwrap();
    let e = a.add_shapes(id_a, [tile(0)]).unwrap_err();
    assert!(matches!(e, BodyError::UnknownBody(_)), "{e:?}");
}
