//! Runs a closure so that a panic inside it becomes a value (message, location
//! and backtrace) instead of ending the run, and keeps the default panic output
//! off stderr while doing so. Panics elsewhere still print normally.

use std::any::Any;
use std::backtrace::Backtrace;
use std::cell::{Cell, RefCell};
use std::panic::{self, AssertUnwindSafe};
use std::sync::Once;

/// A caught panic.
#[derive(Clone, Debug)]
pub struct CaughtPanic {
    /// The panic payload as text.
    pub message: String,
    /// `file:line:column` of the panic, when known.
    pub location: Option<String>,
    /// The captured backtrace, rendered.
    pub backtrace: String,
}

impl CaughtPanic {
    /// One-line description: `panicked at LOCATION: MESSAGE`.
    pub fn summary(&self) -> String {
        match &self.location {
            Some(location) => format!("panicked at {location}: {}", self.message),
            None => format!("panicked: {}", self.message),
        }
    }
}

thread_local! {
    static CAPTURING: Cell<bool> = const { Cell::new(false) };
    static LAST: RefCell<Option<(Option<String>, String)>> = const { RefCell::new(None) };
}

static INSTALL: Once = Once::new();

fn install_hook() {
    INSTALL.call_once(|| {
        let previous = panic::take_hook();
        panic::set_hook(Box::new(move |info| {
            if CAPTURING.with(Cell::get) {
                let location = info
                    .location()
                    .map(|l| format!("{}:{}:{}", l.file(), l.line(), l.column()));
                let backtrace = Backtrace::force_capture().to_string();
                LAST.with(|last| *last.borrow_mut() = Some((location, backtrace)));
            } else {
                previous(info);
            }
        }));
    });
}

fn payload_text(payload: &(dyn Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "(non-string panic payload)".to_string()
    }
}

/// Runs `f`, turning a panic into `Err(CaughtPanic)`.
pub fn catch<R>(f: impl FnOnce() -> R) -> Result<R, CaughtPanic> {
    install_hook();
    CAPTURING.with(|c| c.set(true));
    let result = panic::catch_unwind(AssertUnwindSafe(f));
    CAPTURING.with(|c| c.set(false));
    result.map_err(|payload| {
        let (location, backtrace) = LAST
            .with(|last| last.borrow_mut().take())
            .unwrap_or((None, String::new()));
        CaughtPanic {
            message: payload_text(payload.as_ref()),
            location,
            backtrace,
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn panic_becomes_value_and_normal_result_passes_through() {
        assert_eq!(catch(|| 7).ok(), Some(7));
        let caught = catch(|| -> u32 { panic!("boom {}", 42) }).err();
        let caught = caught.map(|c| {
            (
                c.message,
                c.location.is_some_and(|l| l.contains("panic_capture.rs")),
            )
        });
        assert_eq!(caught, Some(("boom 42".to_string(), true)));
    }
}
