//! The `input` module against the fixtures in `testdata/` (built by `testdata/build.sh`):
//! the same source gives the same regions in every format, regions are numbered in file order,
//! and every malformed input gives its own error naming the file.
#![forbid(unsafe_code)]

use std::path::{Path, PathBuf};

use suaca::input::{
    load_object, region_from_hex, region_from_raw, regions_from_file, Format, InputError,
};
use suaca::ir::Region;

fn data(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("testdata")
        .join(rel)
}

fn regions(rel: &str) -> Vec<Region> {
    regions_from_file(&data(rel)).unwrap_or_else(|err| panic!("{rel}: {err}"))
}

fn error(rel: &str) -> InputError {
    match regions_from_file(&data(rel)) {
        Ok(regions) => panic!("{rel}: expected an error, got {regions:?}"),
        Err(err) => err,
    }
}

/// Region bytes and index, the parts that must not depend on the container.
fn contents(regions: &[Region]) -> Vec<(usize, Vec<u8>)> {
    regions.iter().map(|r| (r.index, r.bytes.clone())).collect()
}

const PROGRAMS: [&str; 8] = [
    "branchy",
    "mov6",
    "stencil",
    "adc8",
    "operands",
    "multi",
    "msvc",
    "undecodable",
];

#[test]
fn same_regions_in_every_format() {
    for p in PROGRAMS {
        let elf = regions(&format!("obj/elf/{p}.o"));
        assert!(!elf.is_empty(), "{p}");
        for other in [
            format!("obj/coff/{p}.obj"),
            format!("obj/macho/{p}.o"),
            format!("obj/elf/{p}"),
            format!("obj/elf/lib{p}.so"),
        ] {
            assert_eq!(contents(&regions(&other)), contents(&elf), "{other}");
        }
    }
    for p in ["branchy", "multi"] {
        let elf = regions(&format!("obj/elf/{p}.o"));
        for other in [
            format!("obj/pe/{p}.exe"),
            format!("obj/pe/{p}.dll"),
            format!("obj/macho/{p}"),
        ] {
            assert_eq!(contents(&regions(&other)), contents(&elf), "{other}");
        }
    }
}

#[test]
fn formats_are_detected() {
    let cases = [
        ("obj/elf/branchy.o", Format::Elf),
        ("obj/elf/branchy", Format::Elf),
        ("obj/elf/libbranchy.so", Format::Elf),
        ("obj/coff/branchy.obj", Format::Coff),
        ("obj/pe/branchy.exe", Format::Pe),
        ("obj/pe/branchy.dll", Format::Pe),
        ("obj/macho/branchy.o", Format::MachO),
        ("obj/macho/branchy", Format::MachO),
    ];
    for (rel, format) in cases {
        let loaded = load_object(&data(rel)).unwrap();
        assert_eq!(loaded.format, format, "{rel}");
    }
    assert_eq!(Format::MachO.to_string(), "Mach-O");
}

#[test]
fn sections_symbols_and_addresses() {
    // Relocatable objects: section-relative addresses, the region starts after the 8-byte
    // marker at the function's start.
    for (rel, section) in [
        ("obj/elf/branchy.o", ".text"),
        ("obj/coff/branchy.obj", ".text"),
        ("obj/macho/branchy.o", "__text"),
    ] {
        let r = &regions(rel)[0];
        assert_eq!(r.section, section, "{rel}");
        assert_eq!(r.address, 8, "{rel}");
        assert_eq!(r.symbol.as_deref(), Some("branchy"), "{rel}");
    }
    // Linked files: virtual addresses, the symbol table still names the function.
    for rel in [
        "obj/elf/branchy",
        "obj/elf/libbranchy.so",
        "obj/macho/branchy",
    ] {
        let r = &regions(rel)[0];
        assert_ne!(r.address, 8, "{rel}");
        assert_eq!(r.symbol.as_deref(), Some("branchy"), "{rel}");
    }
    // PE images carry no COFF symbol table; the address includes the image base. A DLL's
    // export table still names the function.
    let exe = &regions("obj/pe/branchy.exe")[0];
    assert_eq!(exe.section, ".text");
    assert_eq!(exe.address, 0x1_4000_1008);
    assert_eq!(exe.symbol, None);
    let dll = &regions("obj/pe/branchy.dll")[0];
    assert_eq!(dll.address, 0x1_8000_1008);
    assert_eq!(dll.symbol.as_deref(), Some("branchy"));
}

