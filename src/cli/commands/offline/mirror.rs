//! `linkbase offline SITE --url-prefix URL -o OUT` (or `-i`): a folder as
//! `wget -r -p` writes it, made offline. The files are listed, checked and
//! written by the rewrite command's own code ([`crate::cli::commands::rewrite`]:
//! `-r`'s walk, jobs, atomic writes, backups); here is only what makes it
//! a copy: which URLs each file was fetched from (wget's layout read
//! backwards, [`linkbase::offline::wget`]), which files are pages and
//! style sheets (by name, else by content), and the map `urls.tsv`.

use crate::cli::commands::rewrite::inputs::{copied, Entry, InputFile, Skipped};
use crate::cli::commands::rewrite::{run_settings, usage_error};
use crate::cli::files::paths::{resolved, slashed};
use crate::cli::flags::args::{OfflineArgs, RewriteArgs, UsageError};
use crate::cli::flags::settings::{Destination, OfflineSite, Settings};
use crate::cli::EXIT_PARTIAL;
use linkbase::offline::httrack::{self, read_cache_from};
use linkbase::offline::wget::{document_format, has_host_folders, mirror_logged, Layout};
use linkbase::offline::wget_log::{files_in_folder, read_log_from, WgetLog};
use linkbase::offline::CopyMap;
use linkbase::Format;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The name of the map written beside the copy, and its first line.
const MAP: &str = "urls.tsv";
const MAP_HEADER: &[u8] = b"#url\tfile\n";

/// Run the mirror mode; returns the exit status.
pub fn run(args: OfflineArgs) -> i32 {
    let wget_log = args.wget_log.clone();
    let httrack_cache = args.httrack_cache.clone();
    let (settings, layout, site) = match settings(args) {
        Ok(s) => s,
        Err(e) => return usage_error(&e),
    };
    let read = match (&wget_log, &httrack_cache) {
        (Some(log), _) => Some(read_wget_log(log, Source::Wget)),
        (None, Some(cache)) => Some(read_wget_log(cache, Source::Httrack)),
        (None, None) => None,
    };
    let log = match read.transpose() {
        Ok(log) => log,
        Err(e) => return usage_error(&e),
    };
    let httrack = httrack_cache.is_some();
    let map_at = match &settings.destination {
        Destination::Mirror(out) => out.join(MAP),
        _ => site.join(MAP),
    };
    // The report is written before the map: it must not be the map, by
    // any spelling (`..`, a symbolic link).
    if let Some(report) = settings.report.as_deref().filter(|r| *r != Path::new("-")) {
        if let Destination::Mirror(out) = &settings.destination {
            if resolved(report).starts_with(resolved(out)) {
                return usage_error(&UsageError(format!(
                    "--report {}: is inside the output folder {}; give the report a place outside it",
                    report.display(),
                    out.display()
                )));
            }
        }
        if resolved(report) == resolved(&map_at) {
            return usage_error(&UsageError(format!(
                "--report {}: is the copy's map {}; give the report a file of its own",
                report.display(),
                map_at.display()
            )));
        }
    }
    let mut made: Option<Arc<CopyMap>> = None;
    let mut unopened = 0;
    let status = run_settings(settings, false, |settings, entries| {
        let log = log.as_ref().map(|(path, log)| (path.as_path(), log));
        let (copy, files) = prepare(settings, entries, layout, &map_at, log, httrack)?;
        made = Some(copy);
        unopened = files;
        Ok(())
    });
    let Some(copy) = made else {
        return status;
    };
    let status = if unopened > 0 {
        status.max(EXIT_PARTIAL)
    } else {
        status
    };
    match write_map(&copy, &map_at) {
        Ok(()) => status,
        Err(e) => {
            eprintln!("linkbase: error: {}: {e}", map_at.display());
            status.max(EXIT_PARTIAL)
        }
    }
}

