//! (decode: not yet implemented.)
