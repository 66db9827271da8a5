//! Writing a card file so that no reader ever sees a half-written one.
//!
//! 1. The file is created under a temporary name beside the output
//!    (`.NAME.bingomint-PID.tmp`) and mapped read-write. The space it needs
//!    is checked up front (so a full disk is an error now, not after the
//!    work), and the blocks of the header and block table, which are
//!    written through the map, are reserved (`posix_fallocate`: a write
//!    through a map into a full disk would be a crash, not an error).
//! 2. The pipeline writes the records (with `pwrite`, so a disk that fills
//!    up anyway is a write error); the header stays zero.
//! 3. [`CardWriter::finish`] writes the header last, flushes the map, fsyncs,
//!    and moves the file into place: a hard link when the output must not be
//!    overwritten (atomic, fails if it exists), a rename with `--force`.
//!
//! A failed run removes its temporary file; so does Ctrl-C or SIGTERM: the
//! first temporary file installs the handler that removes them all (see
//! [`TempOutput::new`]). A run killed outright leaves only the temporary
//! file, whose zero header no command accepts as a card file.
//!
//! [`write_text`] is the same promise for text outputs (export, boards):
//! standard output, or a file that appears whole or not at all.

use memmap2::{MmapMut, MmapOptions};
use std::fs::{File, OpenOptions};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use super::header::HEADER_SIZE;

/// Temporary files to remove if the process is interrupted.
static PENDING: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// Problems writing an output file.
#[derive(Debug, thiserror::Error)]
pub enum WriteError {
    /// The output exists and replacing it was not asked for.
    #[error("'{0}' already exists")]
    Exists(String),
    /// The output names a directory.
    #[error("'{0}' is a directory")]
    Directory(String),
    /// The output names something bingomint never replaces.
    #[error("'{0}' is {1}: bingomint replaces only regular files; name a file (or a device or FIFO to stream to)")]
    NotRegular(String, &'static str),
    /// An I/O step failed; `what` says which.
    #[error("{what} '{path}'")]
    Io {
        what: &'static str,
        path: String,
        #[source]
        source: io::Error,
    },
}

/// An [`WriteError::Io`] for `what` on `path`.
pub fn io_err<'a>(what: &'static str, path: &'a Path) -> impl FnOnce(io::Error) -> WriteError + 'a {
    move |source| WriteError::Io {
        what,
        path: path.display().to_string(),
        source,
    }
}

/// On SIGINT, SIGTERM or SIGHUP: remove every pending temporary file, say
/// so, and exit with status 130. Installed once, by the first temporary file.
fn install_interrupt_cleanup() {
    static INSTALLED: std::sync::Once = std::sync::Once::new();
    // An error here means a handler is already installed: keep that one.
    INSTALLED.call_once(|| {
        let _ = ctrlc::set_handler(on_interrupt);
    });
}

fn on_interrupt() {
    if let Ok(pending) = PENDING.lock() {
        for path in pending.iter() {
            remove_temporary(path);
        }
    }
    eprintln!("bingomint: interrupted; no output file was written");
    std::process::exit(130);
}

/// Removes a temporary file, or a temporary directory and its files.
fn remove_temporary(path: &Path) {
    if path.is_dir() {
        let _ = std::fs::remove_dir_all(path);
    } else {
        let _ = std::fs::remove_file(path);
    }
}

/// The suffixes of a run's temporaries: the output file, and the directory
/// of an out-of-core run's key partitions.
const TEMPORARY_SUFFIXES: [&str; 2] = [".tmp", ".spill"];

/// A temporary directory beside an output (`.NAME.bingomint-PID.spill`),
/// removed with everything in it when dropped, or on Ctrl-C.
pub struct TempDir {
    path: PathBuf,
}

impl TempDir {
    /// Creates the directory under `parent` for a run writing `out`.
    pub fn new(parent: &Path, out: &Path) -> Result<TempDir, WriteError> {
        let name = out
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| "out".into());
        let path = parent.join(format!(".{name}.bingomint-{}.spill", std::process::id()));
        install_interrupt_cleanup();
        std::fs::create_dir(&path).map_err(io_err("cannot create the directory", &path))?;
        PENDING
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(path.clone());
        Ok(TempDir { path })
    }

    /// Where it is.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        remove_temporary(&self.path);
        let mut pending = PENDING.lock().unwrap_or_else(|e| e.into_inner());
        pending.retain(|p| p != &self.path);
    }
}

/// What an output path names now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Target {
    /// Nothing: the output will be created.
    Absent,
    /// A regular file: replaced only with `--force`.
    Regular,
    /// A character device or a FIFO (`/dev/null`, a named pipe): written
    /// through, as a stream, never replaced.
    Stream,
}

