//! The heap: `malloc`, `calloc` and `free` (`DESIGN.md`, "Memory model").
//!
//! Every allocation call in a lowered thread is a *site*: one object holding `K` instances
//! (`K = 1` for a call outside loops, [`INSTANCES`] inside one, more in `main`'s loops,
//! [`MAIN_SITE_CELLS`]), each an 8-byte status cell
//! (0 never allocated, 2 freed, `ALLOCATED + n` allocated with `n` bytes) followed by the
//! payload: `E` elements of the
//! type the program uses the memory as (from the `getelementptr`, load or store that uses the
//! result; `E` from a constant size, [`ELEMENTS`] for a size computed at run time, at least
//! [`MIN_ROOM`] bytes at a site outside loops). An
//! allocation takes the instances in order, the next one named by a counter of the thread's
//! (a freed instance is not taken again: pointers into its old block must stay dangling);
//! `free`
//! checks the status before the pointer (freeing memory that is not allocated, twice or not
//! from `malloc`, goes to the error location) and marks it freed. More allocations than the
//! site has instances, or a run-time size above the site's room, is the model's limit: the
//! execution stops as undefined, and the verdict names the site.
//!
//! `realloc(p, n)` allocates at its own site, copies the bytes both blocks have and frees `p`.
//! The site's status variable is marked ([`Var::allocation_status`]): an access to an
//! instance that is not allocated (freed, or never allocated) is undefined, in the
//! interpreter and in the encoding alike.

use super::layout::Leaf;
use super::lower::{and, bin, cast, not, Lowerer, Val, R};
use crate::ir::*;
use llvm_ir::instruction::{Call, Instruction};
use llvm_ir::types::Type;
use llvm_ir::{Name, Operand, TypeRef};

/// Instances of an allocation site inside a loop of a thread other than `main` (each of the
/// threads the bound allows has sites of its own).
const INSTANCES: u64 = 16;
/// About how many cells the instances of an allocation site inside a loop of `main` may take:
/// `main` runs once, and often builds the data its threads share in a loop (a few hundred
/// list nodes, say), so its sites get as many instances as fit, at least [`INSTANCES`] and at
/// most [`MAX_INSTANCES`].
const MAIN_SITE_CELLS: u64 = 4096;
/// Most instances of an allocation site.
const MAX_INSTANCES: u64 = 1024;
/// Elements of an allocation whose size is computed at run time.
pub(super) const ELEMENTS: u64 = 64;
/// Bytes of an allocation whose size is computed at run time, outside loops, at least (a
/// line or a message formatted into a buffer of `strlen` plus a few bytes).
const MIN_ROOM: u64 = 1024;
/// Bytes of the status cell before each instance's payload.
const HEADER: u64 = crate::ir::ALLOCATION_HEADER as u64;
/// The status of an allocated instance of `n` bytes is `ALLOCATED + n`.
const ALLOCATED: i128 = crate::ir::ALLOCATED;

/// The layout of the blocks of an allocation site or a variable-length array.
struct Block {
    /// The type of an element.
    ty: TypeRef,
    /// Bytes of an element.
    size: u64,
    /// Elements of a block.
    elems: u64,
    /// Blocks the site holds (one per allocation it may make).
    instances: u64,
    /// Whether the elements start zeroed (`calloc`) rather than uninitialised.
    zero: bool,
}

impl<'m> Lowerer<'m> {
    /// `malloc(size)` (`zero`: `calloc(n, size)`, whose size is `n * size`).
    pub(super) fn allocate(&mut self, c: &'m Call, size: Expr, zero: bool) -> R<Option<Val>> {
        self.allocate_block(c, size, zero, ALLOCATED)
    }

    /// A file mapping of `size` bytes (`mmap`, through `__synth_map`): heap memory that
    /// `free` must not release and `munmap` releases.
    pub(super) fn map(&mut self, c: &'m Call, size: Expr) -> R<Option<Val>> {
        self.allocate_block(c, size, false, crate::ir::MAPPED)
    }

    /// An allocation whose instance gets the status `status_base + size`.
    fn allocate_block(
        &mut self,
        c: &'m Call,
        size: Expr,
        zero: bool,
        status_base: i128,
    ) -> R<Option<Val>> {
        let Some(dest) = &c.dest else {
            return Ok(None);
        };
        let size_c = self.const_eval(&size).map(|v| v.max(0) as u64);
        let ty = self.heap_type(dest);
        let Some(s) = self.layout.size(&ty).filter(|s| *s > 0) else {
            return self.unsupported(format!("allocation of {ty}"));
        };
        let elems = match size_c {
            Some(n) => n.div_ceil(s).max(1),
            None => ELEMENTS,
        };
        let k = if !self.in_loop() {
            1
        } else if self.tid.0 == 0 {
            // (A cell holds at least 4 bytes of the payload, beside the status cell.)
            (MAIN_SITE_CELLS / (1 + (elems * s).div_ceil(4))).clamp(INSTANCES, MAX_INSTANCES)
        } else {
            INSTANCES
        };
        // (A site outside loops has room for a message's bytes.)
        let elems = match size_c {
            None if k == 1 => elems.max(MIN_ROOM.div_ceil(s)),
            _ => elems,
        };
        let (obj, inst) = self.heap_object(self.block(ty, s, elems, k, zero))?;
        let align = if status_base == crate::ir::MAPPED {
            super::pointers::PAGE_ALIGNMENT
        } else {
            super::pointers::MALLOC_ALIGNMENT
        };
        self.alignments.insert(obj, align);
        let status = obj;
        let sp = |j: Expr| Place::Var {
            var: status,
            index: Some(Box::new(j)),
        };
        let load = |p: Place| Expr::Load {
            place: p,
            ty: Ty::LONG,
        };
        let r = self.temp(&super::lower::name_str(dest), Ty::ULONG);
        // A run-time size above the site's capacity is beyond the model.
        let fits = match size_c {
            Some(_) => Expr::tt(),
            None => bin(
                BinOp::Le,
                cast(size.clone(), Ty::ULONG),
                Expr::constant((elems * s) as i128, Ty::ULONG),
                Ty::INT,
            ),
        };
        self.flush()?;
        let from = self.cur;
        let next = self.new_loc(LocKind::Normal);
        let base = Expr::AddrOf {
            var: status,
            index: Box::new(Expr::constant(0, Ty::LONG)),
        };
        // Instances are taken in order, and a freed one is never taken again (the pointers
        // into its old block must stay dangling, their use after free seen): the next one is
        // the count of allocations so far, kept in a counter of the thread's own (a site of
        // one instance needs none: its status says whether it was taken).
        let counter = (k > 1).then(|| {
            let name = format!("{}::heap@{}.allocations", self.tid, self.here());
            self.new_var(
                name,
                ElemKind::Int(Ty::LONG),
                1,
                false,
                VarScope::Local(self.tid),
                Init::Zero,
                None,
            )
        });
        let next_instance = match counter {
            None => Expr::constant(0, Ty::LONG),
            Some(c) => load(Place::scalar(c)),
        };
        let free_left = match k {
            1 => bin(
                BinOp::Eq,
                load(sp(next_instance.clone())),
                Expr::constant(0, Ty::LONG),
                Ty::INT,
            ),
            _ => bin(
                BinOp::Lt,
                next_instance.clone(),
                Expr::constant(k as i128, Ty::LONG),
                Ty::INT,
            ),
        };
        let offset = bin(
            BinOp::Add,
            bin(
                BinOp::Mul,
                cast(next_instance.clone(), Ty::ULONG),
                Expr::constant(inst as i128, Ty::ULONG),
                Ty::ULONG,
            ),
            Expr::constant(HEADER as i128, Ty::ULONG),
            Ty::ULONG,
        );
        let mut ops = vec![
            Op::Assign {
                place: sp(next_instance.clone()),
                value: bin(
                    BinOp::Add,
                    cast(size.clone(), Ty::LONG),
                    Expr::constant(status_base, Ty::LONG),
                    Ty::LONG,
                ),
            },
            Op::Assign {
                place: Place::scalar(r),
                value: bin(BinOp::Add, base, offset, Ty::ULONG),
            },
        ];
        if let Some(c) = counter {
            ops.push(Op::Assign {
                place: Place::scalar(c),
                value: bin(
                    BinOp::Add,
                    next_instance.clone(),
                    Expr::constant(1, Ty::LONG),
                    Ty::LONG,
                ),
            });
        }
        let t = self.edge(
            from,
            next,
            and(fits.clone(), free_left.clone()),
            ops,
            TransKind::Stmt,
        )?;
        self.tb.transitions[t.0 as usize].memory_access = true;
        // No instance left, or too large: the model's limit (undefined, named in the verdict).
        let full = bin(
            BinOp::Or,
            super::lower::not(free_left),
            super::lower::not(fits),
            Ty::INT,
        );
        let beyond = self.new_loc(LocKind::Normal);
        self.edge(from, beyond, full, vec![], TransKind::Stmt)?;
        self.cur = beyond;
        let here = self.here();
        let many = if k == 1 {
            "more than one allocation".to_string()
        } else {
            format!("more than {k} allocations")
        };
        let why = match size_c {
            Some(_) => format!("<{many} at {here} in one thread>"),
            None => format!(
                "<{many} at {here} in one thread, or one of more than {} bytes>",
                elems * s
            ),
        };
        self.model_limit(why, Expr::tt())?;
        // The step before is undefined in every execution: nothing goes on from here.
        self.cur = next;
        Ok(Some(if k == 1 {
            Val::P {
                obj: status,
                off: HEADER as i64,
                dyn_: vec![],
            }
        } else {
            Val::E(Expr::var(r, Ty::ULONG))
        }))
    }

