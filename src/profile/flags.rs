//! The integer flags a loop's exit test computes and the condition its back branch tests:
//! just enough x86 semantics (`add`/`sub`/`cmp`/`test`/`inc`/`dec` at 8–64 bits) to check
//! that chosen initial values run a loop exactly N times (`trip`).
//!
//! Pure, unit-tested on every host.

use iced_x86::Mnemonic;

/// The flags a condition may test. `cf` is `None` after `inc`/`dec`, which leave it as it
/// was (a loop testing it then depends on code outside the region).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Flags {
    /// Zero.
    pub zf: bool,
    /// Sign.
    pub sf: bool,
    /// Carry (borrow for subtraction).
    pub cf: Option<bool>,
    /// Signed overflow.
    pub of: bool,
}

fn mask(bits: u32) -> u64 {
    if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    }
}

fn sign(v: u64, bits: u32) -> bool {
    (v >> (bits.min(64) - 1)) & 1 == 1
}

/// Flags of `a - b` (`sub`, `cmp`) at `bits` width.
pub fn sub(a: u64, b: u64, bits: u32) -> Flags {
    let m = mask(bits);
    let (a, b) = (a & m, b & m);
    let r = a.wrapping_sub(b) & m;
    Flags {
        zf: r == 0,
        sf: sign(r, bits),
        cf: Some(a < b),
        of: sign(a, bits) != sign(b, bits) && sign(r, bits) != sign(a, bits),
    }
}

/// Flags of `a + b` (`add`) at `bits` width.
pub fn add(a: u64, b: u64, bits: u32) -> Flags {
    let m = mask(bits);
    let (a, b) = (a & m, b & m);
    let r = a.wrapping_add(b) & m;
    Flags {
        zf: r == 0,
        sf: sign(r, bits),
        cf: Some(r < a),
        of: sign(a, bits) == sign(b, bits) && sign(r, bits) != sign(a, bits),
    }
}

/// Flags of a logical result (`test`, `and`): CF and OF cleared.
pub fn logic(r: u64, bits: u32) -> Flags {
    let r = r & mask(bits);
    Flags {
        zf: r == 0,
        sf: sign(r, bits),
        cf: Some(false),
        of: false,
    }
}

/// `f` with CF unknown (`inc`, `dec`).
pub fn keep_cf(f: Flags) -> Flags {
    Flags { cf: None, ..f }
}

/// A branch condition (parity is not modelled: no counted loop tests it).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Cond {
    /// Overflow.
    O,
    /// No overflow.
    No,
    /// Below (unsigned).
    B,
    /// Above or equal (unsigned).
    Ae,
    /// Equal (zero).
    E,
    /// Not equal.
    Ne,
    /// Below or equal (unsigned).
    Be,
    /// Above (unsigned).
    A,
    /// Sign.
    S,
    /// No sign.
    Ns,
    /// Less (signed).
    L,
    /// Greater or equal (signed).
    Ge,
    /// Less or equal (signed).
    Le,
    /// Greater (signed).
    G,
}

impl Cond {
    /// The condition of a `jcc`, if it is one modelled.
    pub fn of_jcc(m: Mnemonic) -> Option<Cond> {
        Some(match m {
            Mnemonic::Jo => Cond::O,
            Mnemonic::Jno => Cond::No,
            Mnemonic::Jb => Cond::B,
            Mnemonic::Jae => Cond::Ae,
            Mnemonic::Je => Cond::E,
            Mnemonic::Jne => Cond::Ne,
            Mnemonic::Jbe => Cond::Be,
            Mnemonic::Ja => Cond::A,
            Mnemonic::Js => Cond::S,
            Mnemonic::Jns => Cond::Ns,
            Mnemonic::Jl => Cond::L,
            Mnemonic::Jge => Cond::Ge,
            Mnemonic::Jle => Cond::Le,
            Mnemonic::Jg => Cond::G,
            _ => return None,
        })
    }

    /// Whether the branch is taken; `None` when it tests a flag that is unknown.
    pub fn holds(self, f: Flags) -> Option<bool> {
        Some(match self {
            Cond::O => f.of,
            Cond::No => !f.of,
            Cond::B => f.cf?,
            Cond::Ae => !f.cf?,
            Cond::E => f.zf,
            Cond::Ne => !f.zf,
            Cond::Be => f.cf? || f.zf,
            Cond::A => !f.cf? && !f.zf,
            Cond::S => f.sf,
            Cond::Ns => !f.sf,
            Cond::L => f.sf != f.of,
            Cond::Ge => f.sf == f.of,
            Cond::Le => f.zf || f.sf != f.of,
            Cond::G => !f.zf && f.sf == f.of,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn subtraction_flags() {
        let f = sub(1, 1, 64);
        assert!(f.zf && !f.sf && f.cf == Some(false) && !f.of);
        let f = sub(0, 1, 32);
        assert!(!f.zf && f.sf && f.cf == Some(true) && !f.of);
        // INT32_MIN - 1 overflows.
        assert!(sub(0x8000_0000, 1, 32).of);
        // Upper bits beyond the width do not count.
        assert!(sub(0x1_0000_0005, 5, 32).zf);
    }

    #[test]
    fn addition_and_logic_flags() {
        let f = add(u64::MAX, 1, 64);
        assert!(f.zf && f.cf == Some(true) && !f.of);
        assert!(add(0x7FFF_FFFF, 1, 32).of);
        let f = logic(0x80, 8);
        assert!(f.sf && !f.zf && f.cf == Some(false));
        assert_eq!(keep_cf(f).cf, None);
    }

    #[test]
    fn conditions() {
        // cmp 3, 5: below, less, not equal.
        let f = sub(3, 5, 64);
        for (c, taken) in [
            (Cond::B, true),
            (Cond::L, true),
            (Cond::Ne, true),
            (Cond::Ae, false),
            (Cond::G, false),
            (Cond::Le, true),
            (Cond::A, false),
            (Cond::Be, true),
            (Cond::S, true),
        ] {
            assert_eq!(c.holds(f), Some(taken), "{c:?}");
        }
        // cmp -1, 5: signed less, unsigned above.
        let f = sub(u64::MAX, 5, 64);
        assert_eq!(Cond::L.holds(f), Some(true));
        assert_eq!(Cond::A.holds(f), Some(true));
        // CF unknown after dec.
        assert_eq!(Cond::B.holds(keep_cf(f)), None);
        assert_eq!(Cond::of_jcc(Mnemonic::Jne), Some(Cond::Ne));
        assert_eq!(Cond::of_jcc(Mnemonic::Jp), None);
    }
}
