/*
 * The arithmetic of native/sgemm, once per instruction set. Each output is summed over k in
 * order, from 0.0f, with the product rounded before the add (no fused multiply-add; built with
 * -ffp-contract=off), so every variant gives the same bits: only the register tiling differs.
 *
 * A variant is one vector width (VW floats), one number of rows of A per kernel call (MR) and
 * one panel width of B (PW columns). The accumulators of a call are MR × PW / VW vectors, and
 * they must fit in the register file beside a broadcast and a product: AVX-512 has 32 zmm
 * registers (8 × 2 accumulators), AVX2 16 ymm (3 × 4), SSE2 16 xmm (3 × 4). Too many and the
 * inner loop spills to memory (as 8 × 2 vectors of 16 floats do under AVX2). -D SGEMM_MR_<ISA>
 * and -D SGEMM_PW_<ISA> at build time try another tiling. Which variant runs is chosen at load by timing each on the machine itself
 * (src/embed/kernel-choice.ts), never assumed.
 */
#ifndef SGEMM_KERNELS_H
#define SGEMM_KERNELS_H

#include <stddef.h>
#include <string.h>

#define MC 64 /* rows of A per block: 64 × K floats stay in L2 while B's panels pass */
#define NR 32 /* rows per panel of the index (innerProducts) */
#define KBLOCK 48 /* tfjs wasm's block of k in its batched product (slow_batch_matmul) */

/* B's columns n0..n0+width, k-major and contiguous, so the kernel reads them in one run per k. */
static void pack_panel(const float *B, float *panel, size_t K, size_t N, size_t n0, size_t width) {
  for (size_t k = 0; k < K; k++) memcpy(panel + k * width, B + k * N + n0, width * sizeof(float));
}

#define SGEMM_PRAGMA(x) _Pragma(#x)

/*
 * DEFINE_KERNELS(suffix, attributes, vector type, VW, MR, PW) defines sgemm_<suffix> (MR rows
 * of A against panels of B PW columns wide), inner_products_<suffix> and batch_matmul_<suffix>.
 */
