//! Plots of a recorded run (feature `plot`, with plotters): a trajectory map in world metres (each
//! moving body's path, its shape at the start, at the end and at each impact, impact points marked
//! and labelled with their time, static bodies filled grey) above time series of speed (m/s) and
//! kinetic energy (J); PNG or SVG, and an animated GIF of the run.
//!
//! Method: bounds come from the moving bodies' paths and shapes (static bodies are clipped to
//! them, so a 200 m ground does not squash the interesting part), widened so one metre is as long
//! on both axes. Shapes are drawn as outlines sampled from their exact geometry (rounded corners
//! and discs as polylines). Text needs a TrueType font: the first of `SWEEP2D_FONT`, the usual
//! system locations, or any `.ttf` under `/usr/share/fonts`.

use crate::analysis::record::{EventKind, Recording};
use crate::math::Vec2;
use crate::math::{Aabb, Real, Transform};
use crate::shape::Shape;
use plotters::coord::Shift;
use plotters::prelude::*;
use std::fmt;
use std::path::Path;

/// Output format of a plot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlotFormat {
    /// A PNG image.
    Png,
    /// An SVG drawing.
    Svg,
    /// An animated GIF of the bodies moving (one frame per recorded frame, at most
    /// [`MAX_GIF_FRAMES`]).
    Gif,
}

impl PlotFormat {
    /// The file extension (`"png"`, `"svg"`, `"gif"`).
    #[must_use]
    pub fn extension(self) -> &'static str {
        match self {
            PlotFormat::Png => "png",
            PlotFormat::Svg => "svg",
            PlotFormat::Gif => "gif",
        }
    }
}

/// Most frames an animated GIF holds; longer recordings are subsampled.
pub const MAX_GIF_FRAMES: usize = 240;

/// Most moving bodies named in the legend; the rest are drawn in grey.
pub const MAX_LEGEND_BODIES: usize = 12;

/// Most impacts marked on the map (the legend gives the total).
pub const MAX_IMPACT_MARKS: usize = 500;

/// Most impacts labelled with their time (all are marked; a label that would overlap an earlier
/// one is left out).
pub const MAX_IMPACT_LABELS: usize = 12;

/// Why a plot could not be drawn.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum PlotError {
    /// No TrueType font was found for the text.
    #[error(
        "no TrueType font found for the plot's text: install one (Debian: apt-get install \
         fonts-dejavu-core) or set SWEEP2D_FONT=/path/to/font.ttf"
    )]
    NoFont,
    /// The recording has no frames.
    #[error("the recording has no frames to plot")]
    Empty,
    /// Drawing or writing the file failed.
    #[error("drawing the plot failed: {0}")]
    Draw(String),
}

fn draw_err<E: fmt::Debug>(e: E) -> PlotError {
    PlotError::Draw(format!("{e:?}"))
}

/// A body to draw: its name, shape (body frame) and whether it moves.
#[derive(Clone, Debug)]
pub struct PlotBody {
    /// The name it has in the recording.
    pub name: String,
    /// Its shape, in the body frame.
    pub shape: Shape,
    /// Static bodies are filled grey and have no path.
    pub is_static: bool,
}

/// Registers a font with plotters once; `Err` if none can be found.
fn ensure_font() -> Result<(), PlotError> {
    use std::sync::OnceLock;
    static FONT: OnceLock<bool> = OnceLock::new();
    let ok = *FONT.get_or_init(|| {
        let Some(bytes) = find_font() else {
            return false;
        };
        let bytes: &'static [u8] = Box::leak(bytes.into_boxed_slice());
        let mut ok = true;
        for family in ["sans-serif", "serif", "monospace"] {
            for style in [FontStyle::Normal, FontStyle::Bold] {
                ok &= plotters::style::register_font(family, style, bytes).is_ok();
            }
        }
        ok
    });
    if ok {
        Ok(())
    } else {
        Err(PlotError::NoFont)
    }
}

