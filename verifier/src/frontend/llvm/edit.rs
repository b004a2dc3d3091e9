//! A safe editor over LLVM's C API for the module a program was lowered from: it finds the
//! instructions by the numbers the lowering gave them ([`crate::ir::Bitcode`],
//! [`crate::ir::Transition::at`]), inserts calls around them, replaces or removes calls,
//! renames functions, and writes the module back. `synth build` instruments the verified
//! module with it (`schedgen::instrument`), so the deployed code is the verified code.
//!
//! Besides [`super::canonical`], this is the only code that calls LLVM's C API; it is
//! `unsafe` inside and safe to use.

use super::format::ReadLength;
use crate::ir::{Bitcode, CellStep};
use llvm_sys::analysis::{LLVMVerifierFailureAction, LLVMVerifyModule};
use llvm_sys::bit_reader::LLVMParseBitcodeInContext2;
use llvm_sys::bit_writer::LLVMWriteBitcodeToFile;
use llvm_sys::core::*;
use llvm_sys::prelude::*;
use llvm_sys::{LLVMLinkage, LLVMOpcode, LLVMTypeKind};
use std::collections::HashSet;
use std::ffi::{CStr, CString};
use std::path::Path;

/// What an instruction is, as far as the instrumentation cares.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InstrKind {
    Load,
    Store,
    AtomicRmw,
    CmpXchg,
    Fence,
    /// A conditional branch.
    CondBr,
    Switch,
    /// A call of `callee` (a function's name; `None` through a pointer) with `args` arguments.
    Call {
        callee: Option<String>,
        args: usize,
    },
    /// A local variable's allocation.
    Alloca,
    /// A return from the function.
    Ret,
    /// Anything else (its opcode).
    Other(String),
}

/// An LLVM module being edited.
/// An argument of a library call that the built program passes as a copy
/// ([`Module::copy_printed`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PrintedRead {
    /// The call's argument.
    pub arg: u32,
    /// The schedule's site of its reads (`SYNTH_NONE` where they are no events).
    pub site: u32,
    /// The sites of the arms of its loop, in the order of [`crate::ir::PrintedArm::ALL`]
    /// (`SYNTH_NONE` where the schedule does not branch on one).
    pub arms: [u32; 6],
    /// How much of it is read.
    pub length: ReadLength,
}

pub struct Module {
    ctx: LLVMContextRef,
    module: LLVMModuleRef,
    builder: LLVMBuilderRef,
    /// The numbered instructions; `None` once removed.
    instrs: Vec<Option<LLVMValueRef>>,
    /// The function of each numbered instruction (index into `names`).
    owner: Vec<u32>,
    names: Vec<String>,
}

impl Drop for Module {
    fn drop(&mut self) {
        // SAFETY: the builder and the context (which owns the module) were created by
        // `Module::parse` and are disposed once.
        unsafe {
            LLVMDisposeBuilder(self.builder);
            LLVMContextDispose(self.ctx);
        }
    }
}

fn cstring(s: &str) -> CString {
    CString::new(s.replace('\0', "")).expect("no NUL left")
}

/// The name of a value (empty when it has none).
unsafe fn name_of(v: LLVMValueRef) -> String {
    let mut len = 0usize;
    let p = LLVMGetValueName2(v, &mut len);
    if p.is_null() {
        return String::new();
    }
    String::from_utf8_lossy(std::slice::from_raw_parts(p.cast::<u8>(), len)).into_owned()
}

