//! `suaca data fetch`: download uops.info's instructions.xml with a progress bar, then import
//! it. The download goes to a temporary file beside the data directory and is removed on any
//! failure, so an interrupted fetch never leaves a partial file behind.

use std::io::{Read, Write};
use std::time::Duration;

use indicatif::{ProgressBar, ProgressStyle};
use suaca::dataset;

use super::env::Dirs;
use crate::Failure;

/// What to do when this machine cannot download.
const OFFLINE_HINT: &str = "without network access here, download \
https://uops.info/instructions.xml on another machine, copy it over and run \
`suaca data import instructions.xml` (or use it directly: --uops-xml FILE, SUACA_UOPS_XML=FILE)";

/// Downloads `url` and imports it into the user data directory.
pub fn fetch(url: &str, dirs: &Dirs) -> Result<(), Failure> {
    std::fs::create_dir_all(&dirs.data)
        .map_err(|e| Failure::input(format!("cannot create {}: {e}", dirs.data.display())))?;
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .timeout_connect(Some(Duration::from_secs(30)))
        .timeout_per_read(Some(Duration::from_secs(60)))
        .build()
        .into();
    let mut response = agent
        .get(url)
        .call()
        .map_err(|e| Failure::input(format!("cannot download {url}: {e}; {OFFLINE_HINT}")))?;
    let total = response
        .headers()
        .get("content-length")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    let bar = match total {
        Some(n) => ProgressBar::new(n).with_style(
            ProgressStyle::with_template(
                "{msg} [{bar:40}] {bytes}/{total_bytes} {bytes_per_sec} eta {eta}",
            )
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .progress_chars("=> "),
        ),
        None => ProgressBar::new_spinner(),
    };
    bar.set_message("downloading instructions.xml");
    let mut tmp = tempfile::Builder::new()
        .prefix(".fetch-")
        .suffix(".xml")
        .tempfile_in(&dirs.data)
        .map_err(|e| {
            Failure::input(format!(
                "cannot create a file in {}: {e}",
                dirs.data.display()
            ))
        })?;
    let mut body = response.body_mut().with_config().limit(u64::MAX).reader();
    let mut buf = vec![0u8; 1 << 16];
    loop {
        let n = body.read(&mut buf).map_err(|e| {
            Failure::input(format!("download of {url} failed: {e}; {OFFLINE_HINT}"))
        })?;
        if n == 0 {
            break;
        }
        tmp.write_all(&buf[..n])
            .map_err(|e| Failure::input(format!("cannot write the download: {e}")))?;
        bar.inc(n as u64);
    }
    bar.finish_and_clear();
    if let Some(n) = total {
        let got = tmp.as_file().metadata().map(|m| m.len()).unwrap_or(0);
        if got != n {
            return Err(Failure::input(format!(
                "download of {url} is incomplete: {got} of {n} bytes"
            )));
        }
    }
    // Import under the canonical name so a later fetch replaces it.
    let named = dirs.data.join("instructions.xml");
    let staged = tmp.into_temp_path();
    std::fs::rename(&staged, &named)
        .map_err(|e| Failure::input(format!("cannot stage the download: {e}")))?;
    let result = dataset::import(&named, &dirs.data);
    let _ = std::fs::remove_file(&named);
    let report = result.map_err(Failure::input)?;
    println!("Fetched {url}");
    println!("Imported into {}:", report.path.display());
    for (arch, n) in &report.archs {
        println!("  {arch:<6} {n} instructions");
    }
    Ok(())
}
