export interface SearchResult {
  url: string;
  title: string;
  snippet: string;
}

export interface SearchProvider {
  readonly name: string;
  search(query: string, options: { limit: number; signal?: AbortSignal; categories?: string[] }): Promise<SearchResult[]>;
}

export class SearchError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "SearchError";
  }
}
