//! Executable and data memory for generated benchmarks, and the call into generated code.
//!
//! Owns: every `unsafe` operation on generated code (mmap, copy, call) apart from the fork in
//! `harness::child`. Code is assembled in the parent (iced-x86 `CodeAssembler`), copied into a
//! read-write-execute mapping and called (in a forked child) through the System V ABI as
//! `extern "sysv64" fn(iterations: u64, data: *mut u8)`.
//!
//! The data mapping is `MAP_SHARED | MAP_ANONYMOUS`, so a forked child writes into the same
//! physical pages as the parent (no copy-on-write faults inside timed regions) and the parent
//! can read what the kernel stored (the timestamps).

use std::ptr::NonNull;

use super::{HarnessError, MeasureError};

/// Size of the data area (bytes): memory operands, pointer chains, initial register values.
pub const DATA_SIZE: usize = 64 << 20;

/// A private read-write-execute mapping holding generated functions.
pub struct ExecMem {
    ptr: NonNull<u8>,
    len: usize,
    used: usize,
}

/// A shared, pre-faulted read-write data area.
pub struct DataMem {
    ptr: NonNull<u8>,
    len: usize,
}

/// Where one function lives inside an [`ExecMem`].
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct FnHandle {
    /// Start address.
    pub addr: u64,
    /// Code size in bytes.
    pub len: usize,
}

fn mmap_anon(len: usize, prot: i32, flags: i32) -> Result<NonNull<u8>, MeasureError> {
    mmap_anon_at(None, len, prot, flags)
}

/// An anonymous mapping, at exactly `at` when given (`MAP_FIXED_NOREPLACE`: an address range
/// already in use is an error, never replaced).
fn mmap_anon_at(
    at: Option<u64>,
    len: usize,
    prot: i32,
    flags: i32,
) -> Result<NonNull<u8>, MeasureError> {
    let (hint, fixed) = match at {
        Some(a) => (a as usize as *mut libc::c_void, libc::MAP_FIXED_NOREPLACE),
        None => (std::ptr::null_mut(), 0),
    };
    #[allow(unsafe_code)]
    // SAFETY: an anonymous mapping has no preconditions: with a null hint the kernel picks the
    // address; with MAP_FIXED_NOREPLACE it maps exactly `hint` or fails (EEXIST) instead of
    // replacing an existing mapping, so no memory Rust references can be clobbered. The result
    // is checked against MAP_FAILED (and the address against `hint`, for kernels older than
    // 4.17 that treat the flag as a hint) before use and owned by the returned wrapper, which
    // unmaps it once.
    let p = unsafe { libc::mmap(hint, len, prot, flags | fixed | libc::MAP_ANONYMOUS, -1, 0) };
    if p == libc::MAP_FAILED {
        return Err(HarnessError::Mmap {
            len,
            at,
            source: std::io::Error::last_os_error(),
        }
        .into());
    }
    if at.is_some() && p != hint {
        #[allow(unsafe_code)]
        // SAFETY: `p`/`len` are exactly what mmap just returned; nothing references it yet.
        unsafe {
            libc::munmap(p, len);
        }
        return Err(HarnessError::AddressInUse {
            len,
            at: hint as u64,
        }
        .into());
    }
    NonNull::new(p.cast::<u8>()).ok_or(MeasureError::Harness(HarnessError::MmapNull))
}

impl ExecMem {
    /// Maps `len` bytes read-write-execute.
    pub fn new(len: usize) -> Result<Self, MeasureError> {
        let ptr = mmap_anon(
            len,
            libc::PROT_READ | libc::PROT_WRITE | libc::PROT_EXEC,
            libc::MAP_PRIVATE,
        )?;
        Ok(ExecMem { ptr, len, used: 0 })
    }

    /// Maps `len` bytes read-write-execute at exactly `addr` (block profiling places code and
    /// data below 2 GiB, so kernels can address data with 32-bit absolute displacements).
    pub fn new_at(addr: u64, len: usize) -> Result<Self, MeasureError> {
        let ptr = mmap_anon_at(
            Some(addr),
            len,
            libc::PROT_READ | libc::PROT_WRITE | libc::PROT_EXEC,
            libc::MAP_PRIVATE,
        )?;
        Ok(ExecMem { ptr, len, used: 0 })
    }

    /// The address the next function will be placed at (64-byte aligned), for assembling
    /// position-dependent code before [`ExecMem::push`].
    pub fn next_addr(&self) -> u64 {
        (self.ptr.as_ptr() as u64 + self.used as u64 + 63) & !63
    }

