//! The analyzer's intermediate representation: decoded instructions and what they touch.
//!
//! Owns: [`Instr`] (immutable once decoded), [`Loc`] (the granularity at which dependencies are
//! tracked), [`FlagSet`], [`MemOperand`] and [`Region`].
//! Must not touch: file formats, XML data, simulation state. Only `decode` builds `Instr`s.
//! Facts: register and flag semantics follow the Intel SDM as reported by iced-x86; the
//! tracking granularity (per flag bit, high-8 registers separately) follows SUACA thesis §2.4
//! and issue #2.

mod instr;
mod reg;
mod region;

pub use instr::{is_immediate, Access, AccessKind, BranchKind, Idiom, Instr, MemOperand, Role};
pub use reg::{Flag, FlagSet, Loc};
pub use region::Region;
