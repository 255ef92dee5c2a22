//! (deps: in progress.)