    /// A variable-length array (`T b[n]`, an `alloca` of `count` elements of `elem`) named
    /// `name`: a block of the thread's own, with room for [`ELEMENTS`] elements, whose status
    /// says how many bytes it has (`STACK + count * size`), so that an access past its end
    /// is out of bounds as for memory from `malloc`. Each execution of the `alloca` sets the
    /// size again (the array of a loop's previous round is gone); a longer array is the
    /// model's limit.
    pub(super) fn variable_array(
        &mut self,
        name: String,
        elem: &TypeRef,
        count: Expr,
        again: Option<String>,
    ) -> R<Val> {
        let Some(s) = self.layout.size(elem).filter(|s| *s > 0) else {
            return self.unsupported(format!("variable-length array of {elem}"));
        };
        let block = self.block(elem.clone(), s, ELEMENTS, 1, false);
        let (obj, _) = self.block_object(name, VarScope::Local(self.tid), block)?;
        let count = cast(count, Ty::ULONG);
        let too_long = bin(
            BinOp::Gt,
            count.clone(),
            Expr::constant(ELEMENTS as i128, Ty::ULONG),
            Ty::INT,
        );
        let why = format!("<variable-length arrays longer than {ELEMENTS} elements>");
        self.model_limit(why, too_long)?;
        let size = bin(
            BinOp::Mul,
            count,
            Expr::constant(s as i128, Ty::ULONG),
            Ty::ULONG,
        );
        self.start_lifetime(obj, cast(size, Ty::LONG), again)?;
        Ok(Val::P {
            obj,
            off: HEADER as i64,
            dyn_: vec![],
        })
    }

    /// A local variable of type `ty` named `name` whose address may be used after its
    /// function returns ([`super::escape`]): a block of the thread's own, as for a
    /// variable-length array, whose status says it holds the variable's bytes (`STACK +
    /// size`) from here until the function's return marks it freed.
    pub(super) fn local_with_lifetime(
        &mut self,
        name: String,
        ty: &TypeRef,
        again: Option<String>,
    ) -> R<Val> {
        let Some(s) = self.layout.size(ty).filter(|s| *s > 0) else {
            return self.unsupported(format!("local variable of {ty}"));
        };
        let block = self.block(ty.clone(), s, 1, 1, false);
        let (obj, _) = self.block_object(name, VarScope::Local(self.tid), block)?;
        self.start_lifetime(obj, Expr::constant(s as i128, Ty::LONG), again)?;
        Ok(Val::P {
            obj,
            off: HEADER as i64,
            dyn_: vec![],
        })
    }

    /// Starts the lifetime of the local block `obj` of `size` bytes (its status `STACK +
    /// size`). With `again`, a start after an earlier lifetime of the same block ended (a
    /// later call of its function from the same place) is the model's limit named `again`:
    /// the block is one object for both calls, so a pointer kept from the earlier one would
    /// be valid again.
    fn start_lifetime(&mut self, obj: VarId, size: Expr, again: Option<String>) -> R<()> {
        let status = status_cell(obj);
        let mut ops = Vec::new();
        if let Some(why) = again {
            let ended = bin(
                BinOp::Eq,
                Expr::Load {
                    place: status.clone(),
                    ty: Ty::LONG,
                },
                Expr::constant(crate::ir::FREED, Ty::LONG),
                Ty::INT,
            );
            ops.push(Op::model_limit(self.limit_var(why), ended));
        }
        ops.push(Op::Assign {
            place: status,
            value: bin(
                BinOp::Add,
                size,
                Expr::constant(crate::ir::STACK, Ty::LONG),
                Ty::LONG,
            ),
        });
        self.access_step(ops, TransKind::Stmt)?;
        Ok(())
    }

    /// The layout of `k` blocks of `elems` elements of `ty` (`s` bytes each); a type with too
    /// many cells to keep apart is laid out as bytes (accessed byte by byte).
    fn block(&self, ty: TypeRef, s: u64, elems: u64, k: u64, zero: bool) -> Block {
        let mut probe = Vec::new();
        let fits = self
            .layout
            .flatten_array(&ty, 0, s, k * elems, &mut probe)
            .is_some();
        let (ty, size, elems) = if fits {
            (ty, s, elems)
        } else {
            (self.m.types.int(8), 1, elems * s)
        };
        Block {
            ty,
            size,
            elems,
            instances: k,
            zero,
        }
    }

    /// `free(p)`.
    pub(super) fn free(&mut self, o: &'m Operand) -> R<Option<Val>> {
        let p = self.val(o)?;
        self.free_val(p)
    }

