//! Jumps over a block that only chooses a way from a value its predecessor fixes: the block
//! `land.end` of `while (n < N && fgets(...))`, whose φ is `false` from the loop's head and
//! the result of `fgets` from the other side, and whose branch leaves the loop or enters its
//! body. The head's edge then goes straight to the exit (the other successors' φs given the
//! values the jumped block would have passed on), so the two ways no longer meet before the
//! branch, and an analysis of the thread IR that joins at locations keeps what each way
//! knows: in the body `n < N` holds, and the labels of a search that leaves `n` out state
//! it there.
//!
//! It is jump threading (Mueller and Whalley, "Avoiding Conditional Branches by Code
//! Replication"; LLVM's `jump-threading`) restricted to what changes no meaning: only a
//! block of φs and a conditional branch on one of them, only from a predecessor whose value
//! of that φ is an integer constant, no instruction copied, and, as LLVM's pass does, no
//! jump over or into a loop's header (a loop keeps its one entry). LLVM's pass also folds
//! branches on `undef` (a local read before any write), which it may take as undefined
//! behaviour; the model takes such a read as any value, and this rewrite keeps the branch.
//! The rewritten module is the one the verifier lowers and `synth build` instruments, so the
//! built program makes the same jumps.

use llvm_sys::core::*;
use llvm_sys::prelude::*;
use llvm_sys::LLVMOpcode;

/// Threads every jump of `module` that this rewrite takes (see the module documentation);
/// how many.
///
/// # Safety
/// `module` must be a live, well-formed module.
pub(super) unsafe fn thread_jumps(module: LLVMModuleRef) -> usize {
    let mut threaded = 0;
    let mut func = LLVMGetFirstFunction(module);
    while !func.is_null() {
        let mut blocks = Vec::new();
        let mut bb = LLVMGetFirstBasicBlock(func);
        while !bb.is_null() {
            blocks.push(bb);
            bb = LLVMGetNextBasicBlock(bb);
        }
        let headers = loop_headers(&blocks);
        for &b in blocks.iter().filter(|b| !headers.contains(b)) {
            threaded += thread_block(&blocks, &headers, b);
        }
        func = LLVMGetNextFunction(func);
    }
    threaded
}

/// Threads the jumps into `b` (one of `blocks`, its function's) that go on to a successor
/// its predecessor's value fixes, keeping at least one way into `b`, and none into a loop's
/// header (`headers`): the loops keep their entries. How many it threads.
unsafe fn thread_block(
    blocks: &[LLVMBasicBlockRef],
    headers: &[LLVMBasicBlockRef],
    b: LLVMBasicBlockRef,
) -> usize {
    let mut threaded = 0;
    // (Each jump threaded makes `b`'s φs again: the next one is looked for afresh.)
    while let Some((cond, targets)) = chooser(b) {
        let preds: Vec<LLVMBasicBlockRef> = (blocks.iter().copied())
            .filter(|&p| successors(p).contains(&b))
            .collect();
        if preds.len() <= 1 {
            return threaded;
        }
        let Some((p, target)) = preds.into_iter().find_map(|p| {
            let target = fixed_target(b, cond, targets, p)?;
            (!headers.contains(&target)).then_some((p, target))
        }) else {
            return threaded;
        };
        // The target's φs get from `p` what they get from `b`, looked through `b`'s φs.
        let mut added = Vec::new();
        for phi in phis(target) {
            let Some(v) = single_incoming(phi, b) else {
                return threaded;
            };
            let v = if is_phi_of(v, b) {
                match single_incoming(v, p) {
                    Some(w) => w,
                    None => return threaded,
                }
            } else {
                v
            };
            added.push((phi, v));
        }
        for (phi, mut v) in added {
            let mut from = p;
            LLVMAddIncoming(phi, &mut v, &mut from, 1);
        }
        let term = LLVMGetBasicBlockTerminator(p);
        let k = (successors(p).iter())
            .position(|&s| s == b)
            .expect("a predecessor");
        LLVMSetSuccessor(term, k as u32, target);
        for phi in phis(b) {
            drop_incoming(phi, p);
        }
        threaded += 1;
    }
    threaded
}

