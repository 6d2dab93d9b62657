/** @klvscope/adapters: byte sources and sinks that touch the OS. */
export { AdapterError, type AdapterErrorCode } from './adapter-error.js';
export { DEFAULT_CHUNK_SIZE, fileSize, readFileChunks, type ReadFileChunksOptions } from './file.js';