/// The rewrite command's settings for `args`, the layout asked for, and SITE.
fn settings(args: OfflineArgs) -> Result<(Settings, LayoutAsked, PathBuf), UsageError> {
    if args.paths.len() != 1 {
        return Err(UsageError(format!(
            "linkbase offline takes one mirror folder (SITE), not {}: run it once for each folder",
            args.paths.len()
        )));
    }
    let Some(prefix) = args.url_prefix else {
        return Err(UsageError::new(
            "linkbase offline SITE needs --url-prefix URL, the URL of SITE (e.g. http://127.0.0.1:8000/)",
        ));
    };
    if args.output.is_none() && !args.in_place {
        return Err(UsageError::new(
            "linkbase offline: give the copy's folder with -o DIR, or convert SITE in place with -i",
        ));
    }
    let layout = LayoutAsked::parse(&args.layout)?;
    let site = args.paths[0].clone();
    let rewrite = RewriteArgs {
        paths: args.paths,
        recursive: true,
        url_prefix: Some(prefix),
        output: args.output.map(|mut out| {
            // A folder, whether it exists or not.
            out.as_mut_os_string().push("/");
            out
        }),
        in_place: args.in_place,
        backup: args.backup,
        backup_mode: args.backup_mode,
        max_size: args.max_size,
        profile: args.profile,
        attributes: args.attributes,
        run: args.run,
        ..RewriteArgs::default()
    };
    let settings = Settings::from_args(rewrite)?;
    Ok((settings, layout, site))
}

/// `--layout`: what was named; `None`: detect.
#[derive(Clone, Copy, Debug, Default)]
struct LayoutAsked {
    hosts: Option<bool>,
    windows: Option<bool>,
}

impl LayoutAsked {
    fn parse(text: &str) -> Result<Self, UsageError> {
        let mut asked = LayoutAsked::default();
        for word in text.split(',').map(str::trim) {
            match word {
                "auto" => {}
                "hosts" => asked.hosts = Some(true),
                "plain" => asked.hosts = Some(false),
                "unix" => asked.windows = Some(false),
                "windows" => asked.windows = Some(true),
                _ => {
                    return Err(UsageError::new(format!(
                        "--layout {text}: `{word}` is none of auto, hosts, plain, unix, windows"
                    )))
                }
            }
        }
        Ok(asked)
    }
}

/// One regular file of SITE: where it is, what it is.
struct SiteFile {
    relative: PathBuf,
    /// `/`-separated.
    slashed: String,
    /// Its format when it is rewritten (a page, a style sheet, a message).
    format: Option<Format>,
}

