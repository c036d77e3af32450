// Kept for existing imports: the route wrapper and body parser live in lib/api/.
export { parseBody } from "./api/body";
export { otherMethods, route } from "./api/route";
