//! `sweep2d serve`: the live testbed. A simulation thread runs the world at its fixed step in real
//! time (or slower); an HTTP server on loopback (tiny_http) serves the page (`testbed.html`, plain
//! JavaScript, no build step), a state endpoint and a command endpoint, and streams what
//! `World::debug_draw` emits over a WebSocket (tungstenite) about 30 times a second.
//!
//! Endpoints: `GET /` the page; `GET /api/scenes` the scenes it offers; `GET /api/state` the
//! readout (JSON); `POST /api/command` a JSON command (`play`, `pause`, `step`, `reset`, `load`,
//! `load_text`, `speed`, `continuous`, `layers`, `fire`, `grab`, `drag`, `release`); `GET /ws` the
//! frame stream. Described in `docs/testbed.md`.

use std::io::Read;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use sweep2d::analysis::scene::{self, CharacterInput, SceneCharacter, SceneFile, MAX_SCENE_BYTES};
use sweep2d::{
    BodyDef, BodyKind, DrawList, DrawOptions, JointId, MouseJointDef, Shape, Transform, Vec2, World,
};

/// The page.
const PAGE: &str = include_str!("testbed.html");

/// The scenes the page offers: the demo and the shipped scene files (built into the binary, so
/// an installed `sweep2d` has them).
const SCENES: [(&str, &str); 8] = [
    (
        "bullet_through_thin_walls",
        include_str!("../../../scenes/bullet_through_thin_walls.json"),
    ),
    ("character", include_str!("../../../scenes/character.json")),
    ("joints", include_str!("../../../scenes/joints.json")),
    (
        "mirrored_and_rotated",
        include_str!("../../../scenes/mirrored_and_rotated.json"),
    ),
    (
        "newtons_cradle",
        include_str!("../../../scenes/newtons_cradle.json"),
    ),
    ("pyramid", include_str!("../../../scenes/pyramid.json")),
    (
        "sensors_and_filters",
        include_str!("../../../scenes/sensors_and_filters.json"),
    ),
    (
        "spinning_blade",
        include_str!("../../../scenes/spinning_blade.json"),
    ),
];

/// Frames per second the WebSocket sends at most.
const FRAME_RATE: f64 = 30.0;

/// Strongest pull of the mouse joint, per kilogram of the body (N/kg).
const GRAB_FORCE_PER_KG: f64 = 1000.0;

/// Bodies the state endpoint lists (the first dynamic ones).
const MAX_LISTED_BODIES: usize = 500;

/// Requests answered at once (each on its own thread); more get 503 at once, so a client that
/// opens many slow requests cannot exhaust the server's threads.
const MAX_REQUESTS_IN_FLIGHT: usize = 32;

/// Commands being read or run at once: a client that starts a command and never finishes its
/// body holds one of these, never the others' requests.
const MAX_COMMANDS_IN_FLIGHT: usize = 4;

/// WebSocket clients streamed to at once.
const MAX_SOCKETS: usize = 8;

/// Draw commands a frame carries at most (about 2 MB of JSON, what a browser draws 30 times a
/// second); a larger scene's frame is thinned to these and the page says so.
const MAX_FRAME_COMMANDS: usize = 20_000;

/// Bodies a scene loaded into the testbed may have (an uploaded 100,000-body scene took the
/// server from 512 MB to 4.7 GB with 20 pages open); `sweep2d run` takes larger ones.
const MAX_TESTBED_BODIES: usize = 20_000;

/// Bullets the page may fire per second of wall time.
const MAX_BULLETS_PER_SECOND: usize = 20;

/// The simulation the threads share.
struct Sim {
    world: World,
    /// The scene's character, driven by its script until the page sends arrow keys.
    character: Option<SceneCharacter>,
    /// The arrow keys held (once the page has sent any), and a jump asked for since the last
    /// step.
    keys: Option<CharacterInput>,
    /// The scene's name, and its JSON text (for reset).
    scene: String,
    source: String,
    paused: bool,
    /// Simulated seconds per wall second (0.05 to 4).
    speed: f64,
    layers: DrawOptions,
    /// Wall time of the last step (ms).
    step_ms: f64,
    impacts_total: u64,
    bullets_fired: u64,
    /// The last error (a scene that did not load, a step that was undone).
    error: Option<String>,
    /// The mouse joint while a body is dragged.
    grab: Option<JointId>,
    /// Bumped on every change the page should redraw.
    version: u64,
    /// When the bullets of the last second were fired (wall clock).
    recent_bullets: std::collections::VecDeque<Instant>,
}