fn find_font() -> Option<Vec<u8>> {
    if let Ok(path) = std::env::var("SWEEP2D_FONT") {
        return std::fs::read(path).ok();
    }
    const KNOWN: [&str; 6] = [
        "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
        "/usr/share/fonts/TTF/DejaVuSans.ttf",
        "/usr/share/fonts/dejavu/DejaVuSans.ttf",
        "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf",
        "/Library/Fonts/Arial.ttf",
        "C:\\Windows\\Fonts\\arial.ttf",
    ];
    for p in KNOWN {
        if let Ok(b) = std::fs::read(p) {
            return Some(b);
        }
    }
    fn walk(dir: &Path, depth: usize) -> Option<Vec<u8>> {
        let mut entries: Vec<_> = std::fs::read_dir(dir).ok()?.flatten().collect();
        entries.sort_by_key(|e| e.path());
        for e in &entries {
            let p = e.path();
            if p.extension().is_some_and(|x| x.eq_ignore_ascii_case("ttf")) {
                if let Ok(b) = std::fs::read(&p) {
                    return Some(b);
                }
            }
        }
        if depth == 0 {
            return None;
        }
        entries
            .iter()
            .filter(|e| e.path().is_dir())
            .find_map(|e| walk(&e.path(), depth - 1))
    }
    walk(Path::new("/usr/share/fonts"), 4)
}

/// Outlines of `shape` placed at `xf` (world metres): one closed polyline per convex piece.
#[must_use]
pub fn outline(shape: &Shape, xf: &Transform) -> Vec<Vec<Vec2>> {
    const ARC: usize = 10;
    let rounded = |core: &[Vec2], radius: Real| -> Vec<Vec2> {
        if radius == 0.0 {
            return core.iter().map(|p| xf.transform_point(*p)).collect();
        }
        if core.len() == 1 {
            return (0..4 * ARC)
                .map(|k| {
                    let a = k as Real * std::f64::consts::TAU / (4 * ARC) as Real;
                    xf.transform_point(core[0] + radius * Vec2::from_angle(a))
                })
                .collect();
        }
        // Each vertex gets the arc between its two edges' outward normals (CCW core).
        let n = core.len();
        let mut out = Vec::new();
        for i in 0..n {
            let (prev, cur, next) = (core[(i + n - 1) % n], core[i], core[(i + 1) % n]);
            let outward = |d: Vec2| Vec2::new(d.y, -d.x).normalize_or_zero();
            let a0 = outward(cur - prev).to_angle();
            let mut a1 = outward(next - cur).to_angle();
            if n == 2 {
                // A segment: half a turn around each end.
                a1 = a0 + std::f64::consts::PI;
            }
            while a1 < a0 {
                a1 += std::f64::consts::TAU;
            }
            for k in 0..=ARC {
                let a = a0 + (a1 - a0) * k as Real / ARC as Real;
                out.push(xf.transform_point(cur + radius * Vec2::from_angle(a)));
            }
        }
        out
    };
    match shape {
        Shape::Circle(c) => vec![rounded(&[c.center()], c.radius())],
        Shape::Capsule(c) => {
            // Ordered so the segment's "outward" side turns correctly at both ends.
            let (a, b) = (c.a(), c.b());
            let d = (b - a).normalize_or_zero();
            let side = Vec2::new(d.y, -d.x) * c.radius();
            let mut pts = Vec::new();
            for (end, from) in [(b, side), (a, -side)] {
                for k in 0..=ARC {
                    let ang = from.to_angle() + std::f64::consts::PI * k as Real / ARC as Real;
                    pts.push(xf.transform_point(end + c.radius() * Vec2::from_angle(ang)));
                }
            }
            vec![pts]
        }
        Shape::Polygon(p) => vec![rounded(p.vertices(), p.radius())],
        Shape::Compound(c) => c
            .pieces()
            .iter()
            .flat_map(|piece| outline(&piece.shape, &(*xf * piece.transform)))
            .collect(),
    }
}

