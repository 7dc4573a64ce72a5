/** How long a deleted item waits in the trash before it and its files are removed for good. */
export const TRASH_DAYS = 30
