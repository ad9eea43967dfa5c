/** The survey surfaces' lists import `route` and `addRoutes` from here; they live beside `RouteTable`. */
export { addRoutes, type ListedRoute, route } from '../route-definitions.js';
