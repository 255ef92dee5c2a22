//! The forked-child runner: fork with a pipe, child preparation (default fault handlers, alarm,
//! CPU pinning), framed writes, reading and reaping. Every libc call here is `unsafe`; each
//! block says why it is sound.
//!
//! Why fork: generated code can fault (SIGILL on an instruction the CPU lacks, SIGSEGV, SIGFPE
//! on a division). In a child with *default* handlers a fault ends the child; the parent sees
//! the signal and loses one benchmark, not the run. The child must not inherit handlers of the
//! parent (e.g. a CLI's Ctrl-C handler): they could jump back into the parent's logic.

use super::{CounterError, HarnessError, MeasureError};

/// Creates a pipe and forks. Returns `(read_fd, write_fd, pid)`; `pid == 0` in the child.
pub fn fork_with_pipe() -> Result<(i32, i32, i32), MeasureError> {
    let mut fds = [0i32; 2];
    #[allow(unsafe_code)]
    // SAFETY: `fds` is a valid 2-element array for pipe2 to fill.
    let rc = unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) };
    if rc != 0 {
        return Err(os_error("pipe"));
    }
    #[allow(unsafe_code)]
    // SAFETY: fork has no memory-safety preconditions. The child only runs code that is safe
    // after fork in practice: it writes to its pipe, calls sched_setaffinity/sigaction/alarm,
    // executes pre-assembled kernels in memory mapped before the fork, and leaves with _exit.
    // glibc's malloc is fork-safe (its arenas are reset in the child), so the small
    // allocations of result messages cannot deadlock on a lock held by another parent thread.
    let pid = unsafe { libc::fork() };
    if pid < 0 {
        close(fds[0]);
        close(fds[1]);
        return Err(os_error("fork"));
    }
    Ok((fds[0], fds[1], pid))
}

/// Child side: restore default handlers for fault signals, arm a timeout, pin to `cpu`.
pub fn prepare_child(cpu: usize, timeout_s: u32) {
    for sig in [
        libc::SIGILL,
        libc::SIGSEGV,
        libc::SIGFPE,
        libc::SIGBUS,
        libc::SIGTRAP,
        libc::SIGALRM,
        libc::SIGINT,
        libc::SIGTERM,
    ] {
        #[allow(unsafe_code)]
        // SAFETY: installing SIG_DFL for a valid signal number has no preconditions.
        unsafe {
            libc::signal(sig, libc::SIG_DFL);
        }
    }
    #[allow(unsafe_code)]
    // SAFETY: sigprocmask with a valid, initialised empty set unblocks all signals (so the
    // alarm and faults are delivered even if the parent thread had them blocked).
    unsafe {
        let mut set: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut set);
        libc::sigprocmask(libc::SIG_SETMASK, &set, std::ptr::null_mut());
        libc::alarm(timeout_s);
    }
    pin_to(cpu);
}

/// Pins the calling thread to `cpu` (best effort; returns whether it worked).
pub fn pin_to(cpu: usize) -> bool {
    #[allow(unsafe_code)]
    // SAFETY: cpu_set_t is plain data; CPU_ZERO/CPU_SET write inside it (CPU_SET checks the
    // index against the set size); sched_setaffinity reads `size_of::<cpu_set_t>()` bytes.
    unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        libc::CPU_ZERO(&mut set);
        libc::CPU_SET(cpu, &mut set);
        libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &set) == 0
    }
}

/// CPUs the process may run on.
pub fn allowed_cpus() -> Vec<usize> {
    #[allow(unsafe_code)]
    // SAFETY: sched_getaffinity fills the zeroed, correctly sized set; CPU_ISSET reads inside it.
    unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        if libc::sched_getaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &mut set) != 0 {
            return vec![0];
        }
        (0..libc::CPU_SETSIZE as usize)
            .filter(|&c| libc::CPU_ISSET(c, &set))
            .collect()
    }
}

/// Writes all of `buf` to `fd` (child side; errors end the child).
pub fn write_all(fd: i32, mut buf: &[u8]) {
    while !buf.is_empty() {
        #[allow(unsafe_code)]
        // SAFETY: `buf` is a valid readable slice of `buf.len()` bytes.
        let n = unsafe { libc::write(fd, buf.as_ptr().cast(), buf.len()) };
        if n <= 0 {
            if std::io::Error::last_os_error().kind() == std::io::ErrorKind::Interrupted {
                continue;
            }
            exit_now(3);
        }
        buf = &buf[n as usize..];
    }
}

