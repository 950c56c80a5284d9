/*===- coopvec-c/Export.h - Symbol visibility for libcoopvec -----*- C -*-===*/

#ifndef COOPVEC_C_EXPORT_H
#define COOPVEC_C_EXPORT_H

#if defined(__GNUC__) || defined(__clang__)
#define COOPVEC_EXPORT __attribute__((visibility("default")))
#else
#define COOPVEC_EXPORT
#endif

#endif // COOPVEC_C_EXPORT_H
