export * from './api.js';
export * from './close-codes.js';
export * from './hooks.js';
export * from './status.js';
export * from './sync.js';
export * from './terminal-frame.js';
export * from './timeline.js';
export * from './status-client.js';
