//===- TypeCache.h - Scoped cache of coopvec type parameters -----*- C -*-===//
//
// Reading a coopvec type's parameters prints the type and parses them back
// (Types.c), which dominated verifying, decoding and lowering a module. Within
// a scope the parameters of each type are read once per thread. A scope may
// only be open while the types' context is alive: the cache is keyed by the
// uniqued type's address, which a later context may reuse, so every scope
// starts empty.
//
//===----------------------------------------------------------------------===//

#ifndef COOPVEC_DIALECT_TYPECACHE_H
#define COOPVEC_DIALECT_TYPECACHE_H

/// Opens a scope on this thread; scopes nest, the outermost clears the cache.
void coopvecTypeCacheBegin(void);
/// Closes the innermost scope.
void coopvecTypeCacheEnd(void);

#endif // COOPVEC_DIALECT_TYPECACHE_H
