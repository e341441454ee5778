//! Command-line options shared by every example binary.

use std::path::PathBuf;

use crate::ExampleError;

/// Frames rendered by `--headless` when `--frames` is not given.
pub const DEFAULT_HEADLESS_FRAMES: u32 = 60;

/// Parsed command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// `--headless OUT.png`: render without a display and write the last frame.
    pub headless: Option<PathBuf>,
    /// `--frames N`: frames to render (headless: default 60; window: run until
    /// closed unless given).
    pub frames: Option<u32>,
    /// `--size WxH` (default 640x480).
    pub width: u32,
    /// Height of `--size`.
    pub height: u32,
    /// `--threads N`: rasterizer threads (default: every core).
    pub threads: Option<usize>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            headless: None,
            frames: None,
            width: 640,
            height: 480,
            threads: None,
        }
    }
}

/// The usage text of binary `name`.
pub fn usage(name: &str) -> String {
    format!(
        "usage: {name} [--headless OUT.png] [--frames N] [--size WxH] [--threads N]\n\
         \n\
         Without --headless, opens a window and prints frames per second every 5 s\n\
         (Esc or closing the window quits).\n\
         --headless OUT.png  render N frames (default {DEFAULT_HEADLESS_FRAMES}) at a fixed 1/60 s\n\
         \x20                   step without a display, write the last one to OUT.png\n\
         --frames N          frames to render (a window closes after N frames)\n\
         --size WxH          framebuffer size (default 640x480)\n\
         --threads N         rasterizer threads (default: all cores)"
    )
}

impl Options {
    /// Headless frame count: `--frames` or the default.
    pub fn headless_frames(&self) -> u32 {
        self.frames.unwrap_or(DEFAULT_HEADLESS_FRAMES)
    }

    /// Parses the arguments after the program name. `Ok(None)` means `--help` was
    /// given and the usage has been printed.
    pub fn parse(
        name: &str,
        args: impl IntoIterator<Item = String>,
    ) -> Result<Option<Options>, ExampleError> {
        let mut o = Options::default();
        let mut it = args.into_iter();
        let err = |m: String| Err(ExampleError::Args(m));
        while let Some(a) = it.next() {
            // Accept both `--opt value` and `--opt=value`.
            let (flag, inline) = match a.split_once('=') {
                Some((f, v)) if f.starts_with("--") => (f.to_string(), Some(v.to_string())),
                _ => (a.clone(), None),
            };
            if flag == "--help" || flag == "-h" {
                println!("{}", usage(name));
                return Ok(None);
            }
            if !matches!(
                flag.as_str(),
                "--headless" | "--frames" | "--size" | "--threads"
            ) {
                return err(format!("unknown argument `{a}`"));
            }
            let Some(value) = inline.or_else(|| it.next()) else {
                return err(format!("`{flag}` needs a value"));
            };
            match flag.as_str() {
                "--headless" => o.headless = Some(PathBuf::from(value)),
                "--frames" => match value.parse::<u32>() {
                    Ok(n) if n > 0 => o.frames = Some(n),
                    _ => return err(format!("--frames: `{value}` is not a positive integer")),
                },
                "--size" => {
                    let parsed = value
                        .split_once(['x', 'X'])
                        .and_then(|(w, h)| Some((w.parse::<u32>().ok()?, h.parse::<u32>().ok()?)));
                    match parsed {
                        Some((w, h)) if (1..=8192).contains(&w) && (1..=8192).contains(&h) => {
                            (o.width, o.height) = (w, h)
                        }
                        _ => {
                            return err(format!(
                                "--size: `{value}` is not WxH with sides in 1..=8192"
                            ))
                        }
                    }
                }
                _ => match value.parse::<usize>() {
                    Ok(n) if (1..=256).contains(&n) => o.threads = Some(n),
                    _ => return err(format!("--threads: `{value}` is not in 1..=256")),
                },
            }
        }
        Ok(Some(o))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(s: &str) -> Result<Option<Options>, ExampleError> {
        Options::parse("t", s.split_whitespace().map(String::from))
    }

    #[test]
    fn parses_every_option() {
        let o = parse("--headless out.png --frames 30 --size 160x120 --threads=2")
            .unwrap()
            .unwrap();
        assert_eq!(o.headless, Some(PathBuf::from("out.png")));
        assert_eq!(
            (o.frames, o.width, o.height, o.threads),
            (Some(30), 160, 120, Some(2))
        );
        let d = parse("").unwrap().unwrap();
        assert_eq!(d, Options::default());
        assert_eq!(d.headless_frames(), DEFAULT_HEADLESS_FRAMES);
    }

    #[test]
    fn rejects_bad_input() {
        for bad in [
            "--frames 0",
            "--frames x",
            "--size 10",
            "--size 0x5",
            "--size 99999x1",
            "--threads 0",
            "--headless",
            "--bogus",
        ] {
            let e = parse(bad).unwrap_err().to_string();
            assert!(!e.is_empty(), "{bad}");
        }
    }
}
