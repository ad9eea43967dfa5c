/**
 * The flag pages' route patterns: app/routes.ts registers them (namespaced), and the links to the pages
 * are built from them (hrefs.ts), so that a link and its route cannot drift apart. The shell's route
 * table loads this module with the first page, so it holds the patterns alone.
 */
export const FLAG_ROUTES = { list: '/flags', new: '/flags/new', flag: '/flags/:flagKey/:tab?' } as const;