const PALETTE: [RGBColor; 12] = [
    RGBColor(31, 119, 180),
    RGBColor(255, 127, 14),
    RGBColor(44, 160, 44),
    RGBColor(214, 39, 40),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(23, 190, 207),
    RGBColor(188, 189, 34),
    RGBColor(127, 127, 127),
    RGBColor(0, 0, 128),
    RGBColor(128, 0, 0),
];
const GREY: RGBColor = RGBColor(170, 170, 170);

fn colour(k: usize) -> RGBColor {
    if k < MAX_LEGEND_BODIES {
        PALETTE[k % PALETTE.len()]
    } else {
        GREY
    }
}

/// Pose of body `name` in the recorded frame nearest to `time`.
fn pose_near(rec: &Recording, name: &str, time: Real) -> Option<Transform> {
    let frame = rec
        .frames
        .iter()
        .min_by(|a, b| (a.time - time).abs().total_cmp(&(b.time - time).abs()))?;
    let s = frame.bodies.iter().find(|b| b.body == name)?;
    Some(Transform::new(Vec2::new(s.x, s.y), s.angle))
}

/// Position (metres) of body `name`'s frame at `time`, interpolated between the recorded frames
/// around it (the nearest frame's outside the recording).
fn position_at(rec: &Recording, name: &str, time: Real) -> Option<(Real, Real)> {
    let at = |f: &crate::analysis::record::Frame| {
        f.bodies
            .iter()
            .find(|b| b.body == name)
            .map(|b| (f.time, b.x, b.y))
    };
    let after = rec.frames.iter().position(|f| f.time >= time);
    let (lo, hi) = match after {
        Some(0) | None => {
            let p = pose_near(rec, name, time)?.translation;
            return Some((p.x, p.y));
        }
        Some(k) => (at(&rec.frames[k - 1])?, at(&rec.frames[k])?),
    };
    let s = if hi.0 > lo.0 {
        (time - lo.0) / (hi.0 - lo.0)
    } else {
        1.0
    };
    Some((lo.1 + s * (hi.1 - lo.1), lo.2 + s * (hi.2 - lo.2)))
}

/// The region worth showing: moving bodies' paths and shapes, widened to the image's aspect.
fn bounds(rec: &Recording, bodies: &[PlotBody], aspect: Real) -> Aabb {
    let grow = |b: &mut Option<Aabb>, a: Aabb| *b = Some(b.map_or(a, |x| x.union(&a)));
    let mut b: Option<Aabb> = None;
    for body in bodies.iter().filter(|b| !b.is_static) {
        for f in &rec.frames {
            if let Some(s) = f.bodies.iter().find(|s| s.body == body.name) {
                let x = Transform::new(Vec2::new(s.x, s.y), s.angle);
                grow(&mut b, body.shape.aabb(&x));
            }
        }
    }
    if b.is_none() {
        for body in bodies.iter().filter(|b| b.is_static) {
            if let Some(x) = pose_near(rec, &body.name, 0.0) {
                grow(&mut b, body.shape.aabb(&x));
            }
        }
    }
    let b = b.unwrap_or(Aabb::new(Vec2::splat(-1.0), Vec2::splat(1.0)));
    let centre = 0.5 * (b.min + b.max);
    let mut half = 0.5 * (b.max - b.min) * 1.08 + Vec2::splat(0.1);
    if half.x / half.y < aspect {
        half.x = half.y * aspect;
    } else {
        half.y = half.x / aspect;
    }
    Aabb::new(centre - half, centre + half)
}

/// A polyline in chart coordinates, clamped to the plotted region (metres).
fn clip_to(region: &Aabb, poly: Vec<Vec2>) -> Vec<(Real, Real)> {
    poly.into_iter()
        .map(|p| {
            (
                p.x.clamp(region.min.x, region.max.x),
                p.y.clamp(region.min.y, region.max.y),
            )
        })
        .collect()
}

