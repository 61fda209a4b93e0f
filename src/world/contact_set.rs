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
