//! The `sweep2d` command (feature `cli`): runs a scene file or the built-in demo, writes the
//! trajectory, the events, a summary and a plot, and checks scene files.
//!
//! Exit codes: 0 success, 2 bad input (the message says what and where), 1 internal error.

mod serve;

use clap::{Parser, Subcommand, ValueEnum};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::fs::File;
use std::io::BufWriter;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};
use sweep2d::analysis::plot::{plot_run_with_joints, PlotBody, PlotFormat, PlotJoint};
use sweep2d::analysis::record::{CsvStream, Recorder, RecorderConfig, Recording};
use sweep2d::analysis::replay::HtmlReplay;
use sweep2d::analysis::scene::{self, SceneFile};
use sweep2d::BodyKind;

#[derive(Parser)]
#[command(
    name = "sweep2d",
    version,
    about = "2D rigid bodies with continuous collision: run scenes, record trajectories, plot them"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run the built-in demo scene (no files needed) and write its outputs to ./sweep2d-demo/.
    Demo {
        /// Output directory.
        #[arg(long, default_value = "sweep2d-demo")]
        out: PathBuf,
        /// Plot format, or none.
        #[arg(long, value_enum, default_value_t = PlotChoice::Png)]
        plot: PlotChoice,
    },
    /// Run a scene file (or continue a snapshot) and write trajectory.csv, events.csv,
    /// summary.json and a plot.
    Run {
        /// The scene file (JSON; see docs/scenes.md), or a snapshot written by --snapshot, which
        /// continues exactly where that run ended.
        scene: PathBuf,
        /// Steps to simulate (default: the scene's `steps`).
        #[arg(long)]
        steps: Option<u64>,
        /// Output directory (default: the scene file's name without extension, in the current
        /// directory).
        #[arg(long)]
        out: Option<PathBuf>,
        /// Plot format, or none.
        #[arg(long, value_enum, default_value_t = PlotChoice::Png)]
        plot: PlotChoice,
        /// Record the poses of every K-th step (events are always recorded).
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..))]
        record_every: u64,
        /// Write the world's snapshot to this file when the run ends; `sweep2d run FILE`
        /// continues it bit for bit (docs/reliability.md, "Snapshots").
        #[arg(long)]
        snapshot: Option<PathBuf>,
        /// Also write replay.html: the run in one self-contained page (play, pause, scrub, click
        /// a body for its trajectory and speed) that works offline; --record-every thins it.
        #[arg(long)]
        html: bool,
    },
    /// Run a scene live in the browser: the testbed (see docs/testbed.md). Serves on loopback
    /// only unless --host says otherwise.
    Serve {
        /// The scene file to start with (default: the demo); the page offers the shipped scenes.
        scene: Option<PathBuf>,
        /// TCP port (0 picks a free one; the address is printed).
        #[arg(long, default_value_t = 8080)]
        port: u16,
        /// Address to listen on. The default, 127.0.0.1, admits only this machine; the testbed
        /// has no authentication, so widen it only on a network you trust.
        #[arg(long, default_value = "127.0.0.1")]
        host: std::net::IpAddr,
    },
    /// Validate a scene file and say what is wrong with it.
    Check {
        /// The scene file (JSON).
        scene: PathBuf,
    },
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum PlotChoice {
    Png,
    Svg,
    Gif,
    None,
}

/// A failure, and whose fault it is.
enum Failure {
    /// Bad input: exit code 2.
    Input(String),
    /// Everything else: exit code 1.
    Internal(String),
}

