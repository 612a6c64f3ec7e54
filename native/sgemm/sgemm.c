/*
 * C = A · B for float32 row-major matrices (A: M×K, B: K×N), a Node-API addon that use-lite's
 * matrix products run on (src/embed/native-gemm.ts). Each output is summed over k in order,
 * from 0.0f, with the product rounded before the add: the order and rounding of the XNNPACK
 * wasm SIMD gemm kernels of tfjs's wasm backend (no fused multiply-add in wasm SIMD), so the
 * results are the same bits (test/embed/native-gemm.test.ts). Vectorised across n (independent
 * outputs), never across k; built with -ffp-contract=off so the compiler fuses nothing.
 * The same kernel scans the flat inner-product index (innerProducts, below).
 *
 * The arithmetic is compiled once per instruction set (kernels.h). kernels() lists the ones
 * this CPU runs and useKernel(name) picks one for the calling thread: the caller times them
 * and keeps the fastest, since the widest is not always the fastest.
 * Built by scripts/build-sgemm.mjs (npm's postinstall).
 */
#include <node_api.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "kernels.h"

typedef void sgemm_fn(const float *, const float *, float *, size_t, size_t, size_t, float *);
typedef void inner_products_fn(const float *, const float *, float *, size_t, size_t);
typedef void batch_matmul_fn(const float *, const float *, float *, size_t, size_t, size_t, size_t, int, float *);

struct kernel {
  const char *name;
  int (*supported)(void);
  sgemm_fn *sgemm;
  inner_products_fn *inner_products;
  batch_matmul_fn *batch_matmul;
};

static int always(void) { return 1; }
#ifdef SGEMM_X86
static int has_avx2(void) { return __builtin_cpu_supports("avx2"); }
static int has_avx512f(void) { return __builtin_cpu_supports("avx512f"); }
#endif

/* Widest first: the one a thread uses until it picks another. */
static const struct kernel KERNELS[] = {
#ifdef SGEMM_X86
    {"avx512", has_avx512f, sgemm_avx512, inner_products_avx512, batch_matmul_avx512},
    {"avx2", has_avx2, sgemm_avx2, inner_products_avx2, batch_matmul_avx2},
#endif
    {"base", always, sgemm_base, inner_products_base, batch_matmul_base},
};
#define KERNEL_COUNT (sizeof KERNELS / sizeof KERNELS[0])

/*
 * The packed copy of B, one per Node environment (the main thread and each worker embed on
 * their own), kept between calls and freed with the environment: a fresh malloc of megabytes
 * per call is an mmap and a page fault per 4 KB when glibc's mmap threshold is low (the bench
 * sets it to 128 KB), which cost a sixth of use-lite's time.
 */
struct pack {
  float *data;
  size_t floats;
  const struct kernel *kernel; /* the kernel this environment's calls run on */
};

static void free_pack(napi_env env, void *data, void *hint) {
  (void)env;
  (void)hint;
  free(((struct pack *)data)->data);
  free(data);
}

static struct pack *state(napi_env env) {
  struct pack *p = NULL;
  return napi_get_instance_data(env, (void **)&p) == napi_ok ? p : NULL;
}

static float *pack_buffer(napi_env env, size_t floats) {
  struct pack *p = state(env);
  if (!p) return NULL;
  if (p->floats < floats) {
    free(p->data);
    p->data = malloc(floats * sizeof(float));
    p->floats = p->data ? floats : 0;
  }
  return p->data;
}

/* count × 4 bytes from offset lie inside length (no overflow on the way). */
static int inside(uint64_t offset, uint64_t count, uint64_t length) {
  uint64_t bytes;
  return offset % 4 == 0 && !__builtin_mul_overflow(count, 4, &bytes) && offset <= length && bytes <= length - offset;
}

static uint64_t product3(uint64_t x, uint64_t y, uint64_t z) {
  uint64_t xy, xyz;
  if (__builtin_mul_overflow(x, y, &xy) || __builtin_mul_overflow(xy, z, &xyz)) return UINT64_MAX;
  return xyz;
}

/* The memory and `count` non-negative integer arguments after it; 0 after throwing. */
static int arguments(napi_env env, napi_callback_info info, size_t count, const char *usage, void **data, size_t *length, uint64_t *out) {
  size_t argc = 12;
  napi_value argv[12];
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc != count + 1) {
    napi_throw_type_error(env, NULL, usage);
    return 0;
  }
  if (napi_get_arraybuffer_info(env, argv[0], data, length) != napi_ok) {
    napi_throw_type_error(env, NULL, "sgemm: memory must be an ArrayBuffer");
    return 0;
  }
  for (size_t i = 0; i < count; i++) {
    double v;
    if (napi_get_value_double(env, argv[i + 1], &v) != napi_ok || !(v >= 0 && v <= 9007199254740991.0) || v != (double)(uint64_t)v) {
      napi_throw_type_error(env, NULL, "sgemm: offsets and sizes must be non-negative integers");
      return 0;
    }
    out[i] = (uint64_t)v;
  }
  return 1;
}

