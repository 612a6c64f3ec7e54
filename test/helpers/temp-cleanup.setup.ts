import { afterAll } from 'vitest';
import { removeTempDirs } from './temp.ts';

/** vitest setupFiles: run before every test file (also with `isolate: false`), so each file removes its temp folders. */
afterAll(removeTempDirs);
