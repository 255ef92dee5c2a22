//! Batch input: BHive-layout CSV or one hex block per line.
//!
//! Format detection: the first line that is neither blank nor a `#` comment decides. With a
//! comma it is CSV, else plain text (one block per line; a first line `hex` is a header).
//!
//! CSV: a first record with a field named `hex` is a header; recognised columns (any order,
//! case-insensitive): `hex`; `arch`; `case_id` (or `id`, `name`); the measurement as
//! `measured_cycles_per_100_iterations`, `cycles_per_100_iterations` or `throughput` (BHive's
//! unit: cycles per 100 iterations, divided by 100 here) or `measured_cycles_per_iteration` /
//! `measured`; `in_may_alias`. Other columns are ignored. Without a header the layout is
//! BHive's own throughput files: `hex[,cycles_per_100_iterations]`.
//!
//! A malformed line never stops the batch: it becomes a row with [`InputRow::problem`] set and
//! its 1-based line number, so the output can report it in order.

/// One block to predict.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct InputRow {
    /// 1-based line of the input the row starts on.
    pub line: u64,
    /// The block as hex (not yet validated).
    pub hex: String,
    /// Arch named by the row (overrides the default arch).
    pub arch: Option<String>,
    /// Case identifier, echoed to the output.
    pub case_id: Option<String>,
    /// Measured cycles per iteration (already divided by 100 for BHive's unit).
    pub measured: Option<f64>,
    /// BHive's may-alias flag (such measurements are suspect).
    pub may_alias: Option<bool>,
    /// Why the line is malformed; the row is then reported, not predicted.
    pub problem: Option<String>,
}

/// How the input was read.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Format {
    /// One hex block per line.
    Lines,
    /// CSV, with or without a header record.
    Csv {
        /// Whether the first record was a header.
        header: bool,
    },
}

/// The parsed input.
#[derive(Clone, Debug, PartialEq)]
pub struct ParsedInput {
    /// Detected format.
    pub format: Format,
    /// Rows in input order (malformed ones included).
    pub rows: Vec<InputRow>,
}

impl ParsedInput {
    /// The malformed rows.
    pub fn malformed(&self) -> impl Iterator<Item = &InputRow> {
        self.rows.iter().filter(|r| r.problem.is_some())
    }
}

/// Parses batch input text (see the module doc for the formats).
pub fn parse(text: &str) -> ParsedInput {
    let first = text
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with('#'));
    match first {
        Some(l) if l.contains(',') => parse_csv(text),
        _ => parse_lines(text),
    }
}

fn parse_lines(text: &str) -> ParsedInput {
    let mut rows = Vec::new();
    let mut seen_first = false;
    for (i, raw) in text.lines().enumerate() {
        let l = raw.trim();
        if l.is_empty() || l.starts_with('#') {
            continue;
        }
        let is_header = !seen_first && l.eq_ignore_ascii_case("hex");
        seen_first = true;
        if is_header {
            continue;
        }
        rows.push(InputRow {
            line: i as u64 + 1,
            hex: l.to_string(),
            ..InputRow::default()
        });
    }
    ParsedInput {
        format: Format::Lines,
        rows,
    }
}

/// How the measurement column is scaled.
#[derive(Copy, Clone, Debug, PartialEq)]
enum Unit {
    PerIteration,
    Per100Iterations,
}

/// Column positions of the recognised fields.
#[derive(Clone, Debug, Default)]
struct Columns {
    hex: usize,
    arch: Option<usize>,
    case_id: Option<usize>,
    measured: Option<(usize, Unit)>,
    may_alias: Option<usize>,
}

impl Columns {
    /// The columns of a header record, or `None` when the record is not a header.
    fn from_header(fields: &csv::StringRecord) -> Option<Columns> {
        let find = |names: &[&str]| {
            fields
                .iter()
                .position(|f| names.iter().any(|n| f.eq_ignore_ascii_case(n)))
        };
        let hex = find(&["hex"])?;
        let per100 = find(&[
            "measured_cycles_per_100_iterations",
            "cycles_per_100_iterations",
            "throughput",
        ]);
        let per_iter = find(&["measured_cycles_per_iteration", "measured"]);
        Some(Columns {
            hex,
            arch: find(&["arch"]),
            case_id: find(&["case_id", "id", "name"]),
            measured: per100
                .map(|c| (c, Unit::Per100Iterations))
                .or(per_iter.map(|c| (c, Unit::PerIteration))),
            may_alias: find(&["in_may_alias"]),
        })
    }

    /// BHive's own throughput files: `hex,cycles_per_100_iterations`.
    fn headerless() -> Columns {
        Columns {
            hex: 0,
            measured: Some((1, Unit::Per100Iterations)),
            ..Columns::default()
        }
    }
}