fn main() -> ExitCode {
    // A bug must not show a backtrace to a user as if their input were at fault.
    std::panic::set_hook(Box::new(|info| {
        eprintln!("sweep2d: internal error: {info}");
        eprintln!("this is a bug in sweep2d; please report it with the command and scene used");
    }));
    let cli = Cli::parse(); // usage errors exit with code 2, as clap does
    let result = std::panic::catch_unwind(|| match cli.command {
        Command::Demo { out, plot } => {
            let file = scene::demo();
            write_file(&out, "scene.json", file.to_json().as_bytes())?;
            let title = "sweep2d demo: a 45 m/s bullet in a room with 1 cm walls";
            let scene = file
                .build()
                .map_err(|e| Failure::Internal(format!("the demo scene: {e}")))?;
            let outputs = Outputs {
                out: &out,
                plot,
                record_every: 1,
                snapshot: None,
                html: true,
            };
            run(scene, title, None, outputs)
        }
        Command::Run {
            scene,
            steps,
            out,
            plot,
            record_every,
            snapshot,
            html,
        } => {
            let title = scene.display().to_string();
            let loaded = load_scene_or_snapshot(&scene)?;
            let out = out.unwrap_or_else(|| {
                PathBuf::from(scene.file_stem().unwrap_or_else(|| "sweep2d-run".as_ref()))
            });
            let outputs = Outputs {
                out: &out,
                plot,
                record_every,
                snapshot: snapshot.as_deref(),
                html,
            };
            run(loaded, &title, steps, outputs)
        }
        Command::Serve { scene, port, host } => {
            serve::serve(scene.as_deref(), host, port).map_err(Failure::Input)
        }
        Command::Check { scene } => check(&scene),
    });
    match result {
        Ok(Ok(())) => ExitCode::SUCCESS,
        Ok(Err(Failure::Input(m))) => {
            eprintln!("sweep2d: {m}");
            ExitCode::from(2)
        }
        Ok(Err(Failure::Internal(m))) => {
            eprintln!("sweep2d: {m}");
            ExitCode::from(1)
        }
        Err(_) => ExitCode::from(1),
    }
}

fn check(path: &Path) -> Result<(), Failure> {
    let file =
        SceneFile::read(path).map_err(|e| Failure::Input(format!("{}: {e}", path.display())))?;
    let built = file
        .build()
        .map_err(|e| Failure::Input(format!("{}: {e}", path.display())))?;
    let dynamic = built
        .world
        .bodies()
        .filter(|(_, b)| b.kind() == BodyKind::Dynamic)
        .count();
    println!(
        "{}: ok: {} bodies ({} dynamic), dt {} s, {} steps ({:.3} s simulated)",
        path.display(),
        built.bodies.len(),
        dynamic,
        file.dt,
        file.steps,
        file.steps as f64 * file.dt
    );
    Ok(())
}

/// `dir/name`, creating `dir` first; a directory that cannot be made is the user's to fix.
fn output_path(dir: &Path, name: &str) -> Result<PathBuf, Failure> {
    std::fs::create_dir_all(dir).map_err(|e| {
        Failure::Input(format!(
            "cannot create the output directory {}: {e}",
            dir.display()
        ))
    })?;
    Ok(dir.join(name))
}

fn cannot_write(path: &Path, e: std::io::Error) -> Failure {
    Failure::Input(format!("cannot write {}: {e}", path.display()))
}

fn write_file(dir: &Path, name: &str, bytes: &[u8]) -> Result<(), Failure> {
    let path = output_path(dir, name)?;
    std::fs::write(&path, bytes).map_err(|e| cannot_write(&path, e))
}

fn create(dir: &Path, name: &str) -> Result<BufWriter<File>, Failure> {
    let path = output_path(dir, name)?;
    File::create(&path)
        .map(BufWriter::new)
        .map_err(|e| cannot_write(&path, e))
}

/// Most frames the in-memory recording keeps for the plot (`sweep2d run` thins longer runs).
const MAX_PLOT_FRAMES: u64 = 1_000;

/// Steps a run from a snapshot takes unless `--steps` says otherwise (a scene file's default).
const SNAPSHOT_DEFAULT_STEPS: u64 = 600;

/// Largest snapshot `sweep2d run` reads (a snapshot holds about 200 bytes per body).
const MAX_SNAPSHOT_BYTES: u64 = 1 << 30;

