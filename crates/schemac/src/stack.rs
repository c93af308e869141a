//! The deep stack the back end runs on, for the types that nest as deep as their schemas.

/// The stack the back end runs on. Lowering nests at most `lower::MAX_DEPTH` schemas deep,
/// but its types nest as deep, and `syn` parses (and `prettyplease` prints) a type nested
/// 256 deep with more stack than a caller's thread may have (the 8 MiB of a main thread is
/// not enough in a debug build). Only what is used is committed.
const BACK_END_STACK: usize = 256 << 20;

/// Runs `work` on a thread with [`BACK_END_STACK`] of stack, or here if no thread can start.
pub(crate) fn on_deep_stack<T: Send>(work: impl Fn() -> T + Sync) -> T {
    let spawned = std::thread::scope(|scope| {
        let thread = std::thread::Builder::new().name("schemac-back-end".to_owned()).stack_size(BACK_END_STACK);
        let handle = thread.spawn_scoped(scope, &work).ok()?;
        Some(handle.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)))
    });
    spawned.unwrap_or_else(work)
}