/// The outline closed back to its first point.
fn closed(mut pts: Vec<(Real, Real)>) -> Vec<(Real, Real)> {
    if let Some(&first) = pts.first() {
        pts.push(first);
    }
    pts
}

/// A joint to draw on the trajectory map: a line from body A's origin through the two anchors to
/// body B's origin, at the start (faint) and at the end (bold) of the run.
#[derive(Clone, Debug, PartialEq)]
pub struct PlotJoint {
    /// Body A's name in the recording, or `None` when `anchor_a` is a fixed world point.
    pub body_a: Option<String>,
    /// The anchor on A, in A's body frame (metres), or in the world when `body_a` is `None`.
    pub anchor_a: Vec2,
    /// Body B's name.
    pub body_b: String,
    /// The anchor on B, in B's body frame (metres).
    pub anchor_b: Vec2,
}

/// Draws the trajectory map of `rec` (see the module notes) and the speed and energy series to
/// `path` as PNG or SVG (for [`PlotFormat::Gif`], see [`animate`]).
pub fn plot_run(
    rec: &Recording,
    bodies: &[PlotBody],
    title: &str,
    path: &Path,
    format: PlotFormat,
) -> Result<(), PlotError> {
    plot_run_with_joints(rec, bodies, &[], title, path, format)
}

/// [`plot_run`] with the joints drawn on the map.
pub fn plot_run_with_joints(
    rec: &Recording,
    bodies: &[PlotBody],
    joints: &[PlotJoint],
    title: &str,
    path: &Path,
    format: PlotFormat,
) -> Result<(), PlotError> {
    if rec.frames.is_empty() {
        return Err(PlotError::Empty);
    }
    ensure_font()?;
    let size = (1600, 1200);
    match format {
        PlotFormat::Png => {
            let root = BitMapBackend::new(path, size).into_drawing_area();
            draw_run(&root, rec, bodies, joints, title)?;
            root.present().map_err(draw_err)
        }
        PlotFormat::Svg => {
            let root = SVGBackend::new(path, size).into_drawing_area();
            draw_run(&root, rec, bodies, joints, title)?;
            root.present().map_err(draw_err)
        }
        PlotFormat::Gif => animate(rec, bodies, title, path),
    }
}

/// The chart of the trajectory map: world metres on both axes.
type MapChart<'a, DB> = ChartContext<
    'a,
    DB,
    Cartesian2d<plotters::coord::types::RangedCoordf64, plotters::coord::types::RangedCoordf64>,
>;

/// What the layers of the trajectory map read: the run, its bodies (the moving ones in legend
/// order, each with its colour's index) and the region shown (world metres).
struct MapLayers<'a> {
    rec: &'a Recording,
    bodies: &'a [PlotBody],
    moving: Vec<&'a PlotBody>,
    region: Aabb,
}

impl MapLayers<'_> {
    /// A polygon (world metres) clipped to the region, as plotters' points.
    fn clip(&self, poly: Vec<Vec2>) -> Vec<(Real, Real)> {
        clip_to(&self.region, poly)
    }
}

