/**
 * What a component asks of whoever owns the data it shows, as an event: the component keeps
 * its progress and error beside the button the person pressed, and the owner alone talks to
 * the agent. The owner answers while the event is dispatched (`respondWith`), as a service
 * worker answers a `FetchEvent`.
 */

/** Each action's name, what it carries, and what its answer resolves to. */
export type ActionMap = Record<string, { detail: unknown; result: unknown }>;

export class ActionRequestEvent<Detail, Result> extends Event {
  private answer: Promise<Result> | null = null;

  constructor(
    type: string,
    readonly detail: Detail,
  ) {
    // Composed: the asking component usually sits in another component's shadow root.
    super(type, { bubbles: true, composed: true });
  }

  respondWith(answer: Promise<Result>): void {
    this.answer = answer;
  }

  get response(): Promise<Result> {
    return this.answer ?? Promise.reject(new Error(`Nothing on this page can ${this.type}.`));
  }
}

export interface Actions<M extends ActionMap> {
  /** Asks the owner up the tree to carry out an action, and resolves with its answer. */
  request<K extends keyof M & string>(from: EventTarget, type: K, detail: M[K]['detail']): Promise<M[K]['result']>;
  /** Answers every request of one action that reaches `owner`; returns the way to stop. */
  answer<K extends keyof M & string>(owner: EventTarget, type: K, carryOut: (detail: M[K]['detail']) => Promise<M[K]['result']>): () => void;
}

/** Requests and answers typed by one map of actions. */
export function actionsOf<M extends ActionMap>(): Actions<M> {
  return {
    request(from, type, detail) {
      const event = new ActionRequestEvent(type, detail);
      from.dispatchEvent(event);
      return event.response as Promise<M[typeof type]['result']>;
    },
    answer(owner, type, carryOut) {
      const listener = (event: Event): void => {
        if (!(event instanceof ActionRequestEvent)) return;
        event.stopPropagation();
        event.respondWith(carryOut(event.detail));
      };
      owner.addEventListener(type, listener);
      return () => owner.removeEventListener(type, listener);
    },
  };
}
