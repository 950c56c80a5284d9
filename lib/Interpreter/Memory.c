//===- Memory.c - Loads, stores, atomics and local arrays -----------------===//
//
// Every access is checked against its buffer or local array when it runs.
// One outside it never touches memory: it reads 0 (in every lane it
// accesses), writes nothing, and is counted in interp->outOfBounds; the
// run goes on and fails at its end (Interpreter.c). An access partly
// outside counts as outside as a whole. Masked-off lanes are not accesses.
//
//===----------------------------------------------------------------------===//

#include "Interpreter/Execute.h"
#include "Support/Alloc.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

//===----------------------------------------------------------------------===//
// Places and out-of-bounds accesses
//===----------------------------------------------------------------------===//

/// Where a memref value's elements are: a shared buffer's shadow or the
/// frame cells of a local array.
typedef struct Place {
  Cell *cells;
  int64_t size;
  ElemKind elem;
  int bits;
  Buffer *buffer; // NULL for a local array
} Place;

static Place placeOf(Interp *interp, Program *program, int32_t slot) {
  const Slot *memref = &program->slots[slot];
  Place place = {NULL, memref->staticSize, memref->elem, memref->bits, NULL};
  if (memref->isLocal) {
    place.cells = &program->frame[memref->dataOffset];
    return place;
  }
  place.buffer = &interp->buffers[cellsOf(program, slot)->i];
  place.cells = place.buffer->shadow;
  place.size = place.buffer->array.size;
  return place;
}

/// Memory is typed: a stored value is rounded / wrapped to the element type.
static void storeElement(Place *place, int64_t element, Cell value) {
  if (place->elem == ELEM_INT)
    place->cells[element].i = coopvecInterpWrap((uint64_t)value.i, place->bits);
  else
    place->cells[element].f = coopvecInterpRoundTo(place->elem, value.f);
  if (place->buffer)
    place->buffer->dirty = true;
}

/// Whether an access of instruction `index` in the current thread and call
/// stack comes before the first one recorded.
static bool comesFirst(const Interp *interp, int32_t index) {
  const OutOfBounds *first = &interp->outOfBounds;
  if (first->thread < 0)
    return true;
  if (first->thread != interp->thread) // threads run in order
    return false;
  for (int32_t level = 0; level <= interp->callDepth; ++level) {
    int32_t mine = level < interp->callDepth ? interp->callPath[level] : index;
    if (level >= first->depth)
      return false;
    if (mine != first->path[level])
      return mine < first->path[level];
  }
  return false; // the same op again: the earlier access stays the first
}

/// Counts an out-of-bounds access of instruction `index`; `format` says
/// which elements of what ("element 7 of a buffer of 4 elements").
static void outOfBounds(Interp *interp, Program *program, int32_t index,
                        const char *format, ...)
    __attribute__((format(printf, 4, 5)));

static void outOfBounds(Interp *interp, Program *program, int32_t index,
                        const char *format, ...) {
  OutOfBounds *first = &interp->outOfBounds;
  ++first->count;
  if (!comesFirst(interp, index))
    return;
  first->thread = interp->thread;
  first->op = program->insts[index].op;
  first->depth = interp->callDepth + 1;
  first->path = coopvecGrowArray(first->path, &first->capacity, first->depth,
                                 sizeof(int32_t));
  if (interp->callDepth)
    memcpy(first->path, interp->callPath,
           sizeof(int32_t) * (size_t)interp->callDepth);
  first->path[interp->callDepth] = index;
  va_list args;
  va_start(args, format);
  vsnprintf(first->what, sizeof(first->what), format, args);
  va_end(args);
}

/// Whether elements [offset + first, offset + end) lie in [0, size), without
/// overflowing on hostile offsets (first <= end are lane numbers).
static bool inside(int64_t offset, int64_t first, int64_t end, int64_t size) {
  return offset >= 0 && offset <= size && first <= size - offset &&
         end <= size - offset;
}

/// "element 7" or "elements [13, 17)" for lanes [first, end) at `offset`.
/// The arithmetic is unsigned where the offset is not negative, so that
/// the range of an offset near 2^63 prints as it is.
static void describeRange(char *text, size_t size, int64_t offset,
                          int64_t first, int64_t end) {
  bool one = end - first == 1;
  if (offset < 0) { // then offset + end cannot overflow
    long long from = offset + first, to = offset + end;
    snprintf(text, size, one ? "element %lld" : "elements [%lld, %lld)", from,
             to);
    return;
  }
  unsigned long long from = (uint64_t)offset + (uint64_t)first;
  unsigned long long to = (uint64_t)offset + (uint64_t)end;
  snprintf(text, size, one ? "element %llu" : "elements [%llu, %llu)", from,
           to);
}

