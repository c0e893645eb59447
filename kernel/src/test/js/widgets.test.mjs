// Jupyter widgets in the Debian classic notebook (jupyter-notebook 6 with the jupyter-js-widgets 2.1 nbextension,
// ipywidgets 6), in Debian's Chromium (playwright-core, /usr/bin/chromium): a cell shows an IntSlider and an
// XChart figure through interact; moving the slider with the keyboard sends the change to the kernel, whose
// listener hears the new value and whose interact redraws the figure in place (the image changes).
// Run: node --test widgets.test.mjs   (JUPYTER_PATH must hold the fabriclab kernelspec; the nbextension is
// enabled for the server through JUPYTER_CONFIG_DIR/nbconfig/notebook.json).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { startNotebookServer } from './server.mjs';

const NOTEBOOK = 'widgets.ipynb';
const FIGURE_CELL = [
  'import org.knowm.xchart.*;',
  'import fabriclab.notebook.*;',
  'var senders = new IntSlider("senders", 2, 16, 7);',
  'var heard = new ArrayList<Integer>();',
  'senders.observe(heard::add);',
  'interact(() -> {',
  '    XYChart chart = Figures.xy("incast of " + senders.value() + " senders", "sender", "share [Gb/s]");',
  '    double[] x = new double[senders.value()], y = new double[senders.value()];',
  '    for (int i = 0; i < x.length; i++) { x[i] = i + 1; y[i] = 100.0 / x.length; }',
  '    chart.addSeries("fair share", x, y);',
  '    return chart;',
  '}, senders);',
].join('\n');
const READ_CELL = 'senders.value() + " " + heard';

let server;
let browser;

function notebook() {
  const cell = (source) => ({ cell_type: 'code', execution_count: null, metadata: {}, outputs: [], source });
  return {
    cells: [cell(FIGURE_CELL), cell(READ_CELL)],
    metadata: { kernelspec: { name: 'fabriclab', display_name: 'Java (fabriclab)', language: 'java' } },
    nbformat: 4,
    nbformat_minor: 4,
  };
}

before(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'fabriclab-widgets-'));
  writeFileSync(join(dir, NOTEBOOK), JSON.stringify(notebook(), null, 1));
  // the widgets nbextension enabled for this server, whatever /etc/jupyter says
  if (!process.env.JUPYTER_CONFIG_DIR) process.env.JUPYTER_CONFIG_DIR = join(dir, '.config');
  mkdirSync(join(process.env.JUPYTER_CONFIG_DIR, 'nbconfig'), { recursive: true });
  writeFileSync(join(process.env.JUPYTER_CONFIG_DIR, 'nbconfig', 'notebook.json'),
    JSON.stringify({ load_extensions: { 'jupyter-js-widgets/extension': true } }));
  server = await startNotebookServer(dir);
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
});

after(async () => {
  if (browser) await browser.close();
  if (server) await server.stop();
});

/** Runs cell `index` and waits until it has run and the kernel is idle. */
async function runCell(page, index) {
  await page.evaluate(i => { Jupyter.notebook.select(i); Jupyter.notebook.execute_cell(); }, index);
  await page.waitForFunction(i => typeof Jupyter.notebook.get_cell(i).input_prompt_number === 'number'
      && document.querySelector('#kernel_indicator_icon.kernel_idle_icon'), index, { timeout: 120_000, polling: 200 });
}

test('moving an IntSlider in the classic notebook redraws the interact figure and reaches the kernel', async () => {
  const page = await browser.newPage();
  const pageErrors = [];
  page.on('pageerror', e => pageErrors.push(String(e)));
  await page.goto(`${server.url}/notebooks/${NOTEBOOK}?token=${server.token}`);
  await page.waitForFunction(() => window.Jupyter && Jupyter.notebook && Jupyter.notebook.kernel
      && Jupyter.notebook.kernel.is_connected() && Jupyter.notebook.kernel.widget_manager
      && document.querySelector('#kernel_indicator_icon.kernel_idle_icon'), null, { timeout: 120_000 });
  // the widget manager checks the kernel's widget version as it connects: let that exchange finish
  await page.waitForTimeout(1000);
  await page.waitForFunction(() => document.querySelector('#kernel_indicator_icon.kernel_idle_icon'), null, { timeout: 60_000 });

  await runCell(page, 0);
  const cell = page.locator('.cell').nth(0);
  const handle = cell.locator('.widget-hslider .ui-slider-handle');
  await handle.waitFor({ timeout: 60_000 });
  const figure = cell.locator('.output_png img');
  await figure.waitFor({ timeout: 60_000 });
  const before = await figure.getAttribute('src');
  const shown = await page.evaluate(() => {
    const c = Jupyter.notebook.get_cell(0);
    return {
      readout: document.querySelector('.cell .widget-readout').innerText.trim(),
      errors: [...document.querySelectorAll('.output_error')].map(e => e.innerText.slice(0, 300)),
      images: c.output_area.element[0].querySelectorAll('.output_png img').length,
    };
  });
  assert.deepEqual(shown, { readout: '7', errors: [], images: 1 });
  // the models the kernel opened speak the classic front end's module (chosen by its version comm)
  const modules = await page.evaluate(async () => {
    const m = Jupyter.notebook.kernel.widget_manager;
    const models = await Promise.all(Object.keys(m._models).map(id => m._models[id]));
    return [...new Set(models.map(x => x.get('_model_module') + ' ' + x.get('_model_module_version')))];
  });
  assert.deepEqual(modules, ['jupyter-js-widgets ~2.1.4']);

  // one step to the right with the keyboard (jQuery UI's slider: keydown moves, keyup reports the change)
  const started = Date.now();
  await handle.focus();
  await page.keyboard.press('ArrowRight');
  await page.waitForFunction(([src]) => {
    const img = document.querySelector('.cell .output_png img');
    return img && img.getAttribute('src') !== src && document.querySelector('#kernel_indicator_icon.kernel_idle_icon');
  }, [before], { timeout: 60_000, polling: 100 });
  const redrawMs = Date.now() - started;
  const after = await figure.getAttribute('src');
  assert.notEqual(after, before, 'the figure was not redrawn');
  assert.ok(after.startsWith('data:image/png;base64,'), after.slice(0, 40));
  assert.equal(await cell.locator('.output_png img').count(), 1, 'the figure was added instead of replaced');
  assert.equal((await cell.locator('.widget-readout').innerText()).trim(), '8');

  // the kernel's slider holds the new value, and its listener heard it once
  await runCell(page, 1);
  const text = await page.evaluate(() => Jupyter.notebook.get_cell(1).output_area.outputs
    .map(o => (o.data && o.data['text/plain']) || o.text || '').join(''));
  assert.equal(text, '8 [8]');
  assert.deepEqual(pageErrors, []);
  console.log(`slider moved: figure redrawn in ${redrawMs} ms`);
  await page.close();
});
