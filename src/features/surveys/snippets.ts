/**
 * The snippets that put an environment's surveys on a site: for Ensign's loader, for today's
 * @formbricks/js 5 (which loads Ensign's loader from `/js/formbricks.umd.cjs` and calls its `setup`) and for
 * @formbricks/js 1.6.5 (the server speaks its client API), each as a script tag and as an npm package.
 */
export function snippets(origin: string, environmentId: string): Record<string, string> {
  const config = `{ environmentId: '${environmentId}', apiHost: '${origin}' }`;
  const init = `formbricks.init(${config});`;
  // Formbricks 5 names it workspaceId; Ensign's id is an environment's, which the setup of both takes.
  const setup = `formbricks.setup({ appUrl: '${origin}', environmentId: '${environmentId}' });`;
  return {
    'Ensign script': `<script src="${origin}/js/formbricks.js"></script>
<script>
  ${init}
</script>`,
    'Ensign npm': `// npm install ensign  (the loader's ES module; it loads its survey part next to itself)
import formbricks from 'ensign/dist/widget/formbricks.mjs';

${init}`,
    '@formbricks/js 5 script': `<script src="${origin}/js/formbricks.umd.cjs"></script>
<script>
  ${setup}
</script>`,
    '@formbricks/js 5 npm': `// npm install @formbricks/js@5
import formbricks from '@formbricks/js';

${setup}`,
    '@formbricks/js script': `<script src="https://unpkg.com/@formbricks/js@1.6.5/dist/index.umd.js"></script>
<script>
  window.formbricks.init(${config});
</script>`,
    '@formbricks/js npm': `// npm install @formbricks/js@1.6.5
import formbricks from '@formbricks/js';

${init}`,
  };
}