    /// `realloc(p, n)`: a new block at this call's site, the bytes both blocks have copied
    /// from the old one (none when `p` is null), the old one freed; as in glibc, `realloc(p, 0)`
    /// of a block returns null.
    pub(super) fn reallocate(&mut self, c: &'m Call, o: &'m Operand, n: Expr) -> R<Option<Val>> {
        let p = self.val(o)?;
        // The steps of each part have their own code, so that `synth build` performs them
        // in the model's order (`schedgen::instrument`).
        self.block_step(ByteStep::Allocate.code())?;
        let Some(new) = self.allocate(c, n.clone(), false)? else {
            // The new block is not used: the old one is released all the same (C11 7.22.3.5:
            // realloc deallocates the old object), and the new one is lost.
            self.block_step(ByteStep::Release.code())?;
            self.free_val(p)?;
            self.cell_done();
            return Ok(None);
        };
        let pa = self.addr_expr(&p);
        let n = cast(n, Ty::LONG);
        let old_size = bin(
            BinOp::Sub,
            Expr::Load {
                place: header_at(pa.clone()),
                ty: Ty::LONG,
            },
            Expr::constant(ALLOCATED, Ty::LONG),
            Ty::LONG,
        );
        let common = super::lower::ite(
            bin(BinOp::Lt, n.clone(), old_size.clone(), Ty::INT),
            n.clone(),
            old_size,
            Ty::LONG,
        );
        let len = super::lower::ite(
            bin(BinOp::Eq, pa.clone(), Expr::constant(0, Ty::ULONG), Ty::INT),
            Expr::constant(0, Ty::LONG),
            common,
            Ty::LONG,
        );
        self.block_step(ByteStep::Length.code())?;
        self.byte_loop(new.clone(), Bytes::Copy(p.clone()), len, None)?;
        self.block_step(ByteStep::Release.code())?;
        self.free_val(p)?;
        self.cell_done();
        // glibc's `realloc(p, 0)` of a block frees it and returns null.
        if self.const_eval(&n).is_some_and(|k| k != 0) {
            return Ok(Some(new));
        }
        let kept = bin(
            BinOp::Or,
            bin(BinOp::Eq, pa, Expr::constant(0, Ty::ULONG), Ty::INT),
            bin(BinOp::Ne, n, Expr::constant(0, Ty::LONG), Ty::INT),
            Ty::INT,
        );
        let null = Expr::constant(0, Ty::ULONG);
        Ok(Some(Val::E(super::lower::ite(
            kept,
            self.addr_expr(&new),
            null,
            Ty::ULONG,
        ))))
    }

    /// The status cell of the block pointer `p` points to (the header before it): a place
    /// in a known allocation site, or through the address at run time; `None` when `p`
    /// points to an object that is no allocation site.
    fn status_place(&mut self, p: &Val) -> R<Option<Place>> {
        Ok(Some(match p {
            Val::P { obj, off, dyn_ } => {
                if !self.heap_sites.contains(obj) {
                    return Ok(None);
                }
                match self.place_in(*obj, off - HEADER as i64, dyn_, HEADER, true) {
                    Some(pl) => pl,
                    // Known at run time only (a pointer into a block: no block after it).
                    None => header_at(self.addr_expr(p)),
                }
            }
            Val::F(_) | Val::Tuple(_) => return Ok(None),
            Val::E(a) => header_at(a.clone()),
        }))
    }

    /// `munmap` of a whole mapping (`__synth_unmap`): releases a block `mmap` made and
    /// returns 0; null returns 0 (nothing is mapped there); another pointer (into memory
    /// from `malloc`, a freed mapping, a variable) returns -1 with `EINVAL` (Linux's answer
    /// for an address that is not page aligned, as memory from `malloc` is not).
    pub(super) fn unmap(&mut self, o: &'m Operand) -> R<Option<Val>> {
        let p = self.val(o)?;
        let r = self.temp("munmap", Ty::INT);
        let set = |v: i128| Op::Assign {
            place: Place::scalar(r),
            value: Expr::int(v),
        };
        let errno = self.tls_object("errno", 4)?;
        let errno = self.place(&errno, 4, Ty::INT)?;
        let einval = Op::Assign {
            place: errno,
            value: Expr::int(22),
        };
        let Some(status) = self.status_place(&p)? else {
            self.step(Expr::tt(), vec![set(-1), einval], TransKind::Stmt)?;
            return Ok(Some(Val::E(Expr::var(r, Ty::INT))));
        };
        let addr = self.addr_expr(&p);
        self.flush()?;
        let from = self.cur;
        let next = self.new_loc(LocKind::Normal);
        let null = bin(BinOp::Eq, addr, Expr::constant(0, Ty::ULONG), Ty::INT);
        let st = Expr::Load {
            place: status.clone(),
            ty: Ty::LONG,
        };
        let mapped = and(
            super::lower::not(null.clone()),
            and(
                bin(
                    BinOp::Ge,
                    st.clone(),
                    Expr::constant(crate::ir::MAPPED, Ty::LONG),
                    Ty::INT,
                ),
                bin(
                    BinOp::Lt,
                    st,
                    Expr::constant(crate::ir::STACK, Ty::LONG),
                    Ty::INT,
                ),
            ),
        );
        self.edge(from, next, null.clone(), vec![set(0)], TransKind::Branch)?;
        let t = self.edge(
            from,
            next,
            mapped.clone(),
            vec![
                Op::Assign {
                    place: status,
                    value: Expr::constant(crate::ir::FREED, Ty::LONG),
                },
                set(0),
            ],
            TransKind::Stmt,
        )?;
        self.tb.transitions[t.0 as usize].memory_access = true;
        let other = and(super::lower::not(null), super::lower::not(mapped));
        let t = self.edge(from, next, other, vec![set(-1), einval], TransKind::Stmt)?;
        self.tb.transitions[t.0 as usize].memory_access = true;
        self.cur = next;
        Ok(Some(Val::E(Expr::var(r, Ty::INT))))
    }

    /// `free` of a pointer value.
    pub(super) fn free_val(&mut self, p: Val) -> R<Option<Val>> {
        let Some(b) = self.block_status(&p)? else {
            return self.error_here(ErrorKind::InvalidFree);
        };
        let allocated = allocated_by_malloc(&b.status);
        let bad = super::lower::not(allocated.clone());
        let t = self.edge(
            b.from,
            b.next,
            and(b.nonnull.clone(), allocated),
            vec![Op::Assign {
                place: b.place,
                value: Expr::constant(FREED, Ty::LONG),
            }],
            TransKind::Stmt,
        )?;
        self.tb.transitions[t.0 as usize].memory_access = true;
        let err = self.special[1];
        self.edge(
            b.from,
            err,
            and(b.nonnull, bad),
            vec![],
            TransKind::Error(ErrorKind::InvalidFree),
        )?;
        self.cur = b.next;
        Ok(None)
    }

