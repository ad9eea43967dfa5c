export const PRODUCT_NAME = 'Ensign';

/** Outbound links of the shell (footer, 404 page, support page); a page's own help link lives with the page. */
export const LINKS = {
  documentation: 'https://docs.flipt.io/',
  apiReference: 'https://docs.flipt.io/reference/overview',
  community: 'https://github.com/flipt-io/flipt/discussions',
  blog: 'https://blog.flipt.io/',
  changelog: 'https://github.com/flipt-io/flipt/blob/main/CHANGELOG.md',
  feedback: 'https://github.com/flipt-io/flipt/issues/new/choose',
  github: 'https://github.com/flipt-io/flipt',
  discord: 'https://flipt.io/discord',
};
