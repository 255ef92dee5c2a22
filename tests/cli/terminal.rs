//! What a person sees in a 100-column terminal (issue #8 item 5): the binary runs in a tmux
//! pane (`send-keys`, `capture-pane`); no line is wider than the pane, the headline and the
//! tables are there, colour escapes appear only on the bottleneck headline, the binding rows
//! and the unsupported `X` rows, and never with `NO_COLOR`. Skipped with a note when tmux is
//! not installed. Piped output never has colour.
#![forbid(unsafe_code)]

use crate::common;

use std::process::{Command, Output};
use std::time::{Duration, Instant};

use crate::common::{suaca, testdata};

/// A tmux server of our own (its own socket), killed on drop.
struct Tmux {
    socket: String,
}

impl Tmux {
    fn start(name: &str) -> Option<Tmux> {
        let ok = Command::new("tmux")
            .arg("-V")
            .output()
            .is_ok_and(|o| o.status.success());
        if !ok {
            eprintln!("note: tmux is not installed; skipping the terminal test");
            return None;
        }
        let t = Tmux {
            socket: format!("suaca-test-{}-{name}", std::process::id()),
        };
        // A plain shell with a plain prompt, in a 100x50 pane.
        let out = t.run(&[
            "-f",
            "/dev/null",
            "new-session",
            "-d",
            "-x",
            "100",
            "-y",
            "50",
            "-s",
            "t",
            "env PS1='$ ' sh",
        ]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        Some(t)
    }

    fn run(&self, args: &[&str]) -> Output {
        Command::new("tmux")
            .arg("-L")
            .arg(&self.socket)
            .args(args)
            .output()
            .expect("tmux runs")
    }

    /// Types `command` into the pane and waits until it has finished.
    fn type_and_wait(&self, command: &str) {
        let line = format!("{command}; tmux wait-for -S done");
        assert!(self
            .run(&["send-keys", "-t", "t", &line, "Enter"])
            .status
            .success());
        let mut waiter = Command::new("tmux")
            .args(["-L", &self.socket, "wait-for", "done"])
            .spawn()
            .expect("tmux wait-for");
        let deadline = Instant::now() + Duration::from_secs(120);
        while waiter.try_wait().expect("wait").is_none() {
            if Instant::now() > deadline {
                let _ = waiter.kill();
                panic!("`{command}` did not finish in the pane");
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// The pane and its history, lines wrapped by the terminal joined (`-J`), with colour
    /// escapes when `escapes`.
    fn capture(&self, escapes: bool) -> String {
        let mut args = vec!["capture-pane", "-p", "-J", "-S", "-", "-t", "t"];
        if escapes {
            args.push("-e");
        }
        String::from_utf8(self.run(&args).stdout).expect("utf-8")
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = self.run(&["kill-server"]);
    }
}

/// `line` without ANSI escape sequences.
fn plain(line: &str) -> String {
    let mut out = String::new();
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        if c == '\x1b' {
            // CSI: ESC [ parameters final-byte
            for d in chars.by_ref() {
                if d.is_ascii_alphabetic() {
                    break;
                }
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// Whether `line` turns colour or an attribute on (resets like `ESC[0m`, `ESC[39m` that
/// tmux writes where a previous line's style ends do not count).
fn has_color(line: &str) -> bool {
    line.split('\x1b').skip(1).any(|seq| {
        let Some(body) = seq.strip_prefix('[') else {
            return false;
        };
        let Some(end) = body.find(|c: char| c.is_ascii_alphabetic()) else {
            return false;
        };
        body[end..].starts_with('m')
            && body[..end]
                .split(';')
                .any(|p| !matches!(p, "" | "0" | "22" | "23" | "24" | "27" | "39" | "49"))
    })
}

fn command(home: &std::path::Path, no_color: bool) -> String {
    let color = if no_color { "NO_COLOR=1" } else { "" };
    format!(
        "env -u NO_COLOR {color} SUACA_HOME={} {} --uops-xml {} --arch SNB -p --hex 4801d8480fafc3",
        home.display(),
        env!("CARGO_BIN_EXE_suaca"),
        testdata("xml/thesis.xml").display()
    )
}

#[test]
fn a_person_sees_fitting_tables_and_colour_only_where_it_matters() {
    let Some(tmux) = Tmux::start("color") else {
        return;
    };
    let home = tempfile::tempdir().unwrap();
    tmux.type_and_wait(&command(home.path(), false));
    let screen = tmux.capture(true);
    let lines: Vec<&str> = screen.lines().collect();
    let start = lines
        .iter()
        .position(|l| plain(l).contains("Block throughput"))
        .unwrap_or_else(|| panic!("no report on screen:\n{screen}"));
    let report = &lines[start..];
    for l in report {
        let p = plain(l);
        assert!(p.chars().count() <= 100, "wider than the pane: {p}");
    }
    let headline = report
        .iter()
        .find(|l| plain(l).starts_with("Bottleneck analysis (SNB)"))
        .expect("the headline");
    assert!(
        has_color(headline),
        "the headline is coloured: {headline:?}"
    );
    assert!(
        report.iter().any(|l| plain(l).starts_with("| Line ")),
        "main table"
    );
    assert!(
        report.iter().any(|l| plain(l).starts_with("| #  | Limit")),
        "bottleneck table"
    );
    let x_row = report
        .iter()
        .find(|l| plain(l).starts_with("| 1    | X"))
        .expect("the unsupported row");
    assert!(has_color(x_row), "the X row is coloured: {x_row:?}");
    for l in report {
        let p = plain(l);
        let allowed = p.starts_with("Bottleneck analysis")
            || p.starts_with("| 1    | X")
            || p.contains("| yes ")
            || p.starts_with('$');
        if !allowed {
            assert!(
                !has_color(l),
                "colour outside the headline and X rows: {l:?}"
            );
        }
    }
}

#[test]
fn no_color_means_no_escapes_even_on_a_terminal() {
    let Some(tmux) = Tmux::start("nocolor") else {
        return;
    };
    let home = tempfile::tempdir().unwrap();
    tmux.type_and_wait(&command(home.path(), true));
    let screen = tmux.capture(true);
    assert!(screen.contains("Bottleneck analysis (SNB)"), "{screen}");
    let report = &screen[screen.find("Block throughput").expect("report")..];
    assert!(!report.contains('\x1b'), "{report:?}");
    assert!(report.lines().all(|l| l.chars().count() <= 100));
}

#[test]
fn piped_output_has_no_colour_and_fits_100_columns() {
    let home = tempfile::tempdir().unwrap();
    let xml = testdata("xml/thesis.xml");
    for args in [
        vec!["--arch", "SNB", "--hex", "4801d8480fafc3"],
        vec![
            "--arch",
            "IVB",
            "--detail",
            "3",
            "--timeline",
            &common::program("stencil"),
        ],
    ] {
        let mut all = vec!["--uops-xml", xml.to_str().unwrap()];
        all.extend_from_slice(&args);
        let out = suaca(&all, home.path());
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(!text.contains('\x1b'), "{args:?}");
        for l in text.lines() {
            assert!(l.chars().count() <= 100, "{args:?}: {l}");
        }
        // --width 0 keeps the thesis layout: one line per row.
        all.extend_from_slice(&["--width", "0"]);
        let wide = String::from_utf8(suaca(&all, home.path()).stdout).unwrap();
        assert!(wide.lines().any(|l| l.chars().count() > 100), "{args:?}");
    }
}
