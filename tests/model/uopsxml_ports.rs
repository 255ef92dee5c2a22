//! Port notation: display ∘ parse is the identity on every well-formed string.
#![forbid(unsafe_code)]

use proptest::prelude::*;
use suaca::uopsxml::{PortGroup, PortUsage};

fn group() -> impl Strategy<Value = PortGroup> {
    let intel = (1u32..60, "[0-9]{1,4}[AB]?").prop_map(|(c, p)| PortGroup::new(c, "p", &p));
    let amd = (1u32..9, "[0-5]{1,4}").prop_map(|(c, p)| PortGroup::new(c, "FP", &p));
    let types = (
        1u32..9,
        prop::sample::select(vec!["ALU", "LD", "STA", "STD", "INT_OTHER"]),
    )
        .prop_map(|(c, t)| PortGroup::new(c, t, ""));
    let v = (1u32..9, "[0-3]{1,2}").prop_map(|(c, p)| PortGroup::new(c, "V", &p));
    prop_oneof![intel, amd, types, v]
}

proptest! {
    #[test]
    fn display_parse_round_trip(groups in prop::collection::vec(group(), 0..8)) {
        let u = PortUsage { groups };
        let s = u.to_string();
        let back: PortUsage = s.parse().unwrap();
        prop_assert_eq!(&back, &u);
        prop_assert_eq!(back.to_string(), s);
    }

    #[test]
    fn parse_never_panics(s in "\\PC{0,24}") {
        let _ = s.parse::<PortUsage>();
    }
}

#[test]
fn canonical_order_like_cpubench() {
    let mut u: PortUsage = "1*p5+3*p510+1*p0+2*p015".parse().unwrap();
    u.canonicalize();
    assert_eq!(u.to_string(), "1*p0+5*p015+1*p5");
}
