// JupyterLab's own kernel client (@jupyterlab/services) against the classic notebook server and the
// fabriclab kernel: execute, display_data (PNG and HTML), complete, inspect, history, interrupt, restart.
// Run: node --test services.test.mjs   (JUPYTER_PATH must hold the fabriclab kernelspec)
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { KernelManager, ServerConnection } from '@jupyterlab/services';
import { startNotebookServer } from './server.mjs';

let server;
let manager;
let kernel;

before(async () => {
  server = await startNotebookServer(mkdtempSync(join(tmpdir(), 'fabriclab-services-')));
  const serverSettings = ServerConnection.makeSettings({
    baseUrl: server.url + '/', wsUrl: server.url.replace('http', 'ws') + '/', token: server.token,
    appendToken: true, WebSocket,
  });
  manager = new KernelManager({ serverSettings });
  await manager.ready;
  kernel = await manager.startNew({ name: 'fabriclab' });
  const info = await kernel.info;
  assert.equal(info.implementation, 'fabriclab');
});

after(async () => {
  if (kernel) await kernel.shutdown().catch(() => {});
  if (manager) manager.dispose();
  if (server) await server.stop();
});

/** Runs code; returns the execute_reply content and the IOPub messages of the request. */
async function run(code) {
  const future = kernel.requestExecute({ code, stop_on_error: true });
  const iopub = [];
  future.onIOPub = msg => iopub.push(msg);
  const reply = await future.done;
  return { reply: reply.content, iopub };
}

test('execute: stdout and the value of the last expression', async () => {
  const { reply, iopub } = await run('System.out.println("hello from Java"); 6 * 7');
  assert.equal(reply.status, 'ok');
  const text = iopub.filter(m => m.header.msg_type === 'stream').map(m => m.content.text).join('');
  assert.equal(text, 'hello from Java\n');
  const result = iopub.find(m => m.header.msg_type === 'execute_result');
  assert.equal(result.content.data['text/plain'], '42');
});

test('display_data: a chart as PNG and a table as HTML', async () => {
  const { reply, iopub } = await run(
    'var c = fabriclab.notebook.Figures.xy("t", "x [s]", "y [1]");\n' +
    'c.addSeries("s", new double[]{0, 1}, new double[]{1, 2});\n' +
    'display(c);\n' +
    'display(tech.tablesaw.api.Table.create("t", tech.tablesaw.api.DoubleColumn.create("x", 0.1 + 0.2)));');
  assert.equal(reply.status, 'ok');
  const displays = iopub.filter(m => m.header.msg_type === 'display_data');
  assert.equal(displays.length, 2);
  const png = Buffer.from(displays[0].content.data['image/png'], 'base64');
  assert.deepEqual([...png.subarray(0, 4)], [0x89, 0x50, 0x4e, 0x47]);
  assert.match(displays[1].content.data['text/html'], /<table[^>]*>.*<td[^>]*>0\.3<\/td>/s);
});

test('complete', async () => {
  const reply = await kernel.requestComplete({ code: 'Math.absE', cursor_pos: 9 });
  assert.equal(reply.content.status, 'ok');
  assert.ok(reply.content.matches.includes('absExact('), JSON.stringify(reply.content.matches));
  assert.equal(reply.content.cursor_start, 5);
});

test('inspect shows the signature and the Javadoc of kernel-lib', async () => {
  const code = 'fabriclab.Parameters.positive';
  const reply = await kernel.requestInspect({ code, cursor_pos: code.length, detail_level: 0 });
  assert.equal(reply.content.status, 'ok');
  assert.equal(reply.content.found, true);
  const text = reply.content.data['text/plain'];
  assert.match(text, /positive\(String name, double value\)/);
  assert.ok(text.split('\n').length > 1, 'no Javadoc: ' + text);
});

test('history', async () => {
  await run('int historyValue = 3;');
  const reply = await kernel.requestHistory({ output: false, raw: true, hist_access_type: 'tail', n: 1 });
  assert.equal(reply.content.status, 'ok');
  assert.equal(reply.content.history.length, 1);
  assert.equal(reply.content.history[0][2], 'int historyValue = 3;');
});

test('interrupt stops a runaway cell and the kernel answers the next one', async () => {
  const future = kernel.requestExecute({ code: 'long n = 0; while (true) { n++; }' });
  await new Promise(r => setTimeout(r, 1500));
  await kernel.interrupt();
  const reply = await future.done;
  assert.equal(reply.content.status, 'error');
  assert.match(reply.content.evalue, /interrupt/i);
  const { reply: next } = await run('1 + 1');
  assert.equal(next.status, 'ok');
});

test('restart gives a fresh session', async () => {
  await run('int beforeRestart = 1;');
  await kernel.restart();
  await kernel.info;
  const { reply } = await run('6 * 7');
  assert.equal(reply.status, 'ok');
  assert.equal(reply.execution_count, 1);
  const { reply: gone } = await run('beforeRestart');
  assert.equal(gone.status, 'error');
  assert.equal(gone.ename, 'CompilationException');
});
