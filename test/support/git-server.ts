import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { GitStorageConfig } from '../../server/config/index.js';

const HTTP_BACKEND = '/usr/lib/git-core/git-http-backend';

/** Git storage following the remote's main branch with its basic credentials, polled every second. */
export function gitStorageFor(remote: GitRemote, overrides: Partial<GitStorageConfig> = {}): GitStorageConfig {
  return {
    repository: remote.url,
    ref: 'main',
    refType: 'static',
    directory: '',
    pollIntervalMs: 1000,
    insecureSkipTls: false,
    authentication: { type: 'basic', username: remote.username, password: remote.password },
    ...overrides,
  };
}

/**
 * A git repository served over smart HTTP on loopback: `git http-backend` (CGI) behind a node HTTP
 * server that asks for basic authentication. Tests commit into a working copy and push to the bare
 * repository with the system `git`; the server under test fetches over HTTP (or the file URL).
 */
export interface GitRemote {
  /** `http://127.0.0.1:port/flags.git` */
  url: string;
  /** `file:///.../flags.git` */
  fileUrl: string;
  username: string;
  password: string;
  /** Writes the files (path to text; null deletes), commits them and pushes the branch. Returns the commit id. */
  commit(files: Record<string, string | null>, branch?: string): string;
  /** Tags the branch's last commit (annotated) and pushes the tag. */
  tag(name: string, branch?: string): void;
  /** Stops answering over HTTP (every request then fails to connect); the file URL still works. */
  stop(): Promise<void>;
  /** Stops and removes the repository. */
  close(): Promise<void>;
}

export async function startGitRemote(): Promise<GitRemote> {
  const root = mkdtempSync(join(tmpdir(), 'ensign-git-remote-'));
  const bare = join(root, 'flags.git');
  const work = join(root, 'work');
  const git = (cwd: string, ...args: string[]) =>
    execFileSync('git', args, {
      cwd,
      encoding: 'utf8',
      env: {
        PATH: process.env.PATH,
        HOME: root,
        GIT_CONFIG_NOSYSTEM: '1',
        GIT_AUTHOR_NAME: 'Test',
        GIT_AUTHOR_EMAIL: 'test@example.com',
        GIT_COMMITTER_NAME: 'Test',
        GIT_COMMITTER_EMAIL: 'test@example.com',
      },
    }).trim();
  git(root, 'init', '--quiet', '--bare', '--initial-branch=main', bare);
  git(root, 'init', '--quiet', '--initial-branch=main', work);

  const username = 'flipt';
  const password = 's3cret';
  const expected = `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;
  const server: Server = createServer((request, response) => {
    if (request.headers.authorization !== expected) {
      response.writeHead(401, { 'www-authenticate': 'Basic realm="git"' }).end();
      return;
    }
    const url = new URL(request.url ?? '/', 'http://localhost');
    const cgi = spawn(HTTP_BACKEND, [], {
      env: {
        GIT_PROJECT_ROOT: root,
        GIT_HTTP_EXPORT_ALL: '1',
        PATH_INFO: decodeURIComponent(url.pathname),
        QUERY_STRING: url.search.slice(1),
        REQUEST_METHOD: request.method,
        CONTENT_TYPE: request.headers['content-type'] ?? '',
        HTTP_CONTENT_ENCODING: request.headers['content-encoding'] ?? '',
        GIT_PROTOCOL: String(request.headers['git-protocol'] ?? ''),
        REMOTE_USER: username,
        REMOTE_ADDR: '127.0.0.1',
      },
    });
    request.pipe(cgi.stdin);
    let head = Buffer.alloc(0);
    let headersSent = false;
    cgi.stdout.on('data', (chunk: Buffer) => {
      if (headersSent) return response.write(chunk);
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf('\r\n\r\n');
      if (end < 0) return;
      const headers: Record<string, string> = {};
      let status = 200;
      for (const line of head.toString('latin1', 0, end).split('\r\n')) {
        const colon = line.indexOf(':');
        const name = line.slice(0, colon).trim().toLowerCase();
        const value = line.slice(colon + 1).trim();
        if (name === 'status') status = Number.parseInt(value, 10);
        else headers[name] = value;
      }
      response.writeHead(status, headers);
      headersSent = true;
      response.write(head.subarray(end + 4));
    });
    cgi.on('close', () => response.end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const stop = async () => {
    if (!server.listening) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };

  return {
    url: `http://127.0.0.1:${port}/flags.git`,
    fileUrl: `file://${bare}`,
    username,
    password,
    commit(files, branch = 'main') {
      const branches = git(work, 'branch', '--list', branch);
      if (git(work, 'symbolic-ref', '--short', 'HEAD') !== branch) {
        git(work, 'checkout', '--quiet', ...(branches ? [branch] : ['-b', branch]));
      }
      for (const [path, text] of Object.entries(files)) {
        const file = join(work, path);
        if (text === null) rmSync(file);
        else {
          mkdirSync(dirname(file), { recursive: true });
          writeFileSync(file, text);
        }
      }
      git(work, 'add', '--all');
      git(work, 'commit', '--quiet', '--allow-empty', '-m', `change ${Object.keys(files).join(', ')}`);
      git(work, 'push', '--quiet', bare, branch);
      return git(work, 'rev-parse', 'HEAD');
    },
    tag(name, branch = 'main') {
      git(work, 'tag', '--annotate', '-m', name, name, branch);
      git(work, 'push', '--quiet', bare, `refs/tags/${name}`);
    },
    stop,
    async close() {
      await stop();
      rmSync(root, { recursive: true, force: true });
    },
  };
}
