//! (sim: not yet implemented.)
