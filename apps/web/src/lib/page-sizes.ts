/**
 * SPEC.md §9: page 1, size 10, sizes 10/20/30/40/50/100. Apart from the pager widget, so the list
 * state in the URL (which every screen's breadcrumb reads) does not pull the pager into the shell.
 */
export const DEFAULT_PAGE = 1
export const DEFAULT_PAGE_SIZE = 10
export const PAGE_SIZES = [10, 20, 30, 40, 50, 100] as const
