//! (db: not yet implemented.)