/// Draws a run: the trajectory map (static bodies, paths, first and last poses, joints, impacts,
/// sensor events, legend) over the speed and kinetic-energy panels.
fn draw_run<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    rec: &Recording,
    bodies: &[PlotBody],
    joints: &[PlotJoint],
    title: &str,
) -> Result<(), PlotError>
where
    DB::ErrorType: 'static,
{
    root.fill(&WHITE).map_err(draw_err)?;
    let (map, series) = root.split_vertically(800);
    let (w, h) = map.dim_in_pixel();
    let layers = MapLayers {
        rec,
        bodies,
        moving: bodies.iter().filter(|b| !b.is_static).collect(),
        region: bounds(rec, bodies, (w as Real - 120.0) / (h as Real - 110.0)),
    };
    let region = layers.region;
    let mut chart = ChartBuilder::on(&map)
        .caption(title, ("sans-serif", 30))
        .margin(15)
        .x_label_area_size(45)
        .y_label_area_size(65)
        .build_cartesian_2d(region.min.x..region.max.x, region.min.y..region.max.y)
        .map_err(draw_err)?;
    chart
        .configure_mesh()
        .x_desc("x (m)")
        .y_desc("y (m)")
        .label_style(("sans-serif", 18))
        .axis_desc_style(("sans-serif", 20))
        .light_line_style(WHITE.mix(0.0))
        .draw()
        .map_err(draw_err)?;
    draw_bodies_and_paths(&mut chart, &layers)?;
    draw_joints(&mut chart, &layers, joints)?;
    draw_impacts(&mut chart, &layers)?;
    draw_sensor_events(&mut chart, &layers)?;
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperRight)
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .label_font(("sans-serif", 18))
        .draw()
        .map_err(draw_err)?;
    draw_speed_and_energy(&series, &layers)
}

/// The static bodies (filled grey), and each moving body's path with its first (faint) and last
/// (bold) pose, labelled in the legend.
fn draw_bodies_and_paths<'a, DB: DrawingBackend + 'a>(
    chart: &mut MapChart<'a, DB>,
    layers: &MapLayers<'_>,
) -> Result<(), PlotError>
where
    DB::ErrorType: 'static,
{
    let (rec, bodies, moving) = (layers.rec, layers.bodies, &layers.moving);
    let clip = |poly: Vec<Vec2>| layers.clip(poly);
    for body in bodies.iter().filter(|b| b.is_static) {
        if let Some(x) = pose_near(rec, &body.name, 0.0) {
            for poly in outline(&body.shape, &x) {
                chart
                    .draw_series(std::iter::once(Polygon::new(
                        clip(poly),
                        GREY.mix(0.6).filled(),
                    )))
                    .map_err(draw_err)?;
            }
        }
    }
    let first = rec.frames.first().expect("non-empty").time;
    let last = rec.frames.last().expect("non-empty").time;
    for (k, body) in moving.iter().enumerate() {
        let c = colour(k);
        let path: Vec<(Real, Real)> = rec
            .path_of(&body.name)
            .into_iter()
            .map(|(_, p)| (p.x, p.y))
            .collect();
        let series = chart
            .draw_series(LineSeries::new(path, c.stroke_width(2)))
            .map_err(draw_err)?;
        if k < MAX_LEGEND_BODIES {
            series.label(body.name.clone()).legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 24, y)], c.stroke_width(3))
            });
        }
        for (time, style) in [
            (first, c.mix(0.45).stroke_width(1)),
            (last, c.stroke_width(3)),
        ] {
            if let Some(x) = pose_near(rec, &body.name, time) {
                for poly in outline(&body.shape, &x) {
                    chart
                        .draw_series(std::iter::once(PathElement::new(closed(clip(poly)), style)))
                        .map_err(draw_err)?;
                }
            }
        }
    }
    Ok(())
}