/// The successor of `b` (among `targets`, taken where `cond` is true, false) that the jump
/// from `p` goes on to, where `p` fixes `cond` by an integer constant, ends in a branch
/// that jumps to `b` once and not to that successor already, and is not `b`.
unsafe fn fixed_target(
    b: LLVMBasicBlockRef,
    cond: LLVMValueRef,
    targets: [LLVMBasicBlockRef; 2],
    p: LLVMBasicBlockRef,
) -> Option<LLVMBasicBlockRef> {
    let c = single_incoming(cond, p)?;
    if LLVMIsAConstantInt(c).is_null() || p == b {
        return None;
    }
    let target = if LLVMConstIntGetZExtValue(c) != 0 {
        targets[0]
    } else {
        targets[1]
    };
    let succ = successors(p);
    let branch = LLVMGetInstructionOpcode(LLVMGetBasicBlockTerminator(p)) == LLVMOpcode::LLVMBr;
    (branch && succ.iter().filter(|&&s| s == b).count() == 1 && !succ.contains(&target))
        .then_some(target)
}

/// Where `b` only chooses a way: its instructions are φs (and debug intrinsics) and a
/// conditional branch on one of its φs, whose values go nowhere but into that branch and
/// into the φs of its two successors as what `b` passes on. The φ the branch tests, and its
/// successors (taken when it is true, when false).
unsafe fn chooser(b: LLVMBasicBlockRef) -> Option<(LLVMValueRef, [LLVMBasicBlockRef; 2])> {
    let term = LLVMGetBasicBlockTerminator(b);
    if term.is_null()
        || LLVMGetInstructionOpcode(term) != LLVMOpcode::LLVMBr
        || LLVMIsConditional(term) == 0
    {
        return None;
    }
    let cond = LLVMGetCondition(term);
    if !is_phi_of(cond, b) {
        return None;
    }
    let targets = [LLVMGetSuccessor(term, 0), LLVMGetSuccessor(term, 1)];
    if targets[0] == targets[1] || targets.contains(&b) {
        return None;
    }
    let mut i = LLVMGetFirstInstruction(b);
    while !i.is_null() && i != term {
        let phi = !LLVMIsAPHINode(i).is_null();
        if !phi && LLVMIsADbgInfoIntrinsic(i).is_null() {
            return None;
        }
        if phi && !used_only_by_the_choice(i, b, term, targets) {
            return None;
        }
        i = LLVMGetNextInstruction(i);
    }
    // Each φ of a successor has exactly one entry for `b`.
    for t in targets {
        for phi in phis(t) {
            single_incoming(phi, b)?;
        }
    }
    Some((cond, targets))
}

/// Whether every use of `phi` (of `b`) is `term`, a debug intrinsic of `b`, or an entry
/// for `b` in a φ of one of `targets`.
unsafe fn used_only_by_the_choice(
    phi: LLVMValueRef,
    b: LLVMBasicBlockRef,
    term: LLVMValueRef,
    targets: [LLVMBasicBlockRef; 2],
) -> bool {
    let mut u = LLVMGetFirstUse(phi);
    while !u.is_null() {
        let user = LLVMGetUser(u);
        let ok = if user == term {
            true
        } else if !LLVMIsADbgInfoIntrinsic(user).is_null() {
            LLVMGetInstructionParent(user) == b
        } else if !LLVMIsAPHINode(user).is_null()
            && targets.contains(&LLVMGetInstructionParent(user))
        {
            (0..LLVMCountIncoming(user))
                .all(|k| LLVMGetIncomingValue(user, k) != phi || LLVMGetIncomingBlock(user, k) == b)
        } else {
            false
        };
        if !ok {
            return false;
        }
        u = LLVMGetNextUse(u);
    }
    true
}

