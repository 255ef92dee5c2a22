//! `--timeline[=N]` and `--trace FILE.html` (issue #8 item 3): the text view, its agreement
//! with the JSON data, and the HTML page rendered by headless Chromium (skipped with a note
//! when `chromium` is not installed; Debian: `apt-get install chromium`).
#![forbid(unsafe_code)]

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::common::{program, suaca, testdata, thesis};
use serde_json::Value;

fn timeline_rows(out: &str) -> Vec<&str> {
    out.lines()
        .filter(|l| l.starts_with('[') && !l.starts_with("[It"))
        .collect()
}

#[test]
fn text_timeline_shows_each_instance_of_the_first_iterations() {
    let out = thesis(&["--arch", "SNB", "-p", "--timeline=2", &program("branchy")]);
    assert!(out.contains("Timeline: the first 2 iteration(s)"), "{out}");
    assert!(out.contains("D loaded into the scheduler, = waiting, e executing, E finished"));
    let rows = timeline_rows(&out);
    assert_eq!(rows.len(), 14, "{out}");
    assert!(rows[0].starts_with("[0,0] ") && rows[13].starts_with("[1,6] "));
    assert!(rows[13].ends_with("add rbx, rbx"));
    for r in &rows {
        let chart: String = r[14..]
            .chars()
            .take_while(|c| " .D=eE".contains(*c))
            .collect();
        assert!(chart.contains('E'), "every instance finishes: {r}");
    }
    // The default is 3 iterations; without --timeline there is none.
    let out = thesis(&["--arch", "SNB", "-p", "--timeline", &program("branchy")]);
    assert_eq!(timeline_rows(&out).len(), 21);
    let out = thesis(&["--arch", "SNB", "-p", &program("branchy")]);
    assert!(!out.contains("Timeline"));
}

#[test]
fn json_timeline_agrees_with_the_text() {
    let home = tempfile::tempdir().unwrap();
    let xml = testdata("xml/thesis.xml");
    let args = [
        "--uops-xml",
        xml.to_str().unwrap(),
        "--arch",
        "SNB",
        "-p",
        "--timeline=2",
        &program("branchy"),
    ];
    let text = String::from_utf8(suaca(&args, home.path()).stdout).unwrap();
    let mut json_args = args.to_vec();
    json_args.push("--json");
    let v: Value = serde_json::from_slice(&suaca(&json_args, home.path()).stdout).unwrap();
    let t = &v["regions"][0]["timeline"];
    assert_eq!(t["iterations"], 2);
    let entries = t["entries"].as_array().unwrap();
    assert_eq!(entries.len(), 14);
    for (e, row) in entries.iter().zip(timeline_rows(&text)) {
        let (l, s, c) = (
            e["loaded"].as_u64().unwrap(),
            e["started"].as_u64().unwrap(),
            e["completed"].as_u64().unwrap(),
        );
        assert!(l <= s && s <= c, "{e}");
        let chart: Vec<char> = row.chars().skip(14).collect();
        assert_eq!(chart[c as usize], 'E', "{row} / {e}");
        if l < s {
            assert_eq!(chart[l as usize], 'D', "{row} / {e}");
        }
    }
}

/// Issue #17 item 7: `--loop 1000000 --timeline=1000000` grew past 890 MB. A timeline keeps
/// at most 5000 instances: branchy's 7 instructions → 714 iterations, said in text and JSON.
#[test]
fn a_long_timeline_is_capped_and_says_so() {
    let out = thesis(&[
        "--arch",
        "SNB",
        "--loop",
        "3000",
        "--timeline=3000",
        &program("branchy"),
    ]);
    assert!(
        out.contains("Timeline: the first 714 iteration(s)"),
        "{out}"
    );
    assert!(
        out.contains("(of 3000 asked: a timeline keeps at most 5000 instruction instances)"),
        "{out}"
    );
    let rows = timeline_rows(&out);
    assert!(
        rows.iter().any(|r| r.starts_with("[713,6] ")),
        "{out:.2000}"
    );
    assert!(!rows.iter().any(|r| r.starts_with("[714,")));
    let json = thesis(&[
        "--arch",
        "SNB",
        "--loop",
        "3000",
        "--timeline=3000",
        "--json",
        &program("branchy"),
    ]);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let t = &v["regions"][0]["timeline"];
    assert_eq!(t["iterations"], 714, "{t:.200}");
    assert_eq!(t["capped_from"], 3000);
    // Within the cap, no mark.
    let short = thesis(&[
        "--arch",
        "SNB",
        "--timeline=2",
        "--json",
        &program("branchy"),
    ]);
    let v: serde_json::Value = serde_json::from_str(&short).unwrap();
    assert!(v["regions"][0]["paths"][0]["timeline"]
        .get("capped_from")
        .is_none());
}

#[test]
fn timeline_of_zero_iterations_is_a_usage_error() {
    let home = tempfile::tempdir().unwrap();
    let out = suaca(&["--timeline=0", &program("branchy")], home.path());
    assert_eq!(out.status.code(), Some(2));
}

/// Runs headless Chromium on `page` and returns the DOM after the scripts ran.
fn dump_dom(chromium: &str, page: &Path, profile: &Path) -> String {
    let mut child = Command::new(chromium)
        .args(["--headless", "--no-sandbox", "--disable-gpu", "--dump-dom"])
        .arg(format!("--user-data-dir={}", profile.display()))
        .arg(format!("file://{}", page.display()))
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("chromium starts");
    let deadline = Instant::now() + Duration::from_secs(120);
    while child.try_wait().expect("wait").is_none() {
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("chromium did not finish within 120 s");
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    let out = child.wait_with_output().expect("output");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn trace_page_renders_its_rows_in_chromium() {
    let home = tempfile::tempdir().unwrap();
    let page = home.path().join("trace.html");
    let xml = testdata("xml/thesis.xml");
    let out = suaca(
        &[
            "--uops-xml",
            xml.to_str().unwrap(),
            "--arch",
            "SNB",
            "-p",
            "--trace",
            page.to_str().unwrap(),
            &program("branchy"),
        ],
        home.path(),
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let html = std::fs::read_to_string(&page).expect("the page was written");
    // Self-contained: no external scripts, styles or images.
    for needle in ["src=", "href=", "http://", "https://", "@import"] {
        assert!(!html.contains(needle), "the page loads {needle}");
    }
    assert!(html.contains("id=\"suaca-data\""));
    // --trace alone does not add the timeline to the text report.
    assert!(!String::from_utf8_lossy(&out.stdout).contains("Timeline"));

    let Some(chromium) = ["chromium", "chromium-browser"].into_iter().find(|c| {
        Command::new(c)
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success())
    }) else {
        eprintln!("note: chromium is not installed; skipping the rendering check (apt-get install chromium)");
        return;
    };
    let dom = dump_dom(chromium, &page, &home.path().join("profile"));
    assert!(
        dom.contains("data-rendered=\"yes\""),
        "the script ran: {dom}"
    );
    // The script built one row per instance: 3 iterations x 7 lines.
    assert_eq!(dom.matches("<tr class=\"inst").count(), 21, "{dom}");
    assert!(dom.contains("data-iteration=\"2\" data-line=\"6\""));
    assert!(dom.contains("add rbx, rbx"));
}