/// Each joint as a line from body A's origin through the anchors to body B's origin, at the
/// start (faint) and the end (bold), with one legend entry.
fn draw_joints<'a, DB: DrawingBackend + 'a>(
    chart: &mut MapChart<'a, DB>,
    layers: &MapLayers<'_>,
    joints: &[PlotJoint],
) -> Result<(), PlotError>
where
    DB::ErrorType: 'static,
{
    let (rec, bodies) = (layers.rec, layers.bodies);
    let clip = |poly: Vec<Vec2>| layers.clip(poly);
    // Joints: a line between the anchors at the start (faint) and the end (bold).
    let joint_colour = RGBColor(200, 100, 0);
    let (t0, t1) = (
        rec.frames.first().map_or(0.0, |f| f.time),
        rec.frames.last().map_or(0.0, |f| f.time),
    );
    for (time, width, alpha) in [(t0, 1, 0.4), (t1, 3, 1.0)] {
        for j in joints {
            // Body A's origin → its anchor → B's anchor → B's origin (a pin's two anchors meet).
            // (A static body's origin can be anywhere: its part of the line is left out.)
            let fixed = |name: &str| bodies.iter().any(|b| b.name == name && b.is_static);
            let ends = |name: &str, local: Vec2| {
                pose_near(rec, name, time).map(|x| {
                    let p = x.transform_point(local);
                    (if fixed(name) { p } else { x.translation }, p)
                })
            };
            let a = match &j.body_a {
                Some(name) => ends(name, j.anchor_a),
                None => Some((j.anchor_a, j.anchor_a)),
            };
            let b = ends(&j.body_b, j.anchor_b);
            if let (Some((oa, a)), Some((ob, b))) = (a, b) {
                let style = joint_colour.mix(alpha).stroke_width(width);
                let line = clip(vec![oa, a, b, ob]);
                chart
                    .draw_series(std::iter::once(PathElement::new(line.clone(), style)))
                    .map_err(draw_err)?;
                chart
                    .draw_series(line.into_iter().map(|p| Circle::new(p, 3, style)))
                    .map_err(draw_err)?;
            }
        }
    }
    if !joints.is_empty() {
        chart
            .draw_series(std::iter::empty::<PathElement<(Real, Real)>>())
            .map_err(draw_err)?
            .label(format!("joint ({})", joints.len()))
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 24, y)], joint_colour.stroke_width(3))
            });
    }
    Ok(())
}

/// The first impacts: the bodies' shapes at that moment, a red cross at the point, and the time
/// for the first few that do not crowd each other.
fn draw_impacts<'a, DB: DrawingBackend + 'a>(
    chart: &mut MapChart<'a, DB>,
    layers: &MapLayers<'_>,
) -> Result<(), PlotError>
where
    DB::ErrorType: 'static,
{
    let (rec, moving, region) = (layers.rec, &layers.moving, &layers.region);
    let clip = |poly: Vec<Vec2>| layers.clip(poly);
    // Impacts: the shapes of the bodies involved at that moment, a cross, and the time.
    let impacts: Vec<_> = rec
        .events
        .iter()
        .filter(|e| e.kind == EventKind::Impact)
        .collect();
    let (width, height) = (region.max.x - region.min.x, region.max.y - region.min.y);
    let mut labels: Vec<(Real, Real)> = Vec::new();
    for e in impacts.iter().take(MAX_IMPACT_MARKS) {
        for name in [&e.body_a, &e.body_b] {
            let Some(k) = moving.iter().position(|b| &b.name == name) else {
                continue;
            };
            if let Some(x) = pose_near(rec, name, e.time) {
                for poly in outline(&moving[k].shape, &x) {
                    chart
                        .draw_series(std::iter::once(PathElement::new(
                            closed(clip(poly)),
                            colour(k).mix(0.6).stroke_width(1),
                        )))
                        .map_err(draw_err)?;
                }
            }
        }
        let p = (e.point[0], e.point[1]);
        chart
            .draw_series(std::iter::once(Cross::new(p, 7, RED.stroke_width(3))))
            .map_err(draw_err)?;
        // Label the first impacts, skipping any that would sit on an earlier label.
        let crowded = labels.iter().any(|q: &(Real, Real)| {
            (q.0 - p.0).abs() < 0.12 * width && (q.1 - p.1).abs() < 0.04 * height
        });
        if labels.len() < MAX_IMPACT_LABELS && !crowded {
            labels.push(p);
            chart
                .draw_series(std::iter::once(
                    EmptyElement::at(p)
                        + Text::new(
                            format!("t = {:.3} s", e.time),
                            (9, -22),
                            ("sans-serif", 17).into_font().color(&RED),
                        ),
                ))
                .map_err(draw_err)?;
        }
    }
    if !impacts.is_empty() {
        chart
            .draw_series(std::iter::empty::<Cross<(Real, Real), i32>>())
            .map_err(draw_err)?
            .label(if impacts.len() > MAX_IMPACT_MARKS {
                format!(
                    "impact ({}, first {MAX_IMPACT_MARKS} marked)",
                    impacts.len()
                )
            } else {
                format!("impact ({})", impacts.len())
            })
            .legend(|(x, y)| Cross::new((x + 12, y), 7, RED.stroke_width(3)));
    }
    Ok(())
}