    /// The start of a check of the block pointer `p` points to: its status cell (`None`
    /// where `p` is an object's address of no allocation site), and a location to go on
    /// from, which a null `p` (known only at run time) goes to at once.
    fn block_status(&mut self, p: &Val) -> R<Option<BlockStatus>> {
        let Some(place) = self.status_place(p)? else {
            return Ok(None);
        };
        let addr = self.addr_expr(p);
        self.flush()?;
        let from = self.cur;
        let next = self.new_loc(LocKind::Normal);
        let zero = || Expr::constant(0, Ty::ULONG);
        if !matches!(p, Val::P { .. }) {
            let null = bin(BinOp::Eq, addr.clone(), zero(), Ty::INT);
            self.edge(from, next, null, vec![], TransKind::Branch)?;
        }
        Ok(Some(BlockStatus {
            status: Expr::Load {
                place: place.clone(),
                ty: Ty::LONG,
            },
            place,
            nonnull: bin(BinOp::Ne, addr, zero(), Ty::INT),
            from,
            next,
        }))
    }

    /// The block of the stream the program's call `c` of `fopen` or `fdopen` opens, allocated
    /// before the model runs, at the program's call, where the schedule can order its
    /// allocation (the model's code is the system's in the built program); the model answers
    /// it or null (`__synth_stream_block` in environment.c). (Through a pointer, `c` is the
    /// model's call of `__synth_stream_block`: the block is the model's.)
    pub(super) fn opened_stream(&mut self, c: &'m Call) -> R<Option<Val>> {
        let Some(dest) = &c.dest else {
            return Ok(None);
        };
        let ty = self.heap_type(dest);
        let size = self.layout.size(&ty).unwrap_or(1).max(1);
        self.allocate(c, Expr::constant(size as i128, Ty::ULONG), false)
    }

    /// A stream (`FILE *`) given to the C library by the program, not null: an error where
    /// `fclose` has closed it (C11 7.21.3p4: its value is indeterminate after), and, for
    /// `fclose` (`close`), its release. A stream `fopen` opened is a block allocated at the
    /// program's call ([`Lowerer::opened_stream`]), which `fclose` frees here, at the
    /// program's call, so that threads sharing the stream order their calls by its status
    /// cell and `synth build` orders the calls themselves; a standard stream is no block (its
    /// status reads as never allocated), and closing it is not tracked.
    pub(super) fn stream_open(&mut self, p: &Val, close: bool) -> R<()> {
        let Some(b) = self.block_status(p)? else {
            return Ok(());
        };
        let freed = bin(
            BinOp::Eq,
            b.status.clone(),
            Expr::constant(FREED, Ty::LONG),
            Ty::INT,
        );
        let err = self.special[1];
        let kind = TransKind::Error(ErrorKind::ClosedStream);
        self.edge(
            b.from,
            err,
            and(b.nonnull.clone(), freed.clone()),
            vec![],
            kind,
        )?;
        let open = and(b.nonnull, not(freed));
        // (Closed: allocated, released; no block, a standard stream: nothing.)
        let arms = if close {
            let allocated = allocated_by_malloc(&b.status);
            let release = vec![Op::Assign {
                place: b.place,
                value: Expr::constant(FREED, Ty::LONG),
            }];
            vec![
                (and(open.clone(), allocated.clone()), release),
                (and(open, not(allocated)), vec![]),
            ]
        } else {
            vec![(open, vec![])]
        };
        for (guard, ops) in arms {
            let t = self.edge(b.from, b.next, guard, ops, TransKind::Stmt)?;
            self.tb.transitions[t.0 as usize].memory_access = true;
        }
        self.cur = b.next;
        Ok(())
    }

    /// The object of an allocation site: its status cells (the object's first variable) and
    /// the payload's variables; returns it and the distance between instances.
    fn heap_object(&mut self, block: Block) -> R<(VarId, u64)> {
        let here = self.here();
        let name = format!("heap@{here}#{}", self.tid);
        self.block_object(name, VarScope::Heap, block)
    }

    /// The object of the instances of `block`, each after its status cell, named `name`, in
    /// `scope`; returns it and the distance between instances.
    fn block_object(&mut self, name: String, scope: VarScope, block: Block) -> R<(VarId, u64)> {
        let Block {
            ty,
            size: s,
            elems,
            instances: k,
            zero,
        } = block;
        let ty = &ty;
        let evenly = elems == 1 || (s <= HEADER && HEADER.is_multiple_of(s));
        let inst = HEADER + elems * s;
        let status = self.new_var(
            format!("{name}.status"),
            ElemKind::Int(Ty::LONG),
            k as u32,
            true,
            scope.clone(),
            Init::Zero,
            Some(Placement {
                object: VarId(u32::MAX),
                offset: 0,
                stride: inst as u32,
            }),
        );
        self.vars[status.0 as usize].allocation_status = true;
        let init = if zero { Init::Zero } else { Init::Nondet };
        let mut leaves: Vec<Leaf> = Vec::new();
        let ok = if evenly && elems == 1 {
            self.layout.flatten_array(ty, HEADER, inst, k, &mut leaves)
        } else if evenly {
            // Elements `s` bytes apart across instances; the status cells' slots are holes.
            let per = inst / s;
            self.layout
                .flatten_array(ty, HEADER, s, (k - 1) * per + elems, &mut leaves)
        } else {
            (0..k).try_for_each(|j| {
                self.layout
                    .flatten_array(ty, j * inst + HEADER, s, elems, &mut leaves)
            })
        };
        if ok.is_none() {
            return self.unsupported(format!("allocation of {ty}"));
        }
        let mut vars = vec![];
        for leaf in &leaves {
            let v = self.new_var(
                format!("{name}{}", leaf.path),
                leaf.elem,
                leaf.len as u32,
                true,
                scope.clone(),
                init.clone(),
                Some(Placement {
                    object: status,
                    offset: leaf.offset as u32,
                    stride: leaf.stride as u32,
                }),
            );
            vars.push((leaf.clone(), v));
        }
        let mut all = vec![(
            Leaf {
                offset: 0,
                stride: inst,
                len: k,
                elem: ElemKind::Int(Ty::LONG),
                width: HEADER,
                path: ".status".into(),
            },
            status,
        )];
        all.extend(vars);
        self.objects.insert(
            status,
            super::lower::Cells {
                leaves: all,
                size: k * inst,
            },
        );
        self.made.push(crate::ir::Object {
            var: status,
            name,
            size: k * inst,
        });
        self.heap_sites.insert(status);
        Ok((status, inst))
    }

    /// Whether the current call is inside a loop (of its function or of a caller).
    fn in_loop(&self) -> bool {
        self.frames.iter().any(|f| f.on_cycle())
    }

    /// The type the program uses an allocation as: from the first `getelementptr`, load or
    /// store of the result in the allocating function; for a result stored into memory (a
    /// struct's field, a global), from the uses of the pointers loaded from there anywhere in
    /// the module; for a result the function returns (an allocation wrapper such as
    /// `xmalloc`), from the uses of the call's result in its callers; else bytes (which any
    /// access reads and writes byte by byte).
    fn heap_type(&self, dest: &Name) -> TypeRef {
        let mut reg = dest;
        for k in (0..self.frames.len()).rev() {
            let frame = &self.frames[k];
            if let Some(t) = self.stored_type(frame.func, reg) {
                return t;
            }
            match frame.result {
                Some(r) if returns(frame.func, reg) => reg = r,
                _ => break,
            }
        }
        self.m.types.int(8)
    }

