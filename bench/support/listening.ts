// A server in a child process of its own, so that the load generator does not share its event loop.
import { type ChildProcessByStdio, spawn } from 'node:child_process';
import type { Readable } from 'node:stream';

/** Runs `node <args>` and waits for its "listening on <url>" line: the server's URL, and its process. */
export async function spawnListening(
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ base: string; child: ChildProcessByStdio<null, Readable, null> }> {
  const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'inherit'] });
  const base = await new Promise<string>((resolve, reject) => {
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk;
      const listening = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output)?.[1];
      if (listening) resolve(listening);
    });
    child.once('exit', (code) => reject(new Error(`the server exited with ${code}: ${output}`)));
  });
  child.stdout.resume();
  return { base, child };
}
