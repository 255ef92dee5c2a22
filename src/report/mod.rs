//! (report: not yet implemented.)
