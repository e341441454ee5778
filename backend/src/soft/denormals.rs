//! Denormal flushing while shaders run. GPUs (and llvmpipe) treat 32-bit
//! denormals as zero: a product below the smallest normal float is 0, and a
//! denormal input reads as 0. The software driver matches them by setting the
//! x86-64 MXCSR flush-to-zero and denormals-are-zero bits for the duration of
//! a draw on every thread that runs shader code, and restoring the caller's
//! MXCSR afterwards. Other architectures keep IEEE denormals.

/// Sets FTZ and DAZ while alive; restores the previous MXCSR on drop.
pub struct FlushDenormals {
    #[cfg(target_arch = "x86_64")]
    saved: u32,
}

#[cfg(target_arch = "x86_64")]
const FTZ_DAZ: u32 = (1 << 15) | (1 << 6);

impl FlushDenormals {
    /// Starts flushing on the current thread.
    #[cfg(target_arch = "x86_64")]
    pub fn new() -> FlushDenormals {
        let saved = read_mxcsr();
        write_mxcsr(saved | FTZ_DAZ);
        FlushDenormals { saved }
    }

    /// Starts flushing on the current thread (no effect on this architecture).
    #[cfg(not(target_arch = "x86_64"))]
    pub fn new() -> FlushDenormals {
        FlushDenormals {}
    }
}

impl Default for FlushDenormals {
    fn default() -> Self {
        Self::new()
    }
}

impl Drop for FlushDenormals {
    fn drop(&mut self) {
        #[cfg(target_arch = "x86_64")]
        write_mxcsr(self.saved);
    }
}

#[cfg(target_arch = "x86_64")]
fn read_mxcsr() -> u32 {
    let mut value: u32 = 0;
    // SAFETY: `stmxcsr` stores the 32-bit MXCSR register to the given address,
    // which points at a live, aligned, writable u32.
    unsafe {
        std::arch::asm!("stmxcsr [{}]", in(reg) &mut value, options(nostack, preserves_flags));
    }
    value
}

#[cfg(target_arch = "x86_64")]
fn write_mxcsr(value: u32) {
    // SAFETY: `ldmxcsr` loads MXCSR from a live, aligned u32; the values written
    // are the saved register or it with only the FTZ and DAZ mode bits added,
    // which change rounding of denormals and raise no exceptions.
    unsafe {
        std::arch::asm!("ldmxcsr [{}]", in(reg) &value, options(nostack, preserves_flags, readonly));
    }
}

#[cfg(test)]
mod tests {
    use super::FlushDenormals;
    use std::hint::black_box;

    #[test]
    fn products_below_the_smallest_normal_flush_to_zero_only_inside_the_guard() {
        let (a, b) = (black_box(1.0e-20f32), black_box(1.0e-25f32));
        assert!(a * b > 0.0, "IEEE keeps the denormal product");
        {
            let _guard = FlushDenormals::new();
            let p = black_box(a) * black_box(b);
            if cfg!(target_arch = "x86_64") {
                assert_eq!(p, 0.0);
            }
        }
        assert!(
            black_box(a) * black_box(b) > 0.0,
            "the guard restores MXCSR"
        );
    }
}