    /// The type `f`'s uses of register `r` access memory as, directly or through a struct's
    /// field or a global `r` is stored into.
    fn stored_type(&self, f: &llvm_ir::Function, r: &Name) -> Option<TypeRef> {
        if let Some(t) = self.use_type(f, r) {
            return Some(t);
        }
        // Where the result is stored: a field of a struct, or a global.
        for i in f.basic_blocks.iter().flat_map(|b| &b.instrs) {
            let Instruction::Store(st) = i else { continue };
            if !is_reg(&st.value, r) {
                continue;
            }
            let slot = slot_of(f, &st.address);
            if let Some(t) = slot.and_then(|s| self.slot_type(&s)) {
                return Some(t);
            }
        }
        None
    }

    /// The type the uses of register `r` in `f` access memory as.
    fn use_type(&self, f: &llvm_ir::Function, r: &Name) -> Option<TypeRef> {
        for i in f.basic_blocks.iter().flat_map(|b| &b.instrs) {
            match i {
                Instruction::GetElementPtr(g) if is_reg(&g.address, r) => {
                    return Some(g.source_element_type.clone())
                }
                Instruction::Load(l) if is_reg(&l.address, r) => return Some(l.loaded_ty.clone()),
                Instruction::Store(s) if is_reg(&s.address, r) => {
                    return Some(self.m.types.type_of(&s.value))
                }
                Instruction::Call(c) => {
                    // Passed to a string function: characters.
                    let Some(callee) = super::loops::callee(i) else {
                        continue;
                    };
                    let strings = callee.starts_with("str") || callee.contains("printf");
                    if strings && c.arguments.iter().any(|(a, _)| is_reg(a, r)) {
                        return Some(self.m.types.int(8));
                    }
                }
                _ => {}
            }
        }
        None
    }

    /// The type the pointers loaded from a memory slot are used as, anywhere in the module.
    fn slot_type(&self, slot: &Slot) -> Option<TypeRef> {
        for f in &self.m.functions {
            for i in f.basic_blocks.iter().flat_map(|b| &b.instrs) {
                let Instruction::Load(l) = i else { continue };
                if slot_of(f, &l.address).as_ref() != Some(slot) {
                    continue;
                }
                if let Some(t) = self.use_type(f, &l.dest) {
                    return Some(t);
                }
            }
        }
        None
    }
}

/// A memory slot a pointer is stored in: a global, or a field of a struct type (by its type
/// and constant indices).
#[derive(PartialEq, Eq, Debug)]
enum Slot {
    Global(String),
    Field(String, Vec<i128>),
}

/// The slot an address operand of `f` names, if it is a global or a constant-index
/// `getelementptr` into a named struct type.
fn slot_of(f: &llvm_ir::Function, a: &Operand) -> Option<Slot> {
    match a {
        Operand::ConstantOperand(k) => match k.as_ref() {
            llvm_ir::Constant::GlobalReference { name, .. } => {
                Some(Slot::Global(super::lower::name_str(name)))
            }
            _ => None,
        },
        Operand::LocalOperand { name, .. } => {
            let g = f
                .basic_blocks
                .iter()
                .flat_map(|b| &b.instrs)
                .find_map(|i| match i {
                    Instruction::GetElementPtr(g) if &g.dest == name => Some(g),
                    _ => None,
                })?;
            let Type::NamedStructType { name: s } = g.source_element_type.as_ref() else {
                return None;
            };
            let idx = g
                .indices
                .iter()
                .map(|o| match o {
                    Operand::ConstantOperand(k) => match k.as_ref() {
                        llvm_ir::Constant::Int { value, .. } => Some(*value as i128),
                        _ => None,
                    },
                    _ => None,
                })
                .collect::<Option<Vec<_>>>()?;
            Some(Slot::Field(s.clone(), idx))
        }
        _ => None,
    }
}

fn is_reg(o: &Operand, r: &Name) -> bool {
    matches!(o, Operand::LocalOperand { name, .. } if name == r)
}

/// Most cells one `memcpy` or `memset` is lowered into (one transition each).
const MAX_BLOCK_CELLS: usize = 4096;

/// What a byte loop ([`Lowerer::byte_loop`]) writes.
enum Bytes {
    /// The bytes of another block.
    Copy(Val),
    /// One byte, repeated.
    Fill(Expr),
    /// Bytes the model does not know.
    Arbitrary,
}

/// Most chunks of a block whose object is not known while lowering (a loop over its bytes
/// beyond).
const MAX_CHUNKS: u64 = 64;

impl<'m> Lowerer<'m> {
    /// The cells of a static pointer's object in the `n` bytes from its offset: (offset from
    /// the pointer, width, type); `None` when a cell straddles the range's ends or the object
    /// is not known.
    fn cells_in(&self, p: &Val, n: u64) -> Option<Vec<(u64, u64, Ty)>> {
        let Val::P { obj, off, dyn_ } = p else {
            return None;
        };
        if !dyn_.is_empty() || *off < 0 {
            return None;
        }
        let (lo, hi) = (*off as u64, *off as u64 + n);
        let cells = self.objects.get(obj)?;
        // A block past the object's end: through its addresses, where the access past the
        // end is a memory-safety bug (the cells alone would leave those bytes out).
        if hi > cells.size {
            return None;
        }
        let mut out = Vec::new();
        for (leaf, var) in &cells.leaves {
            let ty = self.vars[var.0 as usize].elem.ty();
            for k in 0..leaf.len {
                let at = leaf.offset + k * leaf.stride;
                let end = at + leaf.width;
                if end <= lo || at >= hi {
                    continue;
                }
                if at < lo || end > hi {
                    return None;
                }
                out.push((at - lo, leaf.width, ty));
                if out.len() > MAX_BLOCK_CELLS {
                    return None;
                }
            }
        }
        out.sort_unstable_by_key(|c| c.0);
        Some(out)
    }

    /// The cells of a block of a constant `n` bytes whose object is not known while lowering
    /// (a pointer loaded from memory): the widest equal chunks (up to 8 bytes) that tile it.
    /// Where the object's cells turn out narrower, the interpreter accesses them byte by byte
    /// and the verifier gives up (a width mismatch is undefined for it), as for any access.
    fn chunks(&self, n: &Expr) -> Option<Vec<(u64, u64, Ty)>> {
        let n = u64::try_from(self.const_eval(n)?).ok()?;
        let w = [8u64, 4, 2, 1].into_iter().find(|w| n % w == 0)?;
        if n == 0 || n / w > MAX_CHUNKS {
            return None;
        }
        let ty = Ty {
            bits: 8 * w as u8,
            signed: false,
        };
        Some((0..n / w).map(|k| (k * w, w, ty)).collect())
    }

