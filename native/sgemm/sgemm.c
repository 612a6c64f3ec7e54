/*
 * C = A · B for float32 row-major matrices (A: M×K, B: K×N), a Node-API addon that use-lite's
 * matrix products run on (src/embed/native-gemm.ts). Each output is summed over k in order,
 * from 0.0f, with the product rounded before the add: the order and rounding of the XNNPACK
 * wasm SIMD gemm kernels of tfjs's wasm backend (no fused multiply-add in wasm SIMD), so the
 * results are the same bits (test/embed/native-gemm.test.ts). Vectorised across n (independent
 * outputs), never across k; built with -ffp-contract=off so the compiler fuses nothing.
 * The same kernel scans the flat inner-product index (innerProducts, below).
 * Built by scripts/build-sgemm.mjs (npm's postinstall).
 */
#include <node_api.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef float v16 __attribute__((vector_size(64)));

static inline __attribute__((always_inline)) v16 load16(const float *p) { v16 v; memcpy(&v, p, sizeof v); return v; }
static inline __attribute__((always_inline)) void store16(float *p, v16 v) { memcpy(p, &v, sizeof v); }

#define MC 64 /* rows of A per block: 64 × K floats stay in L2 while B's panels pass */
#define MR 8 /* rows per kernel call: 2 × MR accumulators in registers (4, 6, 8, 12 ran alike) */
#define NR 32 /* columns per panel: two 16-float vectors */

/* B's columns n0..n0+NR, k-major and contiguous, so the kernel reads one 128-byte line per k. */
static void pack_panel(const float *B, float *panel, size_t K, size_t N, size_t n0) {
  for (size_t k = 0; k < K; k++) memcpy(panel + k * NR, B + k * N + n0, NR * sizeof(float));
}

/* One row of A times one packed panel: NR outputs, each summed over k in order from 0.0f. */
static inline __attribute__((always_inline)) void row_times_panel(const float *a, const float *panel, size_t K, float *c) {
  v16 c0 = {0}, c1 = {0};
  for (size_t k = 0; k < K; k++, panel += NR) {
    c0 = c0 + a[k] * load16(panel);
    c1 = c1 + a[k] * load16(panel + 16);
  }
  store16(c, c0);
  store16(c + 16, c1);
}

#if defined(__x86_64__) && defined(__linux__)
/* One build serves every x86-64 CPU: the loader picks the widest clone the CPU runs. */
__attribute__((target_clones("avx512f", "avx2", "default")))
#endif
static void sgemm_sequential_k(const float *A, const float *B, float *C, size_t M, size_t K, size_t N, float *packed) {
  const size_t nfull = N - N % NR;
  for (size_t n0 = 0; n0 < nfull; n0 += NR) pack_panel(B, packed + n0 * K, K, N, n0);
  for (size_t m0 = 0; m0 < M; m0 += MC) {
    const size_t m1 = m0 + MC < M ? m0 + MC : M;
    for (size_t n0 = 0; n0 < nfull; n0 += NR) {
      const float *panel = packed + n0 * K;
      size_t m = m0;
      for (; m + MR <= m1; m += MR) {
        const float *a = A + m * K, *b = panel;
        v16 c0[MR] = {{0}}, c1[MR] = {{0}};
        for (size_t k = 0; k < K; k++, b += NR) {
          const v16 b0 = load16(b), b1 = load16(b + 16);
#pragma GCC unroll 16
          for (size_t r = 0; r < MR; r++) {
            const float ar = a[r * K + k];
            c0[r] = c0[r] + ar * b0;
            c1[r] = c1[r] + ar * b1;
          }
        }
#pragma GCC unroll 16
        for (size_t r = 0; r < MR; r++) {
          store16(C + (m + r) * N + n0, c0[r]);
          store16(C + (m + r) * N + n0 + 16, c1[r]);
        }
      }
      for (; m < m1; m++) row_times_panel(A + m * K, panel, K, C + m * N + n0);
    }
    for (size_t m = m0; m < m1; m++)
      for (size_t n = nfull; n < N; n++) {
        float acc = 0.0f;
        for (size_t k = 0; k < K; k++) acc = acc + A[m * K + k] * B[k * N + n];
        C[m * N + n] = acc;
      }
  }
}

/*
 * The packed copy of B, one per Node environment (the main thread and each worker embed on
 * their own), kept between calls and freed with the environment: a fresh malloc of megabytes
 * per call is an mmap and a page fault per 4 KB when glibc's mmap threshold is low (the bench
 * sets it to 128 KB), which cost a sixth of use-lite's time.
 */
struct pack { float *data; size_t floats; };

