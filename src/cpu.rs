//! Processor features chosen at run time, and cache prefetch hints: the one
//! place in the crate that may use `unsafe`, and only to call code compiled
//! for a feature once the processor is known to have it, or to issue a
//! prefetch.
//!
//! Baseline x86-64 has no `popcnt` instruction, so `u64::count_ones`
//! compiles to a dozen instructions unless the whole program is built for a
//! newer processor. The exact cover search counts bits in its inner loop,
//! where the instruction matters (docs/performance.md has the figures).
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
    use super::with_popcnt;

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