    /// The cells of `n` bytes (a constant) of what a pointer points to, by the type its IR
    /// says it points to (`hint`, [`Lowerer::pointee_hint`]), where its object is not known
    /// while lowering: that type's scalars, repeated over the block, where they cover every
    /// byte of the type (no padding, no synchronisation object) in at most [`MAX_CHUNKS`]
    /// cells. As for [`Lowerer::chunks`], where the object's cells turn out otherwise, the
    /// interpreter accesses them byte by byte.
    fn typed_cells(&self, hint: Option<&TypeRef>, n: &Expr) -> Option<Vec<(u64, u64, Ty)>> {
        let ty = hint?;
        let n = u64::try_from(self.const_eval(n)?).ok()?;
        let size = self.layout.size(ty)?;
        if size == 0 || n == 0 || n % size != 0 {
            return None;
        }
        let mut one = Vec::new();
        for l in self.layout.flatten(ty)? {
            if l.elem.is_sync() || one.len() as u64 + l.len > MAX_CHUNKS {
                return None;
            }
            one.extend((0..l.len).map(|k| (l.offset + k * l.stride, l.width, l.elem.ty())));
        }
        one.sort_unstable_by_key(|c| c.0);
        let mut end = 0;
        for &(at, width, _) in &one {
            if at != end {
                return None;
            }
            end = at + width;
        }
        let copies = n / size;
        if end != size || copies * one.len() as u64 > MAX_CHUNKS {
            return None;
        }
        Some(
            (0..copies)
                .flat_map(|c| one.iter().map(move |&(at, w, t)| (c * size + at, w, t)))
                .collect(),
        )
    }

    /// The type pointer operand `o` of the function being lowered points to, where its IR
    /// says ([`Lowerer::pointee_type`]).
    pub(super) fn pointee_hint(&self, o: &Operand) -> Option<TypeRef> {
        self.pointee_type(self.frames.last()?.func, o, 4)
    }

