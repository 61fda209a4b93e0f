//! Recording a run: every body's pose and velocity per recorded step and every contact and impact
//! event with its time, in memory, optionally bounded (every k-th step, or a ring of the last n
//! recorded steps), exported as CSV (the columns of `docs/scenes.md`) or JSON (feature `serde`), and
//! read back from either.
//!
//! Method: [`Recorder::record`] is called after each [`World::step`]; it copies the poses of the
//! bodies present (world frame, body origin) and the step's events, naming bodies by their
//! `BodyDef::name` (or `body <slot>`). Events are kept for every step whether or not its poses are
//! recorded, except that a ring drops the events of the steps it has dropped.

use crate::dynamics::BodyId;
use crate::math::Real;
use crate::math::Vec2;
use crate::world::World;
use std::collections::VecDeque;
use std::io::{BufRead, Write};

/// How much a [`Recorder`] keeps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct RecorderConfig {
    /// Record the poses of every `every`-th step (≥ 1; 1 records all). Step 0 (the initial
    /// state, if recorded with [`Recorder::record_initial`]) is always kept.
    pub every: u64,
    /// Keep only the last `n` recorded frames (and the events of their steps); `None` keeps all.
    pub keep_last: Option<usize>,
}

impl Default for RecorderConfig {
    fn default() -> Self {
        Self {
            every: 1,
            keep_last: None,
        }
    }
}

/// One body's state in a frame (world frame: metres, radians, m/s, rad/s).
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct BodySample {
    /// The body's name.
    pub body: String,
    /// Body origin x, y (metres).
    pub x: Real,
    /// Body origin y (metres).
    pub y: Real,
    /// Rotation (radians, in (−π, π]).
    pub angle: Real,
    /// Velocity of the centre of mass (m/s).
    pub vx: Real,
    /// Velocity of the centre of mass, y (m/s).
    pub vy: Real,
    /// Angular velocity (rad/s).
    pub omega: Real,
    /// Kinetic energy (J) of the body.
    pub kinetic_energy: Real,
}

/// The state of every body after one step.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Frame {
    /// Steps completed (0 for the initial state).
    pub step: u64,
    /// Simulated time (seconds).
    pub time: Real,
    /// One sample per body present, in slot order.
    pub bodies: Vec<BodySample>,
}

/// What happened.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum EventKind {
    /// Two bodies began touching (at the start of the step).
    ContactBegin,
    /// Two bodies stopped touching.
    ContactEnd,
    /// An impact inside the step, at its sub-step time.
    Impact,
    /// The continuous pass held a body still (its fallback; see `StepEvents::held`).
    Held,
    /// A shape entered a sensor (body A the sensor's, B the visitor's; at its step fraction).
    SensorBegin,
    /// A shape left a sensor (at its step fraction).
    SensorEnd,
    /// A body fell asleep (its island rested for the sleep time).
    Sleep,
    /// A sleeping body woke with its island.
    Wake,
}

impl EventKind {
    /// The kind's name in `events.csv` (`contact_begin`, `impact`, `wake`, ...).
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            EventKind::ContactBegin => "contact_begin",
            EventKind::ContactEnd => "contact_end",
            EventKind::Impact => "impact",
            EventKind::Held => "held",
            EventKind::SensorBegin => "sensor_begin",
            EventKind::SensorEnd => "sensor_end",
            EventKind::Sleep => "sleep",
            EventKind::Wake => "wake",
        }
    }

    fn parse(s: &str) -> Option<EventKind> {
        Some(match s {
            "contact_begin" => EventKind::ContactBegin,
            "contact_end" => EventKind::ContactEnd,
            "impact" => EventKind::Impact,
            "held" => EventKind::Held,
            "sensor_begin" => EventKind::SensorBegin,
            "sensor_end" => EventKind::SensorEnd,
            "sleep" => EventKind::Sleep,
            "wake" => EventKind::Wake,
            _ => return None,
        })
    }
}