fn target(out: &Path) -> Result<Target, WriteError> {
    let Ok(meta) = out.symlink_metadata() else {
        return Ok(Target::Absent);
    };
    let kind = meta.file_type();
    let name = || out.display().to_string();
    if kind.is_file() {
        return Ok(Target::Regular);
    }
    if kind.is_dir() {
        return Err(WriteError::Directory(name()));
    }
    if kind.is_symlink() {
        return Err(WriteError::NotRegular(name(), "a symbolic link"));
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if kind.is_char_device() || kind.is_fifo() {
            return Ok(Target::Stream);
        }
    }
    Err(WriteError::NotRegular(name(), "not a regular file"))
}

/// Fails when `out` exists as a regular file and `force` is false, or names
/// something bingomint never replaces (a directory, a symbolic link, a block
/// device). A character device or FIFO is fine: it is written through.
/// Publishing checks again, atomically; commands call this first too, so a
/// doomed run stops before its work.
pub fn refuse_existing(out: &Path, force: bool) -> Result<(), WriteError> {
    match target(out)? {
        Target::Regular if !force => Err(WriteError::Exists(out.display().to_string())),
        _ => Ok(()),
    }
}

/// The temporary name of a run of process `pid` writing `out`.
fn temporary_name(out_name: &str, pid: u32) -> String {
    format!(".{out_name}.bingomint-{pid}.tmp")
}

/// Removes a temporary left by an interrupted run (see [`stale_temporaries`]).
pub fn remove_stale(path: &Path) -> io::Result<()> {
    if path.is_dir() {
        std::fs::remove_dir_all(path)
    } else {
        std::fs::remove_file(path)
    }
}

/// Temporary files (and partition directories) beside `out` left by runs that were killed outright
/// (their process is gone), with those processes' ids.
pub fn stale_temporaries(out: &Path) -> Vec<(PathBuf, u32)> {
    let Some(name) = out.file_name().map(|n| n.to_string_lossy().into_owned()) else {
        return Vec::new();
    };
    let dir = match out.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let prefix = format!(".{name}.bingomint-");
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut stale: Vec<(PathBuf, u32)> = entries
        .filter_map(|e| e.ok())
        .filter_map(|e| {
            let file = e.file_name().to_string_lossy().into_owned();
            let rest = file.strip_prefix(&prefix)?;
            let pid = TEMPORARY_SUFFIXES
                .iter()
                .find_map(|suffix| rest.strip_suffix(suffix))?
                .parse()
                .ok()?;
            (pid != std::process::id() && !process_alive(pid)).then(|| (e.path(), pid))
        })
        .collect();
    stale.sort();
    stale
}

/// Whether process `pid` exists (a signal-0 probe; elsewhere than Unix, it
/// is assumed to).
fn process_alive(pid: u32) -> bool {
    #[cfg(unix)]
    {
        let Ok(pid) = libc::pid_t::try_from(pid) else {
            return false;
        };
        // SAFETY: signal 0 only checks that the process exists.
        let rc = unsafe { libc::kill(pid, 0) };
        rc == 0 || io::Error::last_os_error().raw_os_error() != Some(libc::ESRCH)
    }
    #[cfg(not(unix))]
    {
        let _ = pid;
        true
    }
}

/// A file being written under a temporary name, published by [`TempOutput::publish`].
pub struct TempOutput {
    out: PathBuf,
    tmp: PathBuf,
    force: bool,
    /// The output is a device or FIFO: the finished file is copied into it.
    stream: bool,
    published: bool,
}

impl TempOutput {
    /// Reserves a temporary path beside `out`; fails early if `out` exists
    /// and `force` is false.
    pub fn new(out: &Path, force: bool) -> Result<(TempOutput, File), WriteError> {
        refuse_existing(out, force)?;
        let stream = target(out)? == Target::Stream;
        let name = out
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .ok_or_else(|| WriteError::Io {
                what: "cannot write to",
                path: out.display().to_string(),
                source: io::Error::new(io::ErrorKind::InvalidInput, "not a file path"),
            })?;
        install_interrupt_cleanup();
        let tmp_name = temporary_name(&name, std::process::id());
        // A stream's file is made in the temporary directory, not beside
        // the device.
        let tmp = if stream {
            std::env::temp_dir().join(tmp_name)
        } else {
            out.with_file_name(tmp_name)
        };
        let file = OpenOptions::new()
            .read(true)
            .write(true)
            .create_new(true)
            .open(&tmp)
            .map_err(io_err("cannot create", out))?;
        PENDING
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(tmp.clone());
        let guard = TempOutput {
            out: out.to_path_buf(),
            tmp,
            force,
            stream,
            published: false,
        };
        Ok((guard, file))
    }

