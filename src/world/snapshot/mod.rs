//! Snapshots (feature `serde`): the whole state of a world as bytes, and a world restored from
//! them that continues **bit for bit** as the original would have. Everything a step reads is
//! kept: bodies in their storage order, contacts with their manifolds and warm-start impulses, the
//! broad phase's trees as they are (their shape decides the order pairs are found in), joints
//! with their accumulated impulses, sensor overlaps, sleep timers, the clock. The step's scratch
//! buffers and the last step's profile are not (every step writes them before reading).
//!
//! Format (`docs/reliability.md`, "Snapshots"): the 16 bytes `SWEEP2D-SNAPSHOT`, the format
//! version (u32, little-endian), the length of the crate version string (u32) and the string, the
//! payload's length (u64) and its FNV-1a 64 checksum (u64), then the payload: the world's state
//! in MessagePack (structs as maps with their field names; floats as their 8 IEEE bytes, so every
//! bit survives, infinities included). A snapshot is read only by the same version of sweep2d
//! that wrote it.

mod scan;

use super::{body_set::BodySet, contact_set::ContactSet, events::StepEvents, joints::JointSet};
use super::{clock::Clock, sensors::SensorOverlaps, World, WorldConfig};
use crate::broadphase::BroadPhase;
use serde::{Deserialize, Serialize};

/// The first bytes of every snapshot.
const MAGIC: &[u8; 16] = b"SWEEP2D-SNAPSHOT";
/// The layout of the header and payload; bumped when it changes.
const FORMAT_VERSION: u32 = 8;
/// Bytes before the crate version string: magic, format version, version length.
const HEAD: usize = 16 + 4 + 4;

/// The state a snapshot holds, borrowed from a world for writing.
#[derive(Serialize)]
struct StateRef<'a> {
    config: &'a WorldConfig,
    bodies: &'a BodySet,
    contacts: &'a ContactSet,
    broad_phase: &'a BroadPhase,
    events: &'a StepEvents,
    clock: &'a Clock,
    sensor_overlaps: &'a SensorOverlaps,
    joints: &'a JointSet,
}

/// The state a snapshot holds, owned, for reading.
#[derive(Deserialize)]
struct State {
    config: WorldConfig,
    bodies: BodySet,
    contacts: ContactSet,
    broad_phase: BroadPhase,
    events: StepEvents,
    clock: Clock,
    sensor_overlaps: SensorOverlaps,
    joints: JointSet,
}

/// Why bytes could not be restored into a world. Nothing is built when this is returned.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SnapshotError {
    /// The bytes do not start with a snapshot's header.
    #[error("not a sweep2d snapshot (it does not start with SWEEP2D-SNAPSHOT)")]
    NotASnapshot,
    /// Written by another version of sweep2d (or another snapshot format).
    #[error(
        "the snapshot was written by sweep2d {written} (format {format}); this is sweep2d {ours} \
         (format {FORMAT_VERSION}): restore it with the version that wrote it"
    )]
    WrongVersion {
        /// The crate version that wrote it.
        written: String,
        /// Its format version.
        format: u32,
        /// This crate's version.
        ours: &'static str,
    },
    /// Fewer bytes than the header says, or a checksum that does not match: the snapshot was
    /// cut short or changed after it was written.
    #[error("the snapshot is damaged: {0}; write it again from the world")]
    Damaged(String),
    /// The payload does not decode into a consistent world.
    #[error("the snapshot's contents are not a valid world: {0}")]
    Invalid(String),
}

/// FNV-1a, 64 bits.
fn checksum(bytes: &[u8]) -> u64 {
    super::fnv1a(super::FNV_OFFSET, bytes)
}

/// The payload of a snapshot after its header is checked (module notes): magic, format and crate
/// version, length and checksum.
fn payload(bytes: &[u8]) -> Result<&[u8], SnapshotError> {
    let cut = || SnapshotError::Damaged("the header is cut short".into());
    if bytes.len() < MAGIC.len() {
        // The start of a snapshot, cut inside its first 16 bytes, is damaged, not foreign.
        return if !bytes.is_empty() && MAGIC.starts_with(bytes) {
            Err(cut())
        } else {
            Err(SnapshotError::NotASnapshot)
        };
    }
    if &bytes[..MAGIC.len()] != MAGIC {
        return Err(SnapshotError::NotASnapshot);
    }
    if bytes.len() < HEAD {
        return Err(cut());
    }
    let u32_at =
        |i: usize| u32::from_le_bytes([bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3]]);
    let format = u32_at(16);
    let version_len = u32_at(20) as usize;
    let version_end = HEAD
        .checked_add(version_len)
        .filter(|&e| e <= bytes.len() && version_len <= MAX_VERSION_LEN)
        .ok_or_else(cut)?;
    let raw = &bytes[HEAD..version_end];
    if format != FORMAT_VERSION || raw != env!("CARGO_PKG_VERSION").as_bytes() {
        return Err(SnapshotError::WrongVersion {
            written: shown_version(raw),
            format,
            ours: env!("CARGO_PKG_VERSION"),
        });
    }
    let rest = &bytes[version_end..];
    if rest.len() < 16 {
        return Err(cut());
    }
    let u64_at = |i: usize| {
        let mut b = [0u8; 8];
        b.copy_from_slice(&rest[i..i + 8]);
        u64::from_le_bytes(b)
    };
    let (length, sum) = (u64_at(0), u64_at(8));
    let payload = &rest[16..];
    if payload.len() as u64 != length {
        return Err(SnapshotError::Damaged(format!(
            "{} bytes of state where the header says {length}",
            payload.len()
        )));
    }
    if checksum(payload) != sum {
        return Err(SnapshotError::Damaged("the checksum does not match".into()));
    }
    Ok(payload)
}

