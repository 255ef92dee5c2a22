//! `--trace FILE.html`: the timeline of every region as one self-contained HTML page (inline
//! CSS and script, no network), for a browser.
//!
//! Owns: the page. The data is the report's timeline, embedded as JSON in a
//! `<script type="application/json" id="suaca-data">` element; the script builds one table
//! per region, one row (`<tr class="inst">`) per instruction instance and one cell per
//! cycle, with the letters and legend of the text timeline
//! ([`super::timeline_text::LEGEND`]). Hovering a row shows its cycles.
//! Must not touch: files (the CLI writes the page atomically).

use serde::Serialize;

use super::model::Report;
use super::views::Timeline;

/// What the page's script reads.
#[derive(Serialize)]
struct PageData<'a> {
    suaca_version: &'a str,
    arch: &'a str,
    input: &'a str,
    legend: &'a str,
    regions: Vec<PageRegion<'a>>,
}

#[derive(Serialize)]
struct PageRegion<'a> {
    index: usize,
    title: String,
    throughput: Option<f64>,
    timeline: &'a Timeline,
}

const STYLE: &str = r#"
body { font-family: system-ui, sans-serif; margin: 1.5em; color: #222; }
h1 { font-size: 1.3em; } h2 { font-size: 1.1em; margin-top: 1.5em; }
p.legend span { display: inline-block; width: 1.2em; text-align: center; margin: 0 .2em; }
table.timeline { border-collapse: collapse; font-family: ui-monospace, monospace; font-size: 12px; }
table.timeline td, table.timeline th { padding: 0 2px; text-align: center; min-width: 1em; }
table.timeline td.id, table.timeline td.text, table.timeline td.src { text-align: left; white-space: nowrap; padding: 0 .6em; }
table.timeline tr.inst:hover { outline: 1px solid #555; }
table.timeline tr.first td { border-top: 1px solid #bbb; }
.D { background: #cfe3ff; } .W { background: #ffe2a8; } .e { background: #bfe8bf; }
.E { background: #4caf50; color: #fff; } .tick { color: #bbb; }
"#;

const SCRIPT: &str = r#"
(function () {
  var data = JSON.parse(document.getElementById('suaca-data').textContent);
  var root = document.getElementById('regions');
  function cell(e, c) {
    var ex = e.started !== null && e.completed !== null && e.started <= c && c <= e.completed;
    if (ex) return c === e.completed ? 'E' : 'e';
    if (e.loaded !== null && e.loaded <= c && c <= e.loaded_last) return 'D';
    if (e.loaded_last !== null && c > e.loaded_last && (e.started === null || c < e.started) && e.waited > 0) return '=';
    return c % 5 === 0 ? '.' : '';
  }
  function src(e) {
    if (e.source_line === null) return '';
    if (e.source_file === null) return String(e.source_line);
    return e.source_file.split('/').pop() + ':' + e.source_line;
  }
  function el(tag, cls, text) {
    var x = document.createElement(tag);
    if (cls) x.className = cls;
    if (text !== undefined) x.textContent = text;
    return x;
  }
  data.regions.forEach(function (r) {
    var t = r.timeline;
    root.appendChild(el('h2', '', r.title));
    var table = el('table', 'timeline');
    table.id = 'region-' + r.index;
    var head = el('tr', 'cycles');
    var withSrc = t.entries.some(function (e) { return e.source_line !== null; });
    head.appendChild(el('th', '', '[It,Line]'));
    for (var c = 0; c < t.cycles; c++) head.appendChild(el('th', '', String(c % 10)));
    if (withSrc) head.appendChild(el('th', '', 'Src'));
    head.appendChild(el('th', '', 'Instruction'));
    table.appendChild(head);
    t.entries.forEach(function (e, i) {
      var first = i === 0 || t.entries[i - 1].iteration !== e.iteration;
      var tr = el('tr', first ? 'inst first' : 'inst');
      tr.dataset.iteration = e.iteration;
      tr.dataset.line = e.line;
      tr.title = 'iteration ' + e.iteration + ', line ' + e.line +
        (e.source_line !== null ? ' (source ' + src(e) + ')' : '') +
        ': loaded ' + e.loaded + ', waited ' + e.waited + ' cycle(s), started ' +
        e.started + ', finished ' + e.completed;
      tr.appendChild(el('td', 'id', '[' + e.iteration + ',' + e.line + ']'));
      for (var c = 0; c < t.cycles; c++) {
        var k = cell(e, c);
        var cls = k === '=' ? 'W' : (k === '.' ? 'tick' : k);
        tr.appendChild(el('td', cls, k));
      }
      if (withSrc) tr.appendChild(el('td', 'src', src(e)));
      tr.appendChild(el('td', 'text', e.text));
      table.appendChild(tr);
    });
    root.appendChild(table);
  });
  document.body.dataset.rendered = 'yes';
})();
"#;

/// The page for `report` (regions without a timeline are left out).
pub fn render_html(report: &Report) -> String {
    let regions = report
        .regions
        .iter()
        .filter_map(|r| {
            let timeline = r.timeline.as_ref()?;
            Some(PageRegion {
                index: r.region.index,
                title: super::titles::region_title(r),
                throughput: r.runs.first().map(|run| run.throughput),
                timeline,
            })
        })
        .collect();
    let data = PageData {
        suaca_version: &report.suaca_version,
        arch: &report.arch,
        input: &report.input.name,
        legend: super::timeline_text::LEGEND,
        regions,
    };
    // Serializing plain data cannot fail; `</` must not end the script element early.
    let json = serde_json::to_string(&data)
        .unwrap_or_else(|_| "{}".into())
        .replace("</", "<\\/")
        .replace("<!--", "<\\!--");
    let title = format!("suaca timeline: {}", escape(&report.input.name));
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <title>{title}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n\
         <h1>{title}</h1>\n<p>{arch}, suaca {version}. One column per cycle.</p>\n\
         <p class=\"legend\"><span class=\"D\">D</span>loaded into the scheduler \
         <span class=\"W\">=</span>waiting <span class=\"e\">e</span>executing \
         <span class=\"E\">E</span>finished</p>\n\
         <noscript>The timeline is drawn by a script; enable JavaScript.</noscript>\n\
         <div id=\"regions\"></div>\n\
         <script type=\"application/json\" id=\"suaca-data\">{json}</script>\n\
         <script>{SCRIPT}</script>\n</body>\n</html>\n",
        arch = escape(&report.arch),
        version = escape(&report.suaca_version),
    )
}

/// Escapes text for HTML element content and attribute values.
fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}