/// Make the copy from the walk's `entries`: every regular file of SITE is
/// held under the URLs it may have come from; the pages and style sheets
/// (and messages) are the files rewritten, everything else is copied.
fn prepare(
    settings: &mut Settings,
    entries: &mut [Entry],
    asked: LayoutAsked,
    map_at: &Path,
    log: Option<(&Path, &WgetLog)>,
    httrack: bool,
) -> Result<(Arc<CopyMap>, usize), UsageError> {
    let prefix = match &settings.url {
        crate::cli::flags::settings::UrlSource::Prefix(prefix) => prefix.clone(),
        _ => unreachable!("linkbase offline always has --url-prefix"),
    };
    let site_root = settings.paths[0].clone();
    let tops: Vec<String> = entries
        .iter()
        .filter_map(file_of)
        .filter_map(|f| f.relative.components().next())
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    let layout = Layout {
        hosts: asked
            .hosts
            .unwrap_or_else(|| has_host_folders(&prefix, tops.iter().map(String::as_str))),
        windows: asked.windows,
    };
    let mut files: Vec<SiteFile> = Vec::new();
    for entry in entries.iter_mut() {
        let Some(file) = file_of(entry) else {
            continue;
        };
        let regular = std::fs::symlink_metadata(&file.path).is_ok_and(|m| m.is_file());
        // A name that is not UTF-8 is no URL's: copied as it is, held under none.
        if !regular || file.relative.to_str().is_none() {
            continue;
        }
        if file.relative == Path::new(MAP) && is_our_map(&file.path) {
            let name = file.name.clone();
            *entry = Entry::Skip(Skipped {
                name,
                reason: "the map of an earlier linkbase offline run: written anew".into(),
                is_error: false,
                mirrored: None,
                backup: false,
            });
            continue;
        }
        let slashed = slashed(&file.relative);
        let format = document_format(&slashed, layout.windows, || head(&file.path));
        files.push(SiteFile {
            relative: file.relative.clone(),
            slashed,
            format,
        });
    }
    // A map of the site's own would be overwritten: refused.
    let foreign_map = map_at.exists() && !is_our_map(map_at);
    let site_map = site_root.join(MAP);
    if foreign_map || (site_map.exists() && !is_our_map(&site_map)) {
        return Err(UsageError::new(format!(
            "{}: a file of this name that linkbase did not write is in the way of the copy's map",
            if foreign_map { map_at } else { &site_map }.display()
        )));
    }
    let listed: Vec<(&str, Option<Format>)> = files
        .iter()
        .map(|f| (f.slashed.as_str(), f.format))
        .collect();
    // The copy names its pages as a browser reading them from disk needs
    // (an `.html` added, as `wget -E`): in a copy (`-o`) as in place (`-i`).
    // A new name that something of SITE other than its files has (a link,
    // a device, a backup) is not taken.
    if let Some((path, log)) = log {
        let names: std::collections::HashSet<&str> = listed.iter().map(|&(f, _)| f).collect();
        let found = files_in_folder(log, |f| names.contains(f));
        if !log.saved.is_empty() && found.iter().all(Option::is_none) {
            eprintln!(
                "linkbase: {}: warning: it names {} saved files and none of them is a file of {}: not a log of this folder's crawl; the names alone are read",
                path.display(),
                log.saved.len(),
                site_root.display()
            );
        }
    }
    let log = log.map(|(_, log)| log);
    let mut held = match log.filter(|_| httrack) {
        Some(cache) => httrack::mirror(&prefix, &listed, layout, cache),
        None => mirror_logged(&prefix, &listed, layout, true, &[], log),
    };
    let others: Vec<String> = held
        .files
        .iter()
        .zip(&files)
        .filter(|(name, file)| **name != file.slashed)
        .filter(|(name, _)| std::fs::symlink_metadata(site_root.join(name.as_str())).is_ok())
        .map(|(name, _)| name.clone())
        .collect();
    if !others.is_empty() && !httrack {
        let others: Vec<&str> = others.iter().map(String::as_str).collect();
        held = mirror_logged(&prefix, &listed, layout, true, &others, log);
    }
    // A file that keeps a name it will not open under is said, one line
    // each, before anything is written (exit status 1): in place as in a
    // copy, which hold the same names.
    let mut unopened = 0;
    let in_place = matches!(settings.destination, Destination::InPlace { .. });
    for (file, wanted) in files.iter().zip(&held.wanted) {
        if let Some(wanted) = wanted {
            eprintln!(
                "linkbase: error: {}",
                will_not_open(&site_root, file, wanted, in_place)
            );
            unopened += 1;
        }
    }
    let copy = Arc::new(held.copy);
    let mut documents = HashMap::new();
    for ((file, url), name) in files.iter().zip(held.urls).zip(held.files) {
        if let (Some(format), Some(url)) = (file.format, url) {
            documents.insert(file.relative.clone(), (url, format, name));
        }
    }
    for entry in entries.iter_mut() {
        let Some(file) = file_of(entry) else {
            continue;
        };
        let rewritten = documents.contains_key(&file.relative);
        match entry {
            Entry::File(_) if !rewritten => {
                let Entry::File(file) = std::mem::replace(entry, Entry::Stdin) else {
                    unreachable!()
                };
                *entry = copied(file, "not a page or style sheet of the copy");
            }
            Entry::Skip(skip) if rewritten => {
                let file = skip.mirrored.take().expect("a file");
                *entry = Entry::File(file);
            }
            _ => {}
        }
    }
    settings.offline = Some(OfflineSite {
        copy: copy.clone(),
        documents,
    });
    Ok((copy, unopened))
}

/// How many of a log's lines that cannot be read are said, one line each.
const LOG_WARNINGS: usize = 10;

/// Which crawler's list of the files it saved is read.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Source {
    /// wget's log (`--wget-log`).
    Wget,
    /// HTTrack's `hts-cache/new.txt` (`--httrack-cache`).
    Httrack,
}