/// Counts an access of lanes [first, end) at `offset` outside `place`
/// unless it is inside; returns whether it is inside.
static bool checkLanes(Interp *interp, Program *program, int32_t index,
                       const Place *place, int64_t offset, int64_t first,
                       int64_t end) {
  if (inside(offset, first, end, place->size))
    return true;
  char range[64];
  describeRange(range, sizeof(range), offset, first, end);
  outOfBounds(interp, program, index, "%s of a buffer of %lld elements", range,
              (long long)place->size);
  return false;
}

//===----------------------------------------------------------------------===//
// coopvec memory ops
//===----------------------------------------------------------------------===//

/// The lanes a (masked) transfer accesses: [first, end), empty when every
/// lane is masked off.
static void activeLanes(const Cell *mask, int64_t width, int64_t *first,
                        int64_t *end) {
  *first = 0;
  *end = width;
  if (!mask)
    return;
  while (*first < width && !mask[*first].i)
    ++*first;
  while (*end > *first && !mask[*end - 1].i)
    --*end;
}

/// Load / store with optional mask; masked-off elements are not accessed.
void coopvecInterpRunTransfer(Interp *interp, Program *program, int32_t index) {
  const Inst *inst = &program->insts[index];
  bool isLoad = inst->opcode == OP_LOAD || inst->opcode == OP_MASKED_LOAD;
  bool masked =
      inst->opcode == OP_MASKED_LOAD || inst->opcode == OP_MASKED_STORE;
  int32_t valueSlot = isLoad ? inst->results[0] : inst->operands[0];
  int32_t base = isLoad ? 0 : 1;
  int64_t width = program->slots[valueSlot].width;
  Place place = placeOf(interp, program, inst->operands[base]);
  int64_t offset = cellsOf(program, inst->operands[base + 1])->i;
  Cell *vec = cellsOf(program, valueSlot);
  const Cell *mask =
      masked ? cellsOf(program, inst->operands[isLoad ? 2 : 3]) : NULL;
  int64_t first, end;
  activeLanes(mask, width, &first, &end);
  bool ok = first == end ||
            checkLanes(interp, program, index, &place, offset, first, end);
  for (int64_t i = 0; i < width; ++i) {
    bool active = !mask || mask[i].i;
    if (isLoad && !active)
      vec[i].f = cellsOf(program, inst->operands[3])->f;
    else if (isLoad)
      vec[i].f = ok ? place.cells[offset + i].f : 0.0;
    else if (active && ok)
      storeElement(&place, offset + i, vec[i]);
  }
}

void coopvecInterpRunReduceSum(Interp *interp, Program *program,
                               int32_t index) {
  const Inst *inst = &program->insts[index];
  int64_t width = program->slots[inst->operands[0]].width;
  Place place = placeOf(interp, program, inst->operands[1]);
  int64_t offset = cellsOf(program, inst->operands[2])->i;
  if (!checkLanes(interp, program, index, &place, offset, 0, width))
    return;
  // Summed in double, unrounded: the buffer is rounded when written back.
  const Cell *v = cellsOf(program, inst->operands[0]);
  for (int64_t i = 0; i < width; ++i)
    place.cells[offset + i].f += v[i].f;
  if (place.buffer) // always: coopvec ops take memref arguments
    place.buffer->dirty = true;
}

/// A view outside its buffer is an error at once: its offset is uniform,
/// so every thread would make it.
bool coopvecInterpRunMatrixView(Interp *interp, Program *program,
                                int32_t index) {
  const Inst *inst = &program->insts[index];
  const Slot *matrix = &program->slots[inst->results[0]];
  Place place = placeOf(interp, program, inst->operands[0]);
  long long first = inst->elementOffset, count = matrix->rows * matrix->cols;
  if (!inside(first, 0, count, place.size))
    return coopvecInterpError(
        interp, inst->op,
        "views elements [%lld, %lld) of a buffer of %lld elements", first,
        first + count, (long long)place.size);
  Cell *out = cellsOf(program, inst->results[0]);
  out[0].i = cellsOf(program, inst->operands[0])->i;
  out[1].i = inst->elementOffset;
  return true;
}

