//! Processor features chosen at run time, and cache prefetch hints: the one
//! place in the crate that may use `unsafe`, and only to call code compiled
//! for a feature once the processor is known to have it, to read the
//! processor's identity (`cpuid`), or to issue a prefetch.
//!
//! Baseline x86-64 has no `popcnt` instruction, so `u64::count_ones`
//! compiles to a dozen instructions unless the whole program is built for a
//! newer processor. The exact cover search counts bits in its inner loop,
//! where the instruction matters (docs/performance.md has the figures).
//! The 9x9 engine's propagation runs a copy compiled for BMI2 and its kin
//! ([`BitManipulation`]).
//! The clause-learning solver's unit propagation waits on cache misses that
//! a prefetch a few clauses ahead overlaps.
#![allow(unsafe_code)]

/// Runs `f`, compiled for the `popcnt` instruction where the processor has
/// it. `f` must be a closure that the compiler inlines here (a call to a
/// function marked `#[inline(always)]`), or it is compiled without it.
#[inline(always)]
pub(crate) fn with_popcnt<R>(f: impl FnOnce() -> R) -> R {
    #[cfg(target_arch = "x86_64")]
    {
        // `unsafe fn` rather than a safe one with the feature, which needs
        // Rust 1.86: the crate supports 1.85.
        #[target_feature(enable = "popcnt")]
        unsafe fn popcnt<R>(f: impl FnOnce() -> R) -> R {
            f()
        }

        if std::arch::is_x86_feature_detected!("popcnt") {
            // SAFETY: the processor has the one feature `popcnt` is compiled for.
            return unsafe { popcnt(f) };
        }
    }
    f()
}

/// Proof that the processor has the bit-manipulation instructions of
/// x86-64's third level short of its vectors: BMI1 (`andn`, `blsr`), BMI2
/// (`pext`), `popcnt` and `lzcnt`. It is made only by
/// [`BitManipulation::detect`], so holding one is what makes running code
/// compiled for them sound.
///
/// The 9x9 engine's band update gathers a band's nine mini-rows into a
/// table index; with `pext` that is one instruction off a chain of
/// dependent shifts, and the other three shorten the rest of the update
/// (docs/performance.md, "The band update compiled for BMI2 at run time").
#[derive(Clone, Copy, Debug)]
pub(crate) struct BitManipulation(());

impl BitManipulation {
    /// The proof, where the processor has every one of the instructions.
    /// The answer is kept after the first call: it is asked at every
    /// propagation of the 9x9 engine.
    #[inline]
    pub(crate) fn detect() -> Option<BitManipulation> {
        use std::sync::atomic::{AtomicU8, Ordering};
        const UNKNOWN: u8 = 0;
        const ABSENT: u8 = 1;
        const PRESENT: u8 = 2;
        static KNOWN: AtomicU8 = AtomicU8::new(UNKNOWN);
        match KNOWN.load(Ordering::Relaxed) {
            PRESENT => Some(BitManipulation(())),
            ABSENT => None,
            _ => {
                let present = Self::processor_has_them();
                KNOWN.store(if present { PRESENT } else { ABSENT }, Ordering::Relaxed);
                present.then_some(BitManipulation(()))
            }
        }
    }

    #[cold]
    fn processor_has_them() -> bool {
        #[cfg(target_arch = "x86_64")]
        {
            std::arch::is_x86_feature_detected!("bmi1")
                && std::arch::is_x86_feature_detected!("bmi2")
                && std::arch::is_x86_feature_detected!("popcnt")
                && std::arch::is_x86_feature_detected!("lzcnt")
                && !pext_is_microcoded()
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            false
        }
    }

    /// Runs `f` compiled for the instructions. As with [`with_popcnt`], `f`
    /// must be a closure that the compiler inlines here, or it is compiled
    /// without them.
    #[inline(always)]
    #[expect(clippy::unused_self, reason = "`self` is the proof that the instructions exist")]
    pub(crate) fn run<R>(self, f: impl FnOnce() -> R) -> R {
        #[cfg(target_arch = "x86_64")]
        {
            #[target_feature(enable = "bmi1,bmi2,popcnt,lzcnt")]
            unsafe fn compiled_for_them<R>(f: impl FnOnce() -> R) -> R {
                f()
            }
            // SAFETY: `self` exists only where `detect` found every feature
            // this is compiled for.
            unsafe { compiled_for_them(f) }
        }
        #[cfg(not(target_arch = "x86_64"))]
        f()
    }