/*
 * The scratch buffer for a product of `batch` pairs of M×K and K×N matrices at byte offsets a,
 * b, c of the memory, once all three are checked to lie inside it; NULL after throwing.
 */
static float *checked_scratch(napi_env env, size_t length, uint64_t a, uint64_t b, uint64_t c, uint64_t batch, uint64_t M,
                              uint64_t K, uint64_t N) {
  if (!inside(a, product3(batch, M, K), length) || !inside(b, product3(batch, K, N), length) ||
      !inside(c, product3(batch, M, N), length)) {
    napi_throw_range_error(env, NULL, "sgemm: a matrix lies outside the memory");
    return NULL;
  }
  float *scratch = pack_buffer(env, K * N);
  if (!scratch) napi_throw_error(env, NULL, "sgemm: out of memory");
  return scratch;
}

/* sgemm(memory: ArrayBuffer, aOffset, bOffset, cOffset, M, K, N): byte offsets into memory. */
static napi_value Sgemm(napi_env env, napi_callback_info info) {
  void *data;
  size_t length;
  uint64_t v[6];
  if (!arguments(env, info, 6, "sgemm(memory, aOffset, bOffset, cOffset, M, K, N)", &data, &length, v)) return NULL;
  const uint64_t a = v[0], b = v[1], c = v[2], M = v[3], K = v[4], N = v[5];
  float *packed = checked_scratch(env, length, a, b, c, 1, M, K, N);
  if (packed)
    state(env)->kernel->sgemm((const float *)((char *)data + a), (const float *)((char *)data + b), (float *)((char *)data + c), M, K, N,
                       packed);
  return NULL;
}

/* batchMatmul(memory, aOffset, bOffset, cOffset, batch, M, K, N, transposeB): B is batch×K×N, or batch×N×K when transposeB is 1. */
static napi_value BatchMatmul(napi_env env, napi_callback_info info) {
  void *data;
  size_t length;
  uint64_t v[8];
  if (!arguments(env, info, 8, "batchMatmul(memory, aOffset, bOffset, cOffset, batch, M, K, N, transposeB)", &data, &length, v))
    return NULL;
  const uint64_t a = v[0], b = v[1], c = v[2], batch = v[3], M = v[4], K = v[5], N = v[6], transpose_b = v[7];
  if (transpose_b > 1) {
    napi_throw_range_error(env, NULL, "sgemm: transposeB must be 0 or 1");
    return NULL;
  }
  float *scratch = checked_scratch(env, length, a, b, c, batch, M, K, N);
  if (scratch)
    state(env)->kernel->batch_matmul((const float *)((char *)data + a), (const float *)((char *)data + b), (float *)((char *)data + c), batch, M,
                         K, N, (int)transpose_b, scratch);
  return NULL;
}

/* A Float32Array argument's data and length; 0 after throwing. */
static int float32_array(napi_env env, napi_value value, const char *what, float **data, size_t *length) {
  napi_typedarray_type type;
  bool is_typed = false;
  if (napi_is_typedarray(env, value, &is_typed) != napi_ok || !is_typed ||
      napi_get_typedarray_info(env, value, &type, length, (void **)data, NULL, NULL) != napi_ok || type != napi_float32_array) {
    napi_throw_type_error(env, NULL, what);
    return 0;
  }
  return 1;
}

/*
 * innerProducts(query: Float32Array, panels: Float32Array, out: Float32Array): K = query.length,
 * panels holds P panels of NR rows (P × K × NR floats), out receives P × NR scores.
 */
static napi_value InnerProducts(napi_env env, napi_callback_info info) {
  size_t argc = 3;
  napi_value argv[3];
  float *q, *panels, *out;
  size_t K, plen, olen;
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc != 3) {
    napi_throw_type_error(env, NULL, "innerProducts(query, panels, out)");
    return NULL;
  }
  if (!float32_array(env, argv[0], "innerProducts: query must be a Float32Array", &q, &K) ||
      !float32_array(env, argv[1], "innerProducts: panels must be a Float32Array", &panels, &plen) ||
      !float32_array(env, argv[2], "innerProducts: out must be a Float32Array", &out, &olen))
    return NULL;
  if (K == 0 || plen % (K * NR) != 0 || olen != plen / K) {
    napi_throw_range_error(env, NULL, "innerProducts: panels must hold whole panels of 32 rows of query.length floats, out one float per row");
    return NULL;
  }
  struct pack *p = state(env);
  if (p) p->kernel->inner_products(q, panels, out, plen / (K * NR), K);
  return NULL;
}