/// One contact, impact or sensor event (world frame). Fields that do not apply are 0 (a contact
/// end has no point; only impacts and sensor events have a fraction, only impacts a closing speed
/// and an impulse; a sensor event's body A is the sensor's).
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct EventRecord {
    /// The step the event happened in (the step counter before it completed).
    pub step: u64,
    /// Simulated time of the event (seconds): the sub-step time for impacts.
    pub time: Real,
    /// What happened.
    pub kind: EventKind,
    /// First body's name.
    pub body_a: String,
    /// Second body's name (empty for `held`).
    pub body_b: String,
    /// Fraction of the step at which an impact or sensor event happened, in [0, 1].
    pub fraction: Real,
    /// Contact normal from A toward B (unit).
    pub normal: [Real; 2],
    /// Contact point (metres).
    pub point: [Real; 2],
    /// Closing speed of an impact (m/s).
    pub relative_speed: Real,
    /// Normal impulse of an impact (N·s).
    pub impulse: Real,
}

/// A recorded run: frames and events (see the module notes).
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Recording {
    /// Recorded frames in step order.
    pub frames: Vec<Frame>,
    /// Events in time order.
    pub events: Vec<EventRecord>,
}

/// Why a recording could not be read.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum RecordError {
    /// Reading or writing failed.
    #[error("{0}")]
    Io(#[from] std::io::Error),
    /// A line of a CSV file is malformed.
    #[error("CSV line {line}: {reason}")]
    Csv {
        /// 1-based line number.
        line: usize,
        /// What is wrong.
        reason: String,
    },
    /// The JSON is malformed (feature `serde`).
    #[error("recording JSON: {0}")]
    Json(String),
}

/// Records a run as it is stepped (see the module notes).
#[derive(Clone, Debug, Default)]
pub struct Recorder {
    config: RecorderConfig,
    frames: VecDeque<Frame>,
    events: VecDeque<EventRecord>,
}

/// The header of `trajectory.csv`.
pub const TRAJECTORY_CSV_HEADER: &str = "step,time,body,x,y,angle,vx,vy,omega";
/// The header of `events.csv`.
pub const EVENTS_CSV_HEADER: &str =
    "step,time,kind,body_a,body_b,fraction,normal_x,normal_y,point_x,point_y,relative_speed,impulse";

impl Recorder {
    /// A recorder keeping what `config` says; `every` of 0 is taken as 1.
    #[must_use]
    pub fn new(config: RecorderConfig) -> Self {
        Self {
            config: RecorderConfig {
                every: config.every.max(1),
                ..config
            },
            frames: VecDeque::new(),
            events: VecDeque::new(),
        }
    }

    /// The configuration in use.
    #[must_use]
    pub fn config(&self) -> RecorderConfig {
        self.config
    }

    /// Records the world's current state as a frame, whatever the `every` setting (call before
    /// the first step to keep the initial state).
    pub fn record_initial(&mut self, world: &World) {
        self.push_frame(frame_of(world));
    }

    /// Records after a step: the events of the step, and the poses if the step is due.
    pub fn record(&mut self, world: &World) {
        self.events.extend(events_of(world));
        if world.step_count().is_multiple_of(self.config.every) {
            self.push_frame(frame_of(world));
        }
    }

    fn push_frame(&mut self, frame: Frame) {
        if self.frames.back().is_some_and(|f| f.step == frame.step) {
            return;
        }
        self.push_frame_unchecked(frame);
    }
}

/// The events of the world's last step (or `advance`) as records, in time order: the rows
/// `events.csv` gets for that step.
#[must_use]
pub fn events_of(world: &World) -> Vec<EventRecord> {
    {
        let name = |id: BodyId| body_name(world, id);
        let events = world.events();
        // The fields every kind has; the rest stay 0 unless the kind has them.
        let event = |kind, step, time, a: BodyId, b: Option<BodyId>| EventRecord {
            step,
            time,
            kind,
            body_a: name(a),
            body_b: b.map(name).unwrap_or_default(),
            fraction: 0.0,
            normal: [0.0; 2],
            point: [0.0; 2],
            relative_speed: 0.0,
            impulse: 0.0,
        };
        let mut batch: Vec<EventRecord> = Vec::new();
        for b in &events.contact_begin {
            batch.push(EventRecord {
                normal: b.normal.to_array(),
                point: b.point.to_array(),
                ..event(
                    EventKind::ContactBegin,
                    b.step,
                    b.time,
                    b.body_a,
                    Some(b.body_b),
                )
            });
        }
        for i in &events.impacts {
            batch.push(EventRecord {
                fraction: i.fraction,
                normal: i.normal.to_array(),
                point: i.point.to_array(),
                relative_speed: i.relative_speed,
                impulse: i.impulse,
                ..event(EventKind::Impact, i.step, i.time, i.body_a, Some(i.body_b))
            });
        }
        for e in &events.contact_end {
            batch.push(event(
                EventKind::ContactEnd,
                e.step,
                e.time,
                e.body_a,
                Some(e.body_b),
            ));
        }
        for (kind, list) in [
            (EventKind::SensorBegin, &events.sensor_begin),
            (EventKind::SensorEnd, &events.sensor_end),
        ] {
            for e in list {
                batch.push(EventRecord {
                    fraction: e.fraction,
                    ..event(kind, e.step, e.time, e.sensor_body, Some(e.visitor_body))
                });
            }
        }
        let step = world.step_count().saturating_sub(1);
        for (kind, list) in [
            (EventKind::Sleep, &events.fell_asleep),
            (EventKind::Wake, &events.woke),
        ] {
            for id in list {
                batch.push(EventRecord {
                    fraction: 1.0,
                    ..event(kind, step, world.time(), *id, None)
                });
            }
        }
        for id in &events.held {
            batch.push(EventRecord {
                fraction: 1.0,
                ..event(EventKind::Held, step, world.time(), *id, None)
            });
        }
        batch.sort_by(|a, b| a.time.total_cmp(&b.time));
        batch
    }
}

