/**
 * What a rule needs of a service's events: to listen, and to stop. A service's EventEmitter is
 * one; a test's fake can be one without being the whole service.
 */
export interface Listenable<Events extends { [K in keyof Events]: unknown[] }> {
  on<K extends keyof Events & string>(event: K, listener: (...args: Events[K]) => void): unknown;
  off<K extends keyof Events & string>(event: K, listener: (...args: Events[K]) => void): unknown;
}
