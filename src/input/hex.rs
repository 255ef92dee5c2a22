//! Hex string input (`--hex`): code bytes written as hex digits, as in the BHive data set.
//!
//! Owns: parsing a hex string into bytes and wrapping them as the single region `<hex>`.
//! Must not touch: files, markers (the whole string is the region), decoding.
//! Facts: BHive lists basic blocks as one unbroken lower-case hex string (`4801d8...`); we also
//! accept upper case, whitespace between groups and a `0x` prefix on each group, so both
//! `0x4801d8` and `48 01 d8` work.

use crate::input::error::HexProblem;
use crate::input::InputError;
use crate::ir::Region;

/// Section name of a region that came from a hex string.
pub const HEX_SECTION: &str = "<hex>";

/// Parses `text` into bytes.
///
/// The text is split at whitespace into groups; each group is an optional `0x`/`0X` prefix and
/// an even number of hex digits. Error positions are 1-based character positions.
pub fn parse_hex(text: &str) -> Result<Vec<u8>, InputError> {
    let mut bytes = Vec::with_capacity(text.len() / 2);
    // (1-based position of the high digit, its value) while a byte is half read.
    let mut pending: Option<(usize, u8)> = None;
    let mut chars = text.chars().enumerate().peekable();
    let mut group_start = true;
    while let Some((i, c)) = chars.next() {
        let position = i + 1;
        if c.is_whitespace() {
            if let Some((high_pos, _)) = pending {
                return Err(invalid(high_pos, HexProblem::OddDigits));
            }
            group_start = true;
            continue;
        }
        if group_start && c == '0' && matches!(chars.peek(), Some((_, 'x' | 'X'))) {
            chars.next();
            match chars.peek() {
                Some((_, next)) if next.is_ascii_hexdigit() => {}
                _ => return Err(invalid(position, HexProblem::EmptyPrefix)),
            }
            group_start = false;
            continue;
        }
        group_start = false;
        let Some(value) = c.to_digit(16) else {
            return Err(invalid(position, HexProblem::NotHexDigit(c)));
        };
        // to_digit(16) is below 16, so the narrowing is exact.
        let value = value as u8;
        pending = match pending {
            None => Some((position, value)),
            Some((_, high)) => {
                bytes.push(high << 4 | value);
                None
            }
        };
    }
    if let Some((high_pos, _)) = pending {
        return Err(invalid(high_pos, HexProblem::OddDigits));
    }
    if bytes.is_empty() {
        return Err(InputError::EmptyHex);
    }
    Ok(bytes)
}

/// The whole hex string as one region: index 0, section `<hex>`, address 0.
pub fn region_from_hex(text: &str) -> Result<Region, InputError> {
    Ok(Region {
        index: 0,
        section: HEX_SECTION.to_owned(),
        address: 0,
        bytes: parse_hex(text)?,
        symbol: None,
    })
}

fn invalid(position: usize, problem: HexProblem) -> InputError {
    InputError::InvalidHex { position, problem }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn problem(text: &str) -> (usize, HexProblem) {
        match parse_hex(text) {
            Err(InputError::InvalidHex { position, problem }) => (position, problem),
            other => panic!("expected InvalidHex for {text:?}, got {other:?}"),
        }
    }

    #[test]
    fn bhive_style() {
        // add rax, rbx; mov rcx, rdx
        assert_eq!(
            parse_hex("4801d84889d1").unwrap(),
            vec![0x48, 0x01, 0xd8, 0x48, 0x89, 0xd1]
        );
    }

    #[test]
    fn prefix_case_and_whitespace() {
        let want = vec![0x48, 0x01, 0xD8];
        assert_eq!(parse_hex("0x4801D8").unwrap(), want);
        assert_eq!(parse_hex("  48 01\td8\n").unwrap(), want);
        assert_eq!(parse_hex("0x48 0X01 0xd8").unwrap(), want);
        assert_eq!(parse_hex("4801 d8").unwrap(), want);
    }

    #[test]
    fn region_is_hex_section_at_zero() {
        let region = region_from_hex("90").unwrap();
        assert_eq!(region.index, 0);
        assert_eq!(region.section, "<hex>");
        assert_eq!(region.address, 0);
        assert_eq!(region.bytes, vec![0x90]);
        assert_eq!(region.symbol, None);
    }

    #[test]
    fn bad_digit_position() {
        assert_eq!(problem("4801zz"), (5, HexProblem::NotHexDigit('z')));
        assert_eq!(problem("48,01"), (3, HexProblem::NotHexDigit(',')));
        assert_eq!(problem("é0"), (1, HexProblem::NotHexDigit('é')));
        // `0x` only counts as a prefix at the start of a group.
        assert_eq!(problem("480x01"), (4, HexProblem::NotHexDigit('x')));
    }

    #[test]
    fn odd_digits() {
        assert_eq!(problem("480"), (3, HexProblem::OddDigits));
        assert_eq!(problem("4 801"), (1, HexProblem::OddDigits));
    }

    #[test]
    fn empty_prefix() {
        assert_eq!(problem("0x"), (1, HexProblem::EmptyPrefix));
        assert_eq!(problem("90 0x 90"), (4, HexProblem::EmptyPrefix));
    }

    #[test]
    fn empty() {
        assert!(matches!(parse_hex(""), Err(InputError::EmptyHex)));
        assert!(matches!(parse_hex(" \n "), Err(InputError::EmptyHex)));
    }

    #[test]
    fn message_names_position() {
        let err = parse_hex("48g1").unwrap_err();
        assert_eq!(
            err.to_string(),
            "invalid hex string at position 3: 'g' is not a hex digit"
        );
    }
}
