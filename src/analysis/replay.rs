//! A self-contained HTML replay of a run (feature `serde`): one file with the bodies' shapes, their
//! poses at every recorded step, the impacts and the other events (sensor entries and exits,
//! held bodies), and a small canvas player (play, pause, scrub,
//! slow motion; click a body for its trajectory and speed) that needs nothing but a browser —
//! no network, no build step — so an analyst can mail it to a colleague. Written as the run goes
//! ([`HtmlReplay::record`] after each step): memory does not grow with the run; the file grows by
//! one line per recorded frame (about 30 bytes per body) and one entry per impact.
//! `sweep2d run SCENE --html` writes `replay.html` with it. Described in `docs/scenes.md`.

use crate::dynamics::{BodyId, BodyKind};
use crate::math::Transform;
use crate::world::{draw_shape, DrawCommand, DrawList, DrawRole, DrawStyle, World};
use serde_json::{json, Value};
use std::collections::HashMap;
use std::fmt::Write as _;
use std::io::{self, Write};

/// The player page; the data goes where the `<!--DATA-->` marker is.
const TEMPLATE: &str = include_str!("replay.html");

/// The marker in [`TEMPLATE`] the data replaces.
const MARKER: &str = "<!--DATA-->";

/// A replay being written: see the module notes.
#[derive(Debug)]
pub struct HtmlReplay<W: Write> {
    out: W,
    every: u64,
    /// The bodies, in the order of the file's body list.
    bodies: Vec<BodyId>,
    index: HashMap<BodyId, usize>,
    /// Impacts since the last written frame, as JSON rows.
    pending: Vec<String>,
    /// Other events (sensor begin/end, held) since the last written frame, as JSON rows.
    pending_events: Vec<String>,
    /// Frames written.
    frames: u64,
    line: String,
}

/// A number as the file keeps it: 5 decimals (10 µm, 1e-5 rad), trailing zeros cut.
fn num(out: &mut String, x: f64) {
    let start = out.len();
    let _ = write!(out, "{x:.5}");
    if out[start..].contains('.') {
        while out.ends_with('0') {
            out.pop();
        }
        if out.ends_with('.') {
            out.pop();
        }
    }
    if &out[start..] == "-0" {
        out.truncate(start);
        out.push('0');
    }
}

/// JSON that is safe inside a `<script>` element (no `</script>` can close it early).
fn script_safe(v: &Value) -> String {
    serde_json::to_string(v)
        .expect("JSON values serialize")
        .replace('<', "\\u003c")
        .replace('\u{2028}', "\\u2028")
        .replace('\u{2029}', "\\u2029")
}

/// A body's shapes in its own frame, as the player draws them.
fn shapes_json(world: &World, id: BodyId) -> (Vec<Value>, f64) {
    let Some(body) = world.body(id) else {
        return (Vec::new(), 0.0);
    };
    let mut list = DrawList::new();
    let style = DrawStyle::new(DrawRole::DynamicShape, Some(id), true);
    for (_, def) in body.shapes() {
        draw_shape(&mut list, &def.shape, &def.offset, &style);
    }
    let mut reach: f64 = 0.0;
    let pt = |p: crate::math::Vec2| json!([p.x, p.y]);
    let shapes = list
        .commands
        .iter()
        .filter_map(|c| match c {
            DrawCommand::Polygon {
                vertices, radius, ..
            } => {
                for v in vertices {
                    reach = reach.max(v.length() + radius);
                }
                Some(json!({"type": "poly", "v": vertices.iter().map(|&v| pt(v)).collect::<Vec<_>>(), "r": radius}))
            }
            DrawCommand::Circle { center, radius, .. } => {
                reach = reach.max(center.length() + radius);
                Some(json!({"type": "circle", "c": pt(*center), "r": radius}))
            }
            DrawCommand::Capsule { a, b, radius, .. } => {
                reach = reach.max(a.length().max(b.length()) + radius);
                Some(json!({"type": "capsule", "a": pt(*a), "b": pt(*b), "r": radius}))
            }
            _ => None,
        })
        .collect();
    (shapes, reach)
}

