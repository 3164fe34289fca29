//! A minimal perfect-hash index over rule names ("hash and displace"), built by `build.rs` for
//! the embedded tables so that looking a name up needs no table built at run time.
//!
//! Keys hash to a bucket; each bucket stores a displacement pair `(d1, d2)` chosen at build time
//! so that every key lands in its own slot: `slot = (f1 + d1 * f2 + d2) % slots.len()`. A lookup
//! hashes the name once and compares it with the one candidate row.

/// A perfect-hash index: name -> row number.
#[derive(Debug)]
pub struct Index {
    /// Hash seed that made every bucket placeable.
    pub seed: u64,
    /// Displacements per bucket.
    pub disps: &'static [(u32, u32)],
    /// Row number per slot (`u32::MAX` for an empty slot).
    pub slots: &'static [u32],
}

/// The three hash parts of a key: bucket selector and the two slot hashes.
#[inline]
pub fn hash(key: &[u8], seed: u64) -> (u32, u32, u32) {
    const K: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut h = seed ^ (key.len() as u64).wrapping_mul(K);
    let mut chunks = key.chunks_exact(8);
    for c in &mut chunks {
        let mut w = [0u8; 8];
        w.copy_from_slice(c);
        h = (h ^ u64::from_le_bytes(w)).wrapping_mul(K).rotate_left(31);
    }
    let rest = chunks.remainder();
    if !rest.is_empty() {
        let mut w = [0u8; 8];
        w[..rest.len()].copy_from_slice(rest);
        h = (h ^ u64::from_le_bytes(w)).wrapping_mul(K).rotate_left(31);
    }
    // Final avalanche (murmur3's fmix64).
    h ^= h >> 33;
    h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
    h ^= h >> 33;
    h = h.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    h ^= h >> 33;
    let g = (h >> 42) as u32;
    let f1 = h as u32;
    let f2 = ((h >> 21) as u32) | 1;
    (g, f1, f2)
}

#[inline]
fn slot(f1: u32, f2: u32, d: (u32, u32), n: usize) -> usize {
    (f1.wrapping_add(d.0.wrapping_mul(f2)).wrapping_add(d.1) as usize) % n
}

impl Index {
    /// The row that may hold `key`; the caller compares the row's key (a perfect hash maps
    /// unknown names to some row too).
    #[inline]
    pub fn candidate(&self, key: &str) -> Option<usize> {
        if self.slots.is_empty() {
            return None;
        }
        let (g, f1, f2) = hash(key.as_bytes(), self.seed);
        let d = self.disps[g as usize % self.disps.len()];
        let row = self.slots[slot(f1, f2, d, self.slots.len())];
        (row != u32::MAX).then_some(row as usize)
    }
}

/// Builds the index for `keys` (distinct): `(seed, displacements, slots)`.
#[allow(dead_code)] // used by build.rs only
pub fn build(keys: &[&str]) -> (u64, Vec<(u32, u32)>, Vec<u32>) {
    let n = keys.len();
    if n == 0 {
        return (0, vec![(0, 0)], Vec::new());
    }
    let buckets = n.div_ceil(4);
    let slots_len = n;
    'seed: for seed in 0u64.. {
        let hashes: Vec<(u32, u32, u32)> = keys.iter().map(|k| hash(k.as_bytes(), seed)).collect();
        let mut by_bucket: Vec<Vec<usize>> = vec![Vec::new(); buckets];
        for (i, h) in hashes.iter().enumerate() {
            by_bucket[h.0 as usize % buckets].push(i);
        }
        let mut order: Vec<usize> = (0..buckets).collect();
        order.sort_by_key(|&b| std::cmp::Reverse(by_bucket[b].len()));
        let mut disps = vec![(0u32, 0u32); buckets];
        let mut slots = vec![u32::MAX; slots_len];
        let mut taken: Vec<usize> = Vec::new();
        for b in order {
            let members = &by_bucket[b];
            if members.is_empty() {
                continue;
            }
            let mut placed = false;
            'search: for d1 in 0..slots_len as u32 {
                'd2: for d2 in 0..slots_len.min(64) as u32 {
                    taken.clear();
                    for &i in members {
                        let s = slot(hashes[i].1, hashes[i].2, (d1, d2), slots_len);
                        if slots[s] != u32::MAX || taken.contains(&s) {
                            continue 'd2;
                        }
                        taken.push(s);
                    }
                    for (&i, &s) in members.iter().zip(&taken) {
                        slots[s] = i as u32;
                    }
                    disps[b] = (d1, d2);
                    placed = true;
                    break 'search;
                }
            }
            if !placed {
                continue 'seed;
            }
        }
        return (seed, disps, slots);
    }
    unreachable!("some seed places every key")
}
