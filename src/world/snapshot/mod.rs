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

use super::{body_set::BodySet, contact_set::ContactSet, events::StepEvents, joints::JointSet};
use super::{clock::Clock, sensors::SensorOverlaps, World, WorldConfig};
use crate::broadphase::BroadPhase;
use serde::{Deserialize, Serialize};

/// The first bytes of every snapshot.
const MAGIC: &[u8; 16] = b"SWEEP2D-SNAPSHOT";
/// The layout of the header and payload; bumped when it changes.
const FORMAT_VERSION: u32 = 2;
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
        if bytes.len() < HEAD || &bytes[..16] != MAGIC {
            return Err(SnapshotError::NotASnapshot);
        }
        let u32_at = |i: usize| u32::from_le_bytes(bytes[i..i + 4].try_into().expect("4 bytes"));
        let format = u32_at(16);
        let version_len = u32_at(20) as usize;
        let version_end = HEAD
            .checked_add(version_len)
            .filter(|&e| e <= bytes.len() && version_len <= 64)
            .ok_or_else(|| SnapshotError::Damaged("the header is cut short".into()))?;
        let written = String::from_utf8_lossy(&bytes[HEAD..version_end]).into_owned();
        if format != FORMAT_VERSION || written != env!("CARGO_PKG_VERSION") {
            return Err(SnapshotError::WrongVersion {
                written,
                format,
                ours: env!("CARGO_PKG_VERSION"),
            });
        }
        let rest = &bytes[version_end..];
        if rest.len() < 16 {
            return Err(SnapshotError::Damaged("the header is cut short".into()));
        }
        let length = u64::from_le_bytes(rest[..8].try_into().expect("8 bytes"));
        let sum = u64::from_le_bytes(rest[8..16].try_into().expect("8 bytes"));
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
        let state: State =
            rmp_serde::from_slice(payload).map_err(|e| SnapshotError::Invalid(e.to_string()))?;
        state
            .config
            .validate()
            .map_err(|e| SnapshotError::Invalid(e.to_string()))?;
        state
            .bodies
            .check_consistency()
            .map_err(SnapshotError::Invalid)?;
        Ok(World {
            config: state.config,
            bodies: state.bodies,
            contacts: state.contacts,
            broad_phase: state.broad_phase,
            buffers: Default::default(),
            events: state.events,
            clock: state.clock,
            profile: Default::default(),
            sensor_overlaps: state.sensor_overlaps,
            joints: state.joints,
        })
    }
}