    /// Forgets every function (the memory is reused).
    pub fn clear(&mut self) {
        self.used = 0;
    }

    /// Starts the next batch of functions where the last one ended, wrapping to the start only
    /// when less than `room` bytes are left: code of consecutive batches does not share
    /// addresses (and so no predictor state keyed by address, e.g. memory-dependence
    /// predictions of an earlier batch's loads).
    pub fn rotate(&mut self, room: usize) {
        if self.used + room > self.len {
            self.used = 0;
        }
    }

    /// Copies `code` (assembled for address [`ExecMem::next_addr`]) into the mapping.
    pub fn push(&mut self, code: &[u8]) -> Result<FnHandle, MeasureError> {
        let addr = self.next_addr();
        let off = (addr - self.ptr.as_ptr() as u64) as usize;
        if off + code.len() > self.len {
            return Err(HarnessError::ExecFull.into());
        }
        #[allow(unsafe_code)]
        // SAFETY: `off + code.len() <= self.len` was checked, so the destination lies inside our
        // own writable mapping; source and destination cannot overlap (the source is a Rust
        // slice, the destination anonymous mmap memory).
        unsafe {
            std::ptr::copy_nonoverlapping(code.as_ptr(), self.ptr.as_ptr().add(off), code.len());
        }
        self.used = off + code.len();
        Ok(FnHandle {
            addr,
            len: code.len(),
        })
    }

    /// Whether `f` lies inside this mapping.
    pub fn contains(&self, f: FnHandle) -> bool {
        let base = self.ptr.as_ptr() as u64;
        f.addr >= base && f.addr + f.len as u64 <= base + self.used as u64
    }

    /// Calls a generated kernel: `f(iterations, data)`.
    ///
    /// Generated code may fault (SIGILL, SIGSEGV, SIGFPE): call it only in a forked child whose
    /// handlers for those signals are the default ones, so a fault ends the child, not the run.
    pub fn call(&self, f: FnHandle, iterations: u64, data: &DataMem) {
        assert!(
            self.contains(f),
            "function handle outside the executable mapping"
        );
        #[allow(unsafe_code)]
        // SAFETY: `f` points at code we copied into our own executable mapping (checked above).
        // The code was generated by `harness::Kernel::assemble`, whose prologue/epilogue follow
        // the System V ABI: it saves and restores every callee-saved GPR (rbx, rbp, r12–r15),
        // leaves rsp balanced, clears DF and runs vzeroupper before returning, and accesses
        // memory only inside `data` (base register r14 = data pointer + fixed offsets within
        // DATA_SIZE) or its own stack frame. Faults inside the benchmarked instruction are
        // contained by running this only in a forked child (see above).
        unsafe {
            let func: extern "sysv64" fn(u64, *mut u8) = std::mem::transmute(f.addr as usize);
            func(iterations, data.ptr.as_ptr());
        }
    }

    /// Calls a block-profiling kernel (`crate::profile::kernel`): `f(iterations, data)`.
    ///
    /// Such a kernel runs *arbitrary user code* (a marked region or a BHive block): it may
    /// write anywhere in the address space of the calling process or fault. Call it only in a
    /// forked child that trusts nothing after the call but the framed messages it writes and
    /// then leaves with `_exit` (`profile::runner`).
    pub fn call_block_kernel(&self, f: FnHandle, iterations: u64, data: &DataMem) {
        assert!(
            self.contains(f),
            "function handle outside the executable mapping"
        );
        #[allow(unsafe_code)]
        // SAFETY: `f` points at code we copied into our own executable mapping (checked
        // above). Its prologue and epilogue (generated by `profile::kernel`) follow the
        // System V ABI: they save every callee-saved GPR and rsp before the user's block runs
        // on a private stack inside `data`, and restore them (rsp from a slot in `data`)
        // before returning. What the user's block does in between cannot be checked: the
        // caller contract (forked child, nothing trusted afterwards but messages, `_exit`)
        // confines any damage to that child, which the parent only reaps.
        unsafe {
            let func: extern "sysv64" fn(u64, *mut u8) = std::mem::transmute(f.addr as usize);
            func(iterations, data.ptr.as_ptr());
        }
    }
}

