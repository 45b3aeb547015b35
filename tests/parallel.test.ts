import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { GroupQueue, type RenderOrder, RenderPool } from '../src/generate/parallel.js';
import { tempDir } from './helpers.js';

/** A stand-in render worker: answers the build's order with `reply`, then has nothing left to do. */
async function workerScript(reply: object): Promise<URL> {
  const file = path.join(await tempDir(), 'worker.mjs');
  await writeFile(
    file,
    `import { parentPort } from 'node:worker_threads';
parentPort.once('message', () => parentPort.postMessage(${JSON.stringify(reply)}));`,
  );
  return pathToFileURL(file);
}

const order = (queue: GroupQueue): RenderOrder => ({
  digest: 'd',
  units: [0, 1, 2],
  starts: new Int32Array([0, 1, 2, 3]),
  state: new SharedArrayBuffer(21),
  queue: queue.buffer,
  target: { outDir: '/nowhere', dir: '/nowhere', incremental: false },
  assets: { css: '', js: '', cityIndex: '', fonts: [] },
});

describe('render pool', () => {
  it('lets the build render on after a worker has finished and exited', async () => {
    const staged = { changed: 1, moves: [] };
    const pool = new RenderPool(
      await workerScript({ kind: 'done', staged }),
      { dataDir: '', baseUrl: undefined },
      2,
    );
    const queue = new GroupQueue();
    expect(await pool.run(order(queue), queue)).toEqual([staged, staged]);
    // The workers exit once they have replied; that is no failure.
    await new Promise((r) => setTimeout(r, 300));
    expect(queue.stopped).toBe(false);
    const rendered: number[] = [];
    queue.claimEach(3, (g) => rendered.push(g));
    expect(rendered).toEqual([0, 1, 2]);
    await pool.close();
  });

  it('stops every thread and reports the first failure', async () => {
    const pool = new RenderPool(
      await workerScript({ kind: 'error', message: 'Failed to render page /x: boom' }),
      { dataDir: '', baseUrl: undefined },
      1,
    );
    const queue = new GroupQueue();
    await expect(pool.run(order(queue), queue)).rejects.toThrow('Failed to render page /x: boom');
    expect(queue.stopped).toBe(true);
    const rendered: number[] = [];
    queue.claimEach(2, (g) => rendered.push(g));
    expect(rendered).toEqual([]);
    await pool.close();
  });
});