impl Sim {
    fn load(scene: &str, text: &str) -> Result<Sim, String> {
        let file = SceneFile::from_json(text).map_err(|e| format!("{scene}: {e}"))?;
        if file.bodies.len() > MAX_TESTBED_BODIES {
            return Err(format!(
                "{scene}: {} bodies; the testbed takes at most {MAX_TESTBED_BODIES} (run larger \
                 scenes with `sweep2d run`)",
                file.bodies.len()
            ));
        }
        let built = file.build().map_err(|e| format!("{scene}: {e}"))?;
        Ok(Sim {
            world: built.world,
            character: built.character,
            keys: None,
            scene: scene.to_string(),
            source: text.to_string(),
            paused: false,
            speed: 1.0,
            layers: DrawOptions::default(),
            step_ms: 0.0,
            impacts_total: 0,
            bullets_fired: 0,
            error: None,
            grab: None,
            version: 0,
            recent_bullets: Default::default(),
        })
    }

    /// Replaces the world by a freshly built scene, keeping the page's settings.
    fn replace(&mut self, scene: &str, text: &str) -> Result<(), String> {
        self.adopt(Sim::load(scene, text)?)
    }

    /// Takes `fresh` (a scene built without the lock held, see `run_command`) in place of this
    /// one, keeping the page's settings.
    fn adopt(&mut self, mut fresh: Sim) -> Result<(), String> {
        fresh.speed = self.speed;
        fresh.layers = self.layers;
        fresh.paused = self.paused;
        let continuous = self.world.config().continuous;
        let mut config = *fresh.world.config();
        config.continuous = continuous;
        fresh.world.set_config(config).map_err(|e| e.to_string())?;
        fresh.version = self.version + 1;
        *self = fresh;
        Ok(())
    }

    fn step(&mut self) {
        let t = Instant::now();
        match self.world.try_step() {
            Ok(()) => {
                if let Some(c) = self.character.as_mut() {
                    c.update(&mut self.world, self.keys);
                    if let Some(k) = self.keys.as_mut() {
                        k.jump = false; // a jump is taken once
                    }
                }
                self.step_ms = t.elapsed().as_secs_f64() * 1e3;
                self.impacts_total += self.world.events().impacts.len() as u64;
            }
            Err(e) => {
                self.error = Some(e.to_string());
                self.paused = true;
            }
        }
        self.version += 1;
    }

    /// The readout; with `listed`, also the first dynamic bodies' positions and velocities (the
    /// state endpoint's; the page's frames leave them out).
    fn state(&self, listed: bool) -> serde_json::Value {
        let w = &self.world;
        let awake = w
            .bodies()
            .filter(|(_, b)| b.kind() == BodyKind::Dynamic && b.is_awake())
            .count();
        let listed: Vec<serde_json::Value> = w
            .bodies()
            .filter(|(_, b)| listed && b.kind() == BodyKind::Dynamic)
            .take(MAX_LISTED_BODIES)
            .map(|(id, b)| {
                let p = b.center_of_mass();
                let v = b.linear_velocity();
                serde_json::json!({
                    "id": id.index(),
                    "name": b.name().map_or_else(|| format!("body {}", id.index()), str::to_string),
                    "x": p.x, "y": p.y, "vx": v.x, "vy": v.y,
                })
            })
            .collect();
        serde_json::json!({
            "scene": self.scene,
            "time": w.time(),
            "step": w.step_count(),
            "paused": self.paused,
            "speed": self.speed,
            "continuous": w.config().continuous,
            "layers": self.layers,
            "bodies": w.body_count(),
            "awake": awake,
            "contacts": w.contact_point_count(),
            "impacts": w.events().impacts.len(),
            "impacts_total": self.impacts_total,
            "held": w.events().held.len(),
            "energy": w.kinetic_energy(),
            "step_ms": self.step_ms,
            "bullets_fired": self.bullets_fired,
            "character": self.character.as_ref().map(|c| {
                let (p, v) = (c.transform().translation, c.velocity());
                serde_json::json!({"x": p.x, "y": p.y, "vx": v.x, "vy": v.y, "grounded": c.grounded()})
            }),
            "error": self.error,
            "dynamic": listed,
        })
    }

