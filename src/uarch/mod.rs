//! (uarch: not yet implemented.)