#define DEFINE_KERNELS(SUFFIX, ATTR, VT, VW, MRV, PW)                                                                          \
  static inline __attribute__((always_inline)) ATTR VT load_##SUFFIX(const float *p) {                                          \
    VT v;                                                                                                                        \
    memcpy(&v, p, sizeof v);                                                                                                     \
    return v;                                                                                                                    \
  }                                                                                                                              \
  static inline __attribute__((always_inline)) ATTR void store_##SUFFIX(float *p, VT v) { memcpy(p, &v, sizeof v); }            \
                                                                                                                                 \
  /* ROWS rows of A (stride K) times one packed panel W columns wide: ROWS × W outputs. */                                      \
  static inline __attribute__((always_inline)) ATTR void rows_##SUFFIX(const float *a, const float *panel, size_t K, float *c,  \
                                                                       size_t N, const size_t ROWS, const size_t W) {           \
    VT acc[MRV > 1 ? MRV : 1][(PW > NR ? PW : NR) / VW];                                                                         \
    SGEMM_PRAGMA(GCC unroll 16)                                                                                                  \
    for (size_t r = 0; r < ROWS; r++)                                                                                            \
      SGEMM_PRAGMA(GCC unroll 8)                                                                                                 \
    for (size_t v = 0; v < W / VW; v++) acc[r][v] = (VT){0};                                                                    \
    for (size_t k = 0; k < K; k++, panel += W) {                                                                                \
      VT b[(PW > NR ? PW : NR) / VW];                                                                                                             \
      SGEMM_PRAGMA(GCC unroll 8)                                                                                                 \
      for (size_t v = 0; v < W / VW; v++) b[v] = load_##SUFFIX(panel + v * VW);                                                 \
      SGEMM_PRAGMA(GCC unroll 16)                                                                                                \
      for (size_t r = 0; r < ROWS; r++) {                                                                                        \
        const float ar = a[r * K + k];                                                                                           \
        SGEMM_PRAGMA(GCC unroll 8)                                                                                               \
        for (size_t v = 0; v < W / VW; v++) acc[r][v] = acc[r][v] + ar * b[v];                                                  \
      }                                                                                                                          \
    }                                                                                                                            \
    SGEMM_PRAGMA(GCC unroll 16)                                                                                                  \
    for (size_t r = 0; r < ROWS; r++)                                                                                            \
      SGEMM_PRAGMA(GCC unroll 8)                                                                                                 \
    for (size_t v = 0; v < W / VW; v++) store_##SUFFIX(c + r * N + v * VW, acc[r][v]);                                          \
  }                                                                                                                              \
                                                                                                                                 \
  static ATTR void sgemm_##SUFFIX(const float *A, const float *B, float *C, size_t M, size_t K, size_t N, float *packed) {      \
    const size_t nfull = N - N % PW;                                                                                             \
    for (size_t n0 = 0; n0 < nfull; n0 += PW) pack_panel(B, packed + n0 * K, K, N, n0, PW);                                      \
    for (size_t m0 = 0; m0 < M; m0 += MC) {                                                                                      \
      const size_t m1 = m0 + MC < M ? m0 + MC : M;                                                                               \
      for (size_t n0 = 0; n0 < nfull; n0 += PW) {                                                                                \
        const float *panel = packed + n0 * K;                                                                                    \
        size_t m = m0;                                                                                                           \
        for (; m + MRV <= m1; m += MRV) rows_##SUFFIX(A + m * K, panel, K, C + m * N + n0, N, MRV, PW);                          \
        for (; m < m1; m++) rows_##SUFFIX(A + m * K, panel, K, C + m * N + n0, N, 1, PW);                                        \
      }                                                                                                                          \
      for (size_t m = m0; m < m1; m++)                                                                                           \
        for (size_t n = nfull; n < N; n++) {                                                                                     \
          float acc = 0.0f;                                                                                                      \
          for (size_t k = 0; k < K; k++) acc = acc + A[m * K + k] * B[k * N + n];                                                \
          C[m * N + n] = acc;                                                                                                    \
        }                                                                                                                        \
    }                                                                                                                            \
  }                                                                                                                              \
                                                                                                                                 \
  /* out[j] = q · row j for rows stored NR to a panel, k-major: each panel is one row of A (q). */                               \
  static ATTR void inner_products_##SUFFIX(const float *q, const float *panels, float *out, size_t npanels, size_t K) {         \
    for (size_t p = 0; p < npanels; p++) rows_##SUFFIX(q, panels + p * K * NR, K, out + p * NR, NR, 1, NR);                          \
  }                                                                                                                              \
                                                                                                                                 \
  /* Per output, the sum over each block of KBLOCK k's in order from 0.0f, added in block order. */                              \
  static ATTR void batch_matmul_##SUFFIX(const float *A, const float *B, float *C, size_t batch, size_t M, size_t K, size_t N, \
                                         int transpose_b, float *scratch) {                                                     \
    for (size_t s = 0; s < batch; s++) {                                                                                         \
      const float *a = A + s * M * K, *bk = B + s * K * N;                                                                       \
      float *c = C + s * M * N;                                                                                                  \
      if (transpose_b) {                                                                                                         \
        for (size_t n = 0; n < N; n++)                                                                                           \
          for (size_t k = 0; k < K; k++) scratch[k * N + n] = bk[n * K + k];                                                     \
        bk = scratch;                                                                                                            \
      }                                                                                                                          \
      const size_t nfull = N - N % VW;                                                                                           \
      for (size_t m = 0; m < M; m++) {                                                                                           \
        const float *am = a + m * K;                                                                                             \
        float *cm = c + m * N;                                                                                                   \
        for (size_t n = 0; n < N; n++) cm[n] = 0.0f;                                                                             \
        for (size_t k0 = 0; k0 < K; k0 += KBLOCK) {                                                                              \
          const size_t k1 = k0 + KBLOCK < K ? k0 + KBLOCK : K;                                                                   \
          for (size_t n = 0; n < nfull; n += VW) {                                                                               \
            VT sum = {0};                                                                                                        \
            for (size_t k = k0; k < k1; k++) sum = sum + am[k] * load_##SUFFIX(bk + k * N + n);                                  \
            store_##SUFFIX(cm + n, load_##SUFFIX(cm + n) + sum);                                                                 \
          }                                                                                                                      \
          for (size_t n = nfull; n < N; n++) {                                                                                   \
            float sum = 0.0f;                                                                                                    \
            for (size_t k = k0; k < k1; k++) sum = sum + am[k] * bk[k * N + n];                                                  \
            cm[n] = cm[n] + sum;                                                                                                 \
          }                                                                                                                      \
        }                                                                                                                        \
      }                                                                                                                          \
    }                                                                                                                            \
  }

typedef float v4f __attribute__((vector_size(16)));
typedef float v8f __attribute__((vector_size(32)));
typedef float v16f __attribute__((vector_size(64)));

#ifndef SGEMM_MR_AVX512
#define SGEMM_MR_AVX512 8
#endif
#ifndef SGEMM_PW_AVX512
#define SGEMM_PW_AVX512 32
#endif
#ifndef SGEMM_MR_AVX2
#define SGEMM_MR_AVX2 3
#endif
#ifndef SGEMM_PW_AVX2
#define SGEMM_PW_AVX2 32
#endif
#ifndef SGEMM_MR_BASE
#define SGEMM_MR_BASE 3
#endif
#ifndef SGEMM_PW_BASE
#define SGEMM_PW_BASE 16
#endif

/* The baseline of the target (SSE2 on x86-64, NEON on arm64): 16-byte vectors. */
DEFINE_KERNELS(base, , v4f, 4, SGEMM_MR_BASE, SGEMM_PW_BASE)

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define SGEMM_X86 1
DEFINE_KERNELS(avx2, __attribute__((target("avx2"))), v8f, 8, SGEMM_MR_AVX2, SGEMM_PW_AVX2)
DEFINE_KERNELS(avx512, __attribute__((target("avx512f"))), v16f, 16, SGEMM_MR_AVX512, SGEMM_PW_AVX512)
#endif

#endif