    /// Runs one command from the page.
    fn command(&mut self, c: &serde_json::Value) -> Result<(), String> {
        let point = |key: &str| -> Result<Vec2, String> {
            let p = c[key]
                .as_array()
                .filter(|a| a.len() == 2)
                .and_then(|a| Some(Vec2::new(a[0].as_f64()?, a[1].as_f64()?)))
                .ok_or_else(|| format!("`{key}` must be [x, y] in metres"))?;
            if p.is_finite() {
                Ok(p)
            } else {
                Err(format!("`{key}` must be finite"))
            }
        };
        let number = |key: &str| {
            c[key]
                .as_f64()
                .ok_or_else(|| format!("`{key}` must be a number"))
        };
        match c["cmd"].as_str().unwrap_or("") {
            "play" => self.paused = false,
            "pause" => self.paused = true,
            "step" => {
                self.paused = true;
                self.step();
            }
            "reset" => {
                let (scene, source) = (self.scene.clone(), self.source.clone());
                self.replace(&scene, &source)?;
            }
            // `load` and `load_text` are built off the lock by `run_command`.
            "speed" => {
                let v = number("value")?;
                if !(0.05..=4.0).contains(&v) {
                    return Err(format!("speed {v} is outside 0.05 to 4"));
                }
                self.speed = v;
            }
            "continuous" => {
                let on = c["on"].as_bool().ok_or("`on` must be true or false")?;
                let mut config = *self.world.config();
                config.continuous = on;
                self.world.set_config(config).map_err(|e| e.to_string())?;
            }
            "layers" => {
                self.layers = serde_json::from_value(c["layers"].clone())
                    .map_err(|e| format!("layers: {e}"))?;
            }
            "fire" => self.fire(
                point("from")?,
                point("to")?,
                number("radius")?,
                number("speed")?,
            )?,
            "input" => {
                if self.character.is_none() {
                    return Err("input: this scene has no character (load `character`)".into());
                }
                let walk = number("walk")?;
                if !(-1.0..=1.0).contains(&walk) {
                    return Err(format!("input: walk {walk} is outside -1 to 1"));
                }
                let jump = c["jump"].as_bool().unwrap_or(false);
                let held_jump = self.keys.is_some_and(|k| k.jump);
                self.keys = Some(CharacterInput {
                    walk,
                    jump: jump || held_jump,
                });
            }
            "grab" => {
                let at = point("at")?;
                self.release();
                let body = self.world.query_point(at).into_iter().find(|&id| {
                    self.world
                        .body(id)
                        .is_some_and(|b| b.kind() == BodyKind::Dynamic)
                });
                let Some(body) = body else {
                    return Err("grab: no dynamic body there".into());
                };
                let mass = self.world.body(body).map_or(1.0, |b| b.mass());
                let joint = self
                    .world
                    .add_joint(MouseJointDef::new(body, at, GRAB_FORCE_PER_KG * mass))
                    .map_err(|e| format!("grab: {e}"))?;
                self.grab = Some(joint);
            }
            "drag" => {
                let to = point("to")?;
                if let Some(j) = self.grab {
                    self.world
                        .set_joint_target(j, to)
                        .map_err(|e| format!("drag: {e}"))?;
                }
            }
            "release" => self.release(),
            other => return Err(format!("unknown command {other:?}")),
        }
        self.version += 1;
        Ok(())
    }