    /// The bits of `value` under `mask`, packed into the low bits in the
    /// mask's order: BMI2's `pext`.
    #[expect(clippy::inline_always, reason = "one instruction, in the band update's chain")]
    #[inline(always)]
    #[cfg_attr(target_arch = "x86_64", expect(clippy::unused_self, reason = "`self` is the proof that BMI2 exists"))]
    pub(crate) fn gather(self, value: u32, mask: u32) -> u32 {
        #[cfg(target_arch = "x86_64")]
        {
            // SAFETY: `self` exists only where `detect` found BMI2.
            unsafe { std::arch::x86_64::_pext_u32(value, mask) }
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            let _ = self;
            gather_bit_by_bit(value, mask)
        }
    }
}

/// Whether `pext` runs as microcode, one step per mask bit: on AMD's
/// processors before Zen 3 (families 17h, and Hygon's 18h), where it takes
/// tens to hundreds of cycles against three on Intel's since Haswell and
/// AMD's since Zen 3. The gather would then cost more than the shifts it
/// replaces.
#[cfg(target_arch = "x86_64")]
fn pext_is_microcoded() -> bool {
    use std::arch::x86_64::__cpuid;
    // SAFETY: every x86-64 processor has `cpuid` and its leaves 0 and 1.
    // (Safe to call in newer Rust; not at 1.85, the oldest this builds on.)
    #[allow(unused_unsafe)]
    let (vendor, signature) = unsafe { (__cpuid(0), __cpuid(1)) };
    let mut name = [0u8; 12];
    name[..4].copy_from_slice(&vendor.ebx.to_le_bytes());
    name[4..8].copy_from_slice(&vendor.edx.to_le_bytes());
    name[8..].copy_from_slice(&vendor.ecx.to_le_bytes());
    let base_family = (signature.eax >> 8) & 0xF;
    let family = if base_family == 0xF { base_family + ((signature.eax >> 20) & 0xFF) } else { base_family };
    matches!(&name, b"AuthenticAMD" | b"HygonGenuine") && family < 0x19
}

/// [`BitManipulation::gather`] one bit at a time: what `pext` does.
#[cfg(any(test, not(target_arch = "x86_64")))]
fn gather_bit_by_bit(value: u32, mask: u32) -> u32 {
    let (mut packed, mut mask, mut next) = (0, mask, 1);
    while mask != 0 {
        if value & mask & mask.wrapping_neg() != 0 {
            packed |= next;
        }
        mask &= mask - 1;
        next <<= 1;
    }
    packed
}

/// Asks the processor to bring the cache line of `data` in, without
/// waiting for it: a hint, which reads nothing the program sees.
#[inline]
pub(crate) fn prefetch<T>(data: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch faults on no address, and this one is of a reference.
    unsafe {
        std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(std::ptr::from_ref(data).cast::<i8>());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = data;
}

#[cfg(test)]
mod tests {
    use super::{BitManipulation, gather_bit_by_bit, with_popcnt};

    #[test]
    fn pext_gathers_the_masked_bits_in_order() {
        assert_eq!(gather_bit_by_bit(0b1011_0110, 0b1111_0000), 0b1011);
        assert_eq!(gather_bit_by_bit(0b1011_0110, 0b0101_0101), 0b0110);
        assert_eq!(gather_bit_by_bit(u32::MAX, 0x8000_0001), 0b11);
        let Some(instructions) = BitManipulation::detect() else { return };
        let mut noise = 0x1234_5678_u32;
        for _ in 0..10_000 {
            noise ^= noise << 13;
            noise ^= noise >> 17;
            noise ^= noise << 5;
            let (value, mask) = (noise, noise.rotate_left(11) & noise.rotate_left(3));
            assert_eq!(instructions.gather(value, mask), gather_bit_by_bit(value, mask), "{value:#x} under {mask:#x}");
        }
    }

    #[test]
    fn the_closure_s_answer_comes_back_whichever_way_it_runs() {
        for x in [0u64, 1, u64::MAX, 0x8000_0000_0000_0001, 0x5555_5555_5555_5555] {
            assert_eq!(with_popcnt(|| x.count_ones()), x.count_ones());
        }
        let mut calls = 0;
        with_popcnt(|| calls += 1);
        assert_eq!(calls, 1, "run exactly once");
    }
}
