/**
 * The most departments one name search of GET /org/tree answers; the console says when there may be
 * more. Kept apart from the department schemas so the console reads it without the schema library.
 */
export const ORG_SEARCH_LIMIT = 200
