//! Storage locations: canonical registers, high-8 registers and single RFLAGS bits.

use bitflags::bitflags;
use iced_x86::Register;

/// One RFLAGS bit that dependencies are tracked for (SUACA thesis §2.4: flags separately).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Flag {
    /// Carry flag.
    CF,
    /// Parity flag.
    PF,
    /// Auxiliary carry flag.
    AF,
    /// Zero flag.
    ZF,
    /// Sign flag.
    SF,
    /// Overflow flag.
    OF,
    /// Direction flag.
    DF,
}

impl Flag {
    /// All tracked flags in a fixed order.
    pub const ALL: [Flag; 7] = [
        Flag::CF,
        Flag::PF,
        Flag::AF,
        Flag::ZF,
        Flag::SF,
        Flag::OF,
        Flag::DF,
    ];

    /// Lower-case name as used in graph labels (`cf`, `zf`, ...).
    pub fn name(self) -> &'static str {
        match self {
            Flag::CF => "cf",
            Flag::PF => "pf",
            Flag::AF => "af",
            Flag::ZF => "zf",
            Flag::SF => "sf",
            Flag::OF => "of",
            Flag::DF => "df",
        }
    }

    /// The single-bit set of this flag.
    pub fn set(self) -> FlagSet {
        match self {
            Flag::CF => FlagSet::CF,
            Flag::PF => FlagSet::PF,
            Flag::AF => FlagSet::AF,
            Flag::ZF => FlagSet::ZF,
            Flag::SF => FlagSet::SF,
            Flag::OF => FlagSet::OF,
            Flag::DF => FlagSet::DF,
        }
    }
}

bitflags! {
    /// A set of RFLAGS bits.
    #[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
    pub struct FlagSet: u8 {
        /// Carry.
        const CF = 1 << 0;
        /// Parity.
        const PF = 1 << 1;
        /// Auxiliary carry.
        const AF = 1 << 2;
        /// Zero.
        const ZF = 1 << 3;
        /// Sign.
        const SF = 1 << 4;
        /// Overflow.
        const OF = 1 << 5;
        /// Direction.
        const DF = 1 << 6;
    }
}

impl FlagSet {
    /// The flags of this set, in [`Flag::ALL`] order.
    pub fn flags(self) -> impl Iterator<Item = Flag> {
        Flag::ALL
            .into_iter()
            .filter(move |f| self.contains(f.set()))
    }
}

/// A location whose last writer the dependency analysis tracks.
///
/// General-purpose registers are tracked as their full 64-bit register (`EAX`, `AX`, `AL` are
/// all `Reg(RAX)`), except bits 8..15 of RAX..RDX, which are `High8(RAX)` so that `AH` and
/// `AL` writers are told apart. Vector registers are tracked as their full ZMM register.
/// Other registers (mask, segment, MXCSR-like state) use iced's full register.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Loc {
    /// A full architectural register (iced `Register::full_register()`).
    Reg(Register),
    /// Bits 8..15 (AH, BH, CH, DH) of the named full register (RAX, RBX, RCX, RDX).
    High8(Register),
    /// One RFLAGS bit.
    Flag(Flag),
}

impl Loc {
    /// Short label for graph edges and reports (`rax`, `ah`, `zf`, `zmm3`): the full
    /// register. [`crate::ir::Instr::read_label`] names a vector register as an instruction
    /// uses it (`xmm3`).
    pub fn label(self) -> String {
        match self {
            Loc::Reg(r) => format!("{r:?}").to_lowercase(),
            Loc::High8(r) => match r {
                Register::RAX => "ah".into(),
                Register::RBX => "bh".into(),
                Register::RCX => "ch".into(),
                Register::RDX => "dh".into(),
                other => format!("{other:?}h").to_lowercase(),
            },
            Loc::Flag(f) => f.name().into(),
        }
    }
}