/// Element (row, col) of a matrix value. inference / training are
/// row-major on the CPU.
double *coopvecInterpMatrixElement(Interp *interp, Program *program,
                                   int32_t slot, int64_t row, int64_t col) {
  const Slot *matrix = &program->slots[slot];
  const Cell *view = cellsOf(program, slot);
  int64_t position = matrix->layout == CoopvecLayoutColMajor
                         ? col * matrix->rows + row
                         : row * matrix->cols + col;
  return &interp->buffers[view[0].i].shadow[view[1].i + position].f;
}

//===----------------------------------------------------------------------===//
// memref ops
//===----------------------------------------------------------------------===//

/// "[1, 9]": the indices (operands from `firstIndex`) of an access.
static void describeIndices(char *text, size_t size, Program *program,
                            const Inst *inst, int32_t firstIndex) {
  size_t used = (size_t)snprintf(text, size, "[");
  for (int32_t k = 0; k < inst->rank && used < size; ++k)
    used += (size_t)snprintf(
        text + used, size - used, "%s%lld", k ? ", " : "",
        (long long)cellsOf(program, inst->operands[firstIndex + k])->i);
  if (used < size)
    snprintf(text + used, size - used, "]");
}

/// "4x5": the shape of a local array.
static void describeShape(char *text, size_t size, const Inst *inst) {
  size_t used = 0;
  text[0] = '\0';
  for (int32_t k = 0; k < inst->rank && used < size; ++k)
    used += (size_t)snprintf(text + used, size - used, "%s%lld", k ? "x" : "",
                             (long long)inst->dims[k]);
}

static void countOutside(Interp *interp, Program *program, int32_t index,
                         const Place *place, int32_t firstIndex) {
  const Inst *inst = &program->insts[index];
  if (inst->rank == 1) {
    outOfBounds(interp, program, index, "element %lld of a %s of %lld elements",
                (long long)cellsOf(program, inst->operands[firstIndex])->i,
                place->buffer ? "buffer" : "local array",
                (long long)place->size);
    return;
  }
  char where[96], shape[96];
  describeIndices(where, sizeof(where), program, inst, firstIndex);
  describeShape(shape, sizeof(shape), inst);
  outOfBounds(interp, program, index,
              "element %s of a local array of %s elements", where, shape);
}

/// The element at the indices (operands from `firstIndex`), row-major, or
/// -1 after counting an access outside `place`.
static int64_t elementAt(Interp *interp, Program *program, int32_t index,
                         const Place *place, int32_t firstIndex) {
  const Inst *inst = &program->insts[index];
  int64_t element = 0;
  for (int32_t k = 0; k < inst->rank; ++k) {
    int64_t i = cellsOf(program, inst->operands[firstIndex + k])->i;
    int64_t dim = inst->rank == 1 ? place->size : inst->dims[k];
    if (i < 0 || i >= dim) {
      countOutside(interp, program, index, place, firstIndex);
      return -1;
    }
    element = element * dim + i; // below the array's size: no overflow
  }
  return element;
}

/// memref.load, memref.store, memref.atomic_rmw (whose update is Inst.variant
/// as an opcode, rounded to the element type; the result is the old value).
void coopvecInterpRunMemRef(Interp *interp, Program *program, int32_t index) {
  const Inst *inst = &program->insts[index];
  bool isLoad = inst->opcode == OP_MEMREF_LOAD;
  int32_t memref = isLoad ? inst->operands[0] : inst->operands[1];
  Place place = placeOf(interp, program, memref);
  int64_t element = elementAt(interp, program, index, &place, isLoad ? 1 : 2);
  Cell zero = {0}, old = element >= 0 ? place.cells[element] : zero;
  if (inst->opcode != OP_MEMREF_STORE)
    *cellsOf(program, inst->results[0]) = old;
  if (isLoad || element < 0)
    return;
  Cell value = *cellsOf(program, inst->operands[0]);
  if (inst->opcode == OP_ATOMIC_RMW && place.elem == ELEM_INT)
    value.i =
        coopvecInterpIntOp((Opcode)inst->variant, old.i, value.i, place.bits);
  else if (inst->opcode == OP_ATOMIC_RMW)
    value.f = coopvecInterpFloatOp((Opcode)inst->variant, old.f, value.f, 0.0,
                                   place.elem);
  storeElement(&place, element, value);
}

/// Every execution of an alloca gives a new array of zeros; the old one is
/// dead by then (a local array cannot leave the region that allocates it).
void coopvecInterpRunAlloca(Program *program, const Inst *inst) {
  const Slot *array = &program->slots[inst->results[0]];
  memset(&program->frame[array->dataOffset], 0,
         sizeof(Cell) * (size_t)array->staticSize);
}