/// Longest crate version string a header may carry (bytes).
const MAX_VERSION_LEN: usize = 64;

/// A version string from a header as messages show it: printable ASCII kept, everything else
/// (terminal escape sequences, invalid UTF-8) escaped, so a forged header cannot write to the
/// user's terminal.
fn shown_version(raw: &[u8]) -> String {
    raw.iter()
        .flat_map(|&b| std::ascii::escape_default(b))
        .map(char::from)
        .collect()
}

impl State {
    /// Checks everything the step and the queries rely on, owner by owner (each part checks its
    /// own invariants and its references into the parts checked before it), so that a restored
    /// world can neither panic nor loop. Numbers were already checked finite by [`scan::scan`].
    fn check(&self) -> Result<(), SnapshotError> {
        let invalid = |part: &str, e: String| SnapshotError::Invalid(format!("{part}: {e}"));
        self.config
            .validate()
            .map_err(|e| invalid("the settings", e.to_string()))?;
        self.clock
            .check_restored()
            .map_err(|e| invalid("the clock", e))?;
        self.broad_phase
            .check_restored()
            .map_err(|e| invalid("the broad phase", e))?;
        self.bodies
            .check_restored(&self.broad_phase)
            .map_err(|e| invalid("the bodies", e))?;
        self.contacts
            .check_restored(&self.bodies)
            .map_err(|e| invalid("the contacts", e))?;
        self.joints
            .check_restored(&self.bodies)
            .map_err(|e| invalid("the joints", e))?;
        for (i, pair) in self.sensor_overlaps.iter().enumerate() {
            for id in [pair.0, pair.1] {
                let live = self
                    .bodies
                    .get(id.body)
                    .is_some_and(|b| b.shape_slot(id).is_some());
                if !live {
                    return Err(invalid(
                        "the sensor overlaps",
                        format!(
                            "overlap {i} names shape {} of a body the world does not hold",
                            id.index
                        ),
                    ));
                }
            }
        }
        Ok(())
    }
}

impl World {
    /// The world's whole state as bytes (feature `serde`): restore it with [`World::restore`]
    /// and the restored world steps exactly as this one would, bit for bit. Ids of this world
    /// stay valid in the restored one (it keeps this world's [`tag`](World::tag)). Size: about
    /// 200 bytes per body and 150 per touching pair. Format: the module notes of
    /// `world/snapshot.rs` and `docs/reliability.md`.
    #[must_use]
    pub fn snapshot(&self) -> Vec<u8> {
        let state = StateRef {
            config: &self.config,
            bodies: &self.bodies,
            contacts: &self.contacts,
            broad_phase: &self.broad_phase,
            events: &self.events,
            clock: &self.clock,
            sensor_overlaps: &self.sensor_overlaps,
            joints: &self.joints,
        };
        let payload = rmp_serde::to_vec_named(&state).expect("a world always serializes");
        let version = env!("CARGO_PKG_VERSION").as_bytes();
        let mut out = Vec::with_capacity(HEAD + version.len() + 16 + payload.len());
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
        out.extend_from_slice(&(version.len() as u32).to_le_bytes());
        out.extend_from_slice(version);
        out.extend_from_slice(&(payload.len() as u64).to_le_bytes());
        out.extend_from_slice(&checksum(&payload).to_le_bytes());
        out.extend_from_slice(&payload);
        out
    }

    /// A world from a [`World::snapshot`] (feature `serde`), continuing exactly where the
    /// snapshot was taken. Refuses bytes that are not a snapshot, were written by another version
    /// of sweep2d, were cut short or changed (checksum), or do not decode into a consistent world.
    pub fn restore(bytes: &[u8]) -> Result<World, SnapshotError> {
        let payload = payload(bytes)?;
        scan::scan(payload).map_err(SnapshotError::Invalid)?;
        let state: State =
            rmp_serde::from_slice(payload).map_err(|e| SnapshotError::Invalid(e.to_string()))?;
        state.check()?;
        let force_thresholds = state
            .bodies
            .iter()
            .flat_map(|(_, b)| &b.shapes)
            .filter(|s| s.contact_force_threshold.is_some())
            .count();
        let mut contacts = state.contacts;
        contacts.rebuild_partners();
        let mut joints = state.joints;
        joints.rebuild_by_body();
        Ok(World {
            config: state.config,
            bodies: state.bodies,
            contacts,
            broad_phase: state.broad_phase,
            buffers: Default::default(),
            events: state.events,
            clock: state.clock,
            profile: Default::default(),
            profile_clock: super::profile::default_clock(),
            force_thresholds,
            sensor_overlaps: state.sensor_overlaps,
            joints,
        })
    }
}