    /// Fires a bullet of `radius` (m) from `from` toward `to` (world metres) at `speed` (m/s),
    /// within the testbed's caps on bullets a second and bodies.
    fn fire(&mut self, from: Vec2, to: Vec2, radius: f64, speed: f64) -> Result<(), String> {
        let now = Instant::now();
        while self
            .recent_bullets
            .front()
            .is_some_and(|t| now.duration_since(*t) > Duration::from_secs(1))
        {
            self.recent_bullets.pop_front();
        }
        if self.recent_bullets.len() >= MAX_BULLETS_PER_SECOND {
            return Err(format!(
                "fire: at most {MAX_BULLETS_PER_SECOND} bullets a second"
            ));
        }
        if self.world.body_count() >= MAX_TESTBED_BODIES {
            return Err(format!(
                "fire: the scene already has {MAX_TESTBED_BODIES} bodies; reset it"
            ));
        }
        let dir = (to - from).normalize_or_zero();
        if dir == Vec2::ZERO {
            return Err("fire: drag a direction".into());
        }
        let shape = Shape::circle(radius).map_err(|e| format!("fire: {e}"))?;
        self.world
            .add_body(BodyDef {
                shape,
                transform: Transform::new(from, 0.0),
                linear_velocity: dir * speed,
                density: 2000.0,
                restitution: 0.5,
                name: Some(format!("bullet {}", self.bullets_fired + 1)),
                ..BodyDef::default()
            })
            .map_err(|e| format!("fire: {e}"))?;
        self.bullets_fired += 1;
        self.recent_bullets.push_back(now);
        Ok(())
    }

    fn release(&mut self) {
        if let Some(j) = self.grab.take() {
            let _ = self.world.remove_joint(j);
        }
    }

    /// The frame the page draws: the readout and the debug-draw commands.
    fn frame(&self) -> String {
        let mut list = DrawList::new();
        self.world.debug_draw(&mut list, &self.layers);
        let total = list.commands.len();
        list.commands.truncate(MAX_FRAME_COMMANDS);
        let mut state = self.state(false);
        if total > MAX_FRAME_COMMANDS {
            state["thinned"] = serde_json::json!({ "drawn": MAX_FRAME_COMMANDS, "total": total });
        }
        serde_json::json!({ "state": state, "commands": list.commands }).to_string()
    }
}

/// The JSON text of a scene the page offers by name.
fn scene_text(name: &str) -> Option<String> {
    if name == "demo" {
        return Some(scene::demo().to_json());
    }
    SCENES
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, t)| (*t).to_string())
}

/// The simulation, even if a thread panicked while holding it (its panic was caught and reported;
/// see `run_command` and `simulate`): one failed command must not take the server down.
fn lock(sim: &Mutex<Sim>) -> std::sync::MutexGuard<'_, Sim> {
    sim.lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Runs a page command; a panic inside it (a bug) is caught, the scene is rebuilt from its text,
/// and the page gets the message instead of a server that stopped answering.
fn run_command(sim: &Mutex<Sim>, c: &serde_json::Value) -> Result<(), String> {
    // Loading reads and builds a scene, the slow part, before taking the lock: the simulation and
    // the other clients' requests go on meanwhile.
    let fresh = match c["cmd"].as_str() {
        Some("load") => {
            let name = c["scene"].as_str().unwrap_or("");
            let text = scene_text(name).ok_or_else(|| format!("no scene called {name:?}"))?;
            Some(Sim::load(name, &text))
        }
        Some("load_text") => {
            let text = c["text"]
                .as_str()
                .ok_or("`text` must be the scene file's text")?;
            let name = c["name"].as_str().unwrap_or("uploaded scene");
            Some(Sim::load(name, text))
        }
        _ => None,
    };
    if let Some(fresh) = fresh {
        let mut s = lock(sim);
        let outcome = fresh.and_then(|f| s.adopt(f));
        if let Err(e) = &outcome {
            s.error = Some(e.clone());
            s.version += 1;
        }
        return outcome;
    }
    let mut s = lock(sim);
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| s.command(c))) {
        Ok(outcome) => outcome,
        Err(panic) => {
            let what = panic_message(&panic);
            let (scene, source) = (s.scene.clone(), s.source.clone());
            let _ = s.replace(&scene, &source);
            let message = format!("internal error in the command ({what}); the scene was reset");
            s.error = Some(message.clone());
            Err(message)
        }
    }
}

/// The text of a caught panic.
fn panic_message(panic: &Box<dyn std::any::Any + Send>) -> String {
    panic
        .downcast_ref::<&str>()
        .map(|s| (*s).to_string())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic".to_string())
}