/// A scene file built into a world, or a world restored from a snapshot (told apart by the
/// snapshot's first bytes).
fn load_scene_or_snapshot(path: &Path) -> Result<scene::LoadedScene, Failure> {
    use std::io::Read;
    let input = |m: String| Failure::Input(format!("{}: {m}", path.display()));
    // A snapshot starts with SWEEP2D-SNAPSHOT; a file holding only the start of that (cut short)
    // is a damaged snapshot, not a scene (no JSON text starts with `S`).
    let mut head = Vec::with_capacity(16);
    let is_snapshot = File::open(path)
        .and_then(|f| f.take(16).read_to_end(&mut head))
        .is_ok()
        && !head.is_empty()
        && b"SWEEP2D-SNAPSHOT".starts_with(&head);
    if !is_snapshot {
        let file = SceneFile::read(path).map_err(|e| input(e.to_string()))?;
        return file.build().map_err(|e| input(e.to_string()));
    }
    let mut bytes = Vec::new();
    File::open(path)
        .and_then(|f| f.take(MAX_SNAPSHOT_BYTES + 1).read_to_end(&mut bytes))
        .map_err(|e| input(format!("cannot read it: {e}")))?;
    if bytes.len() as u64 > MAX_SNAPSHOT_BYTES {
        return Err(input("the snapshot is larger than 1 GiB".into()));
    }
    let world = sweep2d::World::restore(&bytes).map_err(|e| input(e.to_string()))?;
    let bodies = world
        .bodies()
        .map(|(id, b)| {
            let name = b
                .name()
                .map_or_else(|| format!("body {}", id.index()), str::to_string);
            (id, name)
        })
        .collect();
    Ok(scene::LoadedScene {
        world,
        bodies,
        steps: SNAPSHOT_DEFAULT_STEPS,
        character: None,
    })
}

/// What a run writes, and where.
struct Outputs<'a> {
    /// The output directory.
    out: &'a Path,
    plot: PlotChoice,
    /// Record the poses of every K-th step.
    record_every: u64,
    /// Write the end state's snapshot here.
    snapshot: Option<&'a Path>,
    /// Write replay.html.
    html: bool,
}

/// What a run counts as it goes, for its summary: events by kind and the deepest overlap seen
/// (depth in metres, the two bodies' names, the step).
#[derive(Default)]
struct Tally {
    impacts: usize,
    contacts_begun: usize,
    held: usize,
    sensor_begin: usize,
    sensor_end: usize,
    deepest: Option<(f64, String, String, u64)>,
}

impl Tally {
    /// Counts the step the world just took.
    fn observe(&mut self, world: &sweep2d::World) {
        let ev = world.events();
        self.impacts += ev.impacts.len();
        self.contacts_begun += ev.contact_begin.len();
        self.held += ev.held.len();
        self.sensor_begin += ev.sensor_begin.len();
        self.sensor_end += ev.sensor_end.len();
        if let Some((depth, a, b)) = world.deepest_overlap() {
            if self.deepest.as_ref().is_none_or(|d| depth > d.0) {
                let name = |id| {
                    world
                        .body(id)
                        .and_then(|b| b.name())
                        .unwrap_or("?")
                        .to_string()
                };
                self.deepest = Some((depth, name(a), name(b), world.step_count()));
            }
        }
    }
}

/// The files a run writes as it goes, opened before simulating (a bad `--out` or snapshot path
/// costs nothing): the trajectory and events streams, the snapshot's file, the replay page.
struct Streams {
    csv: CsvStream<BufWriter<File>>,
    snapshot: Option<(PathBuf, File)>,
    replay: Option<HtmlReplay<BufWriter<File>>>,
}

impl Streams {
    fn open(
        scene: &scene::LoadedScene,
        title: &str,
        outputs: &Outputs<'_>,
    ) -> Result<Self, Failure> {
        let out = outputs.out;
        let csv = CsvStream::new(
            create(out, "trajectory.csv")?,
            create(out, "events.csv")?,
            outputs.record_every,
        )
        .map_err(|e| {
            Failure::Input(format!(
                "cannot write the outputs in {}: {e}",
                out.display()
            ))
        })?;
        let snapshot = outputs
            .snapshot
            .map(|p| {
                File::create(p)
                    .map(|f| (p.to_path_buf(), f))
                    .map_err(|e| cannot_write(p, e))
            })
            .transpose()?;
        let replay = if outputs.html {
            let names: Vec<(sweep2d::BodyId, String)> = scene.bodies.clone();
            Some(
                HtmlReplay::new(
                    create(out, "replay.html")?,
                    &scene.world,
                    &names,
                    title,
                    outputs.record_every,
                )
                .map_err(|e| cannot_write(&out.join("replay.html"), e))?,
            )
        } else {
            None
        };
        Ok(Self {
            csv,
            snapshot,
            replay,
        })
    }
}

