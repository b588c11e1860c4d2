/** Said by the service worker's registration when a new version waits; the update toast offers it. */
export const UPDATE_READY_EVENT = 'pm-update-ready';
export type UpdateReadyEvent = CustomEvent<{ apply: () => void }>;
