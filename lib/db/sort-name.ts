/** The key a documents list sorts names by (KnowledgeDocument.sortName): case folded, so that "apple" comes before "Banana" on both databases. */
export const sortNameOf = (name: string) => name.normalize("NFKC").toLowerCase();
