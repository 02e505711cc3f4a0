//! Time and peak resident memory at two sizes 10× apart (issue 32, items 7
//! and 11), of the real `linkbase` binary (this bench's build) run on files
//! as users run it, `linkbase -q -o OUT IN`: the child's wall time and
//! `ru_maxrss` (`tests/support/src/rss.rs`). Time at 10N must stay within 12×
//! the time at N (linear: the bench exits 1 otherwise); the memory figures are docs/hardening.md's
//! "Memory".
//!
//! The shapes:
//! - a long base times many short links: `<base href>` of 8 KB and `<a
//!   href=x>` 120,000 times (1.2 MB; 1 GB of output without the growth
//!   limit), and 10× that;
//! - a WARC whose middle record (1 MB, then 10 MB) is that page under an
//!   8 KB `WARC-Target-URI`, between two small records;
//! - an MHTML archive of one base64 `text/html` part (5 MB, then 50 MB);
//! - a page of nothing but links, `<a href=x>` (10 MB, then 100 MB);
//! - a WARC record whose gzip body (10 KB, then 100 KB) inflates to 10 MB,
//!   then 100 MB, of `<a href=x>`: a decompression bomb, at `-j 2`.
//!
//! `cargo bench --bench output_growth` (a few minutes; the 100 MB page needs
//! about 2 GB). `LINKBASE_BENCH_GROWTH_SCALE=0.1` makes every size ten times
//! smaller.

#[cfg(target_os = "linux")]
use test_support::rss;

#[cfg(target_os = "linux")]
mod bench {
    use super::rss;
    use std::io::{self, BufWriter, Write};
    use std::path::Path;
    use std::process::Command;
    use std::time::Instant;

    /// The long base: 8 KB of path.
    fn long_base() -> String {
        format!("http://h.example/{}/", "a".repeat(8_000))
    }

    fn links(out: &mut impl Write, n: usize) -> io::Result<()> {
        for _ in 0..n {
            out.write_all(b"<a href=x>")?;
        }
        Ok(())
    }

    fn long_base_page(out: &mut impl Write, n: usize) -> io::Result<()> {
        write!(out, "<base href=\"{}\">", long_base())?;
        links(out, n)
    }

    fn record(out: &mut impl Write, n: usize, uri: &str, html: &[u8]) -> io::Result<()> {
        let http = [
            format!(
                "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: {}\r\n\r\n",
                html.len()
            )
            .as_bytes(),
            html,
        ]
        .concat();
        write!(
            out,
            "WARC/1.1\r\nWARC-Type: response\r\nWARC-Record-ID: <urn:uuid:00000000-0000-4000-8000-{n:012}>\r\nWARC-Target-URI: {uri}\r\nContent-Type: application/http; msgtype=response\r\nContent-Length: {}\r\n\r\n",
            http.len()
        )?;
        out.write_all(&http)?;
        out.write_all(b"\r\n\r\n")
    }

    fn long_uri_warc(out: &mut impl Write, n: usize) -> io::Result<()> {
        record(out, 1, "http://h.example/before.html", b"<a href=b>b</a>")?;
        let mut page = Vec::with_capacity(10 * n);
        links(&mut page, n)?;
        record(out, 2, &format!("{}p.html", long_base()), &page)?;
        record(out, 3, "http://h.example/after.html", b"<a href=c>c</a>")
    }

    /// A WARC of one response whose gzip body (about 1 KB a MB) inflates to
    /// `n` links, between two small records: a decompression bomb.
    fn gzip_bomb_warc(out: &mut impl Write, n: usize) -> io::Result<()> {
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
        links(&mut gz, n)?;
        let body = gz.finish()?;
        let head = format!(
            "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Encoding: gzip\r\nContent-Length: {}\r\n\r\n",
            body.len()
        );
        let http = [head.as_bytes(), &body].concat();
        record(out, 1, "http://h.example/before.html", b"<a href=b>b</a>")?;
        write!(
            out,
            "WARC/1.1\r\nWARC-Type: response\r\nWARC-Record-ID: <urn:uuid:00000000-0000-4000-8000-{:012}>\r\nWARC-Target-URI: http://h.example/bomb.html\r\nContent-Type: application/http; msgtype=response\r\nContent-Length: {}\r\n\r\n",
            2,
            http.len()
        )?;
        out.write_all(&http)?;
        out.write_all(b"\r\n\r\n")?;
        record(out, 3, "http://h.example/after.html", b"<a href=c>c</a>")
    }