fn run(
    mut scene: scene::LoadedScene,
    title: &str,
    steps: Option<u64>,
    outputs: Outputs<'_>,
) -> Result<(), Failure> {
    let steps = steps.unwrap_or(scene.steps);
    if steps > sweep2d::analysis::scene::MAX_SCENE_STEPS {
        return Err(Failure::Input(format!(
            "--steps {steps} is more than {} (about 46 hours simulated at 60 Hz)",
            sweep2d::analysis::scene::MAX_SCENE_STEPS
        )));
    }
    // The output directory is made and checked before simulating. The trajectory and events
    // stream to disk as the run goes; the recording kept in memory for the plot and the summary
    // holds at most about 1,000 frames.
    let mut streams = Streams::open(&scene, title, &outputs)?;
    let Outputs {
        out,
        plot,
        record_every,
        snapshot,
        html,
    } = outputs;
    let world = &scene.world;
    // Frames in memory only for a plot (thinned to about MAX_PLOT_FRAMES); events are counted
    // as they come for the summary.
    let plot_every = if matches!(plot, PlotChoice::None) {
        steps.max(1) + 1
    } else {
        record_every.max(steps.div_ceil(MAX_PLOT_FRAMES))
    };
    let mut recorder = Recorder::new(RecorderConfig {
        every: plot_every,
        keep_last: None,
    });
    let mut tally = Tally::default();
    recorder.record_initial(world);
    let streaming = |e: std::io::Error| Failure::Internal(format!("writing the outputs: {e}"));
    streams.csv.record_initial(world).map_err(streaming)?;
    let energy_start = world.kinetic_energy();
    // The scene steps its world and its character (if any) together.
    // The bar appears only for runs longer than a second, and only on a terminal.
    let bar = ProgressBar::with_draw_target(Some(steps), ProgressDrawTarget::hidden());
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} steps, {elapsed} elapsed, {eta} left")
            .expect("a valid template"),
    );
    let clock = Instant::now();
    let mut shown = false;
    for _ in 0..steps {
        // Never write a NaN: a step that would leave one is undone and the run stops with the
        // outputs written so far.
        scene
            .step(None)
            .map_err(|e| Failure::Internal(format!("{title}: {e}")))?;
        let world = &scene.world;
        if !matches!(plot, PlotChoice::None) {
            recorder.record(world);
        }
        streams.csv.record(world).map_err(streaming)?;
        if let Some(r) = streams.replay.as_mut() {
            r.record(world).map_err(streaming)?;
        }
        tally.observe(world);
        if !shown && clock.elapsed() > Duration::from_secs(1) {
            bar.set_draw_target(ProgressDrawTarget::stderr());
            shown = true;
        }
        bar.inc(1);
    }
    bar.finish_and_clear();
    let wall = clock.elapsed().as_secs_f64();

    streams.csv.finish().map_err(streaming)?;
    if let Some(r) = streams.replay {
        r.finish(&scene.world).map_err(streaming)?;
    }
    let timing = (energy_start, wall);
    write_summary(out, title, steps, &scene, &tally, timing, record_every)?;
    if let Some((path, file)) = streams.snapshot {
        use std::io::Write;
        let mut w = BufWriter::new(file);
        w.write_all(&scene.world.snapshot())
            .and_then(|()| w.flush())
            .map_err(|e| cannot_write(&path, e))?;
    }
    let mut written = vec![
        "trajectory.csv".to_string(),
        "events.csv".to_string(),
        "summary.json".to_string(),
    ];
    if html {
        written.push("replay.html".to_string());
    }
    if let Some(plot_name) = write_plot(&scene, &recorder.recording(), title, out, plot)? {
        written.push(plot_name);
    }
    println!(
        "{title}: {steps} steps ({:.3} s simulated) in {wall:.2} s; {} impacts; wrote {} in {}{}",
        scene.world.time(),
        tally.impacts,
        written.join(", "),
        out.display(),
        snapshot.map_or_else(String::new, |p| format!(
            ", and the snapshot {}",
            p.display()
        ))
    );
    Ok(())
}

