//! Data-driven rasterization tests: each `tests/data/coverage/*.txt` lists primitives
//! in window coordinates on a small framebuffer; the rendered coverage grid ('#' =
//! covered, top row first) must match `*.expected` (BLESS=1 rewrites it) AND an
//! independent check: triangles against analytic pixel-center coverage, points against
//! the half-open square of their size, lines against one pixel per major-axis step.
//!
//! Input lines: `size W H`, `tri x0 y0 x1 y1 x2 y2`, `point x y size`,
//! `line x0 y0 x1 y1`, `threads N`; `#` starts a comment.

mod common;

use common::*;
use rgl_backend::driver::ShaderStage;
use rgl_backend::driver::*;
use rgl_backend::format::Format;
use rgl_backend::Driver;

#[derive(Debug)]
enum Prim {
    Tri([(f32, f32); 3]),
    Point(f32, f32, f32),
    Line((f32, f32), (f32, f32)),
}

fn parse(text: &str) -> (u32, u32, usize, Vec<Prim>) {
    let (mut w, mut h, mut threads) = (16, 16, 1);
    let mut prims = Vec::new();
    for line in text.lines() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let mut it = line.split_whitespace();
        let kw = it.next().unwrap();
        let nums: Vec<f32> = it.map(|t| t.parse().expect("number")).collect();
        match kw {
            "size" => {
                w = nums[0] as u32;
                h = nums[1] as u32;
            }
            "threads" => threads = nums[0] as usize,
            "tri" => prims.push(Prim::Tri([
                (nums[0], nums[1]),
                (nums[2], nums[3]),
                (nums[4], nums[5]),
            ])),
            "point" => prims.push(Prim::Point(nums[0], nums[1], nums[2])),
            "line" => prims.push(Prim::Line((nums[0], nums[1]), (nums[2], nums[3]))),
            k => panic!("unknown keyword {k}"),
        }
    }
    (w, h, threads, prims)
}

/// Independent expectation for one primitive.
fn expected(w: u32, h: u32, p: &Prim) -> Vec<bool> {
    match p {
        Prim::Tri(t) => analytic_tri(w, h, *t),
        Prim::Point(x, y, s) => {
            let mut out = vec![false; (w * h) as usize];
            for py in 0..h {
                for px in 0..w {
                    let (cx, cy) = (px as f32 + 0.5, py as f32 + 0.5);
                    let inx = cx >= x - s / 2.0 && cx < x + s / 2.0;
                    let iny = cy >= y - s / 2.0 && cy < y + s / 2.0;
                    out[(py * w + px) as usize] = inx && iny;
                }
            }
            out
        }
        Prim::Line(a, b) => {
            // One pixel per step along the major axis: the pixel whose center row
            // (column) is nearest the line at that column's (row's) center, for centers
            // in [start, end).
            let mut out = vec![false; (w * h) as usize];
            let xmajor = (b.0 - a.0).abs() >= (b.1 - a.1).abs();
            let (a, b) = if xmajor {
                (*a, *b)
            } else {
                ((a.1, a.0), (b.1, b.0))
            };
            let (lo, hi) = if a.0 <= b.0 { (a, b) } else { (b, a) };
            let n_major = if xmajor { w } else { h };
            for m in 0..n_major {
                let c = m as f32 + 0.5;
                let inside = if a.0 <= b.0 {
                    c >= lo.0 && c < hi.0
                } else {
                    c > lo.0 && c <= hi.0
                };
                if !inside {
                    continue;
                }
                let t = (c - lo.0) / (hi.0 - lo.0);
                let minor = lo.1 + (hi.1 - lo.1) * t;
                let mi = (minor - 1.0).ceil() as i64; // center mi+0.5 in [minor-0.5, minor+0.5)
                let (px, py) = if xmajor {
                    (m as i64, mi)
                } else {
                    (mi, m as i64)
                };
                if px >= 0 && py >= 0 && (px as u32) < w && (py as u32) < h {
                    out[(py as u32 * w + px as u32) as usize] = true;
                }
            }
            out
        }
    }
}

#[test]
fn coverage_files() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/coverage");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.retain(|p| p.extension().is_some_and(|e| e == "txt"));
    files.sort();
    assert!(!files.is_empty());
    for path in files {
        let text = std::fs::read_to_string(&path).unwrap();
        let (w, h, threads, prims) = parse(&text);
        let mut f = Fixture::new(w, h, Format::Rgba8Unorm, None, threads, 0);
        f.clear([0.0; 4]);
        let mut want = vec![false; (w * h) as usize];
        for p in &prims {
            match p {
                Prim::Tri(t) => f.draw_win(PrimMode::Triangles, t).unwrap(),
                Prim::Point(x, y, s) => {
                    let r =
                        f.d.create_rasterizer_state(&RasterizerState {
                            point_size: *s,
                            ..Default::default()
                        })
                        .unwrap();
                    f.d.bind_rasterizer_state(r).unwrap();
                    f.draw_win(PrimMode::Points, &[(*x, *y)]).unwrap();
                }
                Prim::Line(a, b) => f.draw_win(PrimMode::Lines, &[*a, *b]).unwrap(),
            }
            for (o, e) in want.iter_mut().zip(expected(w, h, p)) {
                *o |= e;
            }
        }
        let got = f.coverage_text();
        assert_eq!(
            got,
            grid_text(w, h, &want),
            "{}: rasterizer vs independent coverage",
            path.display()
        );
        check_expect(&path.with_extension("expected"), &got);
    }
}

#[test]
fn shader_stage_mismatch_is_an_error() {
    let mut f = Fixture::new(4, 4, Format::Rgba8Unorm, None, 1, 0);
    let fs =
        f.d.create_exec_shader(rgl_backend::exec::builtin::constant_fs([1.0; 4]))
            .unwrap();
    assert!(f.d.bind_shader(ShaderStage::Vertex, Some(fs)).is_err());
}
