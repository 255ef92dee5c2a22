//! `suaca data list|import|fetch` (issue #3 item 2). `fetch` is tested against a local HTTP
//! server on 127.0.0.1 that serves a fixture (and, from CI, the full reconstruction).
#![forbid(unsafe_code)]

use crate::common;
use crate::common::{program, suaca, testdata};

use std::io::{BufRead, BufReader, Write};
use std::net::TcpListener;
use std::path::Path;

/// Serves `body` to `requests` requests, then stops. Returns the URL.
fn serve(body: Vec<u8>, requests: usize) -> (String, std::thread::JoinHandle<()>) {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    let url = format!(
        "http://{}/instructions.xml",
        listener.local_addr().expect("addr")
    );
    let handle = std::thread::spawn(move || {
        for stream in listener.incoming().take(requests) {
            let Ok(mut stream) = stream else { continue };
            let mut reader = BufReader::new(stream.try_clone().expect("clone"));
            let mut line = String::new();
            // Read the request head.
            while reader.read_line(&mut line).map(|n| n > 2).unwrap_or(false) {
                line.clear();
            }
            let head = format!(
                "HTTP/1.1 200 OK\r\nContent-Type: application/xml\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
                body.len()
            );
            let _ = stream.write_all(head.as_bytes());
            let _ = stream.write_all(&body);
        }
    });
    (url, handle)
}

fn stdout(args: &[&str], home: &Path) -> String {
    let out = suaca(args, home);
    assert!(
        out.status.success(),
        "suaca {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("utf-8")
}

#[test]
fn fetch_imports_and_analysis_uses_it() {
    let home = tempfile::tempdir().expect("tempdir");
    let body = std::fs::read(testdata("xml/thesis.xml")).expect("fixture");
    let (url, server) = serve(body, 1);
    let out = stdout(&["data", "fetch", "--url", &url], home.path());
    server.join().expect("server");
    assert!(out.contains("SNB") && out.contains("IVB"), "{out}");
    let list = stdout(&["data", "list"], home.path());
    assert!(
        list.contains("| SNB") && list.contains("(imported)"),
        "{list}"
    );
    // No --uops-xml: the imported data is used.
    let report = stdout(
        &["--arch", "SNB", "--simple-frontend", &program("mov6")],
        home.path(),
    );
    assert!(report.contains("Block throughput: 2.00 cycles"), "{report}");
    // No stray temporary files in the data directory.
    let names: Vec<_> = std::fs::read_dir(home.path().join("data"))
        .expect("data dir")
        .map(|e| e.expect("entry").file_name().to_string_lossy().to_string())
        .collect();
    assert!(names.iter().all(|n| !n.starts_with(".fetch")), "{names:?}");
}

#[test]
fn fetch_failures_are_clear() {
    let home = tempfile::tempdir().expect("tempdir");
    // Nothing listens on this port (bound and dropped).
    let port = TcpListener::bind("127.0.0.1:0")
        .expect("bind")
        .local_addr()
        .expect("addr")
        .port();
    let url = format!("http://127.0.0.1:{port}/instructions.xml");
    let out = suaca(&["data", "fetch", "--url", &url], home.path());
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot download"));
    // A server that sends something that is not the XML.
    let (url, server) = serve(b"<html>not it</html>".to_vec(), 1);
    let out = suaca(&["data", "fetch", "--url", &url], home.path());
    server.join().expect("server");
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn import_and_list() {
    let home = tempfile::tempdir().expect("tempdir");
    let xml = testdata("xml/thesis.xml");
    let out = stdout(&["data", "import", xml.to_str().expect("p")], home.path());
    assert!(out.contains("Imported into"), "{out}");
    let list = stdout(&["data", "list"], home.path());
    for arch in ["IVB", "SKL", "SNB"] {
        assert!(list.contains(&format!("| {arch}")), "{list}");
    }
    // Imported data comes before the embedded ZEN4 data, which is always there.
    assert!(
        list.contains("| ZEN4") && list.contains("embedded"),
        "{list}"
    );
    let fresh = tempfile::tempdir().expect("tempdir");
    let only_embedded = stdout(&["data", "list"], fresh.path());
    assert!(!only_embedded.contains("| SNB"), "{only_embedded}");
    assert!(only_embedded.contains("| ZEN4"), "{only_embedded}");
}

/// The full reconstruction through the same path (run by `.ci/run` with --include-ignored).
#[test]
#[ignore = "needs ../shared; run from .ci/run"]
fn fetch_full_reconstruction() {
    let zst = common::root().join("../shared/data/uops/instructions.xml.zst");
    if !zst.exists() {
        eprintln!("skipped: {} absent", zst.display());
        return;
    }
    let body = zstd::decode_all(std::fs::File::open(&zst).expect("open")).expect("unpack");
    let home = tempfile::tempdir().expect("tempdir");
    let (url, server) = serve(body, 1);
    let out = stdout(&["data", "fetch", "--url", &url], home.path());
    server.join().expect("server");
    assert!(out.contains("ZEN3") && out.contains("SKL"), "{out}");
}