/// Reads `fd` until end of file.
pub fn read_to_end(fd: i32) -> Vec<u8> {
    let mut out = Vec::new();
    let mut buf = [0u8; 8192];
    loop {
        #[allow(unsafe_code)]
        // SAFETY: `buf` is a valid writable buffer of `buf.len()` bytes.
        let n = unsafe { libc::read(fd, buf.as_mut_ptr().cast(), buf.len()) };
        if n < 0 {
            if std::io::Error::last_os_error().kind() == std::io::ErrorKind::Interrupted {
                continue;
            }
            break;
        }
        if n == 0 {
            break;
        }
        out.extend_from_slice(&buf[..n as usize]);
    }
    out
}

/// Closes a descriptor we own.
pub fn close(fd: i32) {
    #[allow(unsafe_code)]
    // SAFETY: `fd` is a descriptor this module created and has not closed yet.
    unsafe {
        libc::close(fd);
    }
}

/// Reaps `pid` and reports how it ended.
pub fn wait(pid: i32) -> Result<super::harness::ChildEnd, MeasureError> {
    let mut status = 0i32;
    loop {
        #[allow(unsafe_code)]
        // SAFETY: `status` is a valid out-pointer; `pid` is our own child.
        let rc = unsafe { libc::waitpid(pid, &mut status, 0) };
        if rc == pid {
            break;
        }
        if rc < 0 && std::io::Error::last_os_error().kind() != std::io::ErrorKind::Interrupted {
            return Err(os_error("waitpid"));
        }
    }
    Ok(if libc::WIFSIGNALED(status) {
        super::harness::ChildEnd::Signaled(libc::WTERMSIG(status))
    } else {
        super::harness::ChildEnd::Exited(libc::WEXITSTATUS(status))
    })
}

/// Leaves the child immediately (no destructors, no atexit handlers, no stdio flush of the
/// parent's buffers).
pub fn exit_now(code: i32) -> ! {
    #[allow(unsafe_code)]
    // SAFETY: _exit is async-signal-safe and never returns.
    unsafe {
        libc::_exit(code)
    }
}

/// Signal name for reports.
pub fn signal_name(sig: i32) -> &'static str {
    match sig {
        libc::SIGILL => "SIGILL",
        libc::SIGSEGV => "SIGSEGV",
        libc::SIGFPE => "SIGFPE",
        libc::SIGBUS => "SIGBUS",
        libc::SIGTRAP => "SIGTRAP",
        libc::SIGALRM => "SIGALRM (timeout)",
        libc::SIGKILL => "SIGKILL",
        _ => "signal",
    }
}

/// `perf_event_attr` as the kernel reads it (first 128 bytes, `PERF_ATTR_SIZE_VER7`), written
/// field by field into a zeroed buffer.
#[repr(C)]
struct PerfAttr {
    words: [u64; 16],
}

/// `PERF_TYPE_HARDWARE`.
pub const PERF_TYPE_HARDWARE: u32 = 0;
/// `PERF_TYPE_RAW`.
pub const PERF_TYPE_RAW: u32 = 4;
/// `PERF_COUNT_HW_CPU_CYCLES`.
pub const PERF_COUNT_HW_CPU_CYCLES: u64 = 0;

/// Opens a counting perf event for the calling thread on any CPU, user space only, enabled.
pub fn perf_open(kind: u32, config: u64) -> Result<i32, std::io::Error> {
    let mut attr = PerfAttr { words: [0; 16] };
    attr.words[0] = kind as u64 | (128u64 << 32); // type, size
    attr.words[1] = config;
    // flags at byte 40: exclude_kernel (bit 5) | exclude_hv (bit 6); enabled from the start.
    attr.words[5] = (1 << 5) | (1 << 6);
    #[allow(unsafe_code)]
    // SAFETY: perf_event_open reads `size` (128) bytes from `attr`, which is a live 128-byte
    // struct; pid 0 / cpu -1 / group -1 / flags 0 measure the calling thread.
    let fd = unsafe {
        libc::syscall(
            libc::SYS_perf_event_open,
            &attr as *const PerfAttr,
            0 as libc::pid_t,
            -1 as libc::c_int,
            -1 as libc::c_int,
            0 as libc::c_ulong,
        )
    };
    if fd < 0 {
        return Err(std::io::Error::last_os_error());
    }
    Ok(fd as i32)
}

/// Reads a counting perf event (8-byte value).
pub fn perf_read(fd: i32) -> Option<u64> {
    let mut v = 0u64;
    #[allow(unsafe_code)]
    // SAFETY: reads at most 8 bytes into the local `v`.
    let n = unsafe { libc::read(fd, (&mut v as *mut u64).cast(), 8) };
    (n == 8).then_some(v)
}

/// First bytes of the message a fault handler writes (see [`report_faults`]).
pub const FAULT_MAGIC: &[u8; 8] = b"FAULT\0\0\0";

