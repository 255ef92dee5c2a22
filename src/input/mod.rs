//! (input: not yet implemented.)