impl<W: Write> HtmlReplay<W> {
    /// Starts a replay of `world` (its current state is the first frame) titled `title`, with
    /// the bodies `names` lists (id and the name the page shows), keeping every `every`-th
    /// step's poses (at least 1; impacts are always kept).
    pub fn new(
        mut out: W,
        world: &World,
        names: &[(BodyId, String)],
        title: &str,
        every: u64,
    ) -> io::Result<Self> {
        let (head, _) = TEMPLATE
            .split_once(MARKER)
            .expect("the template has its marker");
        out.write_all(head.as_bytes())?;
        let bodies: Vec<Value> = names
            .iter()
            .map(|(id, name)| {
                let (shapes, reach) = shapes_json(world, *id);
                let kind = world.body(*id).map_or(BodyKind::Static, |b| b.kind());
                // By kind only, not `DrawRole::of_body`: a body's sleep changes during the run
                // and the page keeps one colour per body.
                let role = match kind {
                    BodyKind::Static => DrawRole::StaticShape,
                    BodyKind::Kinematic => DrawRole::KinematicShape,
                    BodyKind::Dynamic => DrawRole::DynamicShape,
                };
                json!({
                    "name": name,
                    "kind": format!("{kind:?}").to_lowercase(),
                    "color": role.color().css(),
                    "reach": reach,
                    "shapes": shapes,
                })
            })
            .collect();
        let meta = json!({
            "scene": title,
            "dt": world.config().dt,
            "every": every.max(1),
            "bodies": bodies,
        });
        writeln!(
            out,
            "<script id=\"meta\" type=\"application/json\">{}</script>",
            script_safe(&meta)
        )?;
        writeln!(out, "<script>\nconst FRAMES = [")?;
        let ids: Vec<BodyId> = names.iter().map(|(id, _)| *id).collect();
        let index = ids.iter().enumerate().map(|(i, id)| (*id, i)).collect();
        let mut replay = Self {
            out,
            every: every.max(1),
            bodies: ids,
            index,
            pending: Vec::new(),
            pending_events: Vec::new(),
            frames: 0,
            line: String::new(),
        };
        replay.write_frame(world)?;
        Ok(replay)
    }

    /// Takes the last step's impacts, and writes its frame when the step count is a multiple of
    /// `every`.
    pub fn record(&mut self, world: &World) -> io::Result<()> {
        for im in &world.events().impacts {
            let (Some(&a), Some(&b)) = (self.index.get(&im.body_a), self.index.get(&im.body_b))
            else {
                continue;
            };
            let mut row = String::from("[");
            for (k, x) in [im.time, im.point.x, im.point.y, im.normal.x, im.normal.y]
                .into_iter()
                .enumerate()
            {
                if k > 0 {
                    row.push(',');
                }
                num(&mut row, x);
            }
            let _ = write!(row, ",{a},{b},");
            num(&mut row, im.relative_speed);
            row.push(']');
            self.pending.push(row);
        }
        let events = world.events();
        let end_time = world.time();
        let mut event = |time: f64, kind: &str, a: usize, b: Option<usize>| {
            let mut row = String::from("[");
            num(&mut row, time);
            let _ = write!(row, ",\"{kind}\",{a},");
            match b {
                Some(b) => {
                    let _ = write!(row, "{b}]");
                }
                None => row.push_str("-1]"),
            }
            self.pending_events.push(row);
        };
        for (kind, list) in [
            ("sensor_begin", &events.sensor_begin),
            ("sensor_end", &events.sensor_end),
        ] {
            for e in list {
                if let (Some(&a), Some(&b)) = (
                    self.index.get(&e.sensor_body),
                    self.index.get(&e.visitor_body),
                ) {
                    event(e.time, kind, a, Some(b));
                }
            }
        }
        for id in &events.held {
            if let Some(&a) = self.index.get(id) {
                event(end_time, "held", a, None);
            }
        }
        if world.step_count().is_multiple_of(self.every) {
            self.write_frame(world)?;
        }
        Ok(())
    }

    fn write_frame(&mut self, world: &World) -> io::Result<()> {
        let line = &mut self.line;
        line.clear();
        line.push('[');
        num(line, world.time());
        line.push_str(",[");
        for (k, id) in self.bodies.iter().enumerate() {
            let xf = world
                .body(*id)
                .map_or(Transform::IDENTITY, |b| b.transform());
            if k > 0 {
                line.push(',');
            }
            num(line, xf.translation.x);
            line.push(',');
            num(line, xf.translation.y);
            line.push(',');
            num(line, xf.angle());
        }
        line.push_str("],[");
        line.push_str(&self.pending.join(","));
        line.push_str("],[");
        line.push_str(&self.pending_events.join(","));
        line.push_str("]],\n");
        self.pending.clear();
        self.pending_events.clear();
        self.frames += 1;
        self.out.write_all(line.as_bytes())
    }

    /// Frames written so far (the initial one included).
    #[must_use]
    pub fn frames(&self) -> u64 {
        self.frames
    }

    /// Writes the impacts still pending with a last frame if the last step was not recorded,
    /// closes the page, flushes and gives the writer back.
    pub fn finish(mut self, world: &World) -> io::Result<W> {
        if !self.pending.is_empty()
            || !self.pending_events.is_empty()
            || !world.step_count().is_multiple_of(self.every)
        {
            self.write_frame(world)?;
        }
        let (_, tail) = TEMPLATE
            .split_once(MARKER)
            .expect("the template has its marker");
        writeln!(self.out, "];\n</script>")?;
        self.out.write_all(tail.as_bytes())?;
        self.out.flush()?;
        Ok(self.out)
    }
}