#[test]
fn thesis_programs_have_the_expected_bytes() {
    let branchy = regions("obj/elf/branchy.o");
    assert_eq!(
        branchy[0].bytes,
        [
            0x48, 0xc7, 0xc0, 0x01, 0x00, 0x00, 0x00, // mov rax, 1
            0x48, 0x83, 0xf9, 0x00, // cmp rcx, 0
            0x75, 0x05, // jne else
            0x48, 0x01, 0xc3, // add rbx, rax
            0xeb, 0x03, // jmp end
            0x48, 0x01, 0xc3, // else: add rbx, rax
            0x48, 0x01, 0xdb, // end: add rbx, rbx
        ]
    );
    let mov6 = regions("obj/elf/mov6.o");
    assert_eq!(mov6[0].bytes, [0x48, 0xc7, 0xc0, 0x06, 0, 0, 0].repeat(6));
    let stencil = regions("obj/elf/stencil.o");
    assert_eq!(
        stencil[0].bytes,
        [
            0xc4, 0x81, 0x7b, 0x10, 0x14, 0xfe, // vmovsd xmm2, [r14+r15*8]
            0xc4, 0x81, 0x6b, 0x58, 0x5c, 0xfe, 0x10, // vaddsd xmm3, xmm2, [r14+r15*8+0x10]
            0xc4, 0xa1, 0x63, 0x58, 0x64, 0xf8, 0x08, // vaddsd xmm4, xmm3, [rax+r15*8+0x8]
            0xc4, 0xa1, 0x5b, 0x58, 0x6c, 0xfa, 0x08, // vaddsd xmm5, xmm4, [rdx+r15*8+0x8]
            0xc5, 0xf3, 0x59, 0xf5, // vmulsd xmm6, xmm1, xmm5
            0xc4, 0x81, 0x7b, 0x11, 0x74, 0xfc, 0x08, // vmovsd [r12+r15*8+0x8], xmm6
            0x49, 0xff, 0xc7, // inc r15
            0x4d, 0x39, 0xef, // cmp r15, r13
        ]
    );
    let adc8 = regions("obj/elf/adc8.o");
    assert_eq!(
        adc8[0].bytes,
        [
            0x48, 0x83, 0xd0, 0x01, // adc rax, 1
            0x48, 0x83, 0xd3, 0x01, // adc rbx, 1
            0x48, 0x83, 0xd1, 0x01, // adc rcx, 1
            0x48, 0x83, 0xd2, 0x01, // adc rdx, 1
            0x49, 0x83, 0xd0, 0x01, // adc r8, 1
            0x49, 0x83, 0xd1, 0x01, // adc r9, 1
            0x49, 0x83, 0xd2, 0x01, // adc r10, 1
            0x49, 0x83, 0xd3, 0x01, // adc r11, 1
        ]
    );
}

#[test]
fn regions_are_numbered_in_file_order() {
    let multi = regions("obj/elf/multi.o");
    assert_eq!(
        contents(&multi),
        vec![
            (0, vec![0x48, 0x01, 0xd8]),                               // add rax, rbx
            (1, vec![0x48, 0x0f, 0xaf, 0xca, 0x48, 0x83, 0xe9, 0x01]), // imul rcx, rdx; sub rcx, 1
        ]
    );
    assert_eq!(multi[0].address, 0x8);
    assert_eq!(multi[1].address, 0x1c);
    assert_eq!(multi[1].symbol.as_deref(), Some("multi"));
}

#[test]
fn msvc_markers() {
    let msvc = regions("obj/coff/msvc.obj");
    assert_eq!(
        contents(&msvc),
        vec![(0, vec![0x48, 0x0f, 0xaf, 0xc3, 0x48, 0x01, 0xc8])] // imul rax, rbx; add rax, rcx
    );
    assert_eq!(msvc[0].address, 9);
}