impl Module {
    /// Reads `b`, numbering its instructions as the lowering did; an error when the numbering
    /// disagrees with the one `b` records (not the module the program was lowered from).
    pub fn parse(b: &Bitcode) -> Result<Module, String> {
        // SAFETY: the buffer is copied by LLVM; every object is owned by the context, which
        // the returned `Module` disposes when dropped.
        unsafe {
            let ctx = LLVMContextCreate();
            let buf = LLVMCreateMemoryBufferWithMemoryRangeCopy(
                b.bytes.as_ptr().cast(),
                b.bytes.len(),
                c"synth-module".as_ptr(),
            );
            let mut module: LLVMModuleRef = std::ptr::null_mut();
            let failed = LLVMParseBitcodeInContext2(ctx, buf, &mut module) != 0;
            LLVMDisposeMemoryBuffer(buf);
            if failed {
                LLVMContextDispose(ctx);
                return Err("cannot parse the program's bitcode".into());
            }
            let builder = LLVMCreateBuilderInContext(ctx);
            let mut m = Module {
                ctx,
                module,
                builder,
                instrs: Vec::new(),
                owner: Vec::new(),
                names: Vec::new(),
            };
            let mut f = LLVMGetFirstFunction(module);
            while !f.is_null() {
                if LLVMIsDeclaration(f) == 0 {
                    let k = m.names.len() as u32;
                    m.names.push(name_of(f));
                    let mut bb = LLVMGetFirstBasicBlock(f);
                    while !bb.is_null() {
                        let mut i = LLVMGetFirstInstruction(bb);
                        while !i.is_null() {
                            m.instrs.push(Some(i));
                            m.owner.push(k);
                            i = LLVMGetNextInstruction(i);
                        }
                        bb = LLVMGetNextBasicBlock(bb);
                    }
                }
                f = LLVMGetNextFunction(f);
            }
            let sizes: Vec<(String, u32)> = (0..m.names.len())
                .map(|k| {
                    let n = m.owner.iter().filter(|&&o| o as usize == k).count() as u32;
                    (m.names[k].clone(), n)
                })
                .collect();
            if sizes != b.functions {
                return Err(
                    "the module's instructions are not the ones the program was \
                            lowered from"
                        .into(),
                );
            }
            Ok(m)
        }
    }

    fn get(&self, n: u32) -> LLVMValueRef {
        self.instrs[n as usize].expect("a numbered instruction that was not removed")
    }

    /// The number of numbered instructions.
    pub fn instruction_count(&self) -> u32 {
        self.instrs.len() as u32
    }

    /// Whether `n` numbers an instruction of the module.
    pub fn has(&self, n: u32) -> bool {
        matches!(self.instrs.get(n as usize), Some(Some(_)))
    }

    /// The function instruction `n` belongs to.
    pub fn function_of(&self, n: u32) -> &str {
        &self.names[self.owner[n as usize] as usize]
    }

    /// What instruction `n` is.
    pub fn kind(&self, n: u32) -> InstrKind {
        let i = self.get(n);
        // SAFETY: `i` is a live instruction of the module.
        unsafe {
            match LLVMGetInstructionOpcode(i) {
                LLVMOpcode::LLVMLoad => InstrKind::Load,
                LLVMOpcode::LLVMStore => InstrKind::Store,
                LLVMOpcode::LLVMAtomicRMW => InstrKind::AtomicRmw,
                LLVMOpcode::LLVMAtomicCmpXchg => InstrKind::CmpXchg,
                LLVMOpcode::LLVMFence => InstrKind::Fence,
                LLVMOpcode::LLVMBr if LLVMIsConditional(i) != 0 => InstrKind::CondBr,
                LLVMOpcode::LLVMSwitch => InstrKind::Switch,
                LLVMOpcode::LLVMAlloca => InstrKind::Alloca,
                LLVMOpcode::LLVMRet => InstrKind::Ret,
                LLVMOpcode::LLVMCall => {
                    let c = LLVMGetCalledValue(i);
                    let callee = if LLVMIsAFunction(c).is_null() {
                        None
                    } else {
                        Some(name_of(c))
                    };
                    InstrKind::Call {
                        callee,
                        args: LLVMGetNumArgOperands(i) as usize,
                    }
                }
                op => InstrKind::Other(format!("{op:?}")),
            }
        }
    }

    /// `(file, line, column)` of instruction `n`'s debug location, if it has one.
    pub fn position(&self, n: u32) -> Option<(String, u32, u32)> {
        let i = self.instrs.get(n as usize).copied().flatten()?;
        // SAFETY: `i` is a live instruction; the file name is copied out.
        unsafe {
            if llvm_sys::debuginfo::LLVMInstructionGetDebugLoc(i).is_null() {
                return None;
            }
            let mut len = 0u32;
            let p = LLVMGetDebugLocFilename(i, &mut len);
            let file = if p.is_null() {
                String::new()
            } else {
                String::from_utf8_lossy(std::slice::from_raw_parts(p.cast::<u8>(), len as usize))
                    .into_owned()
            };
            Some((file, LLVMGetDebugLocLine(i), LLVMGetDebugLocColumn(i)))
        }
    }