    fn base64_mhtml(out: &mut impl Write, bytes: usize) -> io::Result<()> {
        use data_encoding::BASE64;
        let unit = b"<p>Some text here and <a href=\"p/x.html\">a link</a> and more text.</p>\n";
        let html = unit.repeat(bytes * 3 / 4 / unit.len());
        out.write_all(b"From: <saved>\r\nSnapshot-Content-Location: http://h.example/a/\r\nMIME-Version: 1.0\r\nContent-Type: multipart/related; type=\"text/html\"; boundary=\"BB\"\r\n\r\n--BB\r\nContent-Type: text/html\r\nContent-Transfer-Encoding: base64\r\nContent-Location: http://h.example/a/index.html\r\n\r\n")?;
        for line in BASE64.encode(&html).as_bytes().chunks(76) {
            out.write_all(line)?;
            out.write_all(b"\r\n")?;
        }
        out.write_all(b"--BB--\r\n")
    }

    /// Runs the binary once on `input`: seconds, peak resident bytes, exit
    /// status, output bytes.
    fn run(
        binary: &Path,
        input: &Path,
        out: &Path,
        args: &[&str],
    ) -> Result<(f64, u64, Option<i32>, u64), String> {
        let _ = std::fs::remove_file(out);
        let start = Instant::now();
        let run = rss::run(
            Command::new(binary)
                .arg("-q")
                .arg("-o")
                .arg(out)
                .arg(input)
                .args(args),
        )?;
        let seconds = start.elapsed().as_secs_f64();
        if !matches!(run.exit_code, Some(0 | 1)) {
            return Err(format!(
                "{}: {:?} {}",
                input.display(),
                run.exit_code,
                run.stderr
            ));
        }
        let len = std::fs::metadata(out).map(|m| m.len()).unwrap_or(0);
        Ok((seconds, run.peak_rss, run.exit_code, len))
    }

    type Generate = fn(&mut BufWriter<std::fs::File>, usize) -> io::Result<()>;

    pub fn main() -> Result<(), String> {
        let scale: f64 = std::env::var("LINKBASE_BENCH_GROWTH_SCALE")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(1.0);
        let binary = Path::new(env!("CARGO_BIN_EXE_linkbase"));
        let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
        let out = dir.path().join("out");
        let shapes: [(&str, &str, usize, Generate, &[&str]); 5] = [
            (
                "long <base href> x short links",
                "page.html",
                120_000,
                long_base_page,
                &[],
            ),
            (
                "long WARC-Target-URI x short links, one record",
                "crawl.warc",
                100_000,
                long_uri_warc,
                &[],
            ),
            (
                "MHTML, one base64 HTML part (bytes)",
                "page.mhtml",
                5_000_000,
                base64_mhtml,
                &[],
            ),
            (
                "a page of nothing but links",
                "links.html",
                1_000_000,
                |w, n| links(w, n),
                &["--url", "http://h.example/"],
            ),
            (
                "a WARC record whose gzip body inflates to N links, -j 2",
                "bomb.warc",
                1_000_000,
                gzip_bomb_warc,
                &["-j", "2"],
            ),
        ];
        let mut worst: f64 = 0.0;
        for (what, name, n, generate, args) in shapes {
            let n = ((n as f64) * scale) as usize;
            let mut times = Vec::new();
            for size in [n, 10 * n] {
                let input = rss::write_file(dir.path(), name, |w| generate(w, size))?;
                let input_len = std::fs::metadata(&input).map_err(|e| e.to_string())?.len();
                let (seconds, peak, status, output_len) = run(binary, &input, &out, args)?;
                println!(
                    "{what}, N = {size}: input {input_len} bytes, output {output_len} bytes, exit {status:?}; \
                     {seconds:.2} s; peak resident {} = {:.2}x the input",
                    rss::in_megabytes(peak),
                    peak as f64 / input_len as f64
                );
                times.push(seconds);
                let _ = std::fs::remove_file(&input);
            }
            let ratio = times[1] / times[0];
            worst = worst.max(ratio);
            println!("{what}: time at 10N / time at N = {ratio:.1} (target <= 12)");
        }
        println!("worst time ratio {worst:.1} (target <= 12)");
        if worst > 12.0 {
            return Err(format!("a time ratio of {worst:.1} is over 12"));
        }
        Ok(())
    }
}

fn main() {
    #[cfg(target_os = "linux")]
    if let Err(e) = bench::main() {
        eprintln!("output_growth bench: {e}");
        std::process::exit(1);
    }
}
