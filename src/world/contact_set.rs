//! The world's contacts: one [`PairContact`] per pair of bodies whose proxies overlap, stored
//! densely with an index by pair (the set of tracked pairs).

use crate::dynamics::contact::PairContact;
use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};

/// A hasher for body-pair keys (two `u32`s): one multiply-and-rotate per word, as rustc's
/// `FxHasher`. The keys are small integers the engine makes, not input an attacker picks, so the
/// standard library's DoS-resistant SipHash only costs time (it was a third of a step of a heap of
/// 600 bodies).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct PairHasher(u64);

impl Hasher for PairHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }

    #[inline]
    fn write_u32(&mut self, n: u32) {
        self.write_u64(u64::from(n));
    }

    #[inline]
    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0.rotate_left(5) ^ n).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }

    #[inline]
    fn finish(&self) -> u64 {
        self.0
    }
}

/// The key of an unordered pair of bodies (keys): the lower first, as contacts store them.
#[inline]
pub(crate) fn pair_key(a: u32, b: u32) -> (u32, u32) {
    (a.min(b), a.max(b))
}

/// A map keyed by body pairs.
pub(crate) type PairMap<V> = HashMap<(u32, u32), V, BuildHasherDefault<PairHasher>>;

/// A set of body pairs.
pub(crate) type PairSet = HashSet<(u32, u32), BuildHasherDefault<PairHasher>>;

/// Contacts and their index by body pair `(a, b)` (keys as stored in the contact).
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Debug, Default)]
pub(crate) struct ContactSet {
    contacts: Vec<PairContact>,
    index: PairMap<usize>,
}

impl ContactSet {
    /// Checks contacts read from a snapshot against the bodies read with them: each pair is two
    /// different live bodies, lower key first, at least one dynamic; the index maps every pair
    /// to its own contact and nothing else; each contact's own data is sound
    /// (`PairContact::check_restored`).
    #[cfg(feature = "serde")]
    pub fn check_restored(&self, bodies: &super::body_set::BodySet) -> Result<(), String> {
        if self.index.len() != self.contacts.len() {
            return Err(format!(
                "{} index entries for {} contacts",
                self.index.len(),
                self.contacts.len()
            ));
        }
        for (k, c) in self.contacts.iter().enumerate() {
            let (Some(a), Some(b)) = (bodies.live(c.a), bodies.live(c.b)) else {
                return Err(format!(
                    "contact {k} names body {} or {}, which the world does not hold",
                    c.a, c.b
                ));
            };
            if c.a >= c.b || !(a.is_dynamic() || b.is_dynamic()) {
                return Err(format!(
                    "contact {k} pairs bodies {} and {}: two different bodies, lower first, one dynamic",
                    c.a, c.b
                ));
            }
            if self.index.get(&(c.a, c.b)) != Some(&k) {
                return Err(format!("the index does not lead to contact {k}"));
            }
            c.check_restored(a, b)
                .map_err(|e| format!("contact {k}: {e}"))?;
        }
        Ok(())
    }

    /// Number of contacts.
    pub fn len(&self) -> usize {
        self.contacts.len()
    }

    /// Whether the pair has a contact.
    pub fn contains(&self, a: u32, b: u32) -> bool {
        self.index.contains_key(&(a, b))
    }

    /// Adds a contact for an untracked pair.
    pub fn insert(&mut self, contact: PairContact) {
        self.index
            .insert((contact.a, contact.b), self.contacts.len());
        self.contacts.push(contact);
    }

    /// Removes contact `k` (the last contact takes its place), returning it.
    pub fn remove(&mut self, k: usize) -> PairContact {
        let c = self.contacts.swap_remove(k);
        self.index.remove(&(c.a, c.b));
        if let Some(moved) = self.contacts.get(k) {
            self.index.insert((moved.a, moved.b), k);
        }
        c
    }

    /// Removes every contact of body `key`.
    pub fn remove_involving(&mut self, key: u32) {
        let mut k = 0;
        while k < self.contacts.len() {
            let c = &self.contacts[k];
            if c.a == key || c.b == key {
                self.remove(k);
            } else {
                k += 1;
            }
        }
    }

    /// The contacts, in storage order.
    pub fn as_slice(&self) -> &[PairContact] {
        &self.contacts
    }

    /// The contacts, mutably (their pairs must not change).
    pub fn as_mut_slice(&mut self) -> &mut [PairContact] {
        &mut self.contacts
    }
}

/// The row offsets of an adjacency by body key (`key_bound` rows) over the undirected `pairs`:
/// `offsets[k]..offsets[k + 1]` is where body `k`'s partners go in a flat list of
/// `offsets[key_bound]` entries (each pair counts once in each of its two rows).
pub(crate) fn row_offsets(
    offsets: &mut Vec<u32>,
    key_bound: usize,
    pairs: impl Iterator<Item = (u32, u32)>,
) {
    offsets.clear();
    offsets.resize(key_bound + 1, 0);
    for (a, b) in pairs {
        offsets[a as usize + 1] += 1;
        offsets[b as usize + 1] += 1;
    }
    for k in 0..key_bound {
        offsets[k + 1] += offsets[k];
    }
}
