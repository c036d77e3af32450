/** Whether the production build (.next) is missing or older than the sources it was built from. */
export function buildIsStale(root: string): boolean;