    /// fsyncs `file` and moves it to the output path (or, for a device or
    /// FIFO, copies it in and removes it).
    pub fn publish(mut self, file: &File) -> Result<(), WriteError> {
        if self.stream {
            let mut from = File::open(&self.tmp).map_err(io_err("cannot read back", &self.out))?;
            let mut to = OpenOptions::new()
                .write(true)
                .open(&self.out)
                .map_err(io_err("cannot open", &self.out))?;
            io::copy(&mut from, &mut to).map_err(io_err("cannot write", &self.out))?;
            // Dropping self removes the temporary file.
            return Ok(());
        }
        file.sync_all().map_err(io_err("cannot sync", &self.out))?;
        if self.force {
            std::fs::rename(&self.tmp, &self.out)
                .map_err(io_err("cannot rename into", &self.out))?;
        } else {
            // link() fails if the output appeared meanwhile: never clobber.
            std::fs::hard_link(&self.tmp, &self.out).map_err(|e| {
                if e.kind() == io::ErrorKind::AlreadyExists {
                    WriteError::Exists(self.out.display().to_string())
                } else {
                    io_err("cannot create", &self.out)(e)
                }
            })?;
            let _ = std::fs::remove_file(&self.tmp);
        }
        self.published = true;
        self.forget();
        // Make the new directory entry durable too.
        if let Some(dir) = self.out.parent() {
            let dir = if dir.as_os_str().is_empty() {
                Path::new(".")
            } else {
                dir
            };
            if let Ok(d) = File::open(dir) {
                let _ = d.sync_all();
            }
        }
        Ok(())
    }

    fn forget(&self) {
        let mut pending = PENDING.lock().unwrap_or_else(|e| e.into_inner());
        pending.retain(|p| p != &self.tmp);
    }
}

impl Drop for TempOutput {
    fn drop(&mut self) {
        if !self.published {
            let _ = std::fs::remove_file(&self.tmp);
            self.forget();
        }
    }
}

/// Writes a text output through `write`: to standard output when `out` is
/// None, else to a temporary file beside `out`, published only when all of
/// it was written (never replacing `out` without `force`).
pub fn write_text<T, E: From<WriteError>>(
    out: Option<&Path>,
    force: bool,
    write: impl FnOnce(&mut (dyn Write + Send)) -> Result<T, E>,
) -> Result<T, E> {
    const BUFFER: usize = 1 << 20;
    match out {
        None => {
            let mut sink = BufWriter::with_capacity(BUFFER, io::stdout());
            let value = write(&mut sink)?;
            sink.flush().map_err(|source| WriteError::Io {
                what: "cannot write to",
                path: "standard output".into(),
                source,
            })?;
            Ok(value)
        }
        Some(path) if target(path)? == Target::Stream => {
            let device = OpenOptions::new()
                .write(true)
                .open(path)
                .map_err(io_err("cannot open", path))?;
            let mut sink = BufWriter::with_capacity(BUFFER, device);
            let value = write(&mut sink)?;
            sink.flush().map_err(io_err("cannot write", path))?;
            Ok(value)
        }
        Some(path) => {
            let (temp, handle) = TempOutput::new(path, force)?;
            let mut sink = BufWriter::with_capacity(BUFFER, &handle);
            let value = write(&mut sink)?;
            sink.flush().map_err(io_err("cannot write", path))?;
            drop(sink);
            temp.publish(&handle)?;
            Ok(value)
        }
    }
}

/// A card file being written through a memory map.
pub struct CardWriter {
    temp: TempOutput,
    file: File,
    map: MmapMut,
    /// Where the records start: after the header and the block table.
    records_at: usize,
    /// Where the block table starts: after the header and its front bytes
    /// ([`CardWriter::put_front`]).
    table_at: usize,
}

impl CardWriter {
    /// Creates the temporary file for an output of `len` bytes whose records
    /// start at `records_at`, checks the space for it, reserves the blocks
    /// before the records and maps it.
    pub fn create(
        out: &Path,
        records_at: u64,
        len: u64,
        force: bool,
    ) -> Result<CardWriter, WriteError> {
        let too_big = || WriteError::Io {
            what: "cannot map",
            path: out.display().to_string(),
            source: io::Error::new(
                io::ErrorKind::OutOfMemory,
                "the file exceeds the address space",
            ),
        };
        let records_at = usize::try_from(records_at).map_err(|_| too_big())?;
        usize::try_from(len).map_err(|_| too_big())?;
        let (temp, file) = TempOutput::new(out, force)?;
        file.set_len(len).map_err(io_err("cannot size", out))?;
        check_space(&file, len).map_err(io_err("not enough space for", out))?;
        reserve(&file, (records_at as u64).min(len))
            .map_err(io_err("not enough space for", out))?;
        // SAFETY: the file was created by this process under a fresh
        // temporary name (create_new) and is not shared; its length is fixed
        // and nothing truncates it while mapped. Only the header and block
        // table are written through the map, and their blocks are reserved
        // above: no write through it can fault for lack of space (the
        // records are written with `pwrite`, which fails cleanly).
        let map =
            unsafe { MmapOptions::new().map_mut(&file) }.map_err(io_err("cannot map", out))?;
        Ok(CardWriter {
            temp,
            file,
            map,
            records_at,
            table_at: HEADER_SIZE,
        })
    }