    fn i32_ty(&self) -> LLVMTypeRef {
        // SAFETY: the context is live.
        unsafe { LLVMInt32TypeInContext(self.ctx) }
    }

    fn u32_const(&self, v: u32) -> LLVMValueRef {
        // SAFETY: the context is live.
        unsafe { LLVMConstInt(self.i32_ty(), v as u64, 0) }
    }

    /// A call of `f`, of type `ty`, with `args` at the builder's position.
    unsafe fn build_call(
        &self,
        ty: LLVMTypeRef,
        f: LLVMValueRef,
        args: &mut [LLVMValueRef],
    ) -> LLVMValueRef {
        LLVMBuildCall2(
            self.builder,
            ty,
            f,
            args.as_mut_ptr(),
            args.len() as u32,
            c"".as_ptr(),
        )
    }

    /// The function `name` of type `ty`, declared when the module has none.
    unsafe fn function(&self, name: &str, ty: LLVMTypeRef) -> LLVMValueRef {
        let c = cstring(name);
        let f = LLVMGetNamedFunction(self.module, c.as_ptr());
        if !f.is_null() {
            return f;
        }
        LLVMAddFunction(self.module, c.as_ptr(), ty)
    }

    /// Builds `void name(u32 consts...)` at the builder's position.
    unsafe fn call_void(&self, name: &str, consts: &[u32]) {
        let params: Vec<LLVMTypeRef> = consts.iter().map(|_| self.i32_ty()).collect();
        let args: Vec<LLVMValueRef> = consts.iter().map(|&v| self.u32_const(v)).collect();
        self.call_void_with(name, params, args);
    }

    /// Builds `void name(args...)` (of types `params`) at the builder's position.
    unsafe fn call_void_with(
        &self,
        name: &str,
        mut params: Vec<LLVMTypeRef>,
        mut args: Vec<LLVMValueRef>,
    ) {
        let ty = LLVMFunctionType(
            LLVMVoidTypeInContext(self.ctx),
            params.as_mut_ptr(),
            params.len() as u32,
            0,
        );
        let f = self.function(name, ty);
        self.build_call(ty, f, &mut args);
    }

    /// Inserts `void name(consts...)` just before instruction `n`.
    pub fn call_before(&mut self, n: u32, name: &str, consts: &[u32]) {
        let i = self.get(n);
        // SAFETY: `i` is a live instruction; the call is built in its block.
        unsafe {
            LLVMPositionBuilderBefore(self.builder, i);
            self.call_void(name, consts);
        }
    }

    /// Inserts `void name(consts...)` just after instruction `n` (not a terminator).
    pub fn call_after(&mut self, n: u32, name: &str, consts: &[u32]) {
        let i = self.get(n);
        // SAFETY: `i` is a live non-terminator instruction, so it has a next instruction.
        unsafe {
            let next = LLVMGetNextInstruction(i);
            assert!(!next.is_null(), "an instruction after which a call goes");
            LLVMPositionBuilderBefore(self.builder, next);
            self.call_void(name, consts);
        }
    }

    /// Before the conditional branch or switch `n`: `name(site, none, 1)` (`int name(u32, u32,
    /// i32)`, the runtime's `synth_branch`) reporting `sites[k]` when the branch goes to its
    /// successor `k` (LLVM's numbering; `none` where that arm is not a site).
    pub fn report_branch(&mut self, n: u32, name: &str, sites: &[u32], none: u32) {
        let i = self.get(n);
        let site = |k: usize| sites.get(k).copied().unwrap_or(none);
        // SAFETY: `i` is a live conditional branch or switch; values are built before it.
        unsafe {
            LLVMPositionBuilderBefore(self.builder, i);
            let chosen = if LLVMGetInstructionOpcode(i) == LLVMOpcode::LLVMSwitch {
                let x = LLVMGetOperand(i, 0);
                let mut v = self.u32_const(site(0));
                // Operands: condition, default, then (value, destination) per case.
                let cases = (LLVMGetNumOperands(i) as u32 - 2) / 2;
                for k in 0..cases {
                    let val = LLVMGetOperand(i, 2 + 2 * k);
                    let eq = LLVMBuildICmp(
                        self.builder,
                        llvm_sys::LLVMIntPredicate::LLVMIntEQ,
                        x,
                        val,
                        c"".as_ptr(),
                    );
                    v = LLVMBuildSelect(
                        self.builder,
                        eq,
                        self.u32_const(site(k as usize + 1)),
                        v,
                        c"".as_ptr(),
                    );
                }
                v
            } else {
                let c = LLVMGetCondition(i);
                LLVMBuildSelect(
                    self.builder,
                    c,
                    self.u32_const(site(0)),
                    self.u32_const(site(1)),
                    c"".as_ptr(),
                )
            };
            let mut params = [self.i32_ty(), self.i32_ty(), self.i32_ty()];
            let ty = LLVMFunctionType(self.i32_ty(), params.as_mut_ptr(), 3, 0);
            let f = self.function(name, ty);
            let mut args = [chosen, self.u32_const(none), self.u32_const(1)];
            self.build_call(ty, f, &mut args);
        }
    }