    /// The type pointer operand `o` of `f` points to, where the IR says: the element a
    /// `getelementptr` that computes it selects, an `alloca`'s type, for a pointer loaded
    /// from a global or a struct's field the type of what every store into that slot in the
    /// module points to, or the type `f`'s other uses of it access memory as. Through at most
    /// `depth` phis, selects and loads (whose values must agree).
    fn pointee_type(&self, f: &'m llvm_ir::Function, o: &Operand, depth: u32) -> Option<TypeRef> {
        let Operand::LocalOperand { name, .. } = o else {
            return None;
        };
        let depth = depth.checked_sub(1)?;
        // The values' type, where they all have the same one (each within `depth`).
        let agree = |values: &mut dyn Iterator<Item = (&'m llvm_ir::Function, &Operand)>,
                     depth: u32| {
            let mut hints = values.map(|(g, v)| self.pointee_type(g, v, depth));
            let first = hints.next()??;
            hints.all(|h| h.as_ref() == Some(&first)).then_some(first)
        };
        let def = f
            .basic_blocks
            .iter()
            .flat_map(|b| &b.instrs)
            .find(|i| i.try_get_result() == Some(name));
        let found = match def {
            Some(Instruction::GetElementPtr(g)) => return self.selected_type(g),
            Some(Instruction::Alloca(a)) => return Some(a.allocated_type.clone()),
            Some(Instruction::Phi(p)) => {
                agree(&mut p.incoming_values.iter().map(|(v, _)| (f, v)), depth)
            }
            Some(Instruction::Select(x)) => agree(
                &mut [&x.true_value, &x.false_value].into_iter().map(|v| (f, v)),
                depth,
            ),
            Some(Instruction::Load(l)) => slot_of(f, &l.address).and_then(|slot| {
                let mut stores = Vec::new();
                for g in &self.m.functions {
                    for i in g.basic_blocks.iter().flat_map(|b| &b.instrs) {
                        match i {
                            Instruction::Store(st)
                                if slot_of(g, &st.address).as_ref() == Some(&slot) =>
                            {
                                stores.push((g, &st.value));
                            }
                            _ => {}
                        }
                    }
                }
                // (Each store's value through at most one phi or select: a load there is not
                // followed, so that the module is scanned at most twice.)
                agree(&mut stores.into_iter(), depth.min(2))
            }),
            _ => None,
        };
        found.or_else(|| self.use_type(f, name))
    }

    /// The type of the element a `getelementptr` selects.
    fn selected_type(&self, g: &llvm_ir::instruction::GetElementPtr) -> Option<TypeRef> {
        let mut t = g.source_element_type.clone();
        for idx in g.indices.iter().skip(1) {
            let next = match t.as_ref() {
                Type::ArrayType { element_type, .. } | Type::VectorType { element_type, .. } => {
                    element_type.clone()
                }
                _ => {
                    let Operand::ConstantOperand(k) = idx else {
                        return None;
                    };
                    let llvm_ir::Constant::Int { value, .. } = k.as_ref() else {
                        return None;
                    };
                    let (fields, _) = self.layout.struct_fields(&t)?;
                    fields.get(*value as usize)?.clone()
                }
            };
            t = next;
        }
        Some(t)
    }

    /// `p + k` for a pointer value.
    pub(super) fn offset_by(&self, p: &Val, k: u64) -> Val {
        match p {
            Val::P { obj, off, dyn_ } => Val::P {
                obj: *obj,
                off: off + k as i64,
                dyn_: dyn_.clone(),
            },
            v => Val::E(bin(
                BinOp::Add,
                self.addr_expr(v),
                Expr::constant(k as i128, Ty::ULONG),
                Ty::ULONG,
            )),
        }
    }

    /// `memcpy(dst, src, n)` of a constant length, cell by cell (each a read and a write); the
    /// cells are those of whichever side's object is known. `memmove` (`overlap`) reads every
    /// cell before it writes any, so that blocks that overlap are copied as they were.
    /// `hint`: the type the IR says either pointer points to ([`Lowerer::pointee_hint`]).
    pub(super) fn copy_block(
        &mut self,
        dst: Val,
        src: Val,
        n: Expr,
        overlap: bool,
        hint: Option<TypeRef>,
    ) -> R<()> {
        let known = self
            .const_eval(&n)
            .and_then(|k| {
                self.cells_in(&dst, k as u64)
                    .or_else(|| self.cells_in(&src, k as u64))
            })
            .or_else(|| self.typed_cells(hint.as_ref(), &n))
            .or_else(|| self.chunks(&n));
        let Some(cells) = known else {
            // A length computed at run time, or objects whose layout is not known here: byte
            // by byte; `memmove` goes from the last byte down where the destination starts
            // inside the source (only in one object, where the verifier's addresses and the
            // built program's are in the same order: `__synth_copy_bytes` does the same).
            let order = overlap.then(|| {
                let (d, s) = (self.addr_expr(&dst), self.addr_expr(&src));
                let end = bin(BinOp::Add, s.clone(), cast(n.clone(), Ty::ULONG), Ty::ULONG);
                and(
                    bin(BinOp::Gt, d.clone(), s, Ty::INT),
                    bin(BinOp::Lt, d, end, Ty::INT),
                )
            });
            return self.byte_loop(dst, Bytes::Copy(src), n, order);
        };
        let mut read = Vec::new();
        for &(k, w, ty) in &cells {
            let from = self.place(&self.offset_by(&src, k), w, ty)?;
            let t = self.temp("memcpy", ty);
            self.cell_step(k, w, false)?;
            self.access_step(
                vec![Op::Assign {
                    place: Place::scalar(t),
                    value: Expr::Load { place: from, ty },
                }],
                TransKind::Stmt,
            )?;
            read.push((k, w, ty, t));
            if overlap {
                continue;
            }
            for (k, w, ty, t) in read.drain(..) {
                self.write_cell(&dst, k, w, ty, t)?;
            }
        }
        for (k, w, ty, t) in read {
            self.write_cell(&dst, k, w, ty, t)?;
        }
        self.cell_done();
        Ok(())
    }

    /// The write of a copied cell: `dst + k` (`w` bytes of `ty`) gets register `t`.
    fn write_cell(&mut self, dst: &Val, k: u64, w: u64, ty: Ty, t: VarId) -> R<()> {
        let to = self.place(&self.offset_by(dst, k), w, ty)?;
        self.cell_step(k, w, true)?;
        self.access_step(
            vec![Op::Assign {
                place: to,
                value: Expr::var(t, ty),
            }],
            TransKind::Stmt,
        )?;
        Ok(())
    }

    /// `memset(dst, byte, n)` of a constant length, one write per cell; `hint` as for
    /// [`Lowerer::copy_block`].
    pub(super) fn set_block(
        &mut self,
        dst: Val,
        byte: Expr,
        n: Expr,
        hint: Option<TypeRef>,
    ) -> R<()> {
        let known = self
            .const_eval(&n)
            .and_then(|k| self.cells_in(&dst, k as u64))
            .or_else(|| self.typed_cells(hint.as_ref(), &n))
            .or_else(|| self.chunks(&n));
        let Some(cells) = known else {
            return self.byte_loop(dst, Bytes::Fill(byte), n, None);
        };
        let b = cast(cast(byte, Ty::UCHAR), Ty::ULONG);
        for (k, w, ty) in cells {
            // The byte repeated over the cell's width.
            let ones: i128 = (0..w).map(|i| 1i128 << (8 * i)).sum();
            let v = cast(
                bin(
                    BinOp::Mul,
                    b.clone(),
                    Expr::constant(ones, Ty::ULONG),
                    Ty::ULONG,
                ),
                ty,
            );
            let to = self.place(&self.offset_by(&dst, k), w, ty)?;
            self.cell_step(k, w, true)?;
            self.access_step(
                vec![Op::Assign {
                    place: to,
                    value: v,
                }],
                TransKind::Stmt,
            )?;
        }
        self.cell_done();
        Ok(())
    }

    /// The steps made next are the read or write of the cell of `width` bytes at `offset` of
    /// the block the current instruction copies or fills ([`crate::ir::CellStep`]).
    fn cell_step(&mut self, offset: u64, width: u64, write: bool) -> R<()> {
        let code = u32::try_from(offset).ok().and_then(|offset| {
            crate::ir::CellStep {
                offset,
                width: width as u32,
                write,
            }
            .encode()
        });
        // A cell that has no code (16 bytes wide): the steps stay the instruction's own, which
        // the instrumentation refuses if they are sites.
        self.block_step(code.unwrap_or(0))
    }

    /// The steps made next perform the part `code` of the current instruction's block copy
    /// or fill (a [`crate::ir::CellStep`] or [`crate::ir::ByteStep`], 0 for none).
    fn block_step(&mut self, code: u32) -> R<()> {
        self.flush()?;
        if let Some(at) = &mut self.at {
            at[1] = code;
        }
        Ok(())
    }

    /// The cell steps of a block copy or fill are made.
    fn cell_done(&mut self) {
        if let Some(at) = &mut self.at {
            at[1] = 0;
        }
    }

    /// `n` bytes at `dst` that the environment fills with bytes the model does not know (what
    /// a file, a socket or the system gives: environment.c's `__synth_arbitrary_bytes`): one
    /// step per cell where the length is a constant and the cells are known while lowering
    /// (as `memset` writes them: another thread may see the block half filled), byte by byte
    /// otherwise.
    pub(super) fn arbitrary_block(&mut self, dst: Val, n: Expr) -> R<()> {
        let cells = self
            .const_eval(&n)
            .and_then(|k| u64::try_from(k).ok())
            .and_then(|k| self.cells_in(&dst, k));
        let Some(cells) = cells else {
            return self.byte_loop(dst, Bytes::Arbitrary, n, None);
        };
        for (k, w, ty) in cells {
            let place = self.place(&self.offset_by(&dst, k), w, ty)?;
            self.cell_step(k, w, true)?;
            self.access_step(vec![Op::Havoc { place, ty }], TransKind::Stmt)?;
        }
        self.cell_done();
        Ok(())
    }

    /// `memcpy(dst, src, n)`, `memset(dst, byte, n)` or [`Lowerer::arbitrary_block`] as a
    /// loop over the bytes: each iteration one read and one write of a byte, or one write.
    /// Where `backward` holds (`memmove` into its own source, higher up), the loop goes from
    /// the last byte to the first.
    fn byte_loop(&mut self, dst: Val, bytes: Bytes, n: Expr, backward: Option<Expr>) -> R<()> {
        // The code of the loop's own steps (its test: `realloc`'s reads the old block).
        let head_code = self.at.map_or(0, |a| a[1]);
        let i = self.temp("block.i", Ty::ULONG);
        let n = cast(n, Ty::ULONG);
        let iv = Expr::var(i, Ty::ULONG);
        // The byte of round `i`: `i`, or `n - 1 - i` going backward.
        let byte_at = match backward {
            None => iv.clone(),
            Some(b) => {
                let back = self.temp("block.back", Ty::INT);
                self.step(
                    Expr::tt(),
                    vec![Op::Assign {
                        place: Place::scalar(back),
                        value: b,
                    }],
                    TransKind::Stmt,
                )?;
                let last = bin(
                    BinOp::Sub,
                    bin(
                        BinOp::Sub,
                        n.clone(),
                        Expr::constant(1, Ty::ULONG),
                        Ty::ULONG,
                    ),
                    iv.clone(),
                    Ty::ULONG,
                );
                super::lower::ite(Expr::var(back, Ty::INT), last, iv.clone(), Ty::ULONG)
            }
        };
        let at = |base: &Val, me: &Self| Place::Deref {
            addr: Box::new(bin(
                BinOp::Add,
                me.addr_expr(base),
                byte_at.clone(),
                Ty::ULONG,
            )),
            ty: Ty::UCHAR,
            targets: Vec::new(),
            header: false,
        };
        self.loop_counter_from_zero(i)?;
        let head = self.cur;
        let body = self.new_loc(LocKind::Normal);
        let done = self.new_loc(LocKind::Normal);
        self.edge(
            head,
            body,
            bin(BinOp::Lt, iv.clone(), n.clone(), Ty::INT),
            vec![],
            TransKind::Branch,
        )?;
        self.edge(
            head,
            done,
            bin(BinOp::Ge, iv.clone(), n, Ty::INT),
            vec![],
            TransKind::Branch,
        )?;
        self.cur = body;
        let to = at(&dst, self);
        let write = match bytes {
            Bytes::Copy(s) => {
                let from = at(&s, self);
                let value = self.read_byte("block.byte", from, ByteStep::Read.code())?;
                Op::Assign { place: to, value }
            }
            Bytes::Fill(b) => Op::Assign {
                place: to,
                value: cast(b, Ty::UCHAR),
            },
            Bytes::Arbitrary => Op::Havoc {
                place: to,
                ty: Ty::UCHAR,
            },
        };
        self.block_step(ByteStep::Write.code())?;
        self.access_step(vec![write], TransKind::Stmt)?;
        self.block_step(head_code)?;
        self.edge(
            self.cur,
            head,
            Expr::tt(),
            vec![Op::Assign {
                place: Place::scalar(i),
                value: bin(
                    BinOp::Add,
                    iv.clone(),
                    Expr::constant(1, Ty::ULONG),
                    Ty::ULONG,
                ),
            }],
            TransKind::Stmt,
        )?;
        self.cur = done;
        Ok(())
    }
}

impl Lowerer<'_> {
    /// A step that sets loop counter `i` (an unsigned long register) to 0.
    fn loop_counter_from_zero(&mut self, i: VarId) -> R<()> {
        self.step(
            Expr::tt(),
            vec![Op::Assign {
                place: Place::scalar(i),
                value: Expr::constant(0, Ty::ULONG),
            }],
            TransKind::Stmt,
        )?;
        Ok(())
    }

