//! The lane program's last peephole: runs of like ALU ops merged into one
//! dispatch.

use crate::lanes::program::Op;

/// Merges runs of up to 4 consecutive `Un` / `Bin` / `Tri` ops with the same
/// function into one `UnN` / `BinN` / `TriN` (one dispatch; the parts still run in
/// order, so the meaning is unchanged). A run never swallows a jump target except at
/// its start; jump targets are renumbered.
pub(super) fn group_ops(ops: Vec<Op>) -> Vec<Op> {
    let mut targets = vec![false; ops.len() + 1];
    for op in &ops {
        let t = match op {
            Op::If { else_pc, .. } => *else_pc,
            Op::Else { end_pc, .. } => *end_pc,
            Op::Loop { exit_pc, .. } => *exit_pc,
            Op::EndLoop { body_pc, .. } => *body_pc,
            Op::BreakIf { end_pc, .. } | Op::ContinueIf { end_pc, .. } => *end_pc,
            _ => continue,
        };
        if let Some(x) = targets.get_mut(t as usize) {
            *x = true;
        }
    }
    let key = |op: &Op| match op {
        Op::Un { f, .. } => Some((0u8, *f as u8)),
        Op::Bin { f, .. } => Some((1, *f as u8)),
        Op::Tri { f, .. } => Some((2, *f as u8)),
        _ => None,
    };
    let mut map = vec![0u32; ops.len() + 1];
    let mut out: Vec<Op> = Vec::with_capacity(ops.len());
    let mut i = 0;
    while i < ops.len() {
        let k = key(&ops[i]);
        let mut j = i + 1;
        if k.is_some() {
            while j < ops.len() && j - i < 4 && !targets[j] && key(&ops[j]) == k {
                j += 1;
            }
        }
        for m in map.iter_mut().take(j).skip(i) {
            *m = out.len() as u32;
        }
        if j - i == 1 {
            out.push(ops[i].clone());
        } else {
            let n = (j - i) as u8;
            let mut d = [0u32; 4];
            let mut a = [0u32; 4];
            let mut b = [0u32; 4];
            let mut c = [0u32; 4];
            let mut fun = None;
            for (x, op) in ops[i..j].iter().enumerate() {
                match op {
                    Op::Un { f, d: dd, a: aa } => {
                        (d[x], a[x]) = (*dd, *aa);
                        fun = Some((Some(*f), None, None));
                    }
                    Op::Bin {
                        f,
                        d: dd,
                        a: aa,
                        b: bb,
                    } => {
                        (d[x], a[x], b[x]) = (*dd, *aa, *bb);
                        fun = Some((None, Some(*f), None));
                    }
                    Op::Tri {
                        f,
                        d: dd,
                        a: aa,
                        b: bb,
                        c: cc,
                    } => {
                        (d[x], a[x], b[x], c[x]) = (*dd, *aa, *bb, *cc);
                        fun = Some((None, None, Some(*f)));
                    }
                    _ => {}
                }
            }
            match fun {
                Some((Some(f), _, _)) => out.push(Op::UnN { f, n, d, a }),
                Some((_, Some(f), _)) => out.push(Op::BinN { f, n, d, a, b }),
                Some((_, _, Some(f))) => out.push(Op::TriN { f, n, d, a, b, c }),
                // Runs only hold Un, Bin or Tri ops (see `key`).
                _ => out.extend(ops[i..j].iter().cloned()),
            }
        }
        i = j;
    }
    map[ops.len()] = out.len() as u32;
    let fix = |t: &mut u32| {
        if let Some(v) = map.get(*t as usize) {
            *t = *v;
        }
    };
    for op in out.iter_mut() {
        match op {
            Op::If { else_pc, .. } => fix(else_pc),
            Op::Else { end_pc, .. } => fix(end_pc),
            Op::Loop { exit_pc, .. } => fix(exit_pc),
            Op::EndLoop { body_pc, .. } => fix(body_pc),
            Op::BreakIf { end_pc, .. } | Op::ContinueIf { end_pc, .. } if *end_pc != u32::MAX => {
                fix(end_pc)
            }
            _ => {}
        }
    }
    out
}