    /// Replaces the call `n` by a call of `name` with the arguments `consts` (as `u32`)
    /// followed by the call's own arguments, of the call's return type.
    pub fn replace_call(&mut self, n: u32, name: &str, consts: &[u32]) {
        let i = self.get(n);
        // SAFETY: `i` is a live call; the new call takes its place and its uses.
        unsafe {
            let fty = LLVMGetCalledFunctionType(i);
            let nargs = LLVMGetNumArgOperands(i);
            let mut params: Vec<LLVMTypeRef> = consts.iter().map(|_| self.i32_ty()).collect();
            let mut args: Vec<LLVMValueRef> = consts.iter().map(|&v| self.u32_const(v)).collect();
            for k in 0..nargs {
                let a = LLVMGetOperand(i, k);
                params.push(LLVMTypeOf(a));
                args.push(a);
            }
            let ty = LLVMFunctionType(
                LLVMGetReturnType(fty),
                params.as_mut_ptr(),
                params.len() as u32,
                0,
            );
            let f = self.function(name, ty);
            LLVMPositionBuilderBefore(self.builder, i);
            let new = self.build_call(ty, f, &mut args);
            LLVMReplaceAllUsesWith(i, new);
            LLVMInstructionEraseFromParent(i);
            self.instrs[n as usize] = Some(new);
        }
    }

    /// The bytes of the string constant that argument `k` of call `n` points to (a global's
    /// initialiser, from a constant offset), up to its null byte.
    pub fn constant_string(&self, n: u32, k: u32) -> Option<Vec<u8>> {
        let i = self.get(n);
        // SAFETY: `i` is a live call; its operands and their initialisers are read only.
        unsafe {
            if k >= LLVMGetNumArgOperands(i) {
                return None;
            }
            let mut op = LLVMGetOperand(i, k);
            let mut offset = 0u64;
            if !LLVMIsAConstantExpr(op).is_null()
                && LLVMGetConstOpcode(op) == LLVMOpcode::LLVMGetElementPtr
                && LLVMGetNumOperands(op) == 2
            {
                let at = LLVMGetOperand(op, 1);
                if LLVMIsAConstantInt(at).is_null() {
                    return None;
                }
                offset = LLVMConstIntGetZExtValue(at);
                op = LLVMGetOperand(op, 0);
            }
            let g = LLVMIsAGlobalVariable(op);
            if g.is_null() || LLVMIsGlobalConstant(g) == 0 {
                return None;
            }
            let init = LLVMGetInitializer(g);
            if init.is_null() || LLVMIsConstantString(init) == 0 {
                return None;
            }
            let mut len = 0usize;
            let p = LLVMGetAsString(init, &mut len);
            let bytes = std::slice::from_raw_parts(p as *const u8, len);
            let rest = bytes.get(offset as usize..)?;
            Some(rest.iter().copied().take_while(|&b| b != 0).collect())
        }
    }

