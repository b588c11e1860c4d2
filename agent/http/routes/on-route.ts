import type { RequestHandler, Router } from 'express';
import type { ApiRoute } from '../../../protocol/routes.js';

/**
 * Registers a route of the protocol's table: its method and path come from the entry, never
 * from a string of the router's own, so the agent serves no route the app and CLI cannot name.
 */
export function on(router: Router, route: ApiRoute, ...handlers: RequestHandler[]): void {
  const at = router.route(route.path);
  switch (route.method) {
    case 'GET':
      at.get(...handlers);
      return;
    case 'POST':
      at.post(...handlers);
      return;
    case 'PUT':
      at.put(...handlers);
      return;
    case 'PATCH':
      at.patch(...handlers);
      return;
    case 'DELETE':
      at.delete(...handlers);
      return;
  }
}