/// Where a sensor's visitor entered (triangle) and left (circle).
fn draw_sensor_events<'a, DB: DrawingBackend + 'a>(
    chart: &mut MapChart<'a, DB>,
    layers: &MapLayers<'_>,
) -> Result<(), PlotError>
where
    DB::ErrorType: 'static,
{
    let (rec, moving) = (layers.rec, &layers.moving);
    // Sensor events: where the visitor was when it entered (triangle) and left (circle), or the
    // sensor's body when the visitor does not move.
    for (kind, what, marker_colour) in [
        (EventKind::SensorBegin, "sensor entry", RGBColor(0, 150, 60)),
        (EventKind::SensorEnd, "sensor exit", RGBColor(150, 0, 150)),
    ] {
        let marks: Vec<(Real, Real)> = rec
            .events
            .iter()
            .filter(|e| e.kind == kind)
            .take(MAX_IMPACT_MARKS)
            .filter_map(|e| {
                let moves = |name: &String| moving.iter().any(|b| &b.name == name);
                let who = if moves(&e.body_b) || !moves(&e.body_a) {
                    &e.body_b
                } else {
                    &e.body_a
                };
                position_at(rec, who, e.time)
            })
            .collect();
        if marks.is_empty() {
            continue;
        }
        let total = rec.events.iter().filter(|e| e.kind == kind).count();
        let style = marker_colour.stroke_width(2);
        let entry = kind == EventKind::SensorBegin;
        let series = marks.into_iter().map(move |p| -> DynElement<_, _> {
            if entry {
                TriangleMarker::new(p, 8, style).into_dyn()
            } else {
                Circle::new(p, 6, style).into_dyn()
            }
        });
        chart
            .draw_series(series)
            .map_err(draw_err)?
            .label(format!("{what} ({total})"))
            .legend(move |(x, y)| -> DynElement<_, _> {
                if entry {
                    TriangleMarker::new((x + 12, y), 8, style).into_dyn()
                } else {
                    Circle::new((x + 12, y), 6, style).into_dyn()
                }
            });
    }
    Ok(())
}

/// The lower panels: each moving body's speed, and the kinetic energy of all bodies, over time.
fn draw_speed_and_energy<DB: DrawingBackend>(
    series: &DrawingArea<DB, Shift>,
    layers: &MapLayers<'_>,
) -> Result<(), PlotError>
where
    DB::ErrorType: 'static,
{
    let (rec, moving) = (layers.rec, &layers.moving);
    let first = rec.frames.first().expect("non-empty").time;
    let last = rec.frames.last().expect("non-empty").time;
    let (left, right) = series.split_horizontally(800);
    let t_range = first..last.max(first + 1e-9);
    let speeds: Vec<Vec<(Real, Real)>> = moving
        .iter()
        .map(|b| {
            rec.frames
                .iter()
                .filter_map(|f| {
                    f.bodies
                        .iter()
                        .find(|s| s.body == b.name)
                        .map(|s| (f.time, s.vx.hypot(s.vy)))
                })
                .collect()
        })
        .collect();
    let top = speeds
        .iter()
        .flatten()
        .map(|p| p.1)
        .fold(0.0, Real::max)
        .max(1e-3)
        * 1.05;
    let mut chart = ChartBuilder::on(&left)
        .caption("speed", ("sans-serif", 22))
        .margin(15)
        .x_label_area_size(40)
        .y_label_area_size(65)
        .build_cartesian_2d(t_range.clone(), 0.0..top)
        .map_err(draw_err)?;
    chart
        .configure_mesh()
        .x_desc("time (s)")
        .y_desc("speed (m/s)")
        .label_style(("sans-serif", 16))
        .draw()
        .map_err(draw_err)?;
    for (k, s) in speeds.into_iter().enumerate() {
        chart
            .draw_series(LineSeries::new(s, colour(k).stroke_width(2)))
            .map_err(draw_err)?;
    }
    let energy: Vec<(Real, Real)> = rec
        .frames
        .iter()
        .map(|f| (f.time, f.bodies.iter().map(|b| b.kinetic_energy).sum()))
        .collect();
    let top = energy.iter().map(|p| p.1).fold(0.0, Real::max).max(1e-6) * 1.05;
    let mut chart = ChartBuilder::on(&right)
        .caption("kinetic energy, all bodies", ("sans-serif", 22))
        .margin(15)
        .x_label_area_size(40)
        .y_label_area_size(75)
        .build_cartesian_2d(t_range, 0.0..top)
        .map_err(draw_err)?;
    chart
        .configure_mesh()
        .x_desc("time (s)")
        .y_desc("energy (J)")
        .label_style(("sans-serif", 16))
        .draw()
        .map_err(draw_err)?;
    chart
        .draw_series(LineSeries::new(energy, BLACK.stroke_width(2)))
        .map_err(draw_err)?;
    Ok(())
}

