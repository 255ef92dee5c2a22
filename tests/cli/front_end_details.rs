//! The front end's details and their switches (fixture data: `testdata/xml/details.xml`,
//! arch SKL): the legacy decoders' complex-decoder marks, length-changing prefixes, the
//! predecoder's crossing rule, and the µop cache's JCC erratum. As in `model_details.rs`,
//! each test runs its block with the detail on and with its switch.
#![forbid(unsafe_code)]

use crate::common::{suaca, testdata};
use crate::model_details::{batch, near, throughput};

/// `cmp rbx, rcx; cmovz rbp, rdx; add rax, 1; add rsi, 1; add rdi, 1` unrolled: the data marks
/// the one-µop `cmovz` as needing the complex decoder (uops.info's `complex_decoder="1"`, as
/// on Skylake), so each copy decodes in two cycles: `cmp`, then `cmovz` with the three adds
/// (the next copy's `cmp` cannot join them: 5 instructions, 4 decoders). Average rates see 5
/// instructions on 4 decoders and 19 bytes (1.25), and the ports then bind: 1.36.
#[test]
fn the_data_s_complex_decoder_mark_binds_the_legacy_decoders() {
    let hex = "4839cb480f44ea4883c0014883c6014883c701";
    assert!(near(batch(hex, &[]), 2.00));
    assert!(near(batch(hex, &["--average-frontend"]), 1.36));
}

/// Two `add r16, imm16` (length-changing prefixes, 3 cycles each in the predecoder) unrolled
/// as BHive runs them: the legacy decoders bind. The front-end unit marks each in a cycle and
/// stalls 2 more: 6 cycles per copy; of the 16 instructions in 8 copies (80 bytes), the ones
/// at 15, 30 and 45 cross by more than their last byte after a stall and take a cycle of
/// their own: 51 / 8 = 6.375. The average rates add the bytes: 10 B / 16 + 2 × 3 = 6.625.
/// Only the issue width: 1.
#[test]
fn front_end_and_its_switch() {
    let hex = "6681c334126681c63412";
    assert!(near(batch(hex, &[]), 6.375));
    let average = batch(hex, &["--average-frontend"]);
    assert!((6.5..=6.7).contains(&average), "{average}");
    assert!(near(batch(hex, &["--simple-frontend"]), 1.00));
}

/// `mov rdi, rbp; mov rdx, rbx; mov rsi, r14` unrolled (9 bytes, 3-byte moves): 16
/// instructions fill 48 bytes, 3 predecode blocks. The move at 15 crosses by two bytes and,
/// all that is left of its block, takes a cycle of its own; the one at 30 crosses by its last
/// byte alone and is marked with its block: 1 + 1 + 2 + 1 = 5 cycles per 16 moves, 0.9375 a
/// copy (BHive: 0.94 on Ivy Bridge). Carrying both (`--carry-last-byte`): 6 cycles, 1.125.
/// The average rates: 3 moves on 4 decoders, 0.75.
#[test]
fn a_crossing_last_byte_and_its_switch() {
    let hex = "4889ef4889da4c89f6";
    assert!(near(batch(hex, &[]), 0.9375));
    assert!(near(batch(hex, &["--carry-last-byte"]), 1.125));
    assert!(near(batch(hex, &["--average-frontend"]), 0.75));
}

/// A Skylake loop whose macro-fused `cmp rax, rbx; jnz` (bytes 27–31, after nine independent
/// `add r, rbx` of 3 bytes) ends on a 32-byte boundary. With the JCC erratum the window is
/// not cached and the legacy decoders run the loop: the predecoder marks 5 instructions of
/// block 0–15, gives the one crossing at 15–17 (all that is left of its block) a cycle of its
/// own, marks it with 4 others of block 16–31 and then the `jnz`, and the next iteration
/// starts a new block: 4 cycles. Without the erratum
/// the µop cache streams the window's 10 µops in ⌈10 / 6⌉ = 2 cycles and the issue width binds:
/// 10 µops / 4 = 2.5 (as do the ALU ports, 10 µops on 4). At offset 16 in its line the pair
/// (bytes 43–47) touches no boundary: 2.5 again. `--no-dsb`: the decoders, 4.
#[test]
fn jcc_erratum_uop_cache_and_their_switches() {
    let adds = "4801d84801d94801da4801de4801df4901d84901d94901da4901db";
    let hex = format!("{adds}4839d875e0");
    assert!(near(throughput(&hex, &[]), 4.00));
    assert!(near(throughput(&hex, &["--no-jcc-erratum"]), 2.50));
    assert!(near(throughput(&hex, &["--alignment-offset", "16"]), 2.50));
    assert!(near(throughput(&hex, &["--no-dsb"]), 4.00));
    // The report names the part that streams the loop.
    let home = tempfile::tempdir().expect("tempdir");
    let xml = testdata("xml/details.xml");
    let xml = xml.to_str().expect("utf-8");
    let args = ["--uops-xml", xml, "--arch", "SKL", "--hex", &hex, "--json"];
    let out = suaca(&args, home.path());
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(json["regions"][0]["region"]["front_end_source"], "mite");
}
