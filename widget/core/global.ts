import formbricks from './index.js';

// The IIFE build defines window.formbricks, as the @formbricks/js UMD build does.
(window as unknown as { formbricks: typeof formbricks }).formbricks = formbricks;