    /// A step that reads the byte at `from` into a new register named `name`, with `code`
    /// ([`ByteStep`], [`crate::ir::printed_read_code`]): the register's value.
    fn read_byte(&mut self, name: &str, from: Place, code: u32) -> R<Expr> {
        let t = self.temp(name, Ty::UCHAR);
        self.block_step(code)?;
        self.access_step(
            vec![Op::Assign {
                place: Place::scalar(t),
                value: Expr::Load {
                    place: from,
                    ty: Ty::UCHAR,
                },
            }],
            TransKind::Stmt,
        )?;
        Ok(Expr::var(t, Ty::UCHAR))
    }

    /// What a library function reads through its argument `arg`, a pointer
    /// ([`Lowerer::argument_reads`]): the bytes from `src` on, at most `max` of them
    /// (unsigned; all ones for no bound), up to and including the first null byte where
    /// `until_null` holds (a string), none where `null_ok` holds and `src` is null; as a loop
    /// of byte reads whose steps and arms carry the argument in their codes
    /// ([`crate::ir::printed_read_code`], [`crate::ir::printed_arm_code`]).
    pub(super) fn read_loop(
        &mut self,
        src: Val,
        max: Expr,
        until_null: bool,
        null_ok: bool,
        arg: u32,
    ) -> R<()> {
        use crate::ir::{printed_arm_code, printed_read_code, PrintedArm};
        let head_code = self.at.map_or(0, |a| a[1]);
        let arm = |a: PrintedArm| printed_arm_code(arg, a);
        let i = self.temp("read.i", Ty::ULONG);
        let iv = Expr::var(i, Ty::ULONG);
        let max = cast(max, Ty::ULONG);
        self.loop_counter_from_zero(i)?;
        let done = self.new_loc(LocKind::Normal);
        if null_ok {
            let null = bin(
                BinOp::Eq,
                self.addr_expr(&src),
                Expr::constant(0, Ty::ULONG),
                Ty::INT,
            );
            let read = self.new_loc(LocKind::Normal);
            self.block_step(arm(PrintedArm::Null))?;
            self.edge(self.cur, done, null.clone(), vec![], TransKind::Branch)?;
            self.block_step(arm(PrintedArm::NotNull))?;
            self.edge(self.cur, read, not(null), vec![], TransKind::Branch)?;
            self.cur = read;
        }
        let head = self.cur;
        let body = self.new_loc(LocKind::Normal);
        let more = bin(BinOp::Lt, iv.clone(), max.clone(), Ty::INT);
        self.block_step(arm(PrintedArm::More))?;
        self.edge(head, body, more.clone(), vec![], TransKind::Branch)?;
        self.block_step(arm(PrintedArm::Bounded))?;
        self.edge(head, done, not(more), vec![], TransKind::Branch)?;
        self.cur = body;
        let from = Place::Deref {
            addr: Box::new(bin(BinOp::Add, self.addr_expr(&src), iv.clone(), Ty::ULONG)),
            ty: Ty::UCHAR,
            targets: Vec::new(),
            header: false,
        };
        let byte = self.read_byte("read.byte", from, printed_read_code(arg))?;
        let next = vec![Op::Assign {
            place: Place::scalar(i),
            value: bin(
                BinOp::Add,
                iv.clone(),
                Expr::constant(1, Ty::ULONG),
                Ty::ULONG,
            ),
        }];
        if until_null {
            let zero = Expr::constant(0, Ty::UCHAR);
            let end = bin(BinOp::Eq, byte, zero, Ty::INT);
            self.block_step(arm(PrintedArm::End))?;
            self.edge(self.cur, done, end.clone(), vec![], TransKind::Branch)?;
            self.block_step(arm(PrintedArm::Next))?;
            self.edge(self.cur, head, not(end), next, TransKind::Branch)?;
            self.block_step(head_code)?;
        } else {
            self.block_step(head_code)?;
            self.edge(self.cur, head, Expr::tt(), next, TransKind::Stmt)?;
        }
        self.cur = done;
        Ok(())
    }
}

/// The status cell of the one block of a local with a lifetime (a variable-length array or
/// an escaping local, [`Lowerer::start_lifetime`]).
pub(super) fn status_cell(obj: VarId) -> Place {
    Place::Var {
        var: obj,
        index: Some(Box::new(Expr::constant(0, Ty::LONG))),
    }
}

/// What [`Lowerer::block_status`] starts: the status cell of a block a pointer points to, its
/// value, that the pointer is not null, and the locations the check goes from and on to.
struct BlockStatus {
    place: Place,
    status: Expr,
    nonnull: Expr,
    from: LocId,
    next: LocId,
}

/// That a block's status `st` is that of memory from `malloc` (not freed, never allocated,
/// a file mapping or a variable-length array).
fn allocated_by_malloc(st: &Expr) -> Expr {
    and(
        bin(
            BinOp::Ge,
            st.clone(),
            Expr::constant(ALLOCATED, Ty::LONG),
            Ty::INT,
        ),
        bin(
            BinOp::Lt,
            st.clone(),
            Expr::constant(crate::ir::MAPPED, Ty::LONG),
            Ty::INT,
        ),
    )
}

/// The status cell before the block at run-time address `a` (its header).
fn header_at(a: Expr) -> Place {
    Place::Deref {
        addr: Box::new(bin(
            BinOp::Sub,
            a,
            Expr::constant(HEADER as i128, Ty::ULONG),
            Ty::ULONG,
        )),
        ty: Ty::LONG,
        targets: Vec::new(),
        header: true,
    }
}

/// Whether `f` returns register `r` at some `ret`: itself, or as an incoming value of the
/// phi it returns (`if (!p) return NULL; return p;`).
fn returns(f: &llvm_ir::Function, r: &Name) -> bool {
    let phi_of = |o: &Operand| {
        f.basic_blocks
            .iter()
            .flat_map(|b| &b.instrs)
            .any(|i| match i {
                Instruction::Phi(p) => {
                    is_reg(o, &p.dest) && p.incoming_values.iter().any(|(v, _)| is_reg(v, r))
                }
                _ => false,
            })
    };
    f.basic_blocks.iter().any(|b| {
        matches!(&b.term, llvm_ir::Terminator::Ret(ret)
            if ret.return_operand.as_ref().is_some_and(|o| is_reg(o, r) || phi_of(o)))
    })
}