#[test]
fn undecodable_bytes_are_still_a_region() {
    // Rejecting 0x06 (invalid in 64-bit mode) is the decoder's job, not the input's.
    let r = regions("obj/elf/undecodable.o");
    assert_eq!(r[0].bytes, [0x48, 0x01, 0xd8, 0x06]);
}

#[test]
fn raw_and_hex_match_the_object_region() {
    let from_object = &regions("obj/elf/branchy.o")[0];
    let raw = region_from_raw(&data("obj/branchy.bin")).unwrap();
    assert_eq!(raw.bytes, from_object.bytes);
    assert_eq!(
        (raw.index, raw.section.as_str(), raw.address),
        (0, "<raw>", 0)
    );
    let hex = region_from_hex("48c7c001000000 4883f900 7505 4801c3 eb03 4801c3 4801db").unwrap();
    assert_eq!(hex.bytes, from_object.bytes);
    assert_eq!(
        (hex.index, hex.section.as_str(), hex.address),
        (0, "<hex>", 0)
    );
}

/// A fixture, the variant it must give, and text its message must contain.
type ErrorCase = (&'static str, fn(&InputError) -> bool, &'static str);

/// Asserts the message is one line, lower case, without a trailing period, naming the file.
fn check_message(err: &InputError, rel: &str) -> String {
    let message = err.to_string();
    let file = data(rel).display().to_string();
    assert!(message.starts_with(&file), "{message}");
    assert!(!message.contains('\n'), "{message}");
    assert!(!message.ends_with('.'), "{message}");
    let after_file = &message[file.len() + 2..];
    assert!(
        after_file.starts_with(|c: char| c.is_lowercase()),
        "{message}"
    );
    assert_eq!(err.path(), Some(data(rel).as_path()));
    message
}

#[test]
fn marker_errors_give_section_and_offset() {
    let cases: [ErrorCase; 5] = [
        (
            "errors/start_no_end.o",
            |e| matches!(e, InputError::StartWithoutEnd { section, offset: 1, .. } if section == ".text"),
            "start marker at .text+0x1 has no end marker",
        ),
        (
            "errors/stray_end.o",
            |e| matches!(e, InputError::EndBeforeStart { section, offset: 3, .. } if section == ".text"),
            "end marker at .text+0x3 comes before any start marker",
        ),
        (
            "errors/nested.o",
            |e| {
                matches!(
                    e,
                    InputError::NestedStart {
                        outer: 0,
                        offset: 0xb,
                        ..
                    }
                )
            },
            "nested start marker at .text+0xb: the start marker at .text+0x0 has no end marker yet",
        ),
        (
            "errors/empty_region.o",
            |e| matches!(e, InputError::EmptyRegion { offset: 1, .. }),
            "empty region at .text+0x1: the end marker directly follows the start marker",
        ),
        (
            "errors/data_markers.o",
            |e| matches!(e, InputError::MarkersNotExecutable { section, offset: 4, .. } if section == ".data"),
            "markers found only in non-executable section .data (first at .data+0x4)",
        ),
    ];
    for (rel, is_expected, text) in cases {
        let err = error(rel);
        assert!(is_expected(&err), "{rel}: {err:?}");
        let message = check_message(&err, rel);
        assert!(message.ends_with(text), "{message}");
    }
}

