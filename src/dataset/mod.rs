//! (dataset: not yet implemented.)