/// Writes `summary.json`: the run's counts, deepest overlap, kinetic energy at the start and the
/// end, and `timing` (kinetic energy at the start in J, wall time in seconds).
fn write_summary(
    out: &Path,
    title: &str,
    steps: u64,
    scene: &scene::LoadedScene,
    tally: &Tally,
    timing: (f64, f64),
    record_every: u64,
) -> Result<(), Failure> {
    let (energy_start, wall) = timing;
    let world = &scene.world;
    let summary = serde_json::json!({
        "scene": title,
        "steps": steps,
        "dt": world.config().dt,
        "simulated_time": world.time(),
        "bodies": scene.bodies.len(),
        "impacts": tally.impacts,
        "contacts_begun": tally.contacts_begun,
        "held": tally.held,
        "sensor_begin": tally.sensor_begin,
        "sensor_end": tally.sensor_end,
        "deepest_overlap": tally.deepest.as_ref().map(|(depth, a, b, step)| serde_json::json!({
            "depth": depth, "body_a": a, "body_b": b, "step": step
        })),
        "kinetic_energy_start": energy_start,
        "kinetic_energy_end": world.kinetic_energy(),
        "wall_time": wall,
        "recorded_every": record_every,
    });
    write_file(
        out,
        "summary.json",
        serde_json::to_string_pretty(&summary)
            .expect("a summary serializes")
            .as_bytes(),
    )?;
    Ok(())
}

/// Writes the run's plot in `out` in the chosen format (bodies' shapes, paths, joints from their
/// end anchors) and returns its file name, or `None` for `--plot none`.
fn write_plot(
    scene: &scene::LoadedScene,
    recording: &Recording,
    title: &str,
    out: &Path,
    plot: PlotChoice,
) -> Result<Option<String>, Failure> {
    let format = match plot {
        PlotChoice::Png => PlotFormat::Png,
        PlotChoice::Svg => PlotFormat::Svg,
        PlotChoice::Gif => PlotFormat::Gif,
        PlotChoice::None => return Ok(None),
    };
    let world = &scene.world;
    let bodies: Vec<PlotBody> = scene
        .bodies
        .iter()
        .filter_map(|(id, name)| {
            world.body(*id).map(|b| PlotBody {
                name: name.clone(),
                shape: b.combined_shape(),
                is_static: b.kind() == BodyKind::Static,
            })
        })
        .collect();
    // Joints: anchors in their bodies' frames, from the end poses.
    let name_of = |id| {
        scene
            .bodies
            .iter()
            .find(|(b, _)| *b == id)
            .map(|(_, n)| n.clone())
    };
    let joints: Vec<PlotJoint> = world
        .joint_ids()
        .into_iter()
        .filter_map(|j| {
            let (a, b) = world.joint_bodies(j)?;
            let (pa, pb) = world.joint_anchors(j)?;
            let local = |id: sweep2d::BodyId, p| {
                world
                    .body(id)
                    .map(|body| body.transform().inv_transform_point(p))
            };
            Some(PlotJoint {
                body_a: a.and_then(name_of),
                anchor_a: a.and_then(|a| local(a, pa)).unwrap_or(pa),
                body_b: name_of(b)?,
                anchor_b: local(b, pb)?,
            })
        })
        .collect();
    let plot_name = format!("trajectory.{}", format.extension());
    plot_run_with_joints(
        recording,
        &bodies,
        &joints,
        title,
        &out.join(&plot_name),
        format,
    )
    .map_err(|e| Failure::Internal(format!("{plot_name}: {e}")))?;
    Ok(Some(plot_name))
}
