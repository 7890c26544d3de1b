// Worker-thread entry that can load TypeScript: registers tsx in this thread (module hooks
// registered by bin/run-ts.mjs do not reach workers), then imports the module named in
// workerData.module, which talks to its parent through worker_threads.parentPort.
import { register } from 'tsx/esm/api';
import { workerData } from 'node:worker_threads';

register();
await import(workerData.module);
