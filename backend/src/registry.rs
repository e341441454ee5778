//! The drivers rgl can create by name, the way Mesa's gallium loader picks a
//! driver from `GALLIUM_DRIVER`: one table of [`DriverEntry`] rows, a default
//! (the first row that is available on this host) and the `RGL_DRIVER`
//! environment variable that overrides it.
//!
//! A state tracker that wants a specific driver object can still build one itself
//! and hand it over (`rgl_state::Context::with_driver`); this table is what
//! `Context::new_headless` and the tools use.

use std::sync::{Arc, OnceLock};

use crate::driver::Driver;
use crate::jit::{self, JitCompiler};
use crate::lanes::LaneCompiler;
use crate::soft::SoftDriver;
use crate::{Error, Result};

/// Environment variable naming the driver to create (`RGL_DRIVER=interp`).
pub const DRIVER_ENV: &str = "RGL_DRIVER";

/// Settings every driver constructor receives.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct DriverConfig {
    /// Worker threads for rasterization (at least 1).
    pub threads: usize,
}

impl DriverConfig {
    /// Every available core, or `RGL_THREADS` when it is set to a number.
    pub fn from_env() -> DriverConfig {
        let threads = std::env::var("RGL_THREADS")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
        DriverConfig {
            threads: threads.max(1),
        }
    }
}

/// One driver rgl knows how to create.
#[derive(Copy, Clone, Debug)]
pub struct DriverEntry {
    /// The name `RGL_DRIVER` takes.
    pub name: &'static str,
    /// One line for `--help` texts and logs.
    pub description: &'static str,
    /// Whether the driver can run on this host (a JIT needs a supported CPU).
    pub available: fn() -> bool,
    /// Builds the driver.
    pub create: fn(&DriverConfig) -> Box<dyn Driver>,
}

fn always() -> bool {
    true
}

fn create_jit(config: &DriverConfig) -> Box<dyn Driver> {
    // One compiler (and Cranelift target) for every context of the process.
    static JIT: OnceLock<Option<Arc<JitCompiler>>> = OnceLock::new();
    let mut driver = SoftDriver::new(config.threads);
    match JIT.get_or_init(|| JitCompiler::new().ok().map(Arc::new)) {
        Some(jit) => {
            driver.set_compiler(jit.clone());
            driver.set_compute_engine(crate::compute::ComputeEngine::Jit);
        }
        None => driver.set_compiler(Arc::new(LaneCompiler)),
    }
    Box::new(driver)
}

fn create_interp(config: &DriverConfig) -> Box<dyn Driver> {
    let mut driver = SoftDriver::new(config.threads);
    driver.set_compiler(std::sync::Arc::new(LaneCompiler));
    Box::new(driver)
}

/// Every driver, in order of preference: the default is the first available one.
static DRIVERS: &[DriverEntry] = &[
    DriverEntry {
        name: "jit",
        description: "software rasterizer, vertex and fragment shaders compiled to native SIMD code by Cranelift (geometry shaders and what the JIT does not compile run on the interpreter)",
        available: jit::host_supported,
        create: create_jit,
    },
    DriverEntry {
        name: "interp",
        description: "software rasterizer, shaders run by the lane-program interpreter",
        available: always,
        create: create_interp,
    },
];

/// The driver table.
pub fn drivers() -> &'static [DriverEntry] {
    DRIVERS
}

/// The entry called `name`, if it exists.
pub fn find(name: &str) -> Option<&'static DriverEntry> {
    DRIVERS.iter().find(|entry| entry.name == name)
}

/// The first available driver.
pub fn default_entry() -> &'static DriverEntry {
    DRIVERS
        .iter()
        .find(|entry| (entry.available)())
        .unwrap_or(&DRIVERS[0])
}

/// Creates the driver called `name`, or the default one for `None`. An unknown
/// name or a driver this host cannot run is an [`Error::Unsupported`] that lists
/// the names there are.
pub fn create(name: Option<&str>, config: &DriverConfig) -> Result<Box<dyn Driver>> {
    let entry = match name {
        None => default_entry(),
        Some(name) => {
            let entry = find(name).ok_or_else(|| {
                let names: Vec<&str> = DRIVERS.iter().map(|e| e.name).collect();
                Error::Unsupported(format!(
                    "no driver called `{name}` (drivers: {})",
                    names.join(", ")
                ))
            })?;
            if !(entry.available)() {
                return Err(Error::Unsupported(format!(
                    "driver `{name}` cannot run on this host"
                )));
            }
            entry
        }
    };
    log::debug!("creating driver `{}` ({})", entry.name, entry.description);
    Ok((entry.create)(config))
}

/// Creates the driver `RGL_DRIVER` names, or the default one when it is unset.
/// When the variable names no usable driver, logs a warning and creates the
/// default driver (a bad setting must not stop an application).
pub fn create_from_env(config: &DriverConfig) -> Box<dyn Driver> {
    let requested = std::env::var(DRIVER_ENV).ok().filter(|v| !v.is_empty());
    match create(requested.as_deref(), config) {
        Ok(driver) => driver,
        Err(e) => {
            log::warn!("{DRIVER_ENV}: {e}; using `{}`", default_entry().name);
            (default_entry().create)(config)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_names_are_errors_that_list_the_drivers() {
        let config = DriverConfig { threads: 1 };
        let err = create(Some("no-such-driver"), &config)
            .err()
            .map(|e| e.to_string());
        let text = err.unwrap_or_default();
        assert!(
            text.contains("no-such-driver") && text.contains("interp"),
            "{text}"
        );
        assert!(create(Some("interp"), &config).is_ok());
        assert_eq!(
            create(Some("jit"), &config).is_ok(),
            jit::host_supported(),
            "the jit driver exists exactly where the host supports it"
        );
        assert!(create(None, &config).is_ok());
    }
}
