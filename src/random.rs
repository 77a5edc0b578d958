//! [`SplitMix64`]: the seeded random numbers of the crate's shuffled
//! searches and of the puzzle generator.

/// A small, fast generator of pseudo-random numbers, the same on every
/// machine: good enough to spread a search or shuffle cells, not meant for
/// anything secret.
#[derive(Clone, Debug)]
pub(crate) struct SplitMix64(u64);

impl SplitMix64 {
    pub(crate) const fn new(seed: u64) -> SplitMix64 {
        SplitMix64(seed)
    }

    pub(crate) fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number below `bound` (which must not be 0), by Lemire's
    /// multiply-shift: no division, and a bias too small to matter here.
    pub(crate) fn below(&mut self, bound: usize) -> usize {
        let wide = u128::from(self.next_u64()) * u128::from(u64::try_from(bound).unwrap_or(u64::MAX));
        usize::try_from(wide >> 64).expect("below bound")
    }

    /// Fisher-Yates: every order equally likely.
    pub(crate) fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i + 1);
            items.swap(i, j);
        }
    }
}
