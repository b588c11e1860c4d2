export * from './api.js';
export * from './close-codes.js';
export * from './sync.js';
export * from './terminal-frame.js';
export * from './timeline.js';