/// Writes an animated GIF of the run: the bodies at each recorded frame (subsampled to at most
/// [`MAX_GIF_FRAMES`]), with the simulated time, played at real speed where the frame rate allows.
pub fn animate(
    rec: &Recording,
    bodies: &[PlotBody],
    title: &str,
    path: &Path,
) -> Result<(), PlotError> {
    if rec.frames.is_empty() {
        return Err(PlotError::Empty);
    }
    ensure_font()?;
    let stride = rec.frames.len().div_ceil(MAX_GIF_FRAMES).max(1);
    let frames: Vec<_> = rec.frames.iter().step_by(stride).collect();
    let span = frames.last().expect("non-empty").time - frames[0].time;
    let delay_ms = if frames.len() > 1 {
        ((span / (frames.len() - 1) as Real) * 1000.0).clamp(20.0, 1000.0) as u32
    } else {
        100
    };
    let size = (900, 600);
    let root = BitMapBackend::gif(path, size, delay_ms)
        .map_err(draw_err)?
        .into_drawing_area();
    let region = bounds(rec, bodies, (900.0 - 80.0) / (600.0 - 90.0));
    let moving: Vec<&PlotBody> = bodies.iter().filter(|b| !b.is_static).collect();
    for f in frames {
        root.fill(&WHITE).map_err(draw_err)?;
        let mut chart = ChartBuilder::on(&root)
            .caption(format!("{title}   t = {:.3} s", f.time), ("sans-serif", 22))
            .margin(10)
            .x_label_area_size(35)
            .y_label_area_size(45)
            .build_cartesian_2d(region.min.x..region.max.x, region.min.y..region.max.y)
            .map_err(draw_err)?;
        chart
            .configure_mesh()
            .x_desc("x (m)")
            .y_desc("y (m)")
            .light_line_style(WHITE.mix(0.0))
            .draw()
            .map_err(draw_err)?;
        for s in &f.bodies {
            let Some(body) = bodies.iter().find(|b| b.name == s.body) else {
                continue;
            };
            let x = Transform::new(Vec2::new(s.x, s.y), s.angle);
            let style = match moving.iter().position(|b| b.name == s.body) {
                Some(k) => colour(k).filled(),
                None => GREY.mix(0.6).filled(),
            };
            for poly in outline(&body.shape, &x) {
                chart
                    .draw_series(std::iter::once(Polygon::new(clip_to(&region, poly), style)))
                    .map_err(draw_err)?;
            }
        }
        root.present().map_err(draw_err)?;
    }
    Ok(())
}