/// Why a request that did not come from the testbed's own page is refused, if it is (status,
/// message). The server obeys only its page: a `Host` that is not this machine's address or
/// `localhost` (a page from another site whose name was rebound to loopback), an `Origin` of
/// another site on a command or a WebSocket upgrade (any page the user has open may send those),
/// and a command that is not `application/json` (a cross-site form or `text/plain` post, which
/// browsers send without asking) are refused. Clients that send no `Origin` (scripts, `curl`)
/// are not browsers' cross-site requests and are served.
fn refusal(request: &tiny_http::Request, port: u16) -> Option<(u16, String)> {
    let header = |name: &'static str| {
        request
            .headers()
            .iter()
            .find(|h| h.field.equiv(name))
            .map(|h| h.value.as_str().to_string())
    };
    if let Some(host) = header("Host") {
        if !own_host(&host, port) {
            return Some((
                403,
                format!(
                    "refused: the Host {host:?} is not this testbed's address (open it by its IP \
                     address or as localhost, port {port})"
                ),
            ));
        }
    }
    let url = request.url();
    let command = *request.method() == tiny_http::Method::Post && url == "/api/command";
    if command || url == "/ws" {
        if let Some(origin) = header("Origin") {
            let own = origin
                .strip_prefix("http://")
                .is_some_and(|host| own_host(host, port));
            if !own {
                return Some((
                    403,
                    format!("refused: a request from another site ({origin:?}) cannot drive the testbed"),
                ));
            }
        }
    }
    if command {
        let json = header("Content-Type").is_some_and(|t| {
            t.split(';')
                .next()
                .is_some_and(|m| m.trim().eq_ignore_ascii_case("application/json"))
        });
        if !json {
            return Some((
                415,
                "refused: a command is a JSON body sent as Content-Type: application/json".into(),
            ));
        }
    }
    None
}

/// Whether `host` (a `Host` header or an origin's host: name or IP, then `:port` unless it is 80)
/// names this server: an IP address or `localhost`, at `port`.
fn own_host(host: &str, port: u16) -> bool {
    // `[v6]`, `[v6]:port`, `name`, `name:port`.
    let (name, port_text) = match host.strip_prefix('[') {
        Some(bracketed) => match bracketed.split_once(']') {
            Some((name, "")) => (name, None),
            Some((name, rest)) => match rest.strip_prefix(':') {
                Some(p) => (name, Some(p)),
                None => return false,
            },
            None => return false,
        },
        None => match host.split_once(':') {
            Some((name, p)) => (name, Some(p)),
            None => (host, None),
        },
    };
    let given = port_text.map_or(Some(80), |p| p.parse::<u16>().ok());
    given == Some(port)
        && (name.eq_ignore_ascii_case("localhost") || name.parse::<IpAddr>().is_ok())
}

fn json_response(status: u16, body: String) -> tiny_http::Response<std::io::Cursor<Vec<u8>>> {
    tiny_http::Response::from_string(body)
        .with_status_code(status)
        .with_header(
            "Content-Type: application/json"
                .parse::<tiny_http::Header>()
                .expect("a valid header"),
        )
}

/// Runs the simulation in real time (scaled by its speed) until the process ends.
fn simulate(sim: Arc<Mutex<Sim>>) {
    let mut next = Instant::now();
    loop {
        let (dt, speed, paused) = {
            let s = lock(&sim);
            (s.world.config().dt, s.speed, s.paused)
        };
        let period = Duration::from_secs_f64(dt / speed);
        let now = Instant::now();
        if next > now {
            std::thread::sleep((next - now).min(Duration::from_millis(20)));
            continue;
        }
        if !paused {
            let mut s = lock(&sim);
            if let Err(panic) = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| s.step()))
            {
                // A bug in a step: reported and paused, never a dead simulation thread.
                s.error = Some(format!(
                    "internal error in a step ({})",
                    panic_message(&panic)
                ));
                s.paused = true;
                s.version += 1;
            }
        }
        // Never try to catch up by more than a step: a slow scene runs slower than real time.
        next = (next + period).max(Instant::now());
    }
}