    /// Before call `n`, each of its arguments in `reads` is replaced by a copy that
    /// `ptr name(u32 site, u32 arms[6]..., ptr arg, i64 length, i32 mode)` makes (the support
    /// file's `__synth_printed_copy`: `mode` 0 a string of at most `length` bytes, none where
    /// it is negative; 1 the same or a null pointer; 2 `length` bytes), and after it each
    /// copy goes to `void release(ptr)`.
    pub fn copy_printed(&mut self, n: u32, name: &str, release: &str, reads: &[PrintedRead]) {
        let i = self.get(n);
        // SAFETY: `i` is a live call (not a terminator) whose operands `reads` name; the copies
        // are made before it and released after it.
        unsafe {
            LLVMPositionBuilderBefore(self.builder, i);
            let i64t = LLVMInt64TypeInContext(self.ctx);
            let ptr = LLVMPointerTypeInContext(self.ctx, 0);
            let mut params = vec![self.i32_ty(); 7];
            params.extend([ptr, i64t, self.i32_ty()]);
            let ty = LLVMFunctionType(ptr, params.as_mut_ptr(), params.len() as u32, 0);
            let f = self.function(name, ty);
            let mut copies = Vec::new();
            for r in reads {
                let arg = LLVMGetOperand(i, r.arg);
                let widened = |k: u32, signed: bool| {
                    let v = LLVMGetOperand(i, k);
                    match signed {
                        true => LLVMBuildSExtOrBitCast(self.builder, v, i64t, c"".as_ptr()),
                        false => LLVMBuildZExtOrBitCast(self.builder, v, i64t, c"".as_ptr()),
                    }
                };
                let (length, mode) = match r.length {
                    ReadLength::String => (LLVMConstInt(i64t, u64::MAX, 1), 0),
                    ReadLength::StringOrNull => (LLVMConstInt(i64t, u64::MAX, 1), 1),
                    ReadLength::Precision(p) => (LLVMConstInt(i64t, p, 0), 0),
                    ReadLength::PrecisionArgument(k) => (widened(k, true), 0),
                    ReadLength::Bytes(a, None) => (widened(a, false), 2),
                    ReadLength::Bytes(a, Some(b)) => (
                        LLVMBuildMul(
                            self.builder,
                            widened(a, false),
                            widened(b, false),
                            c"".as_ptr(),
                        ),
                        2,
                    ),
                };
                let mut args = vec![self.u32_const(r.site)];
                args.extend(r.arms.iter().map(|&a| self.u32_const(a)));
                args.extend([arg, length, LLVMConstInt(self.i32_ty(), mode, 0)]);
                let copy = self.build_call(ty, f, &mut args);
                LLVMSetOperand(i, r.arg, copy);
                copies.push(copy);
            }
            let next = LLVMGetNextInstruction(i);
            assert!(!next.is_null(), "an instruction after the call");
            LLVMPositionBuilderBefore(self.builder, next);
            for c in copies {
                self.call_void_with(release, vec![ptr], vec![c]);
            }
        }
    }

    /// Replaces the block copy or fill `n` (`memcpy`/`memmove`/`memset`, the library's or
    /// LLVM's intrinsic) by `void name(u32 consts..., ptr dst, src, i64 length)`, where `src`
    /// is a pointer, or with `fill` the fill byte as an `i32`; uses of the call's result (the
    /// library's functions return the destination) get the destination.
    pub fn replace_block(&mut self, n: u32, name: &str, consts: &[u32], fill: bool) {
        let i = self.get(n);
        // SAFETY: `i` is a live call with the block operation's arguments (destination,
        // source or byte, length); the new call goes before it, then it is erased.
        unsafe {
            LLVMPositionBuilderBefore(self.builder, i);
            let dst = LLVMGetOperand(i, 0);
            let mut src = LLVMGetOperand(i, 1);
            let i64t = LLVMInt64TypeInContext(self.ctx);
            let len =
                LLVMBuildZExtOrBitCast(self.builder, LLVMGetOperand(i, 2), i64t, c"".as_ptr());
            if fill {
                let byte = LLVMBuildTrunc(
                    self.builder,
                    src,
                    LLVMInt8TypeInContext(self.ctx),
                    c"".as_ptr(),
                );
                src = LLVMBuildZExt(self.builder, byte, self.i32_ty(), c"".as_ptr());
            }
            let mut params: Vec<LLVMTypeRef> = consts.iter().map(|_| self.i32_ty()).collect();
            let mut args: Vec<LLVMValueRef> = consts.iter().map(|&v| self.u32_const(v)).collect();
            for a in [dst, src, len] {
                params.push(LLVMTypeOf(a));
                args.push(a);
            }
            self.call_void_with(name, params, args);
            if LLVMGetTypeKind(LLVMTypeOf(i)) != LLVMTypeKind::LLVMVoidTypeKind {
                LLVMReplaceAllUsesWith(i, dst);
            }
            LLVMInstructionEraseFromParent(i);
        }
        self.instrs[n as usize] = None;
    }