impl Drop for ExecMem {
    fn drop(&mut self) {
        #[allow(unsafe_code)]
        // SAFETY: ptr/len are exactly what mmap returned; nothing references the mapping after
        // drop (FnHandles are plain addresses and `call` checks them against `self`).
        unsafe {
            libc::munmap(self.ptr.as_ptr().cast(), self.len);
        }
    }
}

impl DataMem {
    /// Maps `len` bytes shared and touches every page.
    pub fn new(len: usize) -> Result<Self, MeasureError> {
        let ptr = mmap_anon(
            len,
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_SHARED | libc::MAP_POPULATE,
        )?;
        Ok(DataMem { ptr, len })
    }

    /// Maps `len` bytes shared and pre-faulted at exactly `addr` (see [`ExecMem::new_at`]).
    pub fn new_at(addr: u64, len: usize) -> Result<Self, MeasureError> {
        let ptr = mmap_anon_at(
            Some(addr),
            len,
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_SHARED | libc::MAP_POPULATE,
        )?;
        Ok(DataMem { ptr, len })
    }

    /// Base address (what generated code receives in `rsi`).
    pub fn addr(&self) -> u64 {
        self.ptr.as_ptr() as u64
    }

    /// Length in bytes.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Always false (a mapping is never empty).
    pub fn is_empty(&self) -> bool {
        false
    }

    /// The memory as a slice. Generated code writes into it only while the caller is inside
    /// [`ExecMem::call`], which needs `&DataMem` — no `&mut` slice can be live then.
    pub fn bytes_mut(&mut self) -> &mut [u8] {
        #[allow(unsafe_code)]
        // SAFETY: the mapping is `len` bytes, readable and writable, owned by self; the `&mut
        // self` borrow guarantees no other Rust reference to it exists while the slice lives.
        unsafe {
            std::slice::from_raw_parts_mut(self.ptr.as_ptr(), self.len)
        }
    }

    /// Reads a little-endian u64 at `off`.
    pub fn read_u64(&self, off: usize) -> u64 {
        assert!(off + 8 <= self.len);
        #[allow(unsafe_code)]
        // SAFETY: bounds checked above; unaligned read of plain bytes in our own mapping.
        // Generated code is not running concurrently (it runs on this thread, or in a child
        // that has exited by the time the parent reads).
        unsafe {
            std::ptr::read_unaligned(self.ptr.as_ptr().add(off).cast::<u64>())
        }
    }

    /// Writes a little-endian u64 at `off` through a shared reference: for the benchmark
    /// process, which stores its clock settings before running any kernel.
    pub fn store_u64(&self, off: usize, v: u64) {
        assert!(off + 8 <= self.len);
        #[allow(unsafe_code)]
        // SAFETY: bounds checked above; the mapping is writable and owned by self. No Rust
        // reference into it is live (`bytes_mut` needs `&mut self`) and no generated code runs
        // concurrently (callers run kernels on this same thread, afterwards).
        unsafe {
            std::ptr::write_unaligned(self.ptr.as_ptr().add(off).cast::<u64>(), v);
        }
    }

    /// Writes a little-endian u64 at `off`.
    pub fn write_u64(&mut self, off: usize, v: u64) {
        self.bytes_mut()[off..off + 8].copy_from_slice(&v.to_le_bytes());
    }

    /// Fills this process's page table for the whole mapping. A forked child inherits none
    /// of a shared mapping's entries: it maps each page on first touch, and a masked load
    /// whose lanes are all off never touches one, so it takes a microcode assist every time
    /// on the Intel host (gcc's `select_f64` loop, a `vmaskmovpd` with a zero mask, read 296
    /// cycles an iteration instead of 2.6 where no other instruction used its pages).
    pub fn populate(&self) {
        #[allow(unsafe_code)]
        // SAFETY: madvise on our own mapping changes no content; MADV_POPULATE_WRITE only
        // faults its pages in writable (Linux 5.14+; older kernels refuse it, then each page
        // is written with the byte it holds, through a volatile read and write inside the
        // mapping, while no other code runs in this process).
        unsafe {
            let p = self.ptr.as_ptr();
            if libc::madvise(p.cast(), self.len, libc::MADV_POPULATE_WRITE) != 0 {
                for off in (0..self.len).step_by(4096) {
                    let b = p.add(off);
                    std::ptr::write_volatile(b, std::ptr::read_volatile(b));
                }
            }
        }
    }

