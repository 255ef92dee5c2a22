//! Host CPU features from raw CPUID words, in iced-x86's [`CpuidFeature`] terms.

use iced_x86::CpuidFeature;

/// Host CPU features, from raw CPUID.
#[derive(Clone, Debug, Default)]
pub struct HostFeatures {
    /// Supported iced features.
    pub supported: std::collections::HashSet<CpuidFeature>,
}

impl HostFeatures {
    /// Builds the set from CPUID words (leaf → [eax, ebx, ecx, edx]).
    pub fn from_cpuid(q: &dyn Fn(u32, u32) -> [u32; 4]) -> Self {
        use CpuidFeature as F;
        let bit = |w: u32, b: u32| w >> b & 1 == 1;
        let max = q(0, 0)[0];
        let maxe = q(0x8000_0000, 0)[0];
        let l1 = q(1, 0);
        let l7 = if max >= 7 { q(7, 0) } else { [0; 4] };
        let l71 = if max >= 7 { q(7, 1) } else { [0; 4] };
        let ld1 = if max >= 0xD { q(0xD, 1) } else { [0; 4] };
        let e1 = if maxe >= 0x8000_0001 {
            q(0x8000_0001, 0)
        } else {
            [0; 4]
        };
        let e8 = if maxe >= 0x8000_0008 {
            q(0x8000_0008, 0)
        } else {
            [0; 4]
        };
        let (c1, d1) = (l1[2], l1[3]);
        let (b7, c7, d7) = (l7[1], l7[2], l7[3]);
        let mut s = std::collections::HashSet::new();
        let mut put = |f: F, on: bool| {
            if on {
                s.insert(f);
            }
        };
        for f in [
            F::INTEL8086,
            F::INTEL186,
            F::INTEL286,
            F::INTEL386,
            F::INTEL486,
            F::X64,
            F::CPUID,
            F::MULTIBYTENOP,
            F::PAUSE,
        ] {
            put(f, true);
        }
        put(F::SSE3, bit(c1, 0));
        put(F::PCLMULQDQ, bit(c1, 1));
        put(F::MONITOR, bit(c1, 3));
        put(F::SSSE3, bit(c1, 9));
        put(F::FMA, bit(c1, 12));
        put(F::CMPXCHG16B, bit(c1, 13));
        put(F::SSE4_1, bit(c1, 19));
        put(F::SSE4_2, bit(c1, 20));
        put(F::MOVBE, bit(c1, 22));
        put(F::POPCNT, bit(c1, 23));
        put(F::AES, bit(c1, 25));
        put(F::XSAVE, bit(c1, 26));
        put(F::AVX, bit(c1, 28));
        put(F::F16C, bit(c1, 29));
        put(F::RDRAND, bit(c1, 30));
        put(F::FPU, bit(d1, 0));
        put(F::TSC, bit(d1, 4));
        put(F::CX8, bit(d1, 8));
        put(F::CMOV, bit(d1, 15));
        put(F::CLFSH, bit(d1, 19));
        put(F::MMX, bit(d1, 23));
        put(F::FXSR, bit(d1, 24));
        put(F::SSE, bit(d1, 25));
        put(F::SSE2, bit(d1, 26));
        put(F::FSGSBASE, bit(b7, 0));
        put(F::BMI1, bit(b7, 3));
        put(F::HLE, bit(b7, 4));
        put(F::AVX2, bit(b7, 5));
        put(F::BMI2, bit(b7, 8));
        put(F::RTM, bit(b7, 11));
        put(F::AVX512F, bit(b7, 16));
        put(F::AVX512DQ, bit(b7, 17));
        put(F::RDSEED, bit(b7, 18));
        put(F::ADX, bit(b7, 19));
        put(F::AVX512_IFMA, bit(b7, 21));
        put(F::CLFLUSHOPT, bit(b7, 23));
        put(F::CLWB, bit(b7, 24));
        put(F::AVX512CD, bit(b7, 28));
        put(F::SHA, bit(b7, 29));
        put(F::AVX512BW, bit(b7, 30));
        put(F::AVX512VL, bit(b7, 31));
        put(F::AVX512_VBMI, bit(c7, 1));
        put(F::PKU, bit(c7, 3));
        put(F::AVX512_VBMI2, bit(c7, 6));
        put(F::GFNI, bit(c7, 8));
        put(F::VAES, bit(c7, 9));
        put(F::VPCLMULQDQ, bit(c7, 10));
        put(F::AVX512_VNNI, bit(c7, 11));
        put(F::AVX512_BITALG, bit(c7, 12));
        put(F::AVX512_VPOPCNTDQ, bit(c7, 14));
        put(F::RDPID, bit(c7, 22));
        put(F::MOVDIRI, bit(c7, 27));
        put(F::MOVDIR64B, bit(c7, 28));
        put(F::AVX512_VP2INTERSECT, bit(d7, 8));
        put(F::SERIALIZE, bit(d7, 14));
        put(F::AVX512_FP16, bit(d7, 23));
        put(F::AVX_VNNI, bit(l71[0], 4));
        put(F::AVX512_BF16, bit(l71[0], 5));
        put(F::XSAVEOPT, bit(ld1[0], 0));
        put(F::XSAVEC, bit(ld1[0], 1));
        put(F::XSAVES, bit(ld1[0], 3));
        put(F::LZCNT, bit(e1[2], 5));
        put(F::SSE4A, bit(e1[2], 6));
        put(F::PREFETCHW, bit(e1[2], 8));
        put(F::XOP, bit(e1[2], 11));
        put(F::FMA4, bit(e1[2], 16));
        put(F::TBM, bit(e1[2], 21));
        put(F::MONITORX, bit(e1[2], 29));
        put(F::SYSCALL, bit(e1[3], 11));
        put(F::RDTSCP, bit(e1[3], 27));
        put(F::CLZERO, bit(e8[1], 0));
        put(F::RDPRU, bit(e8[1], 4));
        put(F::WBNOINVD, bit(e8[1], 9));
        HostFeatures { supported: s }
    }

    /// The running host.
    #[cfg(all(target_arch = "x86_64", target_os = "linux"))]
    pub fn detect() -> Self {
        Self::from_cpuid(&|l, s| super::super::jit::cpuid(l, s))
    }

    /// Whether every feature is supported; otherwise the first missing one.
    pub fn check(&self, feats: &[CpuidFeature]) -> Result<(), CpuidFeature> {
        for f in feats {
            if !self.supported.contains(f) {
                return Err(*f);
            }
        }
        Ok(())
    }
}
