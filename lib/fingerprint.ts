// A short fingerprint of a text, to tell cheaply whether two copies are the same (e.g. a report
// rendered on the server and the one a live view holds): its length and its FNV-1a hash (32 bits).
export function fingerprint(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return `${text.length.toString(36)}-${(hash >>> 0).toString(36)}`;
}
