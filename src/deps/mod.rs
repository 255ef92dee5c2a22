//! (deps: not yet implemented.)
