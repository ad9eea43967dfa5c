import type * as v from 'valibot';
import type { RouteDefinition, RouteTable } from '../route-definitions.js';

type Schema = v.GenericSchema | undefined;

/**
 * A route definition in a surface's list: its input types were checked where it was written, with
 * `route`, so the list can hold routes of different inputs.
 */
// biome-ignore lint/suspicious/noExplicitAny: the list forgets each route's input types once `route` has checked them
export type ListedRoute = RouteDefinition<any, any, any, any>;

/** Checks a definition's handler against its schemas and loader, for a list of routes. */
export function route<P extends Schema, Q extends Schema, B extends Schema, L = undefined>(
  definition: RouteDefinition<P, Q, B, L>,
): ListedRoute {
  return definition as ListedRoute;
}

/** Registers a surface's routes on an area's table. */
export function addRoutes(table: RouteTable, routes: readonly ListedRoute[]): void {
  for (const definition of routes) table.add(definition);
}