fn parse_csv(text: &str) -> ParsedInput {
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .comment(Some(b'#'))
        .trim(csv::Trim::All)
        .from_reader(text.as_bytes());
    // The csv crate reports where it started reading a record, before the blank and comment
    // lines it skips: the record's line is the first other line from there.
    let lines: Vec<&str> = text.split('\n').collect();
    let line_starts: Vec<usize> = std::iter::once(0)
        .chain(text.match_indices('\n').map(|(i, _)| i + 1))
        .collect();
    let line_of = |p: Option<&csv::Position>| {
        p.map_or(0, |p| {
            // With CRLF endings the position can be the `\n` ending the previous record.
            let mut byte = p.byte() as usize;
            while matches!(text.as_bytes().get(byte), Some(b'\r' | b'\n')) {
                byte += 1;
            }
            let mut l = line_starts.partition_point(|&s| s <= byte) - 1;
            while lines
                .get(l)
                .is_some_and(|t| t.trim().is_empty() || t.starts_with('#'))
            {
                l += 1;
            }
            l as u64 + 1
        })
    };
    let mut rows = Vec::new();
    let mut columns: Option<Columns> = None;
    let mut header = false;
    for record in reader.records() {
        let record = match record {
            Ok(r) => r,
            Err(e) => {
                let line = line_of(e.position());
                rows.push(problem_row(line, format!("unreadable CSV record: {e}")));
                continue;
            }
        };
        let line = line_of(record.position());
        let cols = match &columns {
            Some(c) => c,
            None => {
                let found = Columns::from_header(&record);
                header = found.is_some();
                let is_header = header;
                let c = columns.insert(found.unwrap_or_else(Columns::headerless));
                if is_header {
                    continue;
                }
                c
            }
        };
        rows.push(row_of(&record, cols, line));
    }
    ParsedInput {
        format: Format::Csv { header },
        rows,
    }
}

fn problem_row(line: u64, problem: String) -> InputRow {
    InputRow {
        line,
        problem: Some(problem),
        ..InputRow::default()
    }
}

/// One data record as a row; problems are recorded, not raised.
fn row_of(record: &csv::StringRecord, cols: &Columns, line: u64) -> InputRow {
    let field = |i: Option<usize>| {
        i.and_then(|i| record.get(i))
            .filter(|s| !s.is_empty())
            .map(str::to_string)
    };
    let mut row = InputRow {
        line,
        hex: field(Some(cols.hex)).unwrap_or_default(),
        arch: field(cols.arch),
        case_id: field(cols.case_id),
        ..InputRow::default()
    };
    let mut problems = Vec::new();
    if row.hex.is_empty() {
        problems.push(format!(
            "no hex block in column {} ({} field(s) on the line)",
            cols.hex + 1,
            record.len()
        ));
    }
    if let Some((c, unit)) = cols.measured {
        if let Some(v) = field(Some(c)) {
            match v.parse::<f64>() {
                Ok(x) if x.is_finite() && x >= 0.0 => {
                    row.measured = Some(match unit {
                        Unit::PerIteration => x,
                        Unit::Per100Iterations => x / 100.0,
                    });
                }
                _ => problems.push(format!("measurement `{v}` is not a non-negative number")),
            }
        }
    }
    if let Some(v) = field(cols.may_alias) {
        match v.as_str() {
            "0" | "false" => row.may_alias = Some(false),
            "1" | "true" => row.may_alias = Some(true),
            _ => problems.push(format!("in_may_alias `{v}` is not 0 or 1")),
        }
    }
    if !problems.is_empty() {
        row.problem = Some(problems.join("; "));
    }
    row
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bhive_dev_layout_with_header() {
        let text = "arch,case_id,hex,measured_cycles_per_100_iterations,in_may_alias\n\
                    HSW,bhive/a,4531c04829c0,60.0,0\n\
                    SKL,bhive/b,4801d8,100,1\n";
        let p = parse(text);
        assert_eq!(p.format, Format::Csv { header: true });
        assert_eq!(p.rows.len(), 2);
        let r = &p.rows[0];
        assert_eq!(
            (
                r.line,
                r.hex.as_str(),
                r.arch.as_deref(),
                r.case_id.as_deref()
            ),
            (2, "4531c04829c0", Some("HSW"), Some("bhive/a"))
        );
        assert_eq!(r.measured, Some(0.6));
        assert_eq!(p.rows[1].may_alias, Some(true));
        assert!(p.malformed().next().is_none());
    }

    #[test]
    fn headerless_bhive_throughput_file() {
        let p = parse("4801d8,98.00\r\n\r\n# comment\r\n\r\n4831c0,25\r\n");
        assert_eq!(p.format, Format::Csv { header: false });
        assert_eq!(p.rows[0].measured, Some(0.98));
        assert_eq!((p.rows[1].line, p.rows[1].hex.as_str()), (5, "4831c0"));
    }

    #[test]
    fn plain_lines_with_comments_and_header() {
        let p = parse("# blocks\nhex\n4801d8\n\n48 01 d8\n");
        assert_eq!(p.format, Format::Lines);
        let lines: Vec<(u64, &str)> = p.rows.iter().map(|r| (r.line, r.hex.as_str())).collect();
        assert_eq!(lines, vec![(3, "4801d8"), (5, "48 01 d8")]);
    }

    #[test]
    fn malformed_lines_keep_their_numbers() {
        let text = "hex,arch,measured\n4801d8,SKL,1.0\n,SKL,2\n4801d8,SKL,abc\n4801d8\n";
        let p = parse(text);
        let bad: Vec<u64> = p.malformed().map(|r| r.line).collect();
        assert_eq!(bad, vec![3, 4]);
        assert!(p.rows[1].problem.as_deref().unwrap().contains("no hex"));
        assert!(p.rows[2].problem.as_deref().unwrap().contains("abc"));
        // A short row without the optional columns is fine.
        assert_eq!(p.rows[3].problem, None);
        assert_eq!(p.rows[0].measured, Some(1.0));
    }

    #[test]
    fn quoted_fields() {
        let p = parse("case_id,hex\n\"a,b\",4801d8\n");
        assert_eq!(p.rows[0].case_id.as_deref(), Some("a,b"));
        assert_eq!(p.rows[0].hex, "4801d8");
    }
}
