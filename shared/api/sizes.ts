// The protocol's sizes, apart from the schema so that a client can use them without loading the validator (zod).

/** A recording keeps at most this many steps (`recording.start` may ask for fewer); recording stops there. */
export const MAX_RECORDED_STEPS = 1000;
/** Expand-all asks for at most this many nodes below a node (a `subtree` request may ask up to the maximum). */
export const EXPAND_ALL_NODES = 20_000;
export const MAX_SUBTREE_NODES = 50_000;
/** Results of a paged evaluation come this many to a page (a page may hold up to the maximum). */
export const RESULT_PAGE = 500;
export const MAX_RESULT_PAGE = 5_000;