/// Streams frames to one WebSocket client until it goes away.
fn stream_frames(sim: Arc<Mutex<Sim>>, stream: Box<dyn tiny_http::ReadWrite + Send>) {
    use tungstenite::protocol::{Role, WebSocket};
    let mut ws = WebSocket::from_raw_socket(stream, Role::Server, None);
    let mut sent = u64::MAX;
    let mut last = Instant::now();
    let period = Duration::from_secs_f64(1.0 / FRAME_RATE);
    loop {
        // A frame when something changed, and a ping now and then while nothing does, so that
        // a page that went away is noticed (the send fails) and its thread ends.
        let frame = {
            let s = lock(&sim);
            (s.version != sent).then(|| (s.version, s.frame()))
        };
        let message = match frame {
            Some((version, text)) => {
                sent = version;
                Some(tungstenite::Message::text(text))
            }
            None if last.elapsed() > Duration::from_secs(1) => {
                Some(tungstenite::Message::Ping(Vec::new().into()))
            }
            None => None,
        };
        if let Some(message) = message {
            if ws.send(message).is_err() {
                return;
            }
            last = Instant::now();
        }
        std::thread::sleep(period);
    }
}

/// Serves the testbed on `host:port` with `scene` (a scene file's path, or the demo).
pub fn serve(scene: Option<&std::path::Path>, host: IpAddr, port: u16) -> Result<(), String> {
    let sim = match scene {
        Some(path) => {
            let file = SceneFile::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
            Sim::load(&path.display().to_string(), &file.to_json())?
        }
        None => Sim::load("demo", &scene::demo().to_json())?,
    };
    let server = tiny_http::Server::http((host, port))
        .map_err(|e| format!("cannot listen on {host}:{port}: {e}"))?;
    let addr = server
        .server_addr()
        .to_ip()
        .map_or_else(|| format!("{host}:{port}"), |a| a.to_string());
    println!("sweep2d testbed: open http://{addr}/ (Ctrl-C stops it)");
    let sim = Arc::new(Mutex::new(sim));
    {
        let sim = Arc::clone(&sim);
        std::thread::spawn(move || simulate(sim));
    }
    let port = server.server_addr().to_ip().map_or(port, |a| a.port());
    let limits = Limits::default();
    for request in server.incoming_requests() {
        let url = request.url().to_string();
        let refused = refusal(&request, port)
            .or_else(|| (!limits.requests.take()).then(|| (503, busy("requests"))));
        if let Some((status, message)) = refused {
            let reply = serde_json::json!({"ok": false, "error": message}).to_string();
            if let Err(e) = request.respond(json_response(status, reply)) {
                eprintln!("sweep2d serve: answering {url}: {e}");
            }
            continue;
        }
        // Each request on its own thread: one that waits on its client (a body that never
        // ends) holds only its own thread and slot.
        let (sim, limits) = (Arc::clone(&sim), limits.clone());
        std::thread::spawn(move || {
            if let Err(e) = answer(request, &sim, &limits) {
                eprintln!("sweep2d serve: answering {url}: {e}");
            }
            limits.requests.give_back();
        });
    }
    Ok(())
}

/// A count of slots in use with a cap, shared by the server's threads.
#[derive(Clone)]
struct Slots {
    used: Arc<std::sync::atomic::AtomicUsize>,
    cap: usize,
}

impl Slots {
    fn new(cap: usize) -> Self {
        Self {
            used: Arc::default(),
            cap,
        }
    }

    /// Takes a slot; `false` (and nothing taken) when all are in use.
    fn take(&self) -> bool {
        use std::sync::atomic::Ordering;
        self.used
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| {
                (n < self.cap).then_some(n + 1)
            })
            .is_ok()
    }

    fn give_back(&self) {
        self.used.fetch_sub(1, std::sync::atomic::Ordering::AcqRel);
    }
}

/// The server's caps on concurrent work.
#[derive(Clone)]
struct Limits {
    requests: Slots,
    commands: Slots,
    sockets: Slots,
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            requests: Slots::new(MAX_REQUESTS_IN_FLIGHT),
            commands: Slots::new(MAX_COMMANDS_IN_FLIGHT),
            sockets: Slots::new(MAX_SOCKETS),
        }
    }
}

/// The message of a refusal for want of slots.
fn busy(what: &str) -> String {
    format!("the testbed is busy (too many {what} at once); try again")
}

