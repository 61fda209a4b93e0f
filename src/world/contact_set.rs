//! The world's contacts: one [`PairContact`] per pair of bodies whose proxies overlap, stored
//! densely with an index by pair (the set of tracked pairs).

use crate::dynamics::contact::PairContact;
use std::collections::HashMap;

/// Contacts and their index by body pair `(a, b)` (keys as stored in the contact).
#[derive(Clone, Debug, Default)]
pub(crate) struct ContactSet {
    contacts: Vec<PairContact>,
    index: HashMap<(u32, u32), usize>,
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

    /// The contact of a pair, if tracked (`a < b`).
    pub fn find(&self, a: u32, b: u32) -> Option<&PairContact> {
        self.index.get(&(a, b)).map(|&k| &self.contacts[k])
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