    /// Replaces the block copy or fill `n` (`memcpy`/`memmove`/`memset`, the library's or
    /// LLVM's intrinsic) by its cells in order, each a load of the source or a store to the
    /// destination (of the value loaded from the same offset, or of the fill byte), with
    /// `void before(site)` and `void after(site)` around the steps that are sites.
    pub fn expand_block(
        &mut self,
        n: u32,
        fill: bool,
        cells: &[(CellStep, Option<u32>)],
        before: &str,
        after: &str,
    ) {
        let i = self.get(n);
        // SAFETY: `i` is a live call with the block operation's arguments; the new
        // instructions go before it, then it is erased.
        unsafe {
            LLVMPositionBuilderBefore(self.builder, i);
            let dst = LLVMGetOperand(i, 0);
            let src = LLVMGetOperand(i, 1);
            let i8t = LLVMInt8TypeInContext(self.ctx);
            let i64t = LLVMInt64TypeInContext(self.ctx);
            let at = |base: LLVMValueRef, off: u32| {
                if off == 0 {
                    return base;
                }
                let mut idx = [LLVMConstInt(i64t, off as u64, 0)];
                LLVMBuildGEP2(self.builder, i8t, base, idx.as_mut_ptr(), 1, c"".as_ptr())
            };
            let mut values: Vec<(u32, LLVMValueRef)> = Vec::new();
            for &(c, site) in cells {
                let ty = LLVMIntTypeInContext(self.ctx, 8 * c.width);
                if let Some(s) = site {
                    self.call_void(before, &[s]);
                }
                if !c.write {
                    let l = LLVMBuildLoad2(self.builder, ty, at(src, c.offset), c"".as_ptr());
                    LLVMSetAlignment(l, 1);
                    values.push((c.offset, l));
                } else {
                    let v = if fill {
                        let byte = LLVMBuildZExtOrBitCast(
                            self.builder,
                            LLVMBuildTrunc(self.builder, src, i8t, c"".as_ptr()),
                            ty,
                            c"".as_ptr(),
                        );
                        let ones: u64 = (0..c.width as u64).map(|k| 1u64 << (8 * k)).sum();
                        LLVMBuildMul(self.builder, byte, LLVMConstInt(ty, ones, 0), c"".as_ptr())
                    } else {
                        let k = values.iter().position(|(o, _)| *o == c.offset);
                        values
                            .swap_remove(k.expect("a cell is read before it is written"))
                            .1
                    };
                    let st = LLVMBuildStore(self.builder, v, at(dst, c.offset));
                    LLVMSetAlignment(st, 1);
                }
                if let Some(s) = site {
                    self.call_void(after, &[s]);
                }
            }
            let t = LLVMTypeOf(i);
            if LLVMGetTypeKind(t) != LLVMTypeKind::LLVMVoidTypeKind {
                // The library's functions return the destination.
                LLVMReplaceAllUsesWith(i, dst);
            }
            LLVMInstructionEraseFromParent(i);
        }
        self.instrs[n as usize] = None;
    }

    /// Removes the call `n`; its result, if used, becomes 0.
    pub fn remove_call(&mut self, n: u32) {
        let i = self.get(n);
        // SAFETY: `i` is a live call; its uses get a constant of its type.
        unsafe {
            let t = LLVMTypeOf(i);
            if LLVMGetTypeKind(t) != LLVMTypeKind::LLVMVoidTypeKind {
                LLVMReplaceAllUsesWith(i, LLVMConstNull(t));
            }
            LLVMInstructionEraseFromParent(i);
        }
        self.instrs[n as usize] = None;
    }

    /// Redirects every use of the function `from` (its calls, and its address where taken)
    /// to `to`, of the same type (declared where the module has none); whether the module
    /// has a `from`.
    pub fn redirect_function(&mut self, from: &str, to: &str) -> bool {
        let c = cstring(from);
        // SAFETY: the module is live; `to` gets `from`'s type, so every use stays well typed.
        unsafe {
            let f = LLVMGetNamedFunction(self.module, c.as_ptr());
            if f.is_null() {
                return false;
            }
            let g = self.function(to, LLVMGlobalGetValueType(f));
            LLVMReplaceAllUsesWith(f, g);
            true
        }
    }

