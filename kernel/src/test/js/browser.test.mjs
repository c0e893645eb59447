// The classic notebook UI in Debian's Chromium (playwright-core, executablePath /usr/bin/chromium, no
// browser download): opens notebook 00 in the notebook server, runs all cells through the menu, checks
// that every cell ran, no cell shows an error and the figures render; then saves it, exports the HTML
// report the way ./reproduce does (nbconvert + tools/report_html.py) and opens the report with the
// network cut off, checking that its equations are typeset and its figures load; and opens the reports' front
// page (reports/index.html, written by fabriclab.notebook.ReportIndex) offline: every notebook, its main
// figure and the scorecard summary.
// Run: node --test browser.test.mjs   (JUPYTER_PATH must hold the fabriclab kernelspec; FABRICLAB_ROOT
// the checkout, with kernel/target/report/tex-svg.js built by `mvn package`).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { startNotebookServer } from './server.mjs';

const ROOT = resolve(process.env.FABRICLAB_ROOT || fileURLToPath(new URL('../../../..', import.meta.url)));
const PYTHON = process.env.FABRICLAB_PYTHON || '/usr/bin/python3';
const NOTEBOOK = '00-quickstart.ipynb';
let server;
let browser;
let dir;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'fabriclab-browser-'));
  copyFileSync(join(ROOT, 'notebooks', NOTEBOOK), join(dir, NOTEBOOK));
  server = await startNotebookServer(dir);
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
});

/** A page with the network cut off: file: and data: URLs load, anything else is recorded in `remote` and aborted. */
async function offlinePage() {
  const context = await browser.newContext({ offline: true });
  const page = await context.newPage();
  const remote = [];
  await page.route('**/*', route => {
    const url = route.request().url();
    if (url.startsWith('file:') || url.startsWith('data:')) return route.continue();
    remote.push(url);
    return route.abort();
  });
  return { context, page, remote };
}

after(async () => {
  if (browser) await browser.close();
  if (server) await server.stop();
});

test('Run All of notebook 00 in the classic notebook: every cell runs, figures render, no errors', async () => {
  const page = await browser.newPage();
  const pageErrors = [];
  page.on('pageerror', e => pageErrors.push(String(e)));
  await page.goto(`${server.url}/notebooks/${NOTEBOOK}?token=${server.token}`);
  await page.waitForFunction(() => window.Jupyter && Jupyter.notebook && Jupyter.notebook.kernel
      && Jupyter.notebook.kernel.is_connected() && document.querySelector('#kernel_indicator_icon.kernel_idle_icon'),
  null, { timeout: 120_000 });
  assert.equal(await page.evaluate(() => Jupyter.notebook.kernel.name), 'fabriclab');
  await page.click('#celllink');
  await page.click('#run_all_cells > a');
  await page.waitForFunction(() => {
    const code = Jupyter.notebook.get_cells().filter(c => c.cell_type === 'code');
    return code.every(c => typeof c.input_prompt_number === 'number')
        && document.querySelector('#kernel_indicator_icon.kernel_idle_icon');
  }, null, { timeout: 600_000, polling: 500 });
  const state = await page.evaluate(() => ({
    errors: [...document.querySelectorAll('.output_error')].map(e => e.innerText.slice(0, 500)),
    codeCells: Jupyter.notebook.get_cells().filter(c => c.cell_type === 'code').length,
    counts: Jupyter.notebook.get_cells().filter(c => c.cell_type === 'code').map(c => c.input_prompt_number),
    figures: [...document.querySelectorAll('.output_png img')].map(i => ({ w: i.naturalWidth, h: i.naturalHeight })),
    tables: document.querySelectorAll('.output_html table').length,
    math: document.querySelectorAll('.text_cell_render .MathJax, .text_cell_render mjx-container, .text_cell_render .MathJax_Display').length,
  }));
  assert.deepEqual(state.errors, []);
  assert.deepEqual(state.counts, Array.from({ length: state.codeCells }, (_, i) => i + 1));
  assert.ok(state.figures.length >= 2, `figures: ${JSON.stringify(state.figures)}`);
  for (const f of state.figures) assert.ok(f.w > 100 && f.h > 100, `a figure did not render: ${JSON.stringify(f)}`);
  assert.ok(state.tables >= 2, `tables: ${state.tables}`);
  assert.deepEqual(pageErrors, []);
  await page.evaluate(() => Jupyter.notebook.save_notebook());
  await page.waitForFunction(() => !Jupyter.notebook.dirty, null, { timeout: 30_000 });
  await page.close();
});