    /// Maps `[start, start + len)` (addresses inside this mapping, page-aligned; `window` whole
    /// pages) onto one fresh physical area of `window` bytes, repeated: a loop
    /// walking that range runs as long as it needs to while its data stays as small as the
    /// window (`profile::placement`, "Physical windows"). Pre-faulted; the content is whatever
    /// the next fill writes.
    pub fn alias(&mut self, start: u64, len: u64, window: u64) -> Result<(), MeasureError> {
        let base = self.addr();
        let page = 4096;
        assert!(
            start >= base
                && start + len <= base + self.len as u64
                && start.is_multiple_of(page)
                && window.is_multiple_of(page)
                && window > 0,
            "alias {start:#x}+{len:#x} (window {window:#x}) outside the data mapping or unaligned"
        );
        let os = |call: &'static str| HarnessError::Os {
            call,
            source: std::io::Error::last_os_error(),
        };
        #[allow(unsafe_code)]
        // SAFETY: memfd_create gets a NUL-terminated name and returns a descriptor we own;
        // ftruncate sizes it. Each mmap is MAP_FIXED at a page-aligned sub-range of our own
        // data mapping (checked above), so it replaces only memory this value owns and no
        // Rust reference points into (`&mut self`); the descriptor is closed after mapping
        // (the mappings keep the file). Drop unmaps the whole range, these mappings included.
        unsafe {
            let fd = libc::memfd_create(c"suaca-loop-window".as_ptr(), libc::MFD_CLOEXEC);
            if fd < 0 {
                return Err(os("memfd_create").into());
            }
            if libc::ftruncate(fd, window as libc::off_t) != 0 {
                let e = os("ftruncate");
                libc::close(fd);
                return Err(e.into());
            }
            let mut at = start;
            while at < start + len {
                let piece = window.min(start + len - at);
                let p = libc::mmap(
                    at as usize as *mut libc::c_void,
                    piece as usize,
                    libc::PROT_READ | libc::PROT_WRITE,
                    libc::MAP_SHARED | libc::MAP_FIXED | libc::MAP_POPULATE,
                    fd,
                    0,
                );
                if p == libc::MAP_FAILED || p as usize as u64 != at {
                    let source = std::io::Error::last_os_error();
                    libc::close(fd);
                    return Err(HarnessError::Mmap {
                        len: piece as usize,
                        at: Some(at),
                        source,
                    }
                    .into());
                }
                at += piece;
            }
            libc::close(fd);
        }
        Ok(())
    }
}

impl Drop for DataMem {
    fn drop(&mut self) {
        #[allow(unsafe_code)]
        // SAFETY: ptr/len are exactly what mmap returned and no slice borrowed from it outlives
        // `self`.
        unsafe {
            libc::munmap(self.ptr.as_ptr().cast(), self.len);
        }
    }
}

/// Reads the time-stamp counter (serialised with `lfence` on both sides).
pub fn rdtsc() -> u64 {
    #[allow(unsafe_code)]
    // SAFETY: lfence and rdtsc have no memory effects; RDTSC is user-accessible on every x86-64
    // Linux host this code runs on (CR4.TSD is not set by Linux).
    unsafe {
        core::arch::x86_64::_mm_lfence();
        let t = core::arch::x86_64::_rdtsc();
        core::arch::x86_64::_mm_lfence();
        t
    }
}

/// Raw CPUID (leaf, subleaf) → [eax, ebx, ecx, edx].
pub fn cpuid(leaf: u32, sub: u32) -> [u32; 4] {
    #[allow(unsafe_code, unused_unsafe)]
    // SAFETY: CPUID is available on every x86-64 CPU and has no memory effects.
    let r = unsafe { core::arch::x86_64::__cpuid_count(leaf, sub) };
    [r.eax, r.ebx, r.ecx, r.edx]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A window that does not divide the range: every piece, the last one partial, shows the
    /// same bytes; mapped one to one again, the range's bytes are its own.
    #[test]
    fn windows_repeat_their_bytes_over_the_range() {
        let mut data = DataMem::new(2 << 20).unwrap();
        let start = data.addr().next_multiple_of(4096);
        let (len, window) = (0x10_0000, 0x5000);
        data.alias(start, len, window).unwrap();
        data.populate();
        let off = (start - data.addr()) as usize;
        data.write_u64(off + 8, 0x1234);
        for k in [1, 2, 51] {
            assert_eq!(
                data.read_u64(off + k * window as usize + 8),
                0x1234,
                "piece {k}"
            );
        }
        data.alias(start, len, len).unwrap();
        data.write_u64(off + 8, 7);
        assert_eq!(data.read_u64(off + window as usize + 8), 0);
    }
}