impl Recorder {
    fn push_frame_unchecked(&mut self, frame: Frame) {
        if self.frames.back().is_some_and(|f| f.step == frame.step) {
            return; // already recorded (initial state recorded twice)
        }
        self.frames.push_back(frame);
        if let Some(n) = self.config.keep_last {
            while self.frames.len() > n.max(1) {
                self.frames.pop_front();
            }
            // Events of steps before the first kept frame go with it.
            if let Some(first) = self.frames.front().map(|f| f.step) {
                while self.events.front().is_some_and(|e| e.step < first) {
                    self.events.pop_front();
                }
            }
        }
    }

    /// Frames kept so far, in step order.
    pub fn frames(&self) -> impl Iterator<Item = &Frame> {
        self.frames.iter()
    }

    /// Events kept so far, in time order.
    pub fn events(&self) -> impl Iterator<Item = &EventRecord> {
        self.events.iter()
    }

    /// Everything kept, as a [`Recording`].
    #[must_use]
    pub fn recording(&self) -> Recording {
        Recording {
            frames: self.frames.iter().cloned().collect(),
            events: self.events.iter().cloned().collect(),
        }
    }
}

fn body_name(world: &World, id: BodyId) -> String {
    world
        .body(id)
        .and_then(|b| b.name().map(str::to_string))
        .unwrap_or_else(|| format!("body {}", id.index()))
}

fn frame_of(world: &World) -> Frame {
    Frame {
        step: world.step_count(),
        time: world.time(),
        bodies: world
            .bodies()
            .map(|(id, b)| {
                let x = b.transform();
                let v = b.linear_velocity();
                BodySample {
                    body: body_name(world, id),
                    x: x.translation.x,
                    y: x.translation.y,
                    angle: x.angle(),
                    vx: v.x,
                    vy: v.y,
                    omega: b.angular_velocity(),
                    kinetic_energy: b.kinetic_energy(),
                }
            })
            .collect(),
    }
}

/// One frame's rows of the trajectory CSV.
fn write_frame(out: &mut impl Write, f: &Frame) -> std::io::Result<()> {
    for b in &f.bodies {
        writeln!(
            out,
            "{},{},{},{},{},{},{},{},{}",
            f.step,
            num(f.time),
            csv_field(&b.body),
            num(b.x),
            num(b.y),
            num(b.angle),
            num(b.vx),
            num(b.vy),
            num(b.omega)
        )?;
    }
    Ok(())
}

/// One row of the events CSV.
fn write_event(out: &mut impl Write, e: &EventRecord) -> std::io::Result<()> {
    writeln!(
        out,
        "{},{},{},{},{},{},{},{},{},{},{},{}",
        e.step,
        num(e.time),
        e.kind.as_str(),
        csv_field(&e.body_a),
        csv_field(&e.body_b),
        num(e.fraction),
        num(e.normal[0]),
        num(e.normal[1]),
        num(e.point[0]),
        num(e.point[1]),
        num(e.relative_speed),
        num(e.impulse)
    )
}