/// The blocks a back edge of the depth-first search from the first of `blocks` (the
/// function's entry) jumps to: the loops' headers.
unsafe fn loop_headers(blocks: &[LLVMBasicBlockRef]) -> Vec<LLVMBasicBlockRef> {
    let mut headers = Vec::new();
    let Some(&entry) = blocks.first() else {
        return headers;
    };
    // (Per block: 0 not seen, 1 on the stack, 2 done.)
    let mut mark: rustc_hash::FxHashMap<LLVMBasicBlockRef, u8> = Default::default();
    let mut stack = vec![(entry, successors(entry), 0usize)];
    mark.insert(entry, 1);
    while let Some((b, succ, next)) = stack.last_mut() {
        let Some(&s) = succ.get(*next) else {
            mark.insert(*b, 2);
            stack.pop();
            continue;
        };
        *next += 1;
        match mark.get(&s).copied().unwrap_or(0) {
            0 => {
                mark.insert(s, 1);
                stack.push((s, successors(s), 0));
            }
            1 if !headers.contains(&s) => headers.push(s),
            _ => {}
        }
    }
    headers
}

/// The successors of `b`'s terminator.
unsafe fn successors(b: LLVMBasicBlockRef) -> Vec<LLVMBasicBlockRef> {
    let term = LLVMGetBasicBlockTerminator(b);
    if term.is_null() {
        return Vec::new();
    }
    (0..LLVMGetNumSuccessors(term))
        .map(|k| LLVMGetSuccessor(term, k))
        .collect()
}

/// The φs at the start of `b`.
unsafe fn phis(b: LLVMBasicBlockRef) -> Vec<LLVMValueRef> {
    let mut out = Vec::new();
    let mut i = LLVMGetFirstInstruction(b);
    while !i.is_null() && !LLVMIsAPHINode(i).is_null() {
        out.push(i);
        i = LLVMGetNextInstruction(i);
    }
    out
}

/// Whether `v` is a φ of `b`.
unsafe fn is_phi_of(v: LLVMValueRef, b: LLVMBasicBlockRef) -> bool {
    !LLVMIsAPHINode(v).is_null() && LLVMGetInstructionParent(v) == b
}

/// The value `phi` takes from `p`, where it has exactly one entry for `p`.
unsafe fn single_incoming(phi: LLVMValueRef, p: LLVMBasicBlockRef) -> Option<LLVMValueRef> {
    let mut found = None;
    for k in 0..LLVMCountIncoming(phi) {
        if LLVMGetIncomingBlock(phi, k) == p {
            if found.is_some() {
                return None;
            }
            found = Some(LLVMGetIncomingValue(phi, k));
        }
    }
    found
}

/// Removes the entries of `phi` for `p` (which no longer jumps to its block): the φ is made
/// again without them, in its place, under its name.
unsafe fn drop_incoming(phi: LLVMValueRef, p: LLVMBasicBlockRef) {
    let ctx = LLVMGetTypeContext(LLVMTypeOf(phi));
    let builder = LLVMCreateBuilderInContext(ctx);
    LLVMPositionBuilderBefore(builder, phi);
    let mut len = 0usize;
    let name = LLVMGetValueName2(phi, &mut len);
    let name = std::slice::from_raw_parts(name as *const u8, len).to_vec();
    let new = LLVMBuildPhi(builder, LLVMTypeOf(phi), c"".as_ptr());
    for k in 0..LLVMCountIncoming(phi) {
        let from = LLVMGetIncomingBlock(phi, k);
        if from != p {
            let mut v = LLVMGetIncomingValue(phi, k);
            let mut from = from;
            LLVMAddIncoming(new, &mut v, &mut from, 1);
        }
    }
    LLVMReplaceAllUsesWith(phi, new);
    LLVMInstructionEraseFromParent(phi);
    LLVMSetValueName2(new, name.as_ptr() as *const _, name.len());
    LLVMDisposeBuilder(builder);
}