test('the exported report typesets its equations and shows its figures without network', async () => {
  const mathjax = join(ROOT, 'kernel/target/report/tex-svg.js');
  assert.ok(existsSync(mathjax), `${mathjax} missing: run mvn package`);
  execFileSync(PYTHON, ['-m', 'jupyter', 'nbconvert', '--to', 'html', '--output-dir', dir, join(dir, NOTEBOOK)],
    { stdio: 'pipe' });
  const report = join(dir, NOTEBOOK.replace('.ipynb', '.html'));
  execFileSync(PYTHON, [join(ROOT, 'tools/report_html.py'), report, mathjax, dir], { stdio: 'pipe' });
  const { context, page, remote } = await offlinePage();
  await page.goto('file://' + report);
  await page.waitForFunction(() => document.querySelectorAll('mjx-container svg').length >= 2, null, { timeout: 60_000 });
  const state = await page.evaluate(() => ({
    typeset: document.querySelectorAll('mjx-container').length,
    mathErrors: document.querySelectorAll('mjx-merror, [data-mjx-error]').length,
    rawTex: document.body.innerText.includes('$$'),
    figures: [...document.querySelectorAll('img')].map(i => ({ w: i.naturalWidth, src: i.src.slice(0, 30) })),
    tables: document.querySelectorAll('table').length,
  }));
  assert.equal(state.mathErrors, 0);
  assert.equal(state.rawTex, false, 'some $$...$$ was left untypeset');
  assert.ok(state.figures.length >= 2, JSON.stringify(state.figures));
  for (const f of state.figures) assert.ok(f.w > 100 && f.src.startsWith('data:image/'), JSON.stringify(f));
  assert.ok(state.tables >= 2);
  assert.deepEqual(remote, [], 'the report fetched something from the network');
  await context.close();
});

test('the reports front page lists every notebook with its figure and the scorecard summary, offline', async () => {
  // written as ./reproduce writes it, from the committed (executed) notebooks and the comparison datasets
  const index = join(dir, 'index.html');
  execFileSync('java', ['-cp', join(ROOT, 'kernel/target/kernelspec/fabriclab/lib/*'), 'fabriclab.notebook.ReportIndex',
    join(ROOT, 'notebooks'), join(ROOT, 'datasets'), index], { stdio: 'pipe' });
  const notebooks = readdirSync(join(ROOT, 'notebooks')).filter(f => f.endsWith('.ipynb')).sort();
  const { context, page, remote } = await offlinePage();
  await page.goto('file://' + index);
  const state = await page.evaluate(() => ({
    summary: document.querySelector('#scorecard-summary')?.innerText || '',
    links: [...document.querySelectorAll('#contents a')].map(a => a.getAttribute('href')),
    figures: [...document.querySelectorAll('section.notebook img')].map(i => ({ w: i.naturalWidth, src: i.src.slice(0, 22) })),
    fileLinks: [...document.querySelectorAll('[href],[src]')].filter(e => (e.getAttribute('href') || e.getAttribute('src')).startsWith('file:')).length,
  }));
  assert.match(state.summary, /^Scorecard\. \d+ of \d+ canonical predictions meet/);
  assert.deepEqual(state.links, notebooks.map(n => n.replace('.ipynb', '.html')));
  assert.ok(state.figures.length >= notebooks.length - 3, `only ${state.figures.length} main figures for ${notebooks.length} notebooks`);
  for (const f of state.figures) assert.ok(f.w > 100 && f.src.startsWith('data:image/png'), JSON.stringify(f));
  assert.equal(state.fileLinks, 0, 'a link to this machine\'s files');
  assert.deepEqual(remote, [], 'the page fetched something from the network');
  await context.close();
});