/// Writes a run's trajectory and events CSV as it goes, in the formats of
/// [`Recording::write_trajectory_csv`] and [`Recording::write_events_csv`]: memory does not grow
/// with the run's length (`sweep2d run` uses it).
#[derive(Debug)]
pub struct CsvStream<W: Write> {
    trajectory: W,
    events: W,
    every: u64,
}

impl<W: Write> CsvStream<W> {
    /// A stream writing to `trajectory` and `events` (headers written now), keeping every
    /// `every`-th step's frame (at least 1).
    pub fn new(mut trajectory: W, mut events: W, every: u64) -> std::io::Result<Self> {
        writeln!(trajectory, "{TRAJECTORY_CSV_HEADER}")?;
        writeln!(events, "{EVENTS_CSV_HEADER}")?;
        Ok(Self {
            trajectory,
            events,
            every: every.max(1),
        })
    }

    /// Writes the world's current state as the initial frame.
    pub fn record_initial(&mut self, world: &World) -> std::io::Result<()> {
        write_frame(&mut self.trajectory, &frame_of(world))
    }

    /// Writes the last step's events, and its frame when the step count is a multiple of
    /// `every`.
    pub fn record(&mut self, world: &World) -> std::io::Result<()> {
        for e in events_of(world) {
            write_event(&mut self.events, &e)?;
        }
        if world.step_count().is_multiple_of(self.every) {
            write_frame(&mut self.trajectory, &frame_of(world))?;
        }
        Ok(())
    }

    /// Flushes both writers and gives them back.
    pub fn finish(mut self) -> std::io::Result<(W, W)> {
        self.trajectory.flush()?;
        self.events.flush()?;
        Ok((self.trajectory, self.events))
    }
}

/// A CSV field: quoted when it holds a comma, a quote or a line break.
fn csv_field(s: &str) -> String {
    // A field a spreadsheet would read as a formula gets a leading apostrophe (the usual CSV
    // injection defence); `split_csv`'s reader takes it off again.
    let s = if s.starts_with(FORMULA_STARTS) {
        format!("'{s}")
    } else {
        s.to_string()
    };
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s
    }
}

/// First characters that make a spreadsheet evaluate a cell.
const FORMULA_STARTS: [char; 6] = ['=', '+', '-', '@', '\t', '\r'];

/// A CSV field as written, back to the text it came from (see [`csv_field`]).
fn unescape_formula(field: String) -> String {
    let mut chars = field.chars();
    if chars.next() == Some('\'') && chars.next().is_some_and(|c| FORMULA_STARTS.contains(&c)) {
        field[1..].to_string()
    } else {
        field
    }
}

/// Splits one CSV line into fields (RFC 4180 quoting).
fn split_csv(line: &str) -> Result<Vec<String>, String> {
    let mut fields = Vec::new();
    let mut cur = String::new();
    let mut chars = line.chars().peekable();
    let mut quoted = false;
    while let Some(c) = chars.next() {
        match (quoted, c) {
            (true, '"') if chars.peek() == Some(&'"') => {
                cur.push('"');
                chars.next();
            }
            (true, '"') => quoted = false,
            (true, c) => cur.push(c),
            (false, '"') if cur.is_empty() => quoted = true,
            (false, ',') => fields.push(std::mem::take(&mut cur)),
            (false, c) => cur.push(c),
        }
    }
    if quoted {
        return Err("unterminated quoted field".into());
    }
    fields.push(cur);
    Ok(fields.into_iter().map(unescape_formula).collect())
}

/// Shortest round-tripping text of a float.
fn num(x: Real) -> String {
    format!("{x:?}")
}

impl Recording {
    /// Writes the frames as CSV with the header [`TRAJECTORY_CSV_HEADER`]: one row per body per
    /// frame.
    pub fn write_trajectory_csv(&self, mut out: impl Write) -> std::io::Result<()> {
        writeln!(out, "{TRAJECTORY_CSV_HEADER}")?;
        for f in &self.frames {
            write_frame(&mut out, f)?;
        }
        Ok(())
    }

    /// Writes the events as CSV with the header [`EVENTS_CSV_HEADER`].
    pub fn write_events_csv(&self, mut out: impl Write) -> std::io::Result<()> {
        writeln!(out, "{EVENTS_CSV_HEADER}")?;
        for e in &self.events {
            write_event(&mut out, e)?;
        }
        Ok(())
    }

