/// <reference lib="webworker" />
import { expose } from 'comlink';
import { createEngineApi } from './engine-api.ts';

// The worker is a thin shell: the contract is EngineApi (api.ts), the work is engine-api.ts.
expose(createEngineApi());
