//! The world's contacts: one [`PairContact`] per pair of bodies whose proxies overlap, stored
//! densely with an index by pair (the set of tracked pairs).
//!
//! The storage is split in two: the *active* contacts first, then the *parked* ones, whose two
//! bodies both rest (static or asleep), parked by the sleep stage of a step in which an island fell
//! asleep, a contact was made between resting bodies (bodies created asleep) or a call put bodies
//! to sleep (`ContactSet::request_park`). Nothing in a step changes a parked contact (neither body
//! moves, so its proxies, manifold and impulses stand), so the step's passes over contacts read
//! only the active ones, and a sleeping pile costs nothing per contact (Box2D v3 moves a sleeping
//! island's contacts into its sleeping solver set). When one of its bodies starts moving again the
//! contact goes back to the active ones (`ContactSet::unpark`).
//!
//! Each body key also lists its partners (the other body of each of its contacts), so that
//! removing a body's contacts, or waking what it touches, costs its own contacts and not a pass
//! over the whole storage (a ragdoll removed from a world of 30,000 contacts).

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
    /// The active contacts, then the `parked` ones.
    contacts: Vec<PairContact>,
    index: PairMap<usize>,
    /// How many contacts, at the end of `contacts`, are parked.
    parked: usize,
    /// Some active contact may rest on both sides (an island fell asleep, a contact was made
    /// between resting bodies, a call put bodies to sleep): the sleep stage parks.
    park_due: bool,
    /// By body key, the other key of each of the body's contacts, in no set order. Derived from
    /// `contacts` (rebuilt after a restore, `ContactSet::rebuild_partners`).
    #[cfg_attr(feature = "serde", serde(skip))]
    partners: Vec<Vec<u32>>,
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
        if self.parked > self.contacts.len() {
            return Err(format!(
                "{} parked contacts of {}",
                self.parked,
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
            if k >= self.active_len() && !(a.is_resting() && b.is_resting()) {
                return Err(format!(
                    "contact {k} is parked, but one of its bodies {} and {} moves",
                    c.a, c.b
                ));
            }
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

    /// Adds a contact for an untracked pair, among the active ones.
    pub fn insert(&mut self, contact: PairContact) {
        self.link(contact.a, contact.b);
        self.index
            .insert((contact.a, contact.b), self.contacts.len());
        self.contacts.push(contact);
        if self.parked > 0 {
            self.swap(self.contacts.len() - 1, self.active_len() - 1);
        }
    }

    /// Removes contact `k`, returning it. An active contact's place is taken by the last active
    /// contact (whose place the last parked one takes); a parked one's by the last contact.
    /// Without parked contacts: the last contact takes its place.
    pub fn remove(&mut self, k: usize) -> PairContact {
        if k < self.active_len() {
            let last_active = self.active_len() - 1;
            self.swap(k, last_active);
            // The contact is now the first parked one: removed as a parked contact.
            self.parked += 1;
            return self.remove(last_active);
        }
        self.parked -= 1;
        let c = self.contacts.swap_remove(k);
        self.index.remove(&(c.a, c.b));
        self.unlink(c.a, c.b);
        if let Some(moved) = self.contacts.get(k) {
            self.index.insert((moved.a, moved.b), k);
        }
        c
    }

    /// Swaps contacts `i` and `j` in the storage, with their index entries.
    fn swap(&mut self, i: usize, j: usize) {
        if i == j {
            return;
        }
        self.contacts.swap(i, j);
        for k in [i, j] {
            let c = &self.contacts[k];
            self.index.insert((c.a, c.b), k);
        }
    }

    /// Lists `a` and `b` as each other's partners.
    fn link(&mut self, a: u32, b: u32) {
        let top = a.max(b) as usize;
        if self.partners.len() <= top {
            self.partners.resize_with(top + 1, Vec::new);
        }
        self.partners[a as usize].push(b);
        self.partners[b as usize].push(a);
    }

    /// Drops `a` and `b` from each other's partners (where still listed).
    fn unlink(&mut self, a: u32, b: u32) {
        for (x, y) in [(a, b), (b, a)] {
            if let Some(list) = self.partners.get_mut(x as usize) {
                if let Some(i) = list.iter().position(|&p| p == y) {
                    list.swap_remove(i);
                }
            }
        }
    }

    /// The keys of the bodies body `key` has a contact with, in no set order.
    pub fn partners_of(&self, key: u32) -> &[u32] {
        self.partners.get(key as usize).map_or(&[], Vec::as_slice)
    }

    /// The index of the contact of the pair, if it has one.
    pub fn index_of(&self, a: u32, b: u32) -> Option<usize> {
        self.index.get(&pair_key(a, b)).copied()
    }

    /// Lists every contact's bodies as partners again (after a restore: the lists are not part of
    /// a snapshot).
    #[cfg(feature = "serde")]
    pub fn rebuild_partners(&mut self) {
        self.partners.clear();
        for k in 0..self.contacts.len() {
            let (a, b) = (self.contacts[k].a, self.contacts[k].b);
            self.link(a, b);
        }
    }

    /// Removes every contact of body `key`, in the order a scan of the storage from the start
    /// would meet them (each removal moves up to two other contacts; where the body's others go
    /// is followed), so the storage ends as that scan would leave it, at the cost of the body's
    /// own contacts (and a logarithm of their number).
    pub fn remove_involving(&mut self, key: u32) {
        let Some(list) = self.partners.get_mut(key as usize) else {
            return;
        };
        let partners = std::mem::take(list);
        // Where the body's contacts are, smallest first.
        let mut at: std::collections::BTreeSet<usize> = partners
            .iter()
            .map(|&p| self.index[&pair_key(key, p)])
            .collect();
        while let Some(k) = at.pop_first() {
            let (first_parked, last) = (self.active_len(), self.contacts.len() - 1);
            let active = k < first_parked;
            self.remove(k);
            if active {
                // The last active contact takes `k`, and the last contact takes its place.
                let last_active = first_parked - 1;
                let moved_active = at.remove(&last_active);
                let moved_last = last != last_active && at.remove(&last);
                if moved_active {
                    at.insert(k);
                }
                if moved_last {
                    at.insert(last_active);
                }
            } else if at.remove(&last) {
                at.insert(k); // the last contact takes `k`
            }
        }
    }

    /// Number of active contacts (the first ones of [`ContactSet::as_slice`]).
    pub fn active_len(&self) -> usize {
        self.contacts.len() - self.parked
    }

    /// The active contacts, in storage order (a contact's index here is its index in
    /// [`ContactSet::as_slice`]).
    pub fn active(&self) -> &[PairContact] {
        &self.contacts[..self.active_len()]
    }

    /// The active contacts, mutably (their pairs must not change).
    pub fn active_mut(&mut self) -> &mut [PairContact] {
        let n = self.active_len();
        &mut self.contacts[..n]
    }

    /// Asks the sleep stage's next [`ContactSet::park_if_due`] to park.
    pub fn request_park(&mut self) {
        self.park_due = true;
    }

    /// When a park was asked for, parks every active contact both of whose bodies `rests` (see
    /// the module notes): its place among the active contacts is taken by the last active one.
    pub fn park_if_due(&mut self, rests: impl Fn(u32) -> bool) {
        if !std::mem::take(&mut self.park_due) {
            return;
        }
        for k in (0..self.active_len()).rev() {
            let c = &self.contacts[k];
            if rests(c.a) && rests(c.b) {
                self.swap(k, self.active_len() - 1);
                self.parked += 1;
            }
        }
    }

    /// Makes active again every parked contact one of whose bodies `moves`: it takes the first
    /// parked place, whose contact goes to its own. Costs the number of parked contacts.
    pub fn unpark(&mut self, moves: impl Fn(u32) -> bool) {
        for k in self.active_len()..self.contacts.len() {
            let c = &self.contacts[k];
            if moves(c.a) || moves(c.b) {
                self.swap(k, self.active_len());
                self.parked -= 1;
            }
        }
    }

    /// Number of parked contacts.
    pub fn parked_len(&self) -> usize {
        self.parked
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

/// For tests: a contact set over `bodies` body keys with up to `tries` random pairs (drawn with
/// `next(n)`, uniform in `0..n`; repeats and a body with itself skipped), in the order drawn.
#[cfg(test)]
pub(crate) fn random_contacts(
    next: &mut impl FnMut(u32) -> u32,
    bodies: u32,
    tries: u32,
) -> ContactSet {
    use crate::dynamics::body::PairFilter;
    use crate::dynamics::contact::ContactMixing;
    use crate::dynamics::MixingRule;
    let mixing = ContactMixing {
        friction: MixingRule::GeometricMean,
        restitution: MixingRule::Max,
    };
    let mut set = ContactSet::default();
    for _ in 0..tries {
        let (a, b) = (next(bodies), next(bodies));
        if a != b && !set.contains(a.min(b), a.max(b)) {
            set.insert(PairContact::new(
                a.min(b),
                a.max(b),
                PairFilter::All,
                mixing,
            ));
        }
    }
    set
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The removal the partner lists replace: a scan of the storage from the start that removes
    /// each of the body's contacts where it meets it.
    fn remove_by_scan(set: &mut ContactSet, key: u32) {
        let mut k = 0;
        while k < set.contacts.len() {
            let c = &set.contacts[k];
            if c.a == key || c.b == key {
                set.remove(k);
            } else {
                k += 1;
            }
        }
    }

    fn pairs(set: &ContactSet) -> Vec<(u32, u32)> {
        set.contacts.iter().map(|c| (c.a, c.b)).collect()
    }

    /// Every contact listed under both its bodies, and nothing else listed.
    fn assert_partners_match(set: &ContactSet, bodies: u32, case: usize) {
        for k in 0..bodies {
            let mut expected: Vec<u32> = set
                .contacts
                .iter()
                .filter_map(|c| match (c.a == k, c.b == k) {
                    (true, _) => Some(c.b),
                    (_, true) => Some(c.a),
                    _ => None,
                })
                .collect();
            let mut got = set.partners_of(k).to_vec();
            expected.sort_unstable();
            got.sort_unstable();
            assert_eq!(got, expected, "case {case}, body {k}");
        }
    }

    /// Random contact sets of up to 40 bodies, some contacts parked, bodies removed one after
    /// another: removing through the partner lists leaves the storage (order included), the
    /// index and the parked count exactly as the scan does, and the lists stay those of the
    /// contacts. Fails if a removal is missed, done in another order, or a list goes stale.
    #[test]
    fn removing_a_bodys_contacts_through_its_partners_matches_a_storage_scan() {
        let mut word = crate::math::xorshift64(0x2545_f491_4f6c_dd1d);
        let mut next = |n: u32| (word() % u64::from(n)) as u32;
        let (mut removed_contacts, mut parked_cases) = (0, 0);
        for case in 0..200 {
            let bodies = 2 + next(40);
            let tries = next(300);
            let mut set = random_contacts(&mut next, bodies, tries);
            // Park the contacts of a random set of resting bodies (the sleep stage's rule).
            let resting: Vec<bool> = (0..bodies).map(|_| next(3) == 0).collect();
            set.request_park();
            set.park_if_due(|k| resting[k as usize]);
            parked_cases += usize::from(set.parked_len() > 0);
            assert_partners_match(&set, bodies, case);
            for _ in 0..1 + next(5) {
                let key = next(bodies);
                let mut reference = set.clone();
                let before = set.len();
                remove_by_scan(&mut reference, key);
                set.remove_involving(key);
                removed_contacts += before - set.len();
                assert_eq!(pairs(&set), pairs(&reference), "case {case}, body {key}");
                assert_eq!(set.parked_len(), reference.parked_len());
                for (k, c) in set.contacts.iter().enumerate() {
                    assert_eq!(set.index_of(c.a, c.b), Some(k));
                }
                assert_eq!(set.index.len(), set.contacts.len());
                assert!(set.partners_of(key).is_empty());
                assert_partners_match(&set, bodies, case);
            }
        }
        assert!(
            removed_contacts > 2_000,
            "{removed_contacts} contacts removed"
        );
        assert!(
            parked_cases > 100,
            "{parked_cases} cases with parked contacts"
        );
    }
}