    /// Renames the defined function `from` to `to`; returns its number of parameters, or
    /// `None` when the module defines no `from`.
    pub fn rename_function(&mut self, from: &str, to: &str) -> Option<u32> {
        let c = cstring(from);
        // SAFETY: the module is live; the new name is copied by LLVM.
        unsafe {
            let f = LLVMGetNamedFunction(self.module, c.as_ptr());
            if f.is_null() || LLVMIsDeclaration(f) != 0 {
                return None;
            }
            LLVMSetValueName2(f, to.as_ptr().cast(), to.len());
            Some(LLVMCountParams(f))
        }
    }

    /// The functions defined in section `section` (the front end's libc models).
    pub fn functions_in_section(&self, section: &str) -> Vec<String> {
        let mut out = Vec::new();
        // SAFETY: the module is live; names are copied out.
        unsafe {
            let mut f = LLVMGetFirstFunction(self.module);
            while !f.is_null() {
                let s = LLVMGetSection(f);
                if LLVMIsDeclaration(f) == 0
                    && !s.is_null()
                    && CStr::from_ptr(s).to_bytes() == section.as_bytes()
                {
                    out.push(name_of(f));
                }
                f = LLVMGetNextFunction(f);
            }
        }
        out
    }

    /// Turns the definition of `name` into a declaration (the system library's definition is
    /// used), or with `internal` keeps it for this module's calls only, renamed
    /// (`__synth_model_<name>`) so that no compiler takes it for the library's function.
    pub fn set_definition(&mut self, name: &str, internal: bool) {
        let c = cstring(name);
        // SAFETY: the module is live; the definition is replaced by a new declaration and
        // deleted, its instructions forgotten.
        unsafe {
            let f = LLVMGetNamedFunction(self.module, c.as_ptr());
            if f.is_null() || LLVMIsDeclaration(f) != 0 {
                return;
            }
            if internal {
                LLVMSetLinkage(f, LLVMLinkage::LLVMInternalLinkage);
                LLVMSetSection(f, c"".as_ptr());
                let new = format!("__synth_model_{name}");
                LLVMSetValueName2(f, new.as_ptr().cast(), new.len());
                return;
            }
            let gone: HashSet<LLVMValueRef> = {
                let mut s = HashSet::new();
                let mut bb = LLVMGetFirstBasicBlock(f);
                while !bb.is_null() {
                    let mut i = LLVMGetFirstInstruction(bb);
                    while !i.is_null() {
                        s.insert(i);
                        i = LLVMGetNextInstruction(i);
                    }
                    bb = LLVMGetNextBasicBlock(bb);
                }
                s
            };
            // A declaration of the same type takes the definition's place and name; deleting
            // the definition drops its body's references first.
            let ty = LLVMGlobalGetValueType(f);
            let old = format!("__synth_model_removed_{name}");
            LLVMSetValueName2(f, old.as_ptr().cast(), old.len());
            let decl = LLVMAddFunction(self.module, c.as_ptr(), ty);
            LLVMReplaceAllUsesWith(f, decl);
            LLVMDeleteFunction(f);
            for slot in &mut self.instrs {
                if slot.is_some_and(|i| gone.contains(&i)) {
                    *slot = None;
                }
            }
        }
    }

    /// Checks the module with LLVM's verifier.
    pub fn verify(&self) -> Result<(), String> {
        // SAFETY: the module is live; the message is freed after copying.
        unsafe {
            let mut msg: *mut std::ffi::c_char = std::ptr::null_mut();
            let bad = LLVMVerifyModule(
                self.module,
                LLVMVerifierFailureAction::LLVMReturnStatusAction,
                &mut msg,
            ) != 0;
            let text = if msg.is_null() {
                String::new()
            } else {
                let t = CStr::from_ptr(msg).to_string_lossy().into_owned();
                LLVMDisposeMessage(msg);
                t
            };
            if bad {
                return Err(text);
            }
            Ok(())
        }
    }

    /// Writes the module as bitcode to `path`.
    pub fn write(&self, path: &Path) -> Result<(), String> {
        let c = cstring(&path.to_string_lossy());
        // SAFETY: the module is live.
        if unsafe { LLVMWriteBitcodeToFile(self.module, c.as_ptr()) } != 0 {
            return Err(format!("cannot write {}", path.display()));
        }
        Ok(())
    }
}