/// Read wget's log (or HTTrack's cache list) at `path`, saying each line
/// that cannot be read (the first [`LOG_WARNINGS`], then how many more),
/// one line each.
fn read_wget_log(path: &Path, source: Source) -> Result<(PathBuf, WgetLog), UsageError> {
    let option = match source {
        Source::Wget => "--wget-log",
        Source::Httrack => "--httrack-cache",
    };
    let cannot = |e: std::io::Error| {
        UsageError(format!(
            "{option} {}: cannot read: {}",
            path.display(),
            crate::cli::files::io::io_cause(&e)
        ))
    };
    let file = std::fs::File::open(path).map_err(cannot)?;
    let reader = std::io::BufReader::new(file);
    let log = match source {
        Source::Wget => read_log_from(reader),
        Source::Httrack => read_cache_from(reader),
    }
    .map_err(cannot)?;
    for warning in log.warnings.iter().take(LOG_WARNINGS) {
        eprintln!(
            "linkbase: {}:{}: warning: {}; the line is not read",
            path.display(),
            warning.line,
            warning.message
        );
    }
    let more = log.warnings.len().saturating_sub(LOG_WARNINGS) + log.unlisted_warnings;
    if more > 0 {
        eprintln!(
            "linkbase: {}: warning: {more} more lines that cannot be read not shown: only the first {LOG_WARNINGS} are",
            path.display(),
        );
    }
    if log.saved.is_empty() {
        match source {
            Source::Wget => eprintln!(
                "linkbase: {}: warning: no file saved is named in it (wget's log at default verbosity or -nv, in English, names each): the names alone are read",
                path.display()
            ),
            Source::Httrack => eprintln!(
                "linkbase: {}: warning: no file saved is named in it (HTTrack's hts-cache/new.txt names each, URL and file in its 8th and 9th columns): the names alone are read",
                path.display()
            ),
        }
    }
    Ok((path.to_path_buf(), log))
}

/// Why the file `file` of SITE (at `site`), rewritten in place
/// (`in_place`) or in a copy, will not open from disk as what it is: it
/// needs the name `wanted`, which is not free. One line.
fn will_not_open(site: &Path, file: &SiteFile, wanted: &str, in_place: bool) -> String {
    let what = match file.format {
        Some(Format::Css) => "a style sheet",
        Some(Format::Xhtml) => "an XHTML document",
        _ => "a page",
    };
    let there = match std::fs::symlink_metadata(site.join(wanted)) {
        Ok(meta) if meta.is_file() => "a file of the site has that name",
        Ok(meta) if meta.is_dir() => "a folder of the site has that name",
        Ok(meta) if meta.file_type().is_symlink() => "a symbolic link has that name",
        Ok(_) => "something that is not a regular file has that name",
        Err(_) => "another file of the site is renamed to it",
    };
    let kept = if in_place {
        "not renamed; rename or remove the other to convert it"
    } else {
        "its name kept in the copy; rename or remove the other in the site to convert it"
    };
    format!(
        "{}: will not open from disk as {what}: it needs the name {}, and {there} ({kept})",
        site.join(&file.relative).display(),
        site.join(wanted).display()
    )
}

/// The file of an entry of the walk, rewritten or copied.
fn file_of(entry: &Entry) -> Option<&InputFile> {
    match entry {
        Entry::File(file) => Some(file),
        Entry::Skip(Skipped {
            mirrored: Some(file),
            is_error: false,
            ..
        }) => Some(file),
        _ => None,
    }
}

/// The first 1 KiB of the file at `path`, if it can be read.
fn head(path: &Path) -> Option<Vec<u8>> {
    use std::io::Read;
    let mut head = Vec::with_capacity(1024);
    let read = std::fs::File::open(path).and_then(|f| f.take(1024).read_to_end(&mut head));
    read.ok().map(|_| head)
}

/// Is the file at `path` a map written by linkbase offline (it starts with
/// the map's header line)?
fn is_our_map(path: &Path) -> bool {
    use std::io::Read;
    let mut head = Vec::new();
    let read = std::fs::File::open(path)
        .and_then(|f| f.take(MAP_HEADER.len() as u64).read_to_end(&mut head));
    read.is_ok() && head == MAP_HEADER
}

/// Write the map of `copy` to `at`, atomically: the lines of
/// [`CopyMap::write_map`] whose file is on disk beside it (a file that could
/// not be written, its error already said, is not listed).
fn write_map(copy: &CopyMap, at: &Path) -> Result<(), String> {
    let root = at.parent().unwrap_or(Path::new("."));
    let mut bytes = MAP_HEADER.to_vec();
    for (url, file) in copy.entries() {
        if root.join(file).is_file() {
            bytes.extend_from_slice(format!("{url}\t{file}\n").as_bytes());
        }
    }
    if let Some(folder) = at.parent() {
        std::fs::create_dir_all(folder).map_err(|e| crate::cli::files::io::io_cause(&e))?;
    }
    crate::cli::files::atomic::AtomicWriter::from_env()
        .write(at, &[&bytes], None)
        .map_err(|e| e.to_string())
}