    /// Reads back what [`Recording::write_trajectory_csv`] and [`Recording::write_events_csv`]
    /// wrote. The trajectory CSV has no kinetic energy column: samples read back have
    /// `kinetic_energy` 0.
    pub fn read_csv(
        trajectory: impl BufRead,
        events: impl BufRead,
    ) -> Result<Recording, RecordError> {
        let mut rec = Recording::default();
        for (n, line) in trajectory.lines().enumerate() {
            let line = line?;
            if n == 0 {
                expect_header(&line, TRAJECTORY_CSV_HEADER)?;
                continue;
            }
            if line.is_empty() {
                continue;
            }
            let f = fields(&line, n + 1, 9)?;
            let step: u64 = parse(&f[0], n + 1, "step")?;
            let time: Real = parse(&f[1], n + 1, "time")?;
            let sample = BodySample {
                body: f[2].clone(),
                x: parse(&f[3], n + 1, "x")?,
                y: parse(&f[4], n + 1, "y")?,
                angle: parse(&f[5], n + 1, "angle")?,
                vx: parse(&f[6], n + 1, "vx")?,
                vy: parse(&f[7], n + 1, "vy")?,
                omega: parse(&f[8], n + 1, "omega")?,
                kinetic_energy: 0.0,
            };
            match rec.frames.last_mut() {
                Some(frame) if frame.step == step => frame.bodies.push(sample),
                _ => rec.frames.push(Frame {
                    step,
                    time,
                    bodies: vec![sample],
                }),
            }
        }
        for (n, line) in events.lines().enumerate() {
            let line = line?;
            if n == 0 {
                expect_header(&line, EVENTS_CSV_HEADER)?;
                continue;
            }
            if line.is_empty() {
                continue;
            }
            let f = fields(&line, n + 1, 12)?;
            rec.events.push(EventRecord {
                step: parse(&f[0], n + 1, "step")?,
                time: parse(&f[1], n + 1, "time")?,
                kind: EventKind::parse(&f[2]).ok_or_else(|| RecordError::Csv {
                    line: n + 1,
                    reason: format!("unknown event kind {:?}", f[2]),
                })?,
                body_a: f[3].clone(),
                body_b: f[4].clone(),
                fraction: parse(&f[5], n + 1, "fraction")?,
                normal: [
                    parse(&f[6], n + 1, "normal_x")?,
                    parse(&f[7], n + 1, "normal_y")?,
                ],
                point: [
                    parse(&f[8], n + 1, "point_x")?,
                    parse(&f[9], n + 1, "point_y")?,
                ],
                relative_speed: parse(&f[10], n + 1, "relative_speed")?,
                impulse: parse(&f[11], n + 1, "impulse")?,
            });
        }
        Ok(rec)
    }

    /// The recording as JSON (feature `serde`).
    #[cfg(feature = "serde")]
    #[must_use]
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("a recording always serializes")
    }

    /// Reads a recording written by [`Recording::to_json`] (feature `serde`).
    #[cfg(feature = "serde")]
    pub fn from_json(text: &str) -> Result<Recording, RecordError> {
        serde_json::from_str(text).map_err(|e| RecordError::Json(e.to_string()))
    }

    /// The path of body `name`: its origin in each frame (metres).
    #[must_use]
    pub fn path_of(&self, name: &str) -> Vec<(Real, Vec2)> {
        self.frames
            .iter()
            .filter_map(|f| {
                f.bodies
                    .iter()
                    .find(|b| b.body == name)
                    .map(|b| (f.time, Vec2::new(b.x, b.y)))
            })
            .collect()
    }
}

fn expect_header(line: &str, header: &str) -> Result<(), RecordError> {
    if line.trim_end() == header {
        Ok(())
    } else {
        Err(RecordError::Csv {
            line: 1,
            reason: format!("expected the header {header:?}, found {line:?}"),
        })
    }
}

fn fields(line: &str, n: usize, count: usize) -> Result<Vec<String>, RecordError> {
    let f = split_csv(line).map_err(|reason| RecordError::Csv { line: n, reason })?;
    if f.len() != count {
        return Err(RecordError::Csv {
            line: n,
            reason: format!("{} fields, expected {count}", f.len()),
        });
    }
    Ok(f)
}

fn parse<T: std::str::FromStr>(s: &str, line: usize, what: &str) -> Result<T, RecordError> {
    s.parse().map_err(|_| RecordError::Csv {
        line,
        reason: format!("{what} {s:?} is not a number"),
    })
}
