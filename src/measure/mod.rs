//! (measure: not yet implemented.)