#[test]
fn file_errors_name_the_problem() {
    let cases: [ErrorCase; 6] = [
        (
            "errors/not_object.txt",
            |e| matches!(e, InputError::NotObject { .. }),
            "not an object file",
        ),
        (
            "errors/truncated.o",
            |e| matches!(e, InputError::Corrupt { .. }),
            "truncated or corrupt headers",
        ),
        (
            "errors/corrupt_shdr.o",
            |e| matches!(e, InputError::Corrupt { .. }),
            "truncated or corrupt headers",
        ),
        (
            "errors/aarch64.o",
            |e| matches!(e, InputError::WrongArchitecture { arch, .. } if arch == "aarch64"),
            "unsupported architecture aarch64",
        ),
        (
            "errors/no_markers.o",
            |e| matches!(e, InputError::NoMarkers { .. }),
            "no IACA markers found; use --raw or --hex",
        ),
        (
            "errors/no_code.o",
            |e| matches!(e, InputError::NoExecutableSection { .. }),
            "no executable section",
        ),
    ];
    for (rel, is_expected, text) in cases {
        let err = error(rel);
        assert!(is_expected(&err), "{rel}: {err:?}");
        let message = check_message(&err, rel);
        assert!(message.contains(text), "{message}");
    }
}

#[test]
fn unreadable_file() {
    let rel = "errors/does_not_exist.o";
    let err = error(rel);
    assert!(matches!(err, InputError::Io { .. }), "{err:?}");
    assert!(check_message(&err, rel).contains("cannot read file"));
    let err = region_from_raw(&data(rel)).unwrap_err();
    assert!(matches!(err, InputError::Io { .. }), "{err:?}");
}

#[test]
fn raw_input_accepts_any_bytes() {
    // --raw does not look at the format: an object file is just bytes.
    let raw = region_from_raw(&data("errors/not_object.txt")).unwrap();
    assert_eq!(
        raw.bytes,
        std::fs::read(data("errors/not_object.txt")).unwrap()
    );
}

#[test]
fn every_prefix_of_every_fixture_is_handled_without_panic() {
    // Cut files are the commonest corruption; none may panic, whatever they give.
    for rel in [
        "obj/elf/operands.o",
        "obj/elf/liboperands.so",
        "obj/coff/operands.obj",
        "obj/macho/operands.o",
        "obj/pe/multi.exe",
        "obj/macho/multi",
    ] {
        let bytes = std::fs::read(data(rel)).unwrap();
        for len in 0..bytes.len() {
            let _ = suaca::input::regions_from_object(Path::new(rel), &bytes[..len]);
        }
    }
}

mod hostile {
    use super::*;
    use proptest::prelude::*;

    const FIXTURES: [&str; 7] = [
        "obj/elf/operands.o",
        "obj/elf/liboperands.so",
        "obj/elf/operands",
        "obj/coff/operands.obj",
        "obj/macho/operands.o",
        "obj/pe/multi.dll",
        "obj/macho/multi",
    ];

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(512))]

        /// Overwriting a few bytes of a valid file (headers included) never panics.
        #[test]
        fn corrupted_files_do_not_panic(
            which in 0..FIXTURES.len(),
            edits in proptest::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..8),
        ) {
            let rel = FIXTURES[which];
            let mut bytes = std::fs::read(data(rel)).unwrap();
            for (at, value) in edits {
                let i = at.index(bytes.len());
                bytes[i] = value;
            }
            if let Ok(found) = suaca::input::regions_from_object(Path::new(rel), &bytes) {
                for (i, region) in found.regions.iter().enumerate() {
                    prop_assert_eq!(region.index, i);
                    prop_assert!(!region.bytes.is_empty());
                    prop_assert!(region.address.checked_add(region.bytes.len() as u64).is_some());
                }
            }
        }

        /// Any bytes wrapped in a start and an end marker come back unchanged, as long as they
        /// hold no marker themselves.
        #[test]
        fn marked_bytes_round_trip(body in proptest::collection::vec(any::<u8>(), 1..64)) {
            use suaca::input::markers::{self, Chunk, IACA_END, IACA_START};
            prop_assume!(markers::find_markers(&body).is_empty());
            let bytes = [&IACA_START[..], &body, &IACA_END[..]].concat();
            let chunk = Chunk { name: "t", address: 0x40, bytes: &bytes };
            // No marker has a proper suffix that starts another marker, so none can straddle
            // the body's edges.
            let found = markers::regions_in_chunk(&chunk, 0).unwrap();
            prop_assert_eq!(found.len(), 1);
            prop_assert_eq!(&found[0].bytes, &body);
            prop_assert_eq!(found[0].address, 0x48);
        }
    }
}