/// Where the fault handler writes (the child's pipe to the parent).
static FAULT_FD: std::sync::atomic::AtomicI32 = std::sync::atomic::AtomicI32::new(-1);
/// The one-page memfd mapped at faulting addresses (-1: faults are not repaired).
static PAGE_FD: std::sync::atomic::AtomicI32 = std::sync::atomic::AtomicI32::new(-1);
/// Pages the handler may still map.
static PAGES_LEFT: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
/// Pages the handler mapped.
static PAGES_MAPPED: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
/// `si_code` of a SIGSEGV on an address with no mapping (Linux `SEGV_MAPERR`).
const SEGV_MAPERR: i32 = 1;
/// Lowest address the handler maps (Linux refuses pages below `mmap_min_addr`, 64 KiB).
const LOWEST_PAGE: u64 = 0x1_0000;

/// Child side, after [`report_faults`]: a SIGSEGV on an unmapped page (canonical, above
/// 64 KiB) maps one shared page there — the same physical page every time, every 8 bytes
/// holding `fill` — and the instruction is retried, as BHive does; at most `max_pages` times.
/// Returns whether the page could be created.
pub fn map_pages_on_fault(fill: u64, max_pages: u32) -> bool {
    #[allow(unsafe_code)]
    // SAFETY: memfd_create gets a NUL-terminated name; ftruncate sizes the new file to one
    // page; the mapping is checked against MAP_FAILED before the page-sized write through it
    // and unmapped after (the memfd keeps the content).
    let fd = unsafe {
        let fd = libc::memfd_create(c"suaca-fault-page".as_ptr(), libc::MFD_CLOEXEC);
        if fd < 0 || libc::ftruncate(fd, 4096) != 0 {
            return false;
        }
        let p = libc::mmap(
            std::ptr::null_mut(),
            4096,
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_SHARED,
            fd,
            0,
        );
        if p == libc::MAP_FAILED {
            return false;
        }
        let words = std::slice::from_raw_parts_mut(p.cast::<u64>(), 512);
        words.fill(fill);
        libc::munmap(p, 4096);
        fd
    };
    PAGES_MAPPED.store(0, std::sync::atomic::Ordering::SeqCst);
    PAGES_LEFT.store(max_pages, std::sync::atomic::Ordering::SeqCst);
    PAGE_FD.store(fd, std::sync::atomic::Ordering::SeqCst);
    true
}

/// Pages [`map_pages_on_fault`] mapped so far in this child.
pub fn pages_mapped_on_fault() -> u32 {
    PAGES_MAPPED.load(std::sync::atomic::Ordering::SeqCst)
}

/// Maps the fault page at `addr`'s page if allowed (signal handler context).
fn repair(addr: u64) -> bool {
    use std::sync::atomic::Ordering::SeqCst;
    let fd = PAGE_FD.load(SeqCst);
    if fd < 0 || !(LOWEST_PAGE..1 << 47).contains(&addr) || PAGES_LEFT.load(SeqCst) == 0 {
        return false;
    }
    let page = addr & !0xFFF;
    #[allow(unsafe_code)]
    // SAFETY: mmap is a plain system call (safe in a signal handler in practice; no libc
    // lock is taken). MAP_FIXED_NOREPLACE never replaces an existing mapping, so nothing the
    // process uses can be clobbered; the address was just reported unmapped.
    let p = unsafe {
        libc::mmap(
            page as usize as *mut libc::c_void,
            4096,
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_SHARED | libc::MAP_FIXED_NOREPLACE,
            fd,
            0,
        )
    };
    if p as usize as u64 != page {
        return false;
    }
    PAGES_LEFT.fetch_sub(1, SeqCst);
    PAGES_MAPPED.fetch_add(1, SeqCst);
    true
}