/* kernels(): the names of the kernels this CPU runs, widest first. */
static napi_value Kernels(napi_env env, napi_callback_info info) {
  (void)info;
  napi_value list, name;
  uint32_t n = 0;
  napi_create_array(env, &list);
  for (size_t i = 0; i < KERNEL_COUNT; i++)
    if (KERNELS[i].supported()) {
      napi_create_string_utf8(env, KERNELS[i].name, NAPI_AUTO_LENGTH, &name);
      napi_set_element(env, list, n++, name);
    }
  return list;
}

/* useKernel(name): this thread's calls run on that kernel from now on; throws if the CPU lacks it. */
static napi_value UseKernel(napi_env env, napi_callback_info info) {
  size_t argc = 1, len = 0;
  napi_value argv[1];
  char name[32];
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc != 1 ||
      napi_get_value_string_utf8(env, argv[0], name, sizeof name, &len) != napi_ok) {
    napi_throw_type_error(env, NULL, "useKernel(name: string)");
    return NULL;
  }
  struct pack *p = state(env);
  for (size_t i = 0; p && i < KERNEL_COUNT; i++)
    if (strcmp(KERNELS[i].name, name) == 0 && KERNELS[i].supported()) {
      p->kernel = &KERNELS[i];
      return NULL;
    }
  napi_throw_range_error(env, NULL, "useKernel: this CPU does not run that kernel (see kernels())");
  return NULL;
}

/*
 * threadCpuSeconds(): the CPU time of the calling thread. Kernels are timed with it: unlike
 * wall time it does not grow when other processes load the machine.
 */
static napi_value ThreadCpuSeconds(napi_env env, napi_callback_info info) {
  (void)info;
  struct timespec t = {0, 0};
  napi_value seconds;
  if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t) != 0) {
    napi_throw_error(env, NULL, "threadCpuSeconds: this system has no per-thread CPU clock");
    return NULL;
  }
  napi_create_double(env, (double)t.tv_sec + (double)t.tv_nsec * 1e-9, &seconds);
  return seconds;
}

/* kernel(): the name of the kernel this thread's calls run on. */
static napi_value Kernel(napi_env env, napi_callback_info info) {
  (void)info;
  napi_value name;
  struct pack *p = state(env);
  napi_create_string_utf8(env, p ? p->kernel->name : "", NAPI_AUTO_LENGTH, &name);
  return name;
}

NAPI_MODULE_INIT() {
  struct pack *p = calloc(1, sizeof *p);
  if (p) {
    p->kernel = &KERNELS[KERNEL_COUNT - 1];
    for (size_t i = 0; i < KERNEL_COUNT; i++)
      if (KERNELS[i].supported()) {
        p->kernel = &KERNELS[i];
        break;
      }
  }
  if (!p || napi_set_instance_data(env, p, free_pack, NULL) != napi_ok) {
    free(p);
    napi_throw_error(env, NULL, "sgemm: cannot set up its buffer");
    return NULL;
  }
  napi_value fn;
  napi_create_function(env, "sgemm", NAPI_AUTO_LENGTH, Sgemm, NULL, &fn);
  napi_set_named_property(env, exports, "sgemm", fn);
  napi_create_function(env, "batchMatmul", NAPI_AUTO_LENGTH, BatchMatmul, NULL, &fn);
  napi_set_named_property(env, exports, "batchMatmul", fn);
  napi_create_function(env, "innerProducts", NAPI_AUTO_LENGTH, InnerProducts, NULL, &fn);
  napi_set_named_property(env, exports, "innerProducts", fn);
  napi_create_function(env, "kernels", NAPI_AUTO_LENGTH, Kernels, NULL, &fn);
  napi_set_named_property(env, exports, "kernels", fn);
  napi_create_function(env, "useKernel", NAPI_AUTO_LENGTH, UseKernel, NULL, &fn);
  napi_set_named_property(env, exports, "useKernel", fn);
  napi_create_function(env, "kernel", NAPI_AUTO_LENGTH, Kernel, NULL, &fn);
  napi_set_named_property(env, exports, "kernel", fn);
  napi_create_function(env, "threadCpuSeconds", NAPI_AUTO_LENGTH, ThreadCpuSeconds, NULL, &fn);
  napi_set_named_property(env, exports, "threadCpuSeconds", fn);
  return exports;
}
