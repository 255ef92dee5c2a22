//! (cfg: not yet implemented.)
