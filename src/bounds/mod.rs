//! (bounds: not yet implemented.)
