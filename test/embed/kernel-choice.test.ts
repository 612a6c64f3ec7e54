import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cachedChoice, describeChoice, machineKey, timeKernels } from '../../src/embed/kernel-choice.ts';
import { routeFastestGemm } from '../../src/embed/native-gemm.ts';
import type { KernelArgs, KernelRegistry } from '../../src/embed/tfjs-wasm-kernels.ts';
import { SGEMM_ADDON_FILE, type SgemmAddon } from '../../src/util/sgemm-addon.ts';
import { makeTempDir } from '../helpers/temp.ts';

/**
 * A machine where the kernels cost what the test says: a fake addon whose thread clock advances
 * by the cost of the route in place each time the "model" embeds. Nothing depends on this
 * machine's real speed.
 */
function fakeMachine(costs: Record<string, number>) {
  let clock = 0;
  let current = Object.keys(costs).find((k) => k !== 'wasm')!;
  const wasmKernel = (_: KernelArgs) => ({ dataId: {}, shape: [], dtype: 'float32' });
  const registered = new Map([
    ['BatchMatMul', { kernelName: 'BatchMatMul', backendName: 'wasm', kernelFunc: wasmKernel }],
    ['Conv2D', { kernelName: 'Conv2D', backendName: 'wasm', kernelFunc: wasmKernel }],
  ]);
  const tf: KernelRegistry = {
    getKernel: (name) => registered.get(name),
    unregisterKernel: (name) => void registered.delete(name),
    registerKernel: (config) => void registered.set(config.kernelName, config as never),
  };
  const addon = {
    kernels: () => Object.keys(costs).filter((k) => k !== 'wasm'),
    useKernel: (name: string) => void (current = name),
    kernel: () => current,
    threadCpuSeconds: () => clock,
  } as unknown as SgemmAddon;
  const routedNative = () => registered.get('BatchMatMul')!.kernelFunc !== wasmKernel;
  const embed = async () => void (clock += routedNative() ? costs[current]! : costs.wasm!);
  return { tf, addon, embed, routedNative, current: () => current };
}

describe('the kernel chooser', () => {
  it('picks the fastest candidate, a deliberately slow kernel last, whatever order they come in', async () => {
    for (const order of [
      ['slow', 'fast', 'wasm'],
      ['wasm', 'slow', 'fast'],
    ]) {
      let clock = 0;
      let installed = '';
      const cost: Record<string, number> = { slow: 8, fast: 1, wasm: 2 };
      const candidates = order.map((name) => ({ name, install: () => ((installed = name), () => (installed = '')) }));
      const timings = await timeKernels(
        candidates,
        async () => void (clock += cost[installed] ?? 100),
        4,
        () => clock,
      );
      expect(timings.map((t) => t.name)).toEqual(['fast', 'wasm', 'slow']);
      expect(timings[0]!.textsPerSecond).toBe(4);
      expect(installed).toBe(''); // every candidate is undone after its turn
    }
  });

  it('routes the products to the fastest kernel, keeps the timing per machine, and reads it back next time', async () => {
    const dir = makeTempDir('kernel-choice-');
    const machine = fakeMachine({ avx512: 5, avx2: 1, wasm: 3 });
    const first = await routeFastestGemm(machine.tf, machine.embed, dir, {}, { addon: machine.addon });
    expect(first).toMatchObject({ kernel: 'avx2', how: 'measured' });
    expect(first.timings.map((t) => t.name)).toEqual(['avx2', 'wasm', 'avx512']);
    expect(machine.routedNative()).toBe(true);
    expect(machine.current()).toBe('avx2');
    expect(describeChoice(first)).toMatch(/^native\/sgemm avx2, the fastest timed on this CPU .*avx2 2\.0, wasm 0\.7, avx512 0\.4/);

    const again = fakeMachine({ avx512: 5, avx2: 1, wasm: 3 });
    const second = await routeFastestGemm(again.tf, again.embed, dir, {}, { addon: again.addon });
    expect(second).toEqual({ ...first, how: 'cached' });
    expect(again.current()).toBe('avx2');
    // Another machine (other kernels) in the same cache folder is timed on its own.
    const other = fakeMachine({ base: 4, wasm: 1 });
    const third = await routeFastestGemm(other.tf, other.embed, dir, {}, { addon: other.addon });
    expect(third).toMatchObject({ kernel: 'wasm', how: 'measured' });
    expect(other.routedNative()).toBe(false);
    expect(cachedChoice(dir, machineKey(['avx512', 'avx2'], SGEMM_ADDON_FILE))?.kernel).toBe('avx2');
  });

  it('runs the kernel a setting names without timing, and refuses one the CPU lacks', async () => {
    const dir = makeTempDir('kernel-choice-');
    const machine = fakeMachine({ avx512: 1, avx2: 5, wasm: 3 });
    const forced = await routeFastestGemm(machine.tf, machine.embed, dir, { TOOLTAX_GEMM_KERNEL: 'avx2' }, { addon: machine.addon });
    expect(forced).toEqual({ kernel: 'avx2', how: 'forced', reason: 'TOOLTAX_GEMM_KERNEL=avx2', timings: [] });
    expect(machine.current()).toBe('avx2');
    await expect(
      routeFastestGemm(machine.tf, machine.embed, dir, { TOOLTAX_GEMM_KERNEL: 'avx1024' }, { addon: machine.addon }),
    ).rejects.toThrow('TOOLTAX_GEMM_KERNEL=avx1024: this CPU runs avx512, avx2, wasm');
    const wasm = await routeFastestGemm(machine.tf, machine.embed, dir, { TOOLTAX_GEMM_KERNEL: 'wasm' });
    expect(wasm).toMatchObject({ kernel: 'wasm', how: 'only', reason: 'TOOLTAX_GEMM_KERNEL=wasm' });
  });

  it('times again when the kept file is damaged', async () => {
    const dir = makeTempDir('kernel-choice-');
    writeFileSync(join(dir, 'kernel-choice.json'), '{"version": 1, "machines": [{"machine": "x", "kernel": 3}]}');
    const machine = fakeMachine({ avx2: 1, wasm: 3 });
    expect(await routeFastestGemm(machine.tf, machine.embed, dir, {}, { addon: machine.addon })).toMatchObject({ how: 'measured' });
  });
});
