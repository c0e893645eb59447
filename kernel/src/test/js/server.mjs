// Starts Debian's classic notebook server (jupyter-notebook 6) on a free port with a random token,
// serving a scratch directory; the kernelspec comes from JUPYTER_PATH (set by JupyterIT).
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';

const PYTHON = process.env.FABRICLAB_PYTHON || '/usr/bin/python3';

function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

export async function startNotebookServer(rootDir) {
  const port = await freePort();
  const token = randomBytes(16).toString('hex');
  const proc = spawn(PYTHON, ['-m', 'notebook', '--no-browser', '--ip=127.0.0.1', `--port=${port}`,
    '--port-retries=0', `--NotebookApp.token=${token}`, `--notebook-dir=${rootDir}`, '--NotebookApp.open_browser=False',
    // CI runs as root; the server refuses root without this flag
    ...(process.getuid && process.getuid() === 0 ? ['--allow-root'] : [])],
    { stdio: ['ignore', 'pipe', 'pipe'], env: process.env });
  let log = '';
  proc.stdout.on('data', d => { log += d; });
  proc.stderr.on('data', d => { log += d; });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`notebook server exited (${proc.exitCode}):\n${log}`);
    try {
      const r = await fetch(`${url}/api?token=${token}`);
      if (r.ok) break;
    } catch (e) { /* not up yet */ }
    if (Date.now() > deadline) { proc.kill(); throw new Error(`notebook server did not start in 60 s:\n${log}`); }
    await new Promise(r => setTimeout(r, 250));
  }
  return {
    url, token, port,
    log: () => log,
    stop: async () => {
      proc.kill('SIGTERM');
      await new Promise(r => { if (proc.exitCode !== null) r(); else proc.on('exit', r); setTimeout(r, 10_000); });
    },
  };
}
