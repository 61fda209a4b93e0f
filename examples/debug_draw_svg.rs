//! A `DebugDraw` back end in a page of code: it writes one frame of a world as an SVG file.
//! The scene: a box pile on the ground, a pendulum, a sensor, and a bullet fired at a thin wall;
//! the frame is the step of the bullet's impact, with every debug layer on (contacts, impacts
//! with their step fraction, swept hulls, boxes, joints, sensor overlaps, centres of mass).
//!
//! ```sh
//! cargo run --release --example debug_draw_svg -- frame.svg
//! ```

use std::fmt::Write as _;
use sweep2d::{
    BodyDef, BodyKind, DebugDraw, DrawOptions, DrawStyle, Real, RevoluteJointDef, Shape, Transform,
    Vec2, World, WorldConfig,
};

/// Collects SVG elements; world metres map to pixels with y flipped.
struct Svg {
    body: String,
    scale: Real,
    origin: Vec2,
}

impl Svg {
    fn px(&self, p: Vec2) -> (Real, Real) {
        (
            (p.x - self.origin.x) * self.scale,
            (self.origin.y - p.y) * self.scale,
        )
    }
    fn paint(style: &DrawStyle, width: Real) -> String {
        let c = style.color.css();
        let fill = if style.fill {
            format!(r#"fill="{c}" fill-opacity="0.5""#)
        } else {
            r#"fill="none""#.to_owned()
        };
        format!(r#"{fill} stroke="{c}" stroke-width="{width:.2}""#)
    }
}

impl DebugDraw for Svg {
    fn polygon(&mut self, vertices: &[Vec2], radius: Real, style: &DrawStyle) {
        let points: Vec<String> = vertices
            .iter()
            .map(|&v| {
                let (x, y) = self.px(v);
                format!("{x:.2},{y:.2}")
            })
            .collect();
        // A rounded polygon is drawn with a stroke as wide as its rounding.
        let width = (2.0 * radius * self.scale).max(1.5);
        let join = if radius > 0.0 { "round" } else { "miter" };
        let _ = writeln!(
            self.body,
            r#"<polygon points="{}" {} stroke-linejoin="{join}"/>"#,
            points.join(" "),
            Self::paint(style, width)
        );
    }
    fn circle(&mut self, center: Vec2, radius: Real, axis: Vec2, style: &DrawStyle) {
        let (x, y) = self.px(center);
        let (ax, ay) = self.px(center + axis * radius);
        let _ = writeln!(
            self.body,
            r#"<circle cx="{x:.2}" cy="{y:.2}" r="{:.2}" {}/><line x1="{x:.2}" y1="{y:.2}" x2="{ax:.2}" y2="{ay:.2}" stroke="{}"/>"#,
            radius * self.scale,
            Self::paint(style, 1.5),
            style.color.css()
        );
    }
    fn capsule(&mut self, a: Vec2, b: Vec2, radius: Real, style: &DrawStyle) {
        let ((x1, y1), (x2, y2)) = (self.px(a), self.px(b));
        let _ = writeln!(
            self.body,
            r#"<line x1="{x1:.2}" y1="{y1:.2}" x2="{x2:.2}" y2="{y2:.2}" stroke="{}" stroke-opacity="0.6" stroke-width="{:.2}" stroke-linecap="round"/>"#,
            style.color.css(),
            (2.0 * radius * self.scale).max(1.5)
        );
    }
    fn segment(&mut self, a: Vec2, b: Vec2, style: &DrawStyle) {
        let ((x1, y1), (x2, y2)) = (self.px(a), self.px(b));
        let _ = writeln!(
            self.body,
            r#"<line x1="{x1:.2}" y1="{y1:.2}" x2="{x2:.2}" y2="{y2:.2}" stroke="{}" stroke-width="1.5"/>"#,
            style.color.css()
        );
    }
    fn point(&mut self, p: Vec2, size: Real, style: &DrawStyle) {
        let (x, y) = self.px(p);
        let _ = writeln!(
            self.body,
            r#"<circle cx="{x:.2}" cy="{y:.2}" r="{:.2}" fill="{}"/>"#,
            0.5 * size,
            style.color.css()
        );
    }
    fn text(&mut self, at: Vec2, text: &str, style: &DrawStyle) {
        let (x, y) = self.px(at);
        let _ = writeln!(
            self.body,
            r#"<text x="{:.2}" y="{:.2}" fill="{}" font-family="sans-serif" font-size="13">{}</text>"#,
            x + 6.0,
            y - 6.0,
            style.color.css(),
            text.replace('&', "&amp;").replace('<', "&lt;")
        );
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let out = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "debug_draw.svg".into());
    let mut w = World::new(WorldConfig::default());
    let v = Vec2::new;
    w.add_body(BodyDef {
        kind: BodyKind::Static,
        shape: Shape::rectangle(10.0, 0.5)?,
        transform: Transform::new(v(0.0, -0.5), 0.0),
        ..BodyDef::default()
    })?;
    for row in 0..4 {
        for col in 0..(4 - row) {
            w.add_body(BodyDef {
                shape: Shape::rectangle(0.4, 0.4)?,
                transform: Transform::new(
                    v(
                        -6.0 + 0.85 * col as f64 + 0.42 * row as f64,
                        0.4 + 0.8 * row as f64,
                    ),
                    0.0,
                ),
                ..BodyDef::default()
            })?;
        }
    }
    let hook = w.add_body(BodyDef {
        kind: BodyKind::Static,
        shape: Shape::rectangle(0.1, 0.1)?,
        transform: Transform::new(v(0.0, 6.0), 0.0),
        ..BodyDef::default()
    })?;
    let bob = w.add_body(BodyDef {
        shape: Shape::circle(0.3)?,
        transform: Transform::new(v(2.0, 6.0), 0.0),
        ..BodyDef::default()
    })?;
    w.add_joint(RevoluteJointDef::new(hook, bob, v(0.0, 6.0)))?;
    w.add_body(BodyDef {
        kind: BodyKind::Static,
        shape: Shape::rectangle(0.4, 2.0)?,
        transform: Transform::new(v(0.0, 3.0), 0.0),
        sensor: true,
        ..BodyDef::default()
    })?;
    w.add_body(BodyDef {
        kind: BodyKind::Static,
        shape: Shape::rectangle(0.02, 1.5)?,
        transform: Transform::new(v(7.0, 1.5), 0.0),
        ..BodyDef::default()
    })?;
    // Let the pile settle and the pendulum swing into the sensor, then fire.
    for _ in 0..25 {
        w.step();
    }
    w.add_body(BodyDef {
        shape: Shape::capsule(v(-0.15, 0.0), v(0.15, 0.0), 0.04)?,
        transform: Transform::new(v(3.5, 1.5), 0.0),
        linear_velocity: v(400.0, 0.0),
        angular_velocity: 30.0,
        restitution: 0.3,
        ..BodyDef::default()
    })?;
    w.step();
    let mut svg = Svg {
        body: String::new(),
        scale: 50.0,
        origin: v(-8.0, 8.0),
    };
    w.debug_draw(&mut svg, &DrawOptions::all());
    let page = format!(
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="850" height="500" viewBox="0 0 850 500"><rect width="100%" height="100%" fill="#202428"/>
{}</svg>
"##,
        svg.body
    );
    std::fs::write(&out, page)?;
    println!(
        "wrote {out}: step {}, {} impacts in the last step",
        w.step_count(),
        w.events().impacts.len()
    );
    Ok(())
}
