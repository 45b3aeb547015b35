import { parentPort, workerData } from 'node:worker_threads';
import { PageState } from './page-state.js';
import { StageWriter } from './stage-writer.js';
import type { WriteMessage, WriteReply, WriterSetup } from './write-thread.js';

// The writer thread: stages the pages the build sends, in order, from the shared ring, and
// frees their room as it goes. After a failure it writes nothing more but still frees, so the
// build never waits on it, and reports the failure.
const port = parentPort;
if (!port) throw new Error('write-worker.js runs only as a worker thread');
const setup = workerData as WriterSetup;
const ring = Buffer.from(setup.ring);
const cells = new Int32Array(setup.cells);
const state = new PageState(setup.state);
const writer = new StageWriter(setup.target, setup.prefix);
let failure: string | null = null;

port.on('message', (m: WriteMessage) => {
  if (m.kind === 'end') {
    const reply: WriteReply = failure
      ? { kind: 'error', message: failure }
      : { kind: 'done', staged: writer.result() };
    port.postMessage(reply);
    return;
  }
  for (const record of m.records) {
    const [rel, index] = record;
    const bytes = record.length === 3 ? record[2] : ring.subarray(record[2], record[2] + record[3]);
    if (failure === null) {
      try {
        if (writer.put(rel, bytes, state.owned[index] === 1)) state.changed[index] = 1;
      } catch (err) {
        failure = err instanceof Error ? err.message : String(err);
        Atomics.store(cells, 1, 1);
      }
    }
    if (record.length === 5) {
      Atomics.add(cells, 0, record[4] + record[3]);
      Atomics.notify(cells, 0);
    }
  }
});
