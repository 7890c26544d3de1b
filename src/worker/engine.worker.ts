/// <reference lib="webworker" />
import { expose } from 'comlink';
import { createEngineApi } from './engine-api.ts';

// The worker is a thin shell: the contract is EngineApi (api.ts), engine-api.ts maps each
// request to the engine function that answers it.
expose(createEngineApi());
