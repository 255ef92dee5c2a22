//! The host CPU's microarchitecture, from CPUID family/model (public model numbers: Intel
//! SDM Vol. 4 "Processor signatures", AMD Processor Programming Reference family 17h/19h).

/// Decoded CPUID signature.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Signature {
    /// `GenuineIntel` (true) or `AuthenticAMD` (false); other vendors are not mapped.
    pub intel: bool,
    /// Display family (base + extended).
    pub family: u32,
    /// Display model (extended model << 4 | model).
    pub model: u32,
    /// Stepping.
    pub stepping: u32,
}

/// The uops.info arch name of a CPUID signature, when known.
pub fn arch_of(sig: Signature) -> Option<&'static str> {
    if sig.intel {
        if sig.family != 6 {
            return None;
        }
        Some(match sig.model {
            0x1A | 0x1E | 0x1F | 0x2E => "NHM",
            0x25 | 0x2C | 0x2F => "WSM",
            0x2A | 0x2D => "SNB",
            0x3A | 0x3E => "IVB",
            0x3C | 0x3F | 0x45 | 0x46 => "HSW",
            0x3D | 0x47 | 0x4F | 0x56 => "BDW",
            0x4E | 0x5E => "SKL",
            0x55 if sig.stepping >= 5 => "CLX",
            0x55 => "SKX",
            0x8E | 0x9E if sig.stepping <= 9 => "KBL",
            0x8E | 0x9E | 0xA5 | 0xA6 => "CFL",
            0x7D | 0x7E | 0x6A | 0x6C => "ICL",
            0x8C | 0x8D => "TGL",
            0xA7 => "RKL",
            0x97 | 0x9A | 0xB7 | 0xBA | 0xBF => "ADL-P",
            _ => return None,
        })
    } else {
        Some(match (sig.family, sig.model) {
            (0x17, 0x01 | 0x08 | 0x11 | 0x18) => "ZEN+",
            (0x17, 0x31 | 0x47 | 0x60 | 0x68 | 0x71 | 0x90 | 0x98 | 0xA0) => "ZEN2",
            (0x19, 0x00..=0x0F | 0x20..=0x5F) => "ZEN3",
            (0x19, 0x10..=0x1F | 0x60..=0x7F | 0xA0..=0xAF) => "ZEN4",
            _ => return None,
        })
    }
}

/// The host's CPUID signature (x86-64 only).
pub fn signature() -> Option<Signature> {
    #[cfg(target_arch = "x86_64")]
    {
        use core::arch::x86_64::__cpuid;
        let v = __cpuid(0);
        let mut vendor = [0u8; 12];
        vendor[..4].copy_from_slice(&v.ebx.to_le_bytes());
        vendor[4..8].copy_from_slice(&v.edx.to_le_bytes());
        vendor[8..].copy_from_slice(&v.ecx.to_le_bytes());
        let intel = match &vendor {
            b"GenuineIntel" => true,
            b"AuthenticAMD" => false,
            _ => return None,
        };
        let eax = __cpuid(1).eax;
        let base_family = (eax >> 8) & 0xF;
        let family = if base_family == 0xF {
            base_family + ((eax >> 20) & 0xFF)
        } else {
            base_family
        };
        let model = if base_family == 0x6 || base_family == 0xF {
            (((eax >> 16) & 0xF) << 4) | ((eax >> 4) & 0xF)
        } else {
            (eax >> 4) & 0xF
        };
        Some(Signature {
            intel,
            family,
            model,
            stepping: eax & 0xF,
        })
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        None
    }
}

/// The host's arch name, when known.
pub fn detect() -> Option<&'static str> {
    signature().and_then(arch_of)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_signatures() {
        let amd = |family, model| Signature {
            intel: false,
            family,
            model,
            stepping: 1,
        };
        assert_eq!(arch_of(amd(0x19, 0x11)), Some("ZEN4"));
        assert_eq!(arch_of(amd(0x19, 0x21)), Some("ZEN3"));
        assert_eq!(arch_of(amd(0x17, 0x71)), Some("ZEN2"));
        let intel = |model, stepping| Signature {
            intel: true,
            family: 6,
            model,
            stepping,
        };
        assert_eq!(arch_of(intel(0x2A, 7)), Some("SNB"));
        assert_eq!(arch_of(intel(0x9E, 10)), Some("CFL"));
        assert_eq!(arch_of(intel(0x9E, 9)), Some("KBL"));
        assert_eq!(arch_of(intel(0x55, 7)), Some("CLX"));
        assert_eq!(arch_of(intel(0x01, 0)), None);
    }
}
