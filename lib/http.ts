// What route handlers import: the route wrapper and 405 handlers (lib/api/route.ts) and the body parser (lib/api/body.ts).
export { parseBody, parseQuery } from "./api/body";
export { otherMethods, route } from "./api/route";