/// Child side: on SIGSEGV, SIGILL, SIGFPE, SIGBUS or SIGTRAP, write one framed message
/// (`FAULT_MAGIC`, signal, si_code, rip, fault address) to `fd`, then die of the signal as
/// with the default handler. Lets the parent say which instruction of a user's block faulted.
pub fn report_faults(fd: i32) {
    FAULT_FD.store(fd, std::sync::atomic::Ordering::SeqCst);
    // The faulting code may have any rsp (a user's block runs on a private stack that it may
    // have moved anywhere): handle on an alternate stack. Leaked: the child ends with _exit.
    let stack: &'static mut [u8] = Vec::leak(vec![0u8; 64 * 1024]);
    #[allow(unsafe_code)]
    // SAFETY: `stack` is a live, writable, 'static buffer of the given size; sigaltstack and
    // sigaction read the fully initialised structs passed by pointer; `on_fault` has the
    // SA_SIGINFO handler signature.
    unsafe {
        let ss = libc::stack_t {
            ss_sp: stack.as_mut_ptr().cast(),
            ss_flags: 0,
            ss_size: stack.len(),
        };
        libc::sigaltstack(&ss, std::ptr::null_mut());
        for sig in [
            libc::SIGSEGV,
            libc::SIGILL,
            libc::SIGFPE,
            libc::SIGBUS,
            libc::SIGTRAP,
        ] {
            let mut sa: libc::sigaction = std::mem::zeroed();
            sa.sa_sigaction = on_fault as *const () as usize;
            sa.sa_flags = libc::SA_SIGINFO | libc::SA_ONSTACK | libc::SA_NODEFER;
            libc::sigemptyset(&mut sa.sa_mask);
            libc::sigaction(sig, &sa, std::ptr::null_mut());
        }
    }
}

/// The fault handler: maps a missing page and returns (the instruction is retried), or
/// writes the report and dies of the signal. Async-signal-safe: mmap, write, signal, raise.
extern "C" fn on_fault(sig: i32, info: *mut libc::siginfo_t, ctx: *mut libc::c_void) {
    #[allow(unsafe_code)]
    // SAFETY: the kernel passes valid siginfo and ucontext pointers to an SA_SIGINFO handler;
    // on x86-64 Linux `uc_mcontext.gregs[REG_RIP]` is the interrupted instruction pointer.
    let (code, addr, rip) = unsafe {
        let uc = ctx as *const libc::ucontext_t;
        (
            (*info).si_code,
            (*info).si_addr() as u64,
            (*uc).uc_mcontext.gregs[libc::REG_RIP as usize] as u64,
        )
    };
    if sig == libc::SIGSEGV && code == SEGV_MAPERR && repair(addr) {
        return;
    }
    let mut frame = [0u8; 4 + 32];
    frame[..4].copy_from_slice(&32u32.to_le_bytes());
    frame[4..12].copy_from_slice(FAULT_MAGIC);
    frame[12..16].copy_from_slice(&sig.to_le_bytes());
    frame[16..20].copy_from_slice(&code.to_le_bytes());
    frame[20..28].copy_from_slice(&rip.to_le_bytes());
    frame[28..36].copy_from_slice(&addr.to_le_bytes());
    let fd = FAULT_FD.load(std::sync::atomic::Ordering::SeqCst);
    #[allow(unsafe_code)]
    // SAFETY: write, signal and raise are async-signal-safe; `frame` is a live local buffer.
    // The write is smaller than PIPE_BUF, so it is atomic. With the default action restored
    // and the signal unblocked (SA_NODEFER), raise ends the child with this signal.
    unsafe {
        libc::write(fd, frame.as_ptr().cast(), frame.len());
        libc::signal(sig, libc::SIG_DFL);
        libc::raise(sig);
    }
}

/// Maps the first page of perf event `fd` and reads the user-`rdpmc` counter number and width
/// from it ([`super::timer::rdpmc_counter`]). The mapping stays until `unmap` is true (a
/// child keeps it: the kernel allows `rdpmc` only while the event is mapped).
pub fn perf_rdpmc_counter(fd: i32, unmap: bool) -> Result<(u32, u32), CounterError> {
    const PAGE: usize = 4096;
    #[allow(unsafe_code)]
    // SAFETY: mapping one page of a perf event descriptor we own, read-only and shared, with a
    // null hint has no preconditions; the result is checked against MAP_FAILED.
    let p = unsafe {
        libc::mmap(
            std::ptr::null_mut(),
            PAGE,
            libc::PROT_READ,
            libc::MAP_SHARED,
            fd,
            0,
        )
    };
    if p == libc::MAP_FAILED {
        return Err(CounterError::Mmap(std::io::Error::last_os_error()));
    }
    #[allow(unsafe_code)]
    // SAFETY: `p` is a live, readable mapping of PAGE bytes (checked above); the kernel only
    // updates it in place, and we copy it out before reading.
    let page = unsafe { std::slice::from_raw_parts(p.cast::<u8>(), PAGE) }.to_vec();
    if unmap {
        #[allow(unsafe_code)]
        // SAFETY: `p`/PAGE are exactly what mmap returned and nothing references the mapping
        // any more (`page` is a copy).
        unsafe {
            libc::munmap(p, PAGE);
        }
    }
    Ok(super::timer::rdpmc_counter(&page)?)
}

/// The last OS error of `call`, as a harness error.
fn os_error(call: &'static str) -> MeasureError {
    HarnessError::Os {
        call,
        source: std::io::Error::last_os_error(),
    }
    .into()
}