    /// Writes the bytes that sit between the header and the block table (an
    /// items file's list); the table follows them.
    pub fn put_front(&mut self, front: &[u8]) {
        let end = HEADER_SIZE + front.len();
        assert!(end <= self.records_at, "the front fits before the records");
        self.map[HEADER_SIZE..end].copy_from_slice(front);
        self.table_at = end;
    }

    /// The block table (between the header's front and the records), writable, and
    /// the file, to write the records into.
    pub fn table_and_file(&mut self) -> (&mut [u8], &File) {
        (&mut self.map[self.table_at..self.records_at], &self.file)
    }

    /// The record area, read-only.
    pub fn records(&self) -> &[u8] {
        &self.map[self.records_at..]
    }

    /// Where the records start in the file.
    pub fn records_at(&self) -> usize {
        self.records_at
    }

    /// The file being written (to read records back with `pread`).
    pub fn file(&self) -> &File {
        &self.file
    }

    /// Writes the header, flushes and publishes the file.
    pub fn finish(mut self, header: &[u8; HEADER_SIZE]) -> Result<(), WriteError> {
        self.map[..HEADER_SIZE].copy_from_slice(header);
        self.map
            .flush()
            .map_err(io_err("cannot write", &self.temp.out))?;
        drop(self.map);
        self.temp.publish(&self.file)
    }
}

/// Writes `bytes` into `file` at offset `at` (one `pwrite`, retried until
/// all are written) and asks the kernel to start writing them to disk
/// without waiting: the final fsync then has little left to do.
pub fn write_out(file: &File, bytes: &[u8], at: u64) -> io::Result<()> {
    use std::os::unix::fs::FileExt;
    file.write_all_at(bytes, at)?;
    start_writeback(file, at as usize, at as usize + bytes.len());
    Ok(())
}

/// Asks the kernel to start writing bytes `from..to` of `file` to disk, without
/// waiting.
#[cfg(target_os = "linux")]
fn start_writeback(file: &File, from: usize, to: usize) {
    use std::os::unix::io::AsRawFd;
    // SAFETY: plain syscall on a valid, open file descriptor; only a hint.
    unsafe {
        libc::sync_file_range(
            file.as_raw_fd(),
            from as libc::off64_t,
            (to - from) as libc::off64_t,
            libc::SYNC_FILE_RANGE_WRITE,
        );
    }
}

#[cfg(not(target_os = "linux"))]
fn start_writeback(_file: &File, _from: usize, _to: usize) {}

/// Fails with `StorageFull` when the file system holding `file` has less
/// than `len` bytes free for it (the blocks it has already count).
#[cfg(unix)]
fn check_space(file: &File, len: u64) -> io::Result<()> {
    use std::os::unix::io::AsRawFd;
    // SAFETY: plain syscall on a valid, open file descriptor, into a
    // zeroed struct it fills.
    let mut stat: libc::statvfs = unsafe { std::mem::zeroed() };
    if unsafe { libc::fstatvfs(file.as_raw_fd(), &mut stat) } != 0 {
        // No figures (an unusual file system): writing will tell.
        return Ok(());
    }
    let free = stat.f_bavail.saturating_mul(stat.f_frsize);
    let held = std::os::unix::fs::MetadataExt::blocks(&file.metadata()?).saturating_mul(512);
    let needed = len.saturating_sub(held);
    if needed > free {
        return Err(io::Error::new(
            io::ErrorKind::StorageFull,
            format!("No space left on device ({needed} bytes needed, {free} free)"),
        ));
    }
    Ok(())
}

#[cfg(not(unix))]
fn check_space(_file: &File, _len: u64) -> io::Result<()> {
    Ok(())
}

#[cfg(unix)]
fn reserve(file: &File, len: u64) -> io::Result<()> {
    use std::os::unix::io::AsRawFd;
    if len == 0 {
        return Ok(());
    }
    // SAFETY: plain syscall on a valid, open file descriptor.
    let rc = unsafe { libc::posix_fallocate(file.as_raw_fd(), 0, len as libc::off_t) };
    match rc {
        0 => Ok(()),
        // Filesystems without fallocate: fall back to the sparse file.
        libc::EOPNOTSUPP | libc::EINVAL => Ok(()),
        errno => Err(io::Error::from_raw_os_error(errno)),
    }
}

#[cfg(not(unix))]
fn reserve(_file: &File, _len: u64) -> io::Result<()> {
    Ok(())
}