static void free_pack(napi_env env, void *data, void *hint) {
  (void)env;
  (void)hint;
  free(((struct pack *)data)->data);
  free(data);
}

static float *pack_buffer(napi_env env, size_t floats) {
  struct pack *p = NULL;
  if (napi_get_instance_data(env, (void **)&p) != napi_ok || !p) return NULL;
  if (p->floats < floats) {
    free(p->data);
    p->data = malloc(floats * sizeof(float));
    p->floats = p->data ? floats : 0;
  }
  return p->data;
}

/*
 * The scan of the flat inner-product index (src/index/native-flat-ip.ts): out[j] = q · row j
 * for rows stored NR to a panel, k-major (the layout sgemm packs B into). Each score is summed
 * over k in order from 0.0f with the product rounded first: the arithmetic of faiss's
 * IndexFlatIP scan for one query as Debian's libfaiss 1.7.3 runs it (fvec_inner_product is its
 * plain scalar loop there), so the scores are the same bits. Two panels at a time keep four
 * independent sums in flight; a sum's adds stay in order.
 */
#if defined(__x86_64__) && defined(__linux__)
__attribute__((target_clones("avx512f", "avx2", "default")))
#endif
static void packed_inner_products(const float *q, const float *panels, float *out, size_t npanels, size_t K) {
  size_t p = 0;
  for (; p + 2 <= npanels; p += 2) {
    const float *b = panels + p * K * NR, *d = b + K * NR;
    v16 c0 = {0}, c1 = {0}, c2 = {0}, c3 = {0};
    for (size_t k = 0; k < K; k++, b += NR, d += NR) {
      c0 = c0 + q[k] * load16(b);
      c1 = c1 + q[k] * load16(b + 16);
      c2 = c2 + q[k] * load16(d);
      c3 = c3 + q[k] * load16(d + 16);
    }
    store16(out + p * NR, c0);
    store16(out + p * NR + 16, c1);
    store16(out + p * NR + NR, c2);
    store16(out + p * NR + NR + 16, c3);
  }
  if (p < npanels) row_times_panel(q, panels + p * K * NR, K, out + p * NR);
}

/*
 * tfjs wasm's batched product for everything XNNPACK does not take (the attention's
 * per-head products; tfjs-backend-wasm slow_batch_matmul): for each output, the sum over each
 * block of 48 k's, in order from 0.0f, added in block order to the output, which starts at 0.
 * The same order here, vectorised across n; B is transposed first when it is given as N×K.
 */
#define KBLOCK 48

#if defined(__x86_64__) && defined(__linux__)
__attribute__((target_clones("avx512f", "avx2", "default")))
#endif
static void batch_matmul_blocked(const float *A, const float *B, float *C, size_t batch, size_t M, size_t K, size_t N,
                                 int transpose_b, float *scratch) {
  for (size_t b = 0; b < batch; b++) {
    const float *a = A + b * M * K, *bk = B + b * K * N;
    float *c = C + b * M * N;
    if (transpose_b) {
      for (size_t n = 0; n < N; n++)
        for (size_t k = 0; k < K; k++) scratch[k * N + n] = bk[n * K + k];
      bk = scratch;
    }
    const size_t nfull = N - N % 16;
    for (size_t m = 0; m < M; m++) {
      const float *am = a + m * K;
      float *cm = c + m * N;
      for (size_t n = 0; n < N; n++) cm[n] = 0.0f;
      for (size_t k0 = 0; k0 < K; k0 += KBLOCK) {
        const size_t k1 = k0 + KBLOCK < K ? k0 + KBLOCK : K;
        for (size_t n = 0; n < nfull; n += 16) {
          v16 sum = {0};
          for (size_t k = k0; k < k1; k++) sum = sum + am[k] * load16(bk + k * N + n);
          store16(cm + n, load16(cm + n) + sum);
        }
        for (size_t n = nfull; n < N; n++) {
          float sum = 0.0f;
          for (size_t k = k0; k < k1; k++) sum = sum + am[k] * bk[k * N + n];
          cm[n] = cm[n] + sum;
        }
      }
    }
  }
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
    sgemm_sequential_k((const float *)((char *)data + a), (const float *)((char *)data + b), (float *)((char *)data + c), M, K, N,
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
    batch_matmul_blocked((const float *)((char *)data + a), (const float *)((char *)data + b), (float *)((char *)data + c), batch, M,
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
  packed_inner_products(q, panels, out, plen / (K * NR), K);
  return NULL;
}

NAPI_MODULE_INIT() {
  struct pack *p = calloc(1, sizeof *p);
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
  return exports;
}