/// Answers one request (on its own thread).
fn answer(
    mut request: tiny_http::Request,
    sim: &Arc<Mutex<Sim>>,
    limits: &Limits,
) -> Result<(), std::io::Error> {
    let method = request.method().clone();
    match (method, request.url()) {
        (tiny_http::Method::Get, "/") => request.respond(
            tiny_http::Response::from_string(PAGE).with_header(
                "Content-Type: text/html; charset=utf-8"
                    .parse::<tiny_http::Header>()
                    .expect("a valid header"),
            ),
        ),
        (tiny_http::Method::Get, "/api/scenes") => {
            let mut names = vec!["demo"];
            names.extend(SCENES.iter().map(|(n, _)| *n));
            request.respond(json_response(200, serde_json::json!(names).to_string()))
        }
        (tiny_http::Method::Get, "/api/state") => {
            let state = lock(sim).state(true);
            request.respond(json_response(200, state.to_string()))
        }
        (tiny_http::Method::Post, "/api/command") => {
            if !limits.commands.take() {
                let reply = serde_json::json!({"ok": false, "error": busy("commands")});
                return request.respond(json_response(503, reply.to_string()));
            }
            let mut body = String::new();
            let read = request
                .as_reader()
                .take(MAX_SCENE_BYTES + 1)
                .read_to_string(&mut body);
            let outcome = match read {
                Err(e) => Err(format!("cannot read the command: {e}")),
                Ok(n) if n as u64 > MAX_SCENE_BYTES => {
                    Err("the command is larger than 16 MiB".to_string())
                }
                Ok(_) => serde_json::from_str::<serde_json::Value>(&body)
                    .map_err(|e| format!("the command is not JSON: {e}"))
                    .and_then(|c| run_command(sim, &c)),
            };
            limits.commands.give_back();
            let (status, reply) = match outcome {
                Ok(()) => (200, serde_json::json!({"ok": true})),
                Err(e) => (400, serde_json::json!({"ok": false, "error": e})),
            };
            request.respond(json_response(status, reply.to_string()))
        }
        (tiny_http::Method::Get, "/ws") => {
            let key = request
                .headers()
                .iter()
                .find(|h| h.field.equiv("Sec-WebSocket-Key"))
                .map(|h| h.value.as_str().to_string());
            let Some(key) = key else {
                return request.respond(json_response(
                    400,
                    r#"{"ok":false,"error":"a WebSocket upgrade is expected here"}"#.into(),
                ));
            };
            if !limits.sockets.take() {
                let reply = serde_json::json!({"ok": false, "error": busy("pages streaming")});
                return request.respond(json_response(503, reply.to_string()));
            }
            let accept = tungstenite::handshake::derive_accept_key(key.as_bytes());
            let response = tiny_http::Response::empty(101)
                .with_header(
                    "Upgrade: websocket"
                        .parse::<tiny_http::Header>()
                        .expect("a valid header"),
                )
                .with_header(
                    "Connection: Upgrade"
                        .parse::<tiny_http::Header>()
                        .expect("a valid header"),
                )
                .with_header(
                    format!("Sec-WebSocket-Accept: {accept}")
                        .parse::<tiny_http::Header>()
                        .expect("a valid header"),
                );
            let stream = request.upgrade("websocket", response);
            let (sim, sockets) = (Arc::clone(sim), limits.sockets.clone());
            // The stream has a thread of its own, which frees this request's slot.
            std::thread::spawn(move || {
                stream_frames(sim, stream);
                sockets.give_back();
            });
            Ok(())
        }
        _ => request.respond(json_response(
            404,
            r#"{"ok":false,"error":"no such page"}"#.into(),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::own_host;

    /// IP addresses and `localhost` at the server's port are its own; names, other ports and
    /// malformed hosts are not.
    #[test]
    fn own_hosts_are_ip_addresses_or_localhost_at_the_port() {
        for host in [
            "127.0.0.1:8080",
            "LocalHost:8080",
            "[::1]:8080",
            "192.168.1.4:8080",
        ] {
            assert!(own_host(host, 8080), "{host}");
        }
        assert!(own_host("[::1]", 80) && own_host("localhost", 80));
        for host in [
            "evil.example:8080",
            "127.0.0.1.nip.io:8080",
            "127.0.0.1:9090",
            "127.0.0.1",
            "[::1]x",
            "[::1",
            "::1",
            "127.0.0.1:80:8080",
            "",
        ] {
            assert!(!own_host(host, 8080), "{host}");
        }
    }
}
