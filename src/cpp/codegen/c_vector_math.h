#pragma once

#include <cstddef>
#include <string>

#include "ir/kernel_spec.h"

namespace legate_fuse::codegen {

// Vector forms of C library functions that round exactly as the C library does.
//
// glibc's exp and log, float64 and float32 (from the Arm Optimized Routines), are a table
// lookup and a short polynomial; on x86-64 CPUs with FMA they run builds whose multiply-adds are
// fused. Its float64 expm1 and log1p (fdlibm's, also built with FMA there) and tanh (fdlibm's,
// built without, calling that expm1) are a reduction, a rational form or polynomial and a
// choice of formulas; its float64 pow (Arm's, built with FMA) a log to 68 bits from a table
// and an exp; its float32 expm1f, tanhf and log1pf are fdlibm's float versions, built
// without FMA; its float64 sin and cos (IBM's, built with FMA) a reduction by pi/2 and a table
// of sin and cos of i/128; its float32 sinf and cosf (Arm's, built with FMA) a reduction by
// pi/2 and polynomials in double precision. The C
// below is each algorithm, operation for operation as that build's code performs them, written so
// that compilers vectorise it; inputs off its common path go to the C library's function itself.
// exp's table is 2^(i/128) and is part of this source; the others' tables and constants are read
// from the C library's file (legate_fuse/backend/libm_tables.py), so kernels using those vector
// forms are compiled with their definitions (`lf_log_data`, `lf_expf_data`, `lf_logf_data`) in
// front of their source. Whether a vector form agrees with the C library bit for bit on a machine
// is checked there, once per function, by running vector_math_check_program(function)
// (legate_fuse/backend/vector_math.py); kernels use it only when the check passed, through the
// preprocessor macro of the function (LF_VECTOR_EXP, LF_VECTOR_LOG, LF_VECTOR_EXPF,
// LF_VECTOR_LOGF, LF_VECTOR_EXPM1, LF_VECTOR_TANH, LF_VECTOR_LOG1P, LF_VECTOR_EXPM1F,
// LF_VECTOR_TANHF, LF_VECTOR_LOG1PF, LF_VECTOR_SIN, LF_VECTOR_COS, LF_VECTOR_SINF,
// LF_VECTOR_COSF, LF_VECTOR_POW).

// A function with a vector form, as kernels call it.
struct VectorForm {
  const char* function;  // the C library's name ("exp"), as vector_math_check_program takes it
  const char* macro;     // 1 when the vector form may be used ("LF_VECTOR_EXP")
  // The vector form of one element on the common path, and the test that sends an element to
  // the C library's function instead.
  const char* common;
  const char* special;
  // The main function of the program that checks it against the C library.
  std::string (*check_main)();
  // Its arguments (pow's two); whether its special test also takes its common value (pow's
  // common value says when it left the common path).
  int arity                = 1;
  bool special_reads_value = false;
};

// The helpers of every vector form, each compiled when its macro is 1.
[[nodiscard]] std::string vector_math_helpers();
// Every vector form's macro defined as 0 unless defined before (a kernel's prelude defines
// those of the forms it calls): the first lines of every kernel.
[[nodiscard]] std::string vector_math_defaults();

// A C program that exits with 0 when the vector form of `function` ("exp", "log", "expf",
// "logf", "expm1", "tanh", "log1p", "expm1f", "tanhf", "log1pf", "sin", "cos", "sinf", "cosf",
// "pow") equals the
// C library's on every input it tries (wide random ranges, random bit patterns, values near
// the algorithm's boundaries, special values) and prints the first differences otherwise.
// All but exp's need their table defined in front of them, as kernels do.
[[nodiscard]] std::string vector_math_check_program(const std::string& function);

// The vector form of node n (float64 or float32 exp, log, expm1, tanh, log1p, sin, cos or
// pow), or nullptr.
[[nodiscard]] const VectorForm* vector_form_of(const KernelSpec& spec, std::size_t n);

}  // namespace legate_fuse::codegen
